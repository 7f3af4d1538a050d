"""HELD OUT, fresh (twelfth batch): the Urban Health Evidence Network's shared library, built as Zotero-like group
libraries are (see `fresh_heldout12.py`; do not read or tune anything to it). A group page leads to the library:
every top-level item twenty-five a page sorted by title, the column headers re-sorting by creator, date or date
added; collections hold sub-collections, and a collection lists only the items filed directly in it (its web
pages, newspaper articles, presentations and datasets, not the studies in its sub-collections). An item's page
gives its fields in order (item type, title, one row per creator written "Surname, Given", abstract, publication,
the date as whoever added it typed it, URL, extra, date added and modified), its child attachments and notes, tags
and collections; no meta tags. Exports, citation pages, the library search and logins are forbidden by robots.txt.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from typing import ClassVar

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.fresh_heldout12 import zotero_key
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp, paged

__all__ = ["GROUP", "PER_PAGE", "Entry", "Folder", "Fresh12LibrarySite", "entered", "folders"]

GROUP = "/groups/5187243/urban_health_evidence"
PER_PAGE = 25
_WORK_TYPES = ("Journal Article", "Report", "Journal Article", "Conference Paper", "Preprint")
_VENUES = {
    "Journal Article": ("Journal of Urban Injury", "Public Health in Practice", "Cities and Health"),
    "Report": ("Ashford City Council Public Health", "Northern Health Observatory"),
    "Conference Paper": ("Proceedings of the Transport and Health Conference",),
    "Preprint": ("MedArchive",),
}
#: Items that are not works, filed directly in each top collection (and in one of their own): (type, title).
_OTHERS = {
    "Micromobility": (
        ("Web Page", "Scooter trial: frequently asked questions"),
        ("Newspaper Article", "Hospital sees rise in night-time falls after scheme launch"),
        ("Presentation", "Network meeting slides: micromobility data sharing"),
        ("Dataset", "Operator trip counts by ward, trial year one"),
        ("Web Page", "Department for Transport: rules for riders"),
        ("Newspaper Article", "Council votes to extend rental scheme"),
        ("Podcast", "Streets Ahead, episode 14: who rides at midnight?"),
    ),
    "Community referral": (
        ("Web Page", "What is a link worker? A guide for patients"),
        ("Newspaper Article", "Gardening group marks ten years on the estate"),
        ("Presentation", "Webinar: measuring outcomes in community referral"),
        ("Dataset", "Referral counts by practice, 2023"),
        ("Web Page", "National Academy guidance on referral pathways"),
        ("Blog Post", "Notes from a Men's Shed"),
    ),
    "Network admin": (
        ("Document", "Minutes of the steering group, spring meeting"),
        ("Document", "Terms of reference"),
        ("Presentation", "Annual members' day welcome"),
        ("Document", "Data sharing agreement template"),
    ),
}
_SUBS = ("Primary studies", "Reviews and grey literature")
_NAMES = ("Ellen Marsh", "Kwame Boateng", "Ines Duarte", "Tobias Wren", "Hana Sato", "Gareth Llewellyn")


def entered(day: date, key: str) -> str:
    """A date as whoever added the item typed it: one of four ways, varying by item."""
    style = sum(map(ord, key)) % 4
    if style == 0:
        return day.isoformat()
    if style == 1:
        return f"{MONTHS[day.month - 1]} {day.day}, {day.year}"
    if style == 2:
        return f"{day.day} {MONTHS[day.month - 1][:3]} {day.year}"
    return f"{day.year}/{day.month:02d}/{day.day:02d}"


def _stamp(day: date, key: str) -> str:
    """A timestamp as the web library shows 'Date Added' and 'Modified': '3/14/2025, 10:12:44 AM'."""
    hour = 1 + sum(map(ord, key)) % 12
    return f"{day.month}/{day.day}/{day.year}, {hour}:{len(key) * 7 % 60:02d}:{ord(key[0]) % 60:02d} AM"


@dataclass(frozen=True)
class Entry:
    """A top-level item: a work (`item`) or a record of another type."""

    key: str
    title: str
    item_type: str
    creators: tuple[str, ...]
    day: date
    folder: str
    abstract: str = ""
    item: Item | None = None

    @property
    def path(self) -> str:
        return f"{GROUP}/items/{self.key}"

    @property
    def added(self) -> date:
        return min(self.day + timedelta(days=15 + sum(map(ord, self.key)) % 185), date(2026, 11, 25))

    @property
    def creator_column(self) -> str:
        surnames = [c.rsplit(" ", 1)[-1] for c in self.creators]
        if len(surnames) > 2:
            return f"{surnames[0]} et al."
        return " and ".join(surnames)


@dataclass(frozen=True)
class Folder:
    """A collection; `parent` names the collection it sits in."""

    key: str
    name: str
    parent: str | None

    @property
    def path(self) -> str:
        return f"{GROUP}/collections/{self.key}"


def folders(items: list[Item]) -> tuple[list[Folder], list[Entry]]:
    """The collections (a top one per category, each with two sub-collections, and the network's own) and the
    entries: journal articles, conference papers and preprints filed under primary studies, reports under grey
    literature, the other records directly in the top collections."""
    made: list[Folder] = []
    entries: list[Entry] = []
    for n, name in enumerate([*sorted({i.category for i in items}), "Network admin"]):
        top = Folder(zotero_key(700 + 10 * n), name, None)
        subs = [Folder(zotero_key(701 + 10 * n + s), sub, top.key) for s, sub in enumerate(_SUBS)]
        made += [top] + (subs if name != "Network admin" else [])
        for m, (kind, title) in enumerate(_OTHERS.get(name, ())):
            key = zotero_key(900000 + 100 * n + m)
            day = date(2022, 5, 3) + timedelta(days=(97 * m + 211 * n) % 1600)
            entries.append(Entry(key, title, kind, (_NAMES[(m + n) % len(_NAMES)],), day, top.key))
        for item in (i for i in items if i.category == name):
            kind = _WORK_TYPES[sum(map(ord, item.key)) % len(_WORK_TYPES)]
            folder = subs[1] if kind == "Report" else subs[0]
            entries.append(
                Entry(item.key, item.title, kind, item.authors, date.fromisoformat(item.date), folder.key,
                      item.abstract, item)
            )  # fmt: skip
    return made, entries


_ORDERS = {
    "title": lambda e: (e.title.lower(), e.key),
    "creator": lambda e: (e.creator_column.lower(), e.key),
    "date": lambda e: (e.day, e.key),
    "dateAdded": lambda e: (e.added, e.key),
}


class Fresh12LibrarySite(SiteApp):
    """A group library: group page, library and collection listings, item pages with children."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/about": "about", "/support": "help", "/privacy": "privacy"}

    def routes(self) -> list[Route]:
        self.folders, self.entries = folders(self.items)
        self.by_key = {e.key: e for e in self.entries}
        g = re.escape(GROUP)
        return [
            (re.compile(rf"/|{g}"), self._group),
            (re.compile(rf"{g}/library"), self._library),
            (re.compile(rf"{g}/collections/(?P<key>[0-9A-Z]{{8}})"), self._collection),
            (re.compile(rf"{g}/items/(?P<key>[0-9A-Z]{{8}})"), self._item),
            (
                re.compile(rf"{g}/items/(?P<key>[0-9A-Z]{{8}})/attachment/(?P<akey>[0-9A-Z]{{8}})/file\.pdf"),
                self._attachment,
            ),
            (re.compile(rf"{g}/items/(?P<key>[0-9A-Z]{{8}})/(?:export|cite)"), self._export),
            (re.compile(rf"{g}/search"), self._search),
            (re.compile(r"/user/login"), self._login),
        ]

    def robots_txt(self) -> str:
        return (
            "User-agent: *\nDisallow: /*/items/*/export\nDisallow: /*/items/*/cite\nDisallow: /groups/*/search\n"
            "Disallow: /user/\nDisallow: /settings\n"
        )

    def sample_paths(self) -> dict[str, str]:
        return {
            "home": "/",
            "group": GROUP,
            "library": f"{GROUP}/library",
            "sorted": f"{GROUP}/library?order=date&sort=desc",
            "collection": self.folders[0].path,
            "item": self.items[0].path,
            "file": self.items[0].pdf_path,
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        tree = ""
        for top in (f for f in self.folders if f.parent is None):
            subs = "".join(
                f'<li><a href="{f.path}">{esc(f.name)}</a></li>' for f in self.folders if f.parent == top.key
            )
            tree += f'<li><a href="{top.path}">{esc(top.name)}</a>' + (f"<ul>{subs}</ul>" if subs else "") + "</li>"
        body = (
            '<header class="site-header"><a href="/" class="logo">zotero</a> <nav><a href="/support">Documentation'
            '</a> <a href="/user/login">Log In</a></nav></header>\n<div class="library-container">'
            f'<nav class="collection-tree"><ul><li><a href="{GROUP}/library">Urban Health Evidence Network</a>'
            f"<ul>{tree}</ul></li></ul></nav>"
            f'<main class="items-container">{content}</main></div>\n'
            '<footer><a href="/about">About</a> · <a href="/privacy">Privacy</a></footer>'
        )
        html = document(title=f"{title} - Zotero", head=head, body=body, body_class="web-library")
        return Response.html(html, kind=kind, status=status)

    def _group(self, request: Request) -> Response:
        content = (
            "<h1>Urban Health Evidence Network</h1><p>A public group library of studies, reports and grey literature "
            "gathered by the network's members for its evidence reviews.</p><dl><dt>Type</dt><dd>Public, Closed "
            "Membership</dd><dt>Library Reading</dt><dd>Anyone on the internet</dd></dl>"
            f'<p><a class="btn" href="{GROUP}/library">Group Library</a></p>'
            f"<h2>Members</h2><ul>{''.join(f'<li>{esc(n)}</li>' for n in _NAMES)}</ul>"
        )
        return self.page(title="Urban Health Evidence Network", content=content, kind="group")

    def _table(self, request: Request, entries: list[Entry], base: str) -> str:
        order = request.param("order") if request.param("order") in _ORDERS else "title"
        descending = request.param("sort") == "desc"
        chosen = sorted(entries, key=_ORDERS[order], reverse=descending)
        query = f"order={order}&sort={'desc' if descending else 'asc'}"
        shown, pager = paged(request, chosen, PER_PAGE, lambda n: f"{base}?{query}&page={n}")
        heads = ""
        for key, label in (("title", "Title"), ("creator", "Creator"), ("date", "Date"), ("dateAdded", "Added")):
            flip = "asc" if order != key or descending else "desc"
            heads += f'<th><a href="{attr(f"{base}?order={key}&sort={flip}")}">{label}</a></th>'

        rows = "".join(
            f'<tr><td><a href="{e.path}">{esc(e.title)}</a></td><td>{esc(e.creator_column)}</td>'
            f"<td>{esc(entered(e.day, e.key))}</td><td>{e.added.month}/{e.added.day}/{e.added.year}</td></tr>"
            for e in shown
        )
        return f'<table class="items-table"><thead><tr>{heads}</tr></thead><tbody>{rows}</tbody></table>{pager}'

    def _library(self, request: Request) -> Response:
        table = self._table(request, self.entries, f"{GROUP}/library")
        content = f"<h1>Urban Health Evidence Network</h1><p>{len(self.entries)} items</p>{table}"
        return self.page(title="Urban Health Evidence Network", content=content, kind="library")

    def _collection(self, request: Request, key: str) -> Response:
        folder = next((f for f in self.folders if f.key == key), None)
        if folder is None:
            return self.not_found()
        mine = [e for e in self.entries if e.folder == key]
        links = [f'<a href="{f.path}">{esc(f.name)}</a>' for f in self.folders if f.parent == key]
        trail = "".join(f' › <a href="{f.path}">{esc(f.name)}</a>' for f in self.folders if f.key == folder.parent)
        content = (
            f'<div class="breadcrumbs"><a href="{GROUP}/library">Urban Health Evidence Network</a>{trail}</div>'
            f"<h1>{esc(folder.name)}</h1>"
            + (f"<p>Subcollections: {', '.join(links)}</p>" if links else "")
            + (self._table(request, mine, folder.path) if mine else "<p>No items in this view</p>")
        )
        return self.page(title=folder.name, content=content, kind="collection")

    def _item(self, request: Request, key: str) -> Response:
        entry = self.by_key.get(key)
        if entry is None:
            return self.not_found()
        item = entry.item
        role = "Presenter" if entry.item_type in ("Presentation", "Podcast") else "Author"
        rows = [("Item Type", entry.item_type), ("Title", entry.title)]
        rows += [(role, f"{c.rsplit(' ', 1)[-1]}, {c.rsplit(' ', 1)[0]}") for c in entry.creators]
        if entry.abstract:
            rows.append(("Abstract", entry.abstract))
        venues = _VENUES.get(entry.item_type)
        if venues:
            label = {"Report": "Institution", "Conference Paper": "Proceedings Title", "Preprint": "Repository"}
            rows.append((label.get(entry.item_type, "Publication"), venues[sum(map(ord, key)) % len(venues)]))
        rows += [("Date", entered(entry.day, key)), ("Language", "en")]
        if item is None:
            rows.append(("URL", f"https://example.org/{key.lower()}"))
        else:
            rows.append(("Extra", f"Screened: round {1 + sum(map(ord, key)) % 3}"))
        rows += [("Date Added", _stamp(entry.added, key)), ("Modified", _stamp(entry.added + timedelta(days=3), key))]
        fields = "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in rows)
        children = ""
        if item is not None:
            children = (
                f'<h2>Attachments and notes</h2><ul class="children"><li class="attachment"><a href="'
                f'{attr(item.pdf_path)}">Full Text PDF</a></li><li class="note">Included in the network\'s evidence '
                "review; extraction checked by a second reviewer.</li></ul>"
            )
        homes = [f for f in self.folders if f.key == entry.folder]
        held = "".join(f'<li><a href="{f.path}">{esc(f.name)}</a></li>' for f in homes)
        content = (
            f'<div class="item-details"><table class="metadata-list">{fields}</table>{children}'
            f'<h2>Collections</h2><ul>{held}</ul><p><a href="{entry.path}/export?format=ris">Export</a> '
            f'<a href="{entry.path}/cite">Cite</a></p></div>'
        )
        return self.page(title=entry.title, content=content, kind="item")

    def _attachment(self, request: Request, key: str, akey: str) -> Response:
        entry = self.by_key.get(key)
        if entry is None or entry.item is None or entry.item.pdf_path != request.path:
            return self.not_found()
        return self.pdf(entry.item)

    def _export(self, request: Request, key: str) -> Response:
        entry = self.by_key.get(key)
        if entry is None:
            return self.not_found()
        return Response.text(f"TY  - GEN\nTI  - {entry.title}\nER  -\n", kind="export")

    def _search(self, request: Request) -> Response:
        text = request.param("q")
        found = search_items(self.items, text) if text else []
        rows = "".join(f'<li><a href="{attr(i.path)}">{esc(i.title)}</a></li>' for i in found)
        return self.page(title="Search", content=f"<h1>Search</h1><ul>{rows}</ul>", kind="search")

    def _login(self, request: Request) -> Response:
        form = '<h1>Log In</h1><form method="post"><input name="username"><button>Log In</button></form>'
        return self.page(title="Log In", content=form, kind="login")
