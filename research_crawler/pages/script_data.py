"""The data a page's own script loads, read as the page's content: what a person sees on a page that is an empty shell
until its script has fetched a JSON document from its site (``fetch("/api/v1/home")``) and drawn its entries.

`script_data_urls` finds the addresses an inline script fetches, written whole as a string (a URL built by the script
from pieces is not guessed at), on the page's own origin only. `data_listing_html` turns such a document into the
listing the script would draw: every object that names a title and an address of its own becomes an entry, its link
with the authors, venue, year and summary the object gives beside it. Only JSON is read (``json`` parses it; no script
is run), and the document's own words are the entries': nothing is made up.
"""

from __future__ import annotations

import html as html_entities
import json
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import urljoin, urlsplit

from research_crawler.pages.html_tree import parse_html

__all__ = ["MAX_DATA_URLS", "data_listing_html", "parse_script_data", "script_data_urls", "with_listing"]

#: Documents read for one page at most: a shell loads its list from one or two.
MAX_DATA_URLS = 2
#: A string literal handed whole to ``fetch(…)`` (or ``axios.get(…)``, ``$.getJSON(…)``), closed before the call's end.
_FETCHED = re.compile(
    r"""\b(?:fetch|axios\.get|\$\.getJSON|getJSON)\(\s*(["'`])((?:\\.|(?!\1).){1,500}?)\1\s*[,)]""", re.DOTALL
)
_TITLE_KEYS = ("title", "name", "headline", "displayTitle", "label")
_URL_KEYS = ("url", "href", "link", "path", "permalink", "urlPublished", "htmlUrl", "html_url", "webUrl")
_AUTHOR_KEYS = ("authors", "author", "creators", "contributors")
_YEAR_KEYS = ("year", "publicationDate", "datePublished", "publishedDate", "published", "date", "pubDate")
_VENUE_KEYS = ("venue", "journal", "containerTitle", "publisher", "source")
_SUMMARY_KEYS = ("tldr", "summary", "snippet", "abstract", "description")
_NAME_KEYS = ("name", "fullName", "displayName")
_MAX_ENTRIES = 200
_MAX_NODES = 20_000
_MAX_DEPTH = 10
_SUMMARY_CHARS = 300


def script_data_urls(html: str, page_url: str) -> list[tuple[str, str]]:
    """The addresses, on `page_url`'s own origin, that the page's inline scripts fetch, in the page's order (at most
    `MAX_DATA_URLS`), each with the string its script writes it as. A script of another origin, or an address the
    script assembles, is not read."""
    tree = parse_html(html)
    if tree is None:
        return []
    origin = urlsplit(page_url)[:2]
    found: list[tuple[str, str]] = []
    for script in tree.iter("script"):
        kind = (script.get("type") or "text/javascript").lower()
        if script.get("src") or ("javascript" not in kind and "module" not in kind):
            continue
        for match in _FETCHED.finditer(script.text or ""):
            literal = match.group(2).replace("\\/", "/")
            if match.group(1) == "`" and "${" in literal:
                continue  # a template the script fills in
            url = urljoin(page_url, html_entities.unescape(literal.strip()))
            if urlsplit(url)[:2] == origin and url not in (known for known, _ in found):
                found.append((url, match.group(2)))
    return found[:MAX_DATA_URLS]


def with_listing(html: str, written: str, listing: str) -> str:
    """`html` with `listing` drawn where the script that fetches `written` (its address as the script writes it)
    stands, as the script would draw it there; at the end of the body when that script cannot be found."""
    at = html.find(written)
    end = html.lower().find("</script>", at) if at >= 0 else -1
    if end >= 0:
        end += len("</script>")
        return html[:end] + listing + html[end:]
    body_end = html.lower().rfind("</body>")
    return html[:body_end] + listing + html[body_end:] if body_end >= 0 else html + listing


def parse_script_data(body: bytes | str) -> Any | None:
    """The JSON document `body`, or None when it is not one."""
    try:
        return json.loads(body)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None


def data_listing_html(data: Any, base_url: str) -> str:
    """The entries of the JSON document `data` as an HTML listing (links resolved against `base_url`, on its origin
    only), or "" when it names none: each object with a title and an address of its own, in the document's order."""
    origin = urlsplit(base_url)[:2]
    rows: list[str] = []
    seen: set[str] = set()
    for entry in _objects(data):
        title, address = _text(entry, _TITLE_KEYS), _text(entry, _URL_KEYS)
        if not title or not address:
            continue
        url = urljoin(base_url, address)
        if urlsplit(url)[:2] != origin or urlsplit(url).scheme not in ("http", "https") or url in seen:
            continue
        seen.add(url)
        beside = [part for part in (_people(entry), _text(entry, _VENUE_KEYS), _text(entry, _YEAR_KEYS)) if part]
        summary = _text(entry, _SUMMARY_KEYS)[:_SUMMARY_CHARS]
        rows.append(
            f'<li><a href="{html_entities.escape(url)}">{html_entities.escape(title)}</a>'
            + (f"<br>{html_entities.escape(' · '.join(beside))}" if beside else "")
            + (f"<br>{html_entities.escape(summary)}" if summary else "")
            + "</li>"
        )
        if len(rows) >= _MAX_ENTRIES:
            break
    return f'<section class="script-data"><ul>{"".join(rows)}</ul></section>' if rows else ""


def _objects(data: Any) -> Iterator[dict[str, Any]]:
    """Every object of `data`, depth first in the document's order, within bounds; an object's authors are
    read as its names, never as entries of their own."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    nodes = 0
    while stack and nodes < _MAX_NODES:
        node, depth = stack.pop()
        nodes += 1
        if depth > _MAX_DEPTH:
            continue
        if isinstance(node, dict):
            yield node
            inner = [value for key, value in node.items() if key not in _AUTHOR_KEYS]  # people are no entries
            stack.extend((value, depth + 1) for value in reversed(inner))
        elif isinstance(node, list):
            stack.extend((value, depth + 1) for value in reversed(node))


def _text(entry: dict[str, Any], keys: tuple[str, ...]) -> str:
    for key in keys:
        value = entry.get(key)
        if isinstance(value, bool) or value is None:
            continue
        if isinstance(value, str | int | float):
            return " ".join(str(value).split())
    return ""


def _people(entry: dict[str, Any]) -> str:
    """The names an object gives as its authors ("A, B and C"), or ""."""
    for key in _AUTHOR_KEYS:
        value = entry.get(key)
        listed = value if isinstance(value, list) else [value] if value else []
        names = [
            name
            for person in listed
            if (name := " ".join(person.split()) if isinstance(person, str) else _text(person, _NAME_KEYS)
                if isinstance(person, dict) else "")
        ]  # fmt: skip
        if names:
            return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    return ""
