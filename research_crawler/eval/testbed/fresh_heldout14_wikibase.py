"""HELD OUT, fresh (fourteenth batch): the Archaeogenetics Knowledge Graph, built as a Wikibase (wikibase.cloud) builds
one (see `fresh_heldout14.py`; do not read or tune anything to it). The root redirects to `/wiki/Main_Page`, which
links the main-subject items and the list of every item (`Special:AllPages` of the Item namespace, sorted by page
title, so Q1207 before Q21). An item page (`/wiki/Item:Q1207`) is headed by its label and id, a description as bots
write it ("scholarly article published on 15 March 2024"), then statement groups: instance of, title, author (person
items, in the order the statements were added, each with its "series ordinal"), author name string (authors without
an item, the same way), publication date at the precision entered (day, month or year), main subject, published in,
full work available at URL. Works hold no links back from their subjects or authors: a subject's or a person's "What
links here" lists the items pointing to it, fifty a page, the next fifty through `/w/index.php`. Datasets,
archaeological sites, persons and journals are items too. `/w/` (history, edit, info, paging) and the search are
forbidden by robots.txt; each item's JSON is at `Special:EntityData`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import ClassVar

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["LIMIT", "PROPERTIES", "Entity", "Fresh14WikibaseSite", "entities", "linking", "precision", "wb_date"]

LIMIT = 50
#: Property id → label (and the datatype the property page names).
PROPERTIES = {
    "P1": ("instance of", "Item"),
    "P2": ("title", "Monolingual text"),
    "P3": ("author", "Item"),
    "P4": ("author name string", "String"),
    "P5": ("publication date", "Point in time"),
    "P6": ("main subject", "Item"),
    "P7": ("published in", "Item"),
    "P8": ("full work available at URL", "URL"),
    "P9": ("series ordinal", "String"),
}
_CLASSES = {
    "Q1": "scholarly article",
    "Q2": "human",
    "Q3": "scientific journal",
    "Q4": "dataset",
    "Q5": "archaeological site",
    "Q6": "research topic",
}
_JOURNALS = ("Nature", "Science Advances", "Current Biology", "Molecular Biology and Evolution", "Cell Genomics")
#: Items that are not works, for each subject: (class, label).
_OTHERS = (
    ("Q4", "Sequencing reads of the {subject} samples (ENA project)"),
    ("Q5", "Cemetery excavated for the {subject} project"),
    ("Q4", "Radiocarbon dates table for {subject}"),
)

#: A statement: (property, value kind, value, qualifiers as (property, text)).
Statement = tuple[str, str, str, tuple[tuple[str, str], ...]]


def _hash(text: str) -> int:
    return sum(ord(c) * (n + 13) for n, c in enumerate(text))


def precision(item: Item) -> str:
    """The precision its publication date was entered at: the day, or for some older papers the month or year."""
    day = date.fromisoformat(item.date)
    if day.year >= 2024:
        return "day"
    return ("day", "month", "year" if day.year <= 2022 else "day")[_hash(item.key) % 3]


def wb_date(day: date, level: str = "day") -> str:
    """A point in time as Wikibase shows it: '15 March 2024', 'March 2023' or '2022'."""
    if level == "year":
        return str(day.year)
    month = f"{MONTHS[day.month - 1]} {day.year}"
    return month if level == "month" else f"{day.day} {month}"


@dataclass(frozen=True)
class Entity:
    """An item of the knowledge graph: its id, label, description and statements."""

    qid: str
    label: str
    description: str
    statements: tuple[Statement, ...] = field(default=())
    item: Item | None = None

    @property
    def path(self) -> str:
        return f"/wiki/Item:{self.qid}"

    @property
    def number(self) -> int:
        return int(self.qid[1:])


def entities(items: list[Item]) -> dict[str, Entity]:
    """Every item of the graph: classes, subjects, journals, persons (authors of two works or more), works, and the
    datasets and sites of each subject studied."""
    made = {q: Entity(q, label, "class") for q, label in _CLASSES.items()}
    subjects = {name: f"Q{10 + n}" for n, name in enumerate(sorted({i.category for i in items}))}
    for name, q in subjects.items():
        made[q] = Entity(q, name, "topic of research", (("P1", "item", "Q6", ()),))
    journals = {name: f"Q{30 + n}" for n, name in enumerate(_JOURNALS)}
    for name, q in journals.items():
        made[q] = Entity(q, name, "scientific journal", (("P1", "item", "Q3", ()),))
    counts: dict[str, int] = {}
    for item in items:
        for author in item.authors:
            counts[author] = counts.get(author, 0) + 1
    people = {name: f"Q{300 + n}" for n, name in enumerate(sorted(a for a, c in counts.items() if c > 1))}
    for name, q in people.items():
        made[q] = Entity(q, name, "researcher", (("P1", "item", "Q2", ()),))
    for item in items:
        made[item.key] = _work(item, people, subjects[item.category], list(journals.values()))
    studied = {i.category for i in items if not i.topic.endswith("-other")}
    for n, (name, q) in enumerate(subjects.items()):
        for m, (kind, label) in enumerate(_OTHERS if name in studied else ()):
            other = f"Q{800 + 10 * n + m}"
            statements = (("P1", "item", kind, ()), ("P6", "item", q, ()))
            made[other] = Entity(other, label.format(subject=name), _CLASSES[kind], statements)
    return made


def _work(item: Item, people: dict[str, str], subject: str, journals: list[str]) -> Entity:
    day, level = date.fromisoformat(item.date), precision(item)
    written = ("on " if level == "day" else "in ") + wb_date(day, level)
    authors: list[Statement] = [
        ("P3", "item", people[a], (("P9", str(n + 1)),)) if a in people else ("P4", "string", a, (("P9", str(n + 1)),))
        for n, a in enumerate(item.authors)
    ]
    authors.sort(key=lambda s: (s[0], _hash(s[2] + item.key)))  # as the statements were added, not by ordinal
    statements: tuple[Statement, ...] = (
        ("P1", "item", "Q1", ()),
        ("P2", "text", item.title, ()),
        *authors,
        ("P5", "time", f"{item.date}|{level}", ()),
        ("P6", "item", subject, ()),
        ("P7", "item", journals[_hash(item.key) % len(journals)], ()),
        ("P8", "url", item.pdf_path, ()),
    )
    return Entity(item.key, item.title, f"scholarly article published {written}", statements, item)


def linking(made: dict[str, Entity], target: str) -> list[Entity]:
    """The items whose statements point to `target`, by page id (the order they were created)."""
    return sorted(
        (e for e in made.values() if any(s[1] == "item" and s[2] == target for s in e.statements)),
        key=lambda e: e.number,
    )


class Fresh14WikibaseSite(SiteApp):
    """A Wikibase: main page, item and property pages, What links here, all pages, entity data."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {
        "/wiki/Project:About": "about",
        "/wiki/Project:Privacy_policy": "privacy",
        "/wiki/Project:General_disclaimer": "terms",
    }

    def routes(self) -> list[Route]:
        self.entities = entities(self.items)
        return [
            (re.compile(r"/"), lambda request: Response.redirect("/wiki/Main_Page", status=301)),
            (re.compile(r"/wiki/Main_Page"), self._main),
            (re.compile(r"/wiki/Item:(?P<qid>Q\d+)"), self._entity),
            (re.compile(r"/wiki/Property:(?P<pid>P\d+)"), self._property),
            (re.compile(r"/wiki/Special:WhatLinksHere/Item:(?P<qid>Q\d+)"), self._links_here),
            (re.compile(r"/wiki/Special:AllPages"), self._all_pages),
            (re.compile(r"/wiki/Special:EntityData/(?P<qid>Q\d+)\.json"), self._entity_data),
            (re.compile(r"/w/images/[0-9a-f]/[0-9a-f]{2}/(?P<qid>Q\d+)\.pdf"), self._file),
            (re.compile(r"/wiki/Special:Search"), self._search),
        ]

    def robots_txt(self) -> str:
        return (
            "User-agent: *\nDisallow: /w/\nAllow: /w/images/\nDisallow: /wiki/Special:Search\n"
            "Disallow: /wiki/Special:RecentChanges\nDisallow: /wiki/Special:Random\n"
        )

    def sample_paths(self) -> dict[str, str]:
        return {
            "main": "/wiki/Main_Page",
            "item": self.items[0].path,
            "subject": "/wiki/Item:Q10",
            "property": "/wiki/Property:P3",
            "links": "/wiki/Special:WhatLinksHere/Item:Q10",
            "all": "/wiki/Special:AllPages?namespace=120",
            "json": f"/wiki/Special:EntityData/{self.items[0].key}.json",
            "file": self.items[0].pdf_path,
        }

    def page(
        self, *, title: str, content: str, kind: str, status: int = 200, head: str = "", tools: str = ""
    ) -> Response:
        body = (
            '<div id="mw-page-base"></div><div id="content" class="mw-body" role="main">'
            f'<div id="bodyContent" class="vector-body">{content}</div></div>\n'
            '<div id="mw-panel"><div id="p-logo"><a class="mw-wiki-logo" href="/wiki/Main_Page" title="Visit the main '
            'page"></a></div><nav id="p-navigation"><h3>Navigation</h3><ul><li><a href="/wiki/Main_Page">Main page</a>'
            '</li><li><a href="/wiki/Special:RecentChanges">Recent changes</a></li><li><a href="/wiki/Special:Random">'
            f'Random page</a></li></ul></nav><nav id="p-tb"><h3>Tools</h3><ul>{tools}</ul></nav></div>\n'
            '<div id="p-search"><form action="/wiki/Special:Search"><input name="search" placeholder="Search '
            'Archaeogenetics Knowledge Graph"></form></div>\n<footer id="footer"><ul><li><a href="/wiki/Project:'
            'Privacy_policy">Privacy policy</a></li><li><a href="/wiki/Project:About">About Archaeogenetics Knowledge '
            'Graph</a></li><li><a href="/wiki/Project:General_disclaimer">Disclaimers</a></li></ul>Powered by Wikibase'
            "</footer>"
        )
        html = document(
            title=f"{title} - Archaeogenetics Knowledge Graph", head=head, body=body, body_class="mediawiki skin-vector"
        )
        return Response.html(html, kind=kind, status=status)

    def _link(self, qid: str) -> str:
        entity = self.entities.get(qid)
        label = entity.label if entity else qid
        return f'<a href="/wiki/Item:{qid}" title="Item:{qid}">{esc(label)}</a>'

    def _main(self, request: Request) -> Response:
        subjects = "".join(
            f"<li>{self._link(e.qid)}</li>" for e in self.entities.values() if e.description == "topic of research"
        )
        content = (
            '<h1 id="firstHeading" class="firstHeading">Main Page</h1><div class="mw-parser-output"><p>The '
            "Archaeogenetics Knowledge Graph describes ancient genomes, the sites they come from and the literature "
            "about them as linked data. Anyone can query it.</p><h2>Main subjects</h2><ul>"
            f'{subjects}</ul><h2>Browse</h2><ul><li><a href="/wiki/Special:AllPages?namespace=120">All items</a></li>'
            '<li><a href="/wiki/Property:P6">The main subject property</a></li></ul></div>'
        )
        return self.page(title="Main Page", content=content, kind="home")

    def _value(self, kind: str, value: str) -> str:
        if kind == "item":
            return self._link(value)
        if kind == "url":
            return f'<a class="external free" rel="nofollow" href="{attr(value)}">{esc(self.links.absolute(value))}</a>'
        if kind == "time":
            day, level = value.split("|")
            return esc(wb_date(date.fromisoformat(day), level))
        if kind == "text":
            return (
                f'<span lang="en">{esc(value)}</span> <span class="wb-monolingualtext-language-name">(English)</span>'
            )
        return esc(value)

    def _entity(self, request: Request, qid: str) -> Response:
        entity = self.entities.get(qid)
        if entity is None:
            return self.not_found(f"{qid} does not exist.")
        groups: dict[str, list[Statement]] = {}
        for statement in entity.statements:
            groups.setdefault(statement[0], []).append(statement)
        views = "".join(
            f'<div class="wikibase-statementgroupview" id="{pid}"><div class="wikibase-statementgroupview-property">'
            f'<a href="/wiki/Property:{pid}" title="Property:{pid}">{PROPERTIES[pid][0]}</a></div><div class="'
            'wikibase-statementlistview">'
            + "".join(
                f'<div class="wikibase-statementview"><div class="wikibase-statementview-mainsnak"><div class="'
                f'wikibase-snakview-value">{self._value(kind, value)}</div></div>'
                + "".join(
                    f'<div class="wikibase-snakview-qualifiers"><a href="/wiki/Property:{q}">{PROPERTIES[q][0]}'
                    f"</a> {esc(text)}</div>"
                    for q, text in qualifiers
                )
                + '<span class="wikibase-statementview-references-heading">0 references</span></div>'
                for _, kind, value, qualifiers in statements
            )
            + "</div></div>"
            for pid, statements in groups.items()
        )
        content = (
            '<h1 id="firstHeading" class="firstHeading"><span class="wikibase-title">'
            f'<span class="wikibase-title-label">'
            f'{esc(entity.label)}</span> <span class="wikibase-title-id">({qid})</span></span></h1>'
            f'<ul id="p-views"><li><a href="/wiki/Item:{qid}">Item</a></li><li><a href="/w/index.php?title=Item_talk:'
            f'{qid}&amp;action=edit&amp;redlink=1">Discussion</a></li><li><a href="/w/index.php?title=Item:{qid}&amp;'
            f'action=history">View history</a></li></ul><div class="wikibase-entitytermsview-heading-description">'
            f'{esc(entity.description)}</div><h2 class="wb-section-heading" id="claims">Statements</h2>'
            f'<div class="wikibase-statementgrouplistview">{views}</div>'
        )
        tools = (
            f'<li><a href="/wiki/Special:WhatLinksHere/Item:{qid}">What links here</a></li><li><a href="/w/index.php?'
            f'title=Item:{qid}&amp;action=info">Page information</a></li><li><a href="/wiki/Special:EntityData/{qid}'
            '.json">JSON</a></li>'
        )
        head = f'<link rel="alternate" type="application/json" href="/wiki/Special:EntityData/{qid}.json">'
        return self.page(title=f"{entity.label} ({qid})", content=content, kind="item", head=head, tools=tools)

    def _property(self, request: Request, pid: str) -> Response:
        if pid not in PROPERTIES:
            return self.not_found(f"{pid} does not exist.")
        label, datatype = PROPERTIES[pid]
        content = (
            f'<h1 id="firstHeading"><span class="wikibase-title-label">{label}</span> <span class="wikibase-title-id">'
            f'({pid})</span></h1><div class="wikibase-propertyview-datatype">Data type: {datatype}</div>'
        )
        return self.page(title=f"{label} ({pid})", content=content, kind="property")

    def _links_here(self, request: Request, qid: str) -> Response:
        if qid not in self.entities:
            return self.not_found(f"{qid} does not exist.")
        found = linking(self.entities, qid)
        rows = "".join(
            f'<li>{self._link(e.qid)} ({e.qid}) <span class="mw-whatlinkshere-tools">(<a href="/wiki/'
            f'Special:WhatLinksHere/Item:{e.qid}">← links</a> | <a href="/w/index.php?title=Item:{e.qid}&amp;'
            'action=edit">'
            "edit</a>)</span></li>"
            for e in found[:LIMIT]
        )
        more = "next 50"
        if len(found) > LIMIT:
            more = (
                f'<a href="/w/index.php?title=Special:WhatLinksHere/Item:{qid}&amp;limit={LIMIT}&amp;from='
                f'{found[LIMIT].number}&amp;back=0">next 50</a>'
            )
        content = (
            f'<h1 id="firstHeading">Pages that link to "{esc(self.entities[qid].label)}"</h1><p>The following pages '
            f'link to {self._link(qid)}:</p><p>View (previous 50 | {more})</p><ul id="mw-whatlinkshere-list">'
            f"{rows}</ul>"
        )
        return self.page(title=f"Pages that link to {self.entities[qid].label}", content=content, kind="links")

    def _all_pages(self, request: Request) -> Response:
        if request.param("namespace") != "120":
            listed = '<li><a href="/wiki/Main_Page">Main Page</a></li>'
        else:
            listed = "".join(
                f"<li>{self._link(q)} ({q})</li>" for q in sorted(self.entities, key=lambda q: f"Item:{q}")
            )
        content = (
            '<h1 id="firstHeading">All pages</h1><form class="mw-allpages-form"><select name="namespace"><option '
            'value="0">(Main)</option><option value="120">Item</option><option value="122">Property</option></select>'
            f'<button>Go</button></form><ul class="mw-allpages-chunk">{listed}</ul>'
        )
        return self.page(title="All pages", content=content, kind="all")

    def _entity_data(self, request: Request, qid: str) -> Response:
        entity = self.entities.get(qid)
        if entity is None:
            return self.not_found(f"{qid} does not exist.")
        claims: dict[str, list[object]] = {}
        for pid, kind, value, qualifiers in entity.statements:
            shown: object = value
            if kind == "time":
                day, level = value.split("|")
                kept = {"day": day, "month": day[:8] + "00", "year": day[:5] + "00-00"}[level]
                shown = {"time": f"+{kept}T00:00:00Z", "precision": {"day": 11, "month": 10, "year": 9}[level]}
            elif kind == "url":
                shown = self.links.absolute(value)
            snak = {"snaktype": "value", "property": pid, "datavalue": {"value": shown, "type": kind}}
            claims.setdefault(pid, []).append(
                {"mainsnak": snak, "qualifiers": {q: [{"datavalue": {"value": t}}] for q, t in qualifiers}}
            )
        data = {
            "entities": {
                qid: {
                    "id": qid,
                    "type": "item",
                    "labels": {"en": {"language": "en", "value": entity.label}},
                    "descriptions": {"en": {"language": "en", "value": entity.description}},
                    "claims": claims,
                }
            }
        }
        return Response.json(data, kind="entity-data")

    def _file(self, request: Request, qid: str) -> Response:
        entity = self.entities.get(qid)
        if entity is None or entity.item is None or entity.item.pdf_path != request.path:
            return self.not_found()
        return self.pdf(entity.item)

    def _search(self, request: Request) -> Response:
        text = request.param("search")
        found = search_items(self.items, text) if text else []
        rows = "".join(f'<li><a href="{attr(i.path)}">{esc(i.title)}</a></li>' for i in found)
        return self.page(title="Search results", content=f"<h1>Search results</h1><ul>{rows}</ul>", kind="search")
