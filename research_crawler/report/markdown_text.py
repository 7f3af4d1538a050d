"""Text from pages or models and Markdown: written into the Markdown we compose (report.md's own lines) it is shown
as text, never read as a link, an image, HTML or emphasis (`markdown_text`); kept in a report item's text fields it
is plain text, with no page-supplied Markdown or HTML left (`plain_text`)."""

from __future__ import annotations

import re

from research_crawler.text.untrusted import untrusted

__all__ = ["markdown_text", "plain_text"]

#: CommonMark lets any ASCII punctuation be escaped; these are the characters that start links, images, HTML,
#: code, emphasis, headings and tables.
_ACTIVE = re.compile(r"([\\`*_\[\]<>!#|])")


def markdown_text(text: str) -> str:
    """`text` with every Markdown-active character backslash-escaped, on one line."""
    return _ACTIVE.sub(r"\\\1", " ".join(text.split()))


# Text fields of report items as plain text: page-supplied Markdown or HTML (an image that would fetch a URL, a link
# the report did not vet) and control characters never survive into report.json, report.md or BibTeX.


_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_REFERENCE = re.compile(r"^\s*\[[^\]]+\]:\s*\S+.*$", re.MULTILINE)
_AUTOLINK = re.compile(r"<(?:https?|ftp|file|data|javascript):[^>\s]*>", re.IGNORECASE)
_URL = re.compile(r"\b(?:https?|ftp|file|data|javascript):[^\s<>()\[\]]+", re.IGNORECASE)
_TAG = re.compile(r"<[^>]{0,2000}>")


def plain_text(text: str | None) -> str | None:
    """`text` without Markdown images, link targets, URLs and HTML tags (link and image texts are kept)."""
    if text is None:
        return None
    cleaned = _IMAGE.sub(lambda m: m.group(1), untrusted(text))
    cleaned = _LINK.sub(lambda m: m.group(1), cleaned)
    cleaned = _REFERENCE.sub("", cleaned)
    cleaned = _AUTOLINK.sub("", cleaned)
    cleaned = _URL.sub("", cleaned)
    cleaned = _TAG.sub("", cleaned)
    return " ".join(cleaned.split())
