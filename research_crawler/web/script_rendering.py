"""Whether a page fetched over plain HTTP is an empty shell that only a browser would fill in.

Used by ``fetch.render = "auto"``: every page is fetched over HTTP first, and only a page that says it
needs JavaScript *and* shows next to no text is fetched again through the browser. Either signal alone is
not enough: server-rendered pages often carry a "please enable JavaScript" notice for their comments or
widgets (PeerJ, ScienceDirect and ACM pages among the saved real pages do), and many short pages are
simply short.
"""

from __future__ import annotations

import re

from lxml import html as lxml_html

__all__ = ["MAX_SHELL_WORDS", "script_rendering_reason"]

#: A page with fewer words than this (in its Markdown, link numbers left out) may be a shell.
MAX_SHELL_WORDS = 250
#: An application root left empty for a script to fill in, as single-page-application frameworks ship it.
_APP_ROOT_IDS = frozenset({"root", "app", "__next", "__nuxt", "___gatsby", "svelte"})
_MAX_ROOT_SHELL_WORDS = 30
_JAVASCRIPT = re.compile(r"\bjava\s*script\b", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_]{2,}")
_LINK_NUMBER = re.compile(r"\[\d+\]")


def script_rendering_reason(html: str, markdown: str) -> str | None:
    """Why the page in `html` (rendered as `markdown`) needs a browser to show its content, or None.

    A shell is a page whose Markdown has fewer than `MAX_SHELL_WORDS` words and that either has a
    ``<noscript>`` notice mentioning JavaScript, or has an empty application root (``<div id="root">``…)
    and almost no text at all.
    """
    words = len(_WORD.findall(_LINK_NUMBER.sub(" ", markdown)))
    if words >= MAX_SHELL_WORDS or not html.strip():
        return None
    try:
        document = lxml_html.document_fromstring(html)
    except (ValueError, lxml_html.etree.ParserError):
        return None
    for notice in document.iter("noscript"):
        text = " ".join(notice.text_content().split())
        if _JAVASCRIPT.search(text):
            return f"it asks for JavaScript ({text[:80]!r}) and shows only {words} words without it"
    if words < _MAX_ROOT_SHELL_WORDS:
        for element in document.iter():
            if str(element.get("id") or "") in _APP_ROOT_IDS and not element.text_content().strip():
                return f"its application root #{element.get('id')} is empty and it shows only {words} words"
    return None
