"""XML sitemaps (sitemaps.org): read as a page like any other — a listing of the pages it names, newest first by their
last change, each linked with the words of its address (or its news title) — so the agents can browse a site by its
sitemap. A sitemap index lists its sitemaps the same way; only the one the agents choose is ever fetched.

Bounded: a sitemap's first bytes only (the fetcher cuts it at its byte cap) are parsed, tolerantly, without DTDs,
entities or network access, and at most `MAX_LINKS` pages are listed.
"""

from __future__ import annotations

import html
import logging
import re
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from lxml import etree

__all__ = ["MAX_LINKS", "address_words", "looks_like_sitemap", "sitemap_html"]

logger = logging.getLogger(__name__)

#: Pages listed of one sitemap (the newest by their last change).
MAX_LINKS = 300
_XML_TYPES = frozenset({"application/xml", "text/xml", "text/plain"})
_ROOTS = (b"<urlset", b"<sitemapindex")
_PARSER = etree.XMLParser(
    resolve_entities=False, no_network=True, load_dtd=False, remove_comments=True, recover=True, huge_tree=False
)
_WORDS = re.compile(r"[\W_]+")
_FILE_SUFFIX = re.compile(r"\.(?:html?|php|aspx?|jsp)$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class _Entry:
    url: str
    lastmod: str
    title: str


def looks_like_sitemap(body: bytes, media_type: str) -> bool:
    """Whether a response is an XML sitemap or sitemap index (its root element says so)."""
    if media_type and media_type not in _XML_TYPES:
        return False
    head = body[:4096].lower()
    return any(root in head for root in _ROOTS)


def sitemap_html(body: bytes, *, url: str, truncated: bool = False) -> str | None:
    """The sitemap in `body` (fetched from `url`; `truncated` when only its first bytes came) as an HTML listing of
    the pages it names, newest first; None when it names none or declares entities."""
    if b"<!entity" in body[:4096].lower():
        return None
    try:
        root = etree.fromstring(body, parser=_PARSER)
    except (etree.XMLSyntaxError, ValueError) as exc:
        logger.debug("unreadable sitemap at %s: %s", url, exc)
        return None
    if root is None:
        return None
    index = etree.QName(root).localname.lower() == "sitemapindex"
    entries = [entry for entry in _entries(root, "sitemap" if index else "url") if _is_web_address(entry.url)]
    if not entries:
        return None
    entries.sort(key=lambda entry: entry.lastmod, reverse=True)  # stable: undated ones last, in the sitemap's order
    kept = entries[:MAX_LINKS]
    host = urlsplit(url).netloc
    what = "sitemaps" if index else "pages"
    title = f"Sitemap index of {host}" if index else f"Sitemap of {host}"
    left = f"; {len(entries) - len(kept)} older ones are left out" if len(entries) > len(kept) else ""
    cut = "; only the first part of this large sitemap was read" if truncated else ""
    parts = [
        f"<html><head><title>{html.escape(title)}</title></head><body><main><h1>{html.escape(title)}</h1>",
        f"<p>{len(entries)} {what} listed, newest first by their last change{left}{cut}.</p><ul>",
    ]
    for entry in kept:
        text = entry.title or ("sitemap " if index else "") + address_words(entry.url)
        changed = f" — last changed {html.escape(entry.lastmod[:10])}" if entry.lastmod else ""
        parts.append(f'<li><a href="{html.escape(entry.url, quote=True)}">{html.escape(text)}</a>{changed}</li>')
    parts.append("</ul></main></body></html>")
    return "".join(parts)


def _entries(root: etree._Element, tag: str) -> list[_Entry]:
    entries = []
    for element in root:
        if not isinstance(element.tag, str) or etree.QName(element).localname.lower() != tag:
            continue
        fields: dict[str, str] = {}
        for child in element.iter():
            if isinstance(child.tag, str) and child.text and child.text.strip():
                fields.setdefault(etree.QName(child).localname.lower(), " ".join(child.text.split()))
        if fields.get("loc"):
            entries.append(
                _Entry(
                    fields["loc"],
                    fields.get("lastmod", "") or fields.get("publication_date", ""),
                    fields.get("title", "")[:200],
                )
            )
    return entries


def _is_web_address(url: str) -> bool:
    return urlsplit(url).scheme.lower() in ("http", "https")


def address_words(url: str) -> str:
    """The words of a page's address ("/articles/2024/graph-neural-networks.html" → "articles 2024 graph neural
    networks"): all a sitemap says about a page without a title."""
    parts = urlsplit(url)
    path = _FILE_SUFFIX.sub("", unquote(parts.path))
    words = " ".join(_WORDS.sub(" ", f"{path} {unquote(parts.query)}").split())
    return words or parts.netloc
