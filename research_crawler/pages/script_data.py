"""The data a page's own script loads, read as the page's content: what a person sees on a page that is an empty shell
until its script has fetched a JSON document from its site (``fetch("/api/v1/home")``) and drawn its entries.

`script_data_urls` finds the addresses an inline script fetches, written whole as a string (a URL built by the script
from pieces is not guessed at), on the page's own origin only. `data_listing_html` turns such a document into the
listing the script would draw: every object that names a title and an address of its own becomes an entry, its link
with the authors, venue, year and summary the object gives beside it. Only JSON is read (``json`` parses it; no script
is run), and the document's own words are the entries': nothing is made up.

`next_batch_urls` reads on a list the page shows only in part: a script that loads the rest as the reader scrolls or
presses "Load more" and writes its data's address whole beside where the next batch starts and how long a batch is
(`{"api": "/api/v1/archive?sort=new", "offset": 12, "limit": 12}`) gives the next few batches' addresses.
"""

from __future__ import annotations

import html as html_entities
import json
import re
from collections.abc import Collection, Iterator
from typing import Any
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

from research_crawler.pages.html_tree import parse_html

__all__ = [
    "MAX_DATA_URLS",
    "MAX_NEXT_BATCHES",
    "data_listing_html",
    "next_batch_urls",
    "parse_script_data",
    "script_data_urls",
    "with_listing",
]

#: Documents read for one page at most: a shell loads its list from one or two.
MAX_DATA_URLS = 2
#: A string literal handed whole to ``fetch(…)`` (or ``axios.get(…)``, ``$.getJSON(…)``), closed before the call's end.
_FETCHED = re.compile(
    r"""\b(?:fetch|axios\.get|\$\.getJSON|getJSON)\(\s*(["'`])((?:\\.|(?!\1).){1,500}?)\1\s*[,)]""", re.DOTALL
)
_TITLE_KEYS = ("title", "name", "headline", "displayTitle", "label")
_URL_KEYS = (
    "url", "href", "link", "path", "permalink", "urlPublished", "htmlUrl", "html_url", "webUrl", "canonical_url",
    "canonicalUrl",
)  # fmt: skip
_AUTHOR_KEYS = ("authors", "author", "creators", "contributors", "bylines", "publishedBylines")
_YEAR_KEYS = (
    "year", "publicationDate", "datePublished", "publishedDate", "published", "date", "pubDate", "post_date",
    "published_at", "publishedAt",
)  # fmt: skip
_VENUE_KEYS = ("venue", "journal", "containerTitle", "publisher", "source")
_SUMMARY_KEYS = ("tldr", "summary", "snippet", "abstract", "description", "subtitle", "excerpt")
_NAME_KEYS = ("name", "fullName", "displayName")
_MAX_ENTRIES = 200
_MAX_NODES = 20_000
_MAX_DEPTH = 10
_SUMMARY_CHARS = 300
#: A timestamp ("2024-11-15T07:00:00.000Z"): a reader sees its day.
_TIMESTAMP = re.compile(r"^((?:19|20)\d\d-\d\d-\d\d)T\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?$")
#: Batches of a list read past the part the page shows: a reader scrolls a few screens, not the whole archive.
MAX_NEXT_BATCHES = 3
#: Where a script's next batch starts and how long a batch is, as its configuration writes them ("offset": 12).
_BATCH_START = re.compile(r"""["']?\boffset["']?\s*[:=]\s*(\d{1,5})\b""")
_BATCH_SIZE = re.compile(r"""["']?\b(limit|per_?page|perPage|page_?size|pageSize)["']?\s*[:=]\s*(\d{1,3})\b""")
#: An address a script writes whole: absolute, or a path of the page's own site.
_ADDRESS = re.compile(r"""(["'])((?:https?://|/(?!/))[^"'\s<>]{0,500})\1""")
#: A script's own files, styles and pictures are no data.
_ASSET = re.compile(r"\.(?:js|mjs|css|png|jpe?g|gif|svg|webp|ico|woff2?|mp3|mp4)(?:$|\?)", re.IGNORECASE)


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


def next_batch_urls(html: str, page_url: str) -> list[tuple[str, str]]:
    """The next batches of a list `page_url` shows in part, as its inline script would load them while the reader
    scrolls: a script that names one address of the page's own origin (its data, written whole) and where the next
    batch starts and how long a batch is (``offset`` with ``limit``, ``per_page`` or ``page_size``) gives that address
    with those keys set, batch after batch (at most `MAX_NEXT_BATCHES`), each with the string its script writes the
    address as. A script naming several addresses, or no such pair, gives none: which one is read on is not guessed."""
    if "offset" not in html:
        return []
    tree = parse_html(html)
    if tree is None:
        return []
    origin = urlsplit(page_url)[:2]
    for script in tree.iter("script"):
        text = script.text or ""
        if script.get("src") or not (start := _BATCH_START.search(text)) or int(start.group(1)) < 1:
            continue  # no next batch: the first is the page's own
        if not (size := _BATCH_SIZE.search(text)) or int(size.group(2)) < 1:
            continue
        written = {m.group(2) for m in _ADDRESS.finditer(text) if not _ASSET.search(m.group(2))}
        addresses = {urljoin(page_url, w.replace("\\/", "/")): w for w in written}  # a script's text is raw
        same_site = {url: w for url, w in addresses.items() if urlsplit(url)[:2] == origin}
        if len(same_site) != 1:
            continue
        ((address, literal),) = same_site.items()
        parts = urlsplit(address)
        key, first, step = size.group(1), int(start.group(1)), int(size.group(2))
        kept = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k not in ("offset", key)]
        return [
            (urlunsplit(parts._replace(query=urlencode([*kept, ("offset", first + n * step), (key, step)]))), literal)
            for n in range(MAX_NEXT_BATCHES)
        ]  # fmt: skip
    return []


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


def data_listing_html(data: Any, base_url: str, *, shown: Collection[str] = ()) -> str:
    """The entries of the JSON document `data` as an HTML listing (links resolved against `base_url`, on its origin
    only), or "" when it names none: each object with a title and an address of its own, in the document's order,
    but for those whose address is in `shown` (the page lists them already)."""
    origin = urlsplit(base_url)[:2]
    rows: list[str] = []
    seen: set[str] = set(shown)
    for entry in _objects(data):
        title, address = _text(entry, _TITLE_KEYS), _text(entry, _URL_KEYS)
        if not title or not address:
            continue
        url = urljoin(base_url, address)
        if urlsplit(url)[:2] != origin or urlsplit(url).scheme not in ("http", "https") or url in seen:
            continue
        seen.add(url)
        day = _TIMESTAMP.sub(r"\1", _text(entry, _YEAR_KEYS))  # the day a timestamp names, as a listing shows it
        beside = [part for part in (_people(entry), _text(entry, _VENUE_KEYS), day) if part]
        summary = _text(entry, _SUMMARY_KEYS)[:_SUMMARY_CHARS]
        rows.append(
            f'<li><a href="{html_entities.escape(url)}">{html_entities.escape(title)}</a>'
            + (f"<div>{html_entities.escape(summary)}</div>" if summary else "")
            + (f"<div>{html_entities.escape(' · '.join(beside))}</div>" if beside else "")
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
