"""HELD OUT, fresh (thirteenth batch): the Harrowgate Museum's digital collections, built as an Omeka S site is (see
`fresh_heldout13.py`; do not read or tune anything to it). The root redirects to the site's home page under
`/s/collections`; its navigation browses every item twenty-five a page sorted by the date each was catalogued (Omeka's
"created", newest first: the works' own dates are properties, not the order), lists the item sets, each browsing its
items the same way, and links exhibit pages that show a few items each. An item's page lists its Dublin Core
properties as the cataloguers typed them (creators "Surname, Given", one value each; the date "2024-03-15" or "15
March 2024"; type, identifier, description), its media (each a page framing the file) and its item sets. The museum's
reports and papers sit among specimen photographs, field notebooks, maps and letters. No meta tags; the search, the
REST API, logins and the admin are forbidden by robots.txt.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from typing import ClassVar

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.fresh_heldout13 import OMEKA_SITE
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["PER_PAGE", "Fresh13CollectionsSite", "Record", "cataloged", "exhibits", "item_sets", "records"]

PER_PAGE = 25
_LAST_CATALOGUED = date(2026, 11, 20)
#: Records that are not works, in each item set: (type, title, creator as catalogued).
_OTHERS = {
    "Bird Collections": (
        ("StillImage", "Specimen photograph: white-tailed eagle skull", "Museum Photography Unit"),
        ("Text", "Field notebook of the 1931 estuary expedition", "Ashworth, Harold"),
        ("StillImage", "Glass plate negative: red kite nest", "Museum Photography Unit"),
        ("PhysicalObject", "Taxidermy mount: common buzzard", "Unknown"),
        ("Text", "Letter to the keeper of birds about a gamekeeper's gift", "Pryce, Edith"),
        ("StillImage", "Specimen photograph: pintail drake", "Museum Photography Unit"),
        ("Text", "Accession register, bird skins, volume 4", "Harrowgate Museum"),
    ),
    "Geology Collections": (
        ("Cartographic", "Geological map of the northern coast, 1889 edition", "Ordnance Survey"),
        ("PhysicalObject", "Core section from the lake basin, box 12", "Museum Geology Department"),
        ("StillImage", "Photograph of the coring platform on the lake", "Museum Photography Unit"),
        ("Text", "Field notebook: coastal sections walked in 1962", "Rowntree, Mabel"),
        ("Cartographic", "Bathymetric survey of the lagoon", "Hydrographic Office"),
        ("StillImage", "Thin section micrograph of a shell-rich sand", "Museum Geology Department"),
        ("Text", "Letter from a fisherman describing the great wave", "Tulloch, James"),
        ("PhysicalObject", "Pumice raft sample collected on the shore", "Unknown"),
    ),
}
#: Exhibit pages: (slug, title, item set they draw on).
_EXHIBITS = (
    ("lead-in-the-landscape", "Birds, Guns and Gamekeepers", "Bird Collections"),
    ("waves-from-the-past", "Waves from the Past", "Geology Collections"),
)


def _hash(text: str) -> int:
    return sum(ord(c) * (n + 3) for n, c in enumerate(text))


def cataloged(day: date, key: str) -> date:
    """When a record was catalogued (Omeka's "created"): in batches some months after its date, never after the last
    import."""
    lag = 20 + _hash(key) % 320
    return min(day + timedelta(days=lag - lag % 14), _LAST_CATALOGUED)


def _typed(day: date, key: str) -> str:
    """The date as the cataloguer typed it: ISO for most, written out for some."""
    if _hash(key) % 3 == 0:
        return f"{day.day} {MONTHS[day.month - 1]} {day.year}"
    return day.isoformat()


@dataclass(frozen=True)
class Record:
    """An Omeka item: a work (`item`) or another record of the museum's."""

    number: int
    title: str
    kind: str
    creators: tuple[str, ...]
    day: date
    item_set: str
    item: Item | None = None

    @property
    def path(self) -> str:
        return f"{OMEKA_SITE}/item/{self.number}"

    @property
    def created(self) -> date:
        return cataloged(self.day, str(self.number))

    @property
    def media(self) -> int:
        return 5000 + self.number

    @property
    def file(self) -> str:
        return self.item.pdf_path if self.item is not None else f"/files/original/record-{self.number}.jpg"


def item_sets(items: list[Item]) -> dict[str, int]:
    """The item sets (one per collection) and their ids."""
    return {name: 40 + 7 * n for n, name in enumerate(sorted({i.category for i in items}))}


def records(items: list[Item]) -> list[Record]:
    """Every record, newest catalogued first: the works (creators surname first) and each set's other records."""
    made = [
        Record(
            int(i.key),
            i.title,
            "Text",
            tuple(", ".join(a.rsplit(" ", 1)[::-1]) for a in i.authors),
            date.fromisoformat(i.date),
            i.category,
            i,
        )
        for i in items
    ]
    for n, name in enumerate(item_sets(items)):
        for m, (kind, title, creator) in enumerate(_OTHERS.get(name, ())):
            day = date(2022, 2, 1) + timedelta(days=(131 * m + 59 * n) % 1700)
            made.append(Record(900 + 20 * n + m, title, kind, (creator,), day, name))
    return sorted(made, key=lambda r: (r.created, r.number), reverse=True)


def exhibits(made: list[Record]) -> dict[str, tuple[str, list[Record]]]:
    """Each exhibit page's title and the few records it shows (three works and two others of its set)."""
    shown = {}
    for slug, title, name in _EXHIBITS:
        mine = [r for r in made if r.item_set == name]
        shown[slug] = (title, [r for r in mine if r.item][:3] + [r for r in mine if not r.item][:2])
    return shown


class Fresh13CollectionsSite(SiteApp):
    """An Omeka S site: home page, item browse, item sets, exhibit pages, items and media."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {
        f"{OMEKA_SITE}/page/about": "about",
        f"{OMEKA_SITE}/page/rights": "terms",
        f"{OMEKA_SITE}/page/contact": "contact",
    }

    def routes(self) -> list[Route]:
        self.records = records(self.items)
        self.sets = item_sets(self.items)
        self.by_number = {r.number: r for r in self.records}
        self.exhibits = exhibits(self.records)
        s = re.escape(OMEKA_SITE)
        return [
            (re.compile(r"/"), lambda request: Response.redirect(OMEKA_SITE, status=302)),
            (re.compile(rf"{s}(?:/page/welcome)?"), self._home),
            (re.compile(rf"{s}/item"), self._browse),
            (re.compile(rf"{s}/item/(?P<number>\d+)"), self._item),
            (re.compile(rf"{s}/item-set"), self._sets),
            (re.compile(rf"{s}/item-set/(?P<number>\d+)"), self._set),
            (re.compile(rf"{s}/media/(?P<number>\d+)"), self._media),
            (re.compile(rf"{s}/page/(?P<slug>[a-z-]+)"), self._exhibit),
            (re.compile(r"/files/original/(?P<name>[0-9a-z-]+)\.(?:pdf|jpg)"), self._file),
            (re.compile(rf"{s}/search|/api/.*"), self._search),
            (re.compile(r"/login|/admin.*"), self._login),
        ]

    def robots_txt(self) -> str:
        return (
            "User-agent: *\nDisallow: /admin\nDisallow: /login\nDisallow: /api/\nDisallow: /s/*/search\n"
            "Disallow: /*fulltext_search=\n"
        )

    def sample_paths(self) -> dict[str, str]:
        record = next(r for r in self.records if r.item)
        return {
            "home": OMEKA_SITE,
            "browse": f"{OMEKA_SITE}/item",
            "sets": f"{OMEKA_SITE}/item-set",
            "set": f"{OMEKA_SITE}/item-set/{next(iter(self.sets.values()))}",
            "exhibit": f"{OMEKA_SITE}/page/{_EXHIBITS[0][0]}",
            "item": record.path,
            "media": f"{OMEKA_SITE}/media/{record.media}",
            "file": record.file,
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        exhibits = "".join(f'<li><a href="{OMEKA_SITE}/page/{slug}">{esc(t)}</a></li>' for slug, t, _ in _EXHIBITS)
        body = (
            f'<header><div class="site-title"><a href="{OMEKA_SITE}">Harrowgate Museum Digital Collections</a></div>'
            f'<form class="search" action="{OMEKA_SITE}/search" method="get"><input name="fulltext_search" '
            f'placeholder="Search"></form><nav><ul class="navigation"><li><a href="{OMEKA_SITE}/item">Browse items'
            f'</a></li><li><a href="{OMEKA_SITE}/item-set">Collections</a></li><li><a href="'
            f'{OMEKA_SITE}/page/about">About</a></li><li>Exhibits<ul>{exhibits}</ul></li></ul></nav></header>\n'
            f'<div id="content" role="main">{content}</div>\n'
            f'<footer><a href="{OMEKA_SITE}/page/rights">Rights and reuse</a> · <a href="{OMEKA_SITE}/page/contact">'
            "Contact</a> · Powered by Omeka S</footer>"
        )
        html = document(title=f"{title} · Harrowgate Museum Digital Collections", head=head, body=body)
        return Response.html(html, kind=kind, status=status)

    def _home(self, request: Request) -> Response:
        content = (
            '<div class="blocks"><h2>Welcome</h2><p>The Harrowgate Museum of Natural History shares its specimens, '
            "archives and the research of its curators here. Browse the items, explore a collection or visit an "
            f'exhibit.</p><p><a href="{OMEKA_SITE}/item">Browse all items</a></p></div>'
        )
        return self.page(title="Welcome", content=content, kind="home")

    def _list(self, request: Request, chosen: list[Record], base: str) -> str:
        """A browse page: the sort the visitor chose (created by default), twenty-five a page, prev/next links."""
        order = request.param("sort_by")
        descending = request.param("sort_order", "desc") != "asc"
        if order == "dcterms:title":
            chosen = sorted(chosen, key=lambda r: (r.title.lower(), r.number), reverse=descending)
        elif order == "created" and not descending:
            chosen = chosen[::-1]
        query = "".join(
            f"{k}={request.param(k)}&" for k in ("item_set_id", "sort_by", "sort_order") if request.param(k)
        )
        page = request.int_param("page", 1, minimum=1, maximum=max(1, -(-len(chosen) // PER_PAGE)))
        shown = chosen[(page - 1) * PER_PAGE : page * PER_PAGE]
        pager = f'<nav class="pagination"><span class="row-count">{len(chosen)} results</span>'
        if page > 1:
            pager += (
                f'<a class="previous o-icon-prev button" href="{attr(f"{base}?{query}page={page - 1}")}">Previous</a>'
            )
        if page * PER_PAGE < len(chosen):
            pager += f'<a class="next o-icon-next button" href="{attr(f"{base}?{query}page={page + 1}")}">Next</a>'
        rows = "".join(
            f'<li class="item resource"><a href="{r.path}"><img src="/files/square/{r.number}.jpg" alt=""></a>'
            f'<h4><a href="{r.path}">{esc(r.title)}</a></h4></li>'
            for r in shown
        )
        sorting = (
            f'<form class="sorting" action="{attr(base)}"><select name="sort_by"><option value="created" selected>'
            'Created</option><option value="dcterms:title">Title</option></select><select name="sort_order">'
            '<option value="desc" selected>Descending</option><option value="asc">Ascending</option></select>'
            "<button>Sort</button></form>"
        )
        return f'{pager}</nav>{sorting}<ul class="resource-list">{rows}</ul>{pager}</nav>'

    def _browse(self, request: Request) -> Response:
        chosen = self.records
        wanted = request.int_param("item_set_id", 0)
        if wanted:
            name = next((n for n, i in self.sets.items() if i == wanted), None)
            chosen = [r for r in self.records if r.item_set == name]
        content = "<h2>Items</h2>" + self._list(request, chosen, f"{OMEKA_SITE}/item")
        return self.page(title="Items", content=content, kind="browse")

    def _sets(self, request: Request) -> Response:
        rows = "".join(
            f'<li class="item-set resource"><h4><a href="{OMEKA_SITE}/item-set/{number}">{esc(name)}</a></h4><p>'
            f"{sum(r.item_set == name for r in self.records)} items</p></li>"
            for name, number in self.sets.items()
        )
        return self.page(
            title="Item sets", content=f'<h2>Item sets</h2><ul class="resource-list">{rows}</ul>', kind="sets"
        )

    def _set(self, request: Request, number: str) -> Response:
        name = next((n for n, i in self.sets.items() if i == int(number)), None)
        if name is None:
            return self.not_found()
        mine = [r for r in self.records if r.item_set == name]
        content = (
            f'<h2>{esc(name)}</h2><div class="description">Records of the museum\'s {esc(name.lower())}.</div>'
            f'<h3>Items</h3><ul class="resource-list">'
            + "".join(f'<li><a href="{r.path}">{esc(r.title)}</a></li>' for r in mine[:10])
            + f'</ul><a class="button" href="{OMEKA_SITE}/item?item_set_id={number}">View all items</a>'
        )
        return self.page(title=name, content=content, kind="set")

    def _exhibit(self, request: Request, slug: str) -> Response:
        if slug not in self.exhibits:
            return self.not_found()
        title, shown = self.exhibits[slug]
        blocks = "".join(
            f'<div class="item resource"><a href="{r.path}"><img src="/files/medium/{r.number}.jpg" alt=""></a>'
            f'<div class="caption"><a href="{r.path}">{esc(r.title)}</a></div></div>'
            for r in shown
        )
        content = (
            f'<h2>{esc(title)}</h2><div class="blocks"><p>An exhibit drawn from the museum\'s collections.</p>'
            f'<div class="item-showcase">{blocks}</div></div>'
        )
        return self.page(title=title, content=content, kind="exhibit")

    def _item(self, request: Request, number: str) -> Response:
        record = self.by_number.get(int(number))
        if record is None:
            return self.not_found()
        values: list[tuple[str, list[str]]] = [("Title", [esc(record.title)])]
        values.append(("Creator", [esc(c) for c in record.creators]))
        values.append(("Date", [esc(_typed(record.day, number))]))
        if record.item is not None:
            values.append(("Description", [esc(record.item.abstract)]))
            values.append(("Subject", [esc(k) for k in record.item.keywords]))
        values.append(("Type", [record.kind]))
        values.append(("Identifier", [f"HMNH.{record.item_set.split()[0][:3].upper()}.{record.number:05d}"]))
        values.append(("Rights", ["In copyright - educational use permitted"]))
        properties = "".join(
            f'<div class="property"><h4>{label}</h4><div class="values">'
            + "".join(f'<div class="value" lang="">{v}</div>' for v in shown)
            + "</div></div>"
            for label, shown in values
        )
        set_number = self.sets[record.item_set]
        label = "Report (PDF)" if record.item else "Image"
        content = (
            f'<h2><span class="title">{esc(record.title)}</span></h2><div class="media-embeds">'
            f'<a class="media resource" href="{OMEKA_SITE}/media/{record.media}">{label}</a></div>'
            f'<dl>{properties}</dl><div class="property"><h4>Item sets</h4><div class="values">'
            f'<a class="resource-link" href="{OMEKA_SITE}/item-set/{set_number}">{esc(record.item_set)}</a></div></div>'
        )
        return self.page(title=record.title, content=content, kind="item")

    def _media(self, request: Request, number: str) -> Response:
        record = self.by_number.get(int(number) - 5000)
        if record is None:
            return self.not_found()
        content = (
            f'<h2>{esc(record.title)}</h2><div class="media-render"><a href="{attr(record.file)}">'
            f'{"Download the PDF" if record.item else "View the original image"}</a><iframe src="{attr(record.file)}">'
            f'</iframe></div><p>Part of item: <a href="{record.path}">{esc(record.title)}</a></p>'
        )
        return self.page(title=f"Media: {record.title}", content=content, kind="media")

    def _file(self, request: Request, name: str) -> Response:
        item = next((i for i in self.items if i.pdf_path == request.path), None)
        if item is not None:
            return self.pdf(item)
        if request.path.endswith(".jpg"):
            return Response(200, b"\xff\xd8\xff\xe0 image", "image/jpeg", "image")
        return self.not_found()

    def _search(self, request: Request) -> Response:
        text = request.param("fulltext_search")
        found = search_items(self.items, text) if text else []
        rows = "".join(f'<li><a href="{attr(i.path)}">{esc(i.title)}</a></li>' for i in found)
        return self.page(title="Search", content=f"<h2>Search results</h2><ul>{rows}</ul>", kind="search")

    def _login(self, request: Request) -> Response:
        return self.page(title="Log in", content='<form method="post"><input name="email"></form>', kind="login")
