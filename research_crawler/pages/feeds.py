"""Atom and RSS feeds: found on a page (``<link rel="alternate">``), and read as a page like any other — a listing of
the site's newest entries, each with its link, date, authors and summary — so the agents read a feed as they read a
listing, and a feed is where "the most recent" are.

Feeds are parsed by feedparser, always from bytes (given a string that looks like an address it would fetch it);
it resolves no external entity, and a document that declares entities is refused here before it is parsed. What the
feed says is text: its titles and summaries are escaped into the listing, never kept as markup.
"""

from __future__ import annotations

import html
import logging
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin, urlsplit

import feedparser

from research_crawler.pages.html_tree import base_url, parse_html

__all__ = ["FEED_TYPES", "FeedLink", "feed_html", "feed_links", "looks_like_feed"]

logger = logging.getLogger(__name__)

FEED_TYPES = frozenset({"application/atom+xml", "application/rss+xml", "application/rdf+xml"})
#: Entries shown of one feed (a feed is a bounded listing, newest first).
MAX_ENTRIES = 200
_SUMMARY_CHARS = 600
_XML_TYPES = frozenset({"application/xml", "text/xml"})
_ROOTS = (b"<feed", b"<rss", b"<rdf:rdf")


@dataclass(frozen=True, slots=True)
class FeedLink:
    """A feed a page offers: its absolute URL, its title ('' when none) and its format ('Atom' or 'RSS')."""

    url: str
    title: str
    format: str


def feed_links(page_html: str, *, url: str) -> list[FeedLink]:
    """The Atom and RSS feeds the page at `url` names in ``<link rel="alternate">``, in its order, each once."""
    tree = parse_html(page_html)
    if tree is None:
        return []
    base = base_url(tree, url)
    found: dict[str, FeedLink] = {}
    for link in tree.iter("link"):
        rels = (link.get("rel") or "").lower().split()
        kind = (link.get("type") or "").split(";")[0].strip().lower()
        href = (link.get("href") or "").strip()
        if "alternate" not in rels or kind not in FEED_TYPES or not href:
            continue
        target = urljoin(base, href)
        if urlsplit(target).scheme.lower() in ("http", "https") and target not in found:
            title = " ".join((link.get("title") or "").split())[:120]
            found[target] = FeedLink(target, title, "Atom" if "atom" in kind else "RSS")
    return list(found.values())


def looks_like_feed(body: bytes, media_type: str) -> bool:
    """Whether a response is an Atom or RSS document: by its type, or an XML type whose root says so."""
    if media_type in FEED_TYPES:
        return True
    if media_type and media_type not in _XML_TYPES:
        return False
    head = body[:2048].lower()
    return any(root in head for root in _ROOTS)


def feed_html(body: bytes, *, url: str) -> str | None:
    """The feed in `body` (fetched from `url`) as an HTML listing of its entries, newest first; None when it is not
    a feed that can be read (no entries and no title, or a document declaring entities)."""
    if b"<!entity" in body[:4096].lower():
        return None
    try:
        parsed = feedparser.parse(bytes(body), response_headers={"content-location": url})
    except Exception as exc:  # feedparser is lenient; anything it still raises is an unreadable feed
        logger.debug("unreadable feed at %s: %s", url, exc)
        return None
    feed: Any = parsed.get("feed", {})
    entries = list(parsed.get("entries", []))
    if not entries and not feed.get("title"):
        return None
    entries.sort(key=lambda entry: _date(entry) or "", reverse=True)  # stable: undated ones last, in feed order
    title = _text(feed.get("title")) or "Feed"
    parts = [f"<html><head><title>{html.escape(title)}</title></head><body><main>"]
    parts.append(f"<h1>{html.escape(title)}</h1>")
    if subtitle := _text(feed.get("subtitle")):
        parts.append(f"<p>{html.escape(subtitle[:_SUMMARY_CHARS])}</p>")
    kept = entries[:MAX_ENTRIES]
    more = f"; the {len(entries) - len(kept)} oldest are left out" if len(entries) > len(kept) else ""
    parts.append(f"<p>A feed of {len(entries)} entries, newest first{more}.</p><ol>")
    parts += [_entry_html(entry, url=url) for entry in kept]
    parts.append("</ol></main></body></html>")
    return "".join(parts)


def _entry_html(entry: Any, *, url: str) -> str:
    title = _text(entry.get("title")) or "(untitled entry)"
    link = str(entry.get("link") or "").strip()
    target = urljoin(url, link) if link else ""
    heading = f'<a href="{html.escape(target, quote=True)}">{html.escape(title)}</a>' if target else html.escape(title)
    facts = []
    if (when := _date(entry)) is not None:
        facts.append(f"Published {when}")
    authors = [_text(author.get("name")) for author in entry.get("authors", []) if isinstance(author, dict)]
    if authors := [name for name in authors if name]:
        facts.append("by " + ", ".join(authors[:20]))
    summary = _text(entry.get("summary"))[:_SUMMARY_CHARS]
    line = f"<p>{html.escape(' · '.join(facts))}</p>" if facts else ""
    return f"<li><h3>{heading}</h3>{line}<p>{html.escape(summary)}</p></li>"


def _date(entry: Any) -> str | None:
    for key in ("published_parsed", "updated_parsed", "created_parsed"):
        value = entry.get(key)
        if isinstance(value, time.struct_time):
            return time.strftime("%Y-%m-%d", value)
    return None


def _text(value: object) -> str:
    """Plain text of a feed field that may hold markup (feedparser sanitises it; the text alone is kept)."""
    if not isinstance(value, str) or not value.strip():
        return ""
    if "<" in value:
        tree = parse_html(f"<div>{value}</div>")
        value = tree.text_content() if tree is not None else value
    return " ".join(value.split())
