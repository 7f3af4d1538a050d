"""Text from pages or models written into Markdown that we compose (report.md's own lines): shown as text, never
read as a link, an image, HTML or emphasis."""

from __future__ import annotations

import re

__all__ = ["markdown_text"]

#: CommonMark lets any ASCII punctuation be escaped; these are the characters that start links, images, HTML,
#: code, emphasis, headings and tables.
_ACTIVE = re.compile(r"([\\`*_\[\]<>!#|])")


def markdown_text(text: str) -> str:
    """`text` with every Markdown-active character backslash-escaped, on one line."""
    return _ACTIVE.sub(r"\\\1", " ".join(text.split()))
