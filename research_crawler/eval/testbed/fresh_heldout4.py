"""HELD OUT, and fresh (fourth batch): three more sites built as a university library's thesis server, a research
group's own website and an Open Journal Systems journal are, on topics no other testbed site holds
(`fresh_heldout4_topics.toml`), written with their requests and ground truth before the crawler was ever run on
them. Do not read or tune anything to this module, to `fresh_heldout4_lab.py`, `fresh_heldout4_journal.py` or the
topics file: their first run is the measure.

- OPUS Lindenau (`fresh4-theses`): a German university library's thesis server (OPUS-like): every listing is a
  result page of its GET search, reached from the home page's browse links; facets as links ("2024 (5)") narrow by
  faculty, year and document type; results page by "Weiter »" (``start=``); records are a labelled field table in
  German ("Verfasser", "Betreuer", "Gutachter", "Datum der Freischaltung: 14.03.2024", "Tag der mündlichen Prüfung")
  naming advisors and examiners who are not authors, one author each; some full texts are embargoed (the PDF
  answers 403); exports are forbidden by robots.txt.
- Coastal Dynamics Group (`fresh4-lab`, in `fresh_heldout4_lab.py`): a research group's website: one long
  publications page grouped by year with anchors (``#y2024``), each entry a citation string ("Surname, I., … (2024).
  Title. Journal, 12(3), 45–60.") whose DOI points to another host; a details page per paper (abstract, a BibTeX
  block, the date only as "Mar 12, 2024") served both with and without its trailing slash, members' pages linking
  the slashless copy. Some of its papers are published in the journal below (one work, two sites).
- Journal of Coastal and Rural Environments (`fresh4-journal`, in `fresh_heldout4_journal.py`): an OJS journal:
  archive of issues paged → issue table of contents by section with "PDF" galley links → article abstract pages;
  ``citation_*`` tags only on articles since 2024; a language switch to Spanish chrome by a cookie; the home page's
  "Recently published" box is filled by a script from the REST API, which robots.txt forbids.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from datetime import date, timedelta
from typing import ClassVar
from urllib.parse import urlencode

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import attr, document, esc, url_slug
from research_crawler.eval.testbed.models import Item, SiteSpec
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp
from research_crawler.eval.testbed.vocabulary import DOI_PREFIX, author_names

__all__ = [
    "FRESH4_BATCH",
    "FRESH4_PER_TOPIC",
    "FRESH4_PLANS",
    "FRESH4_SITE_SPECS",
    "FRESH4_TOPICS_FILE",
    "RESULTS_PER_PAGE",
    "Fresh4ThesesSite",
    "embargoed",
    "fresh4_identity",
    "german_date",
    "thesis_people",
]

#: The fourth batch's own topics and near misses (the format of `unfamiliar_topics.toml`), held out with it.
FRESH4_TOPICS_FILE = "fresh_heldout4_topics.toml"
JOURNAL_PATH = "/index.php/jcre"
#: Venues of the group's papers that are not in the journal above: (DOI code, title).
LAB_VENUES = (
    ("cel", "Coastal Engineering Letters"),
    ("esd", "Earth Surface Dynamics Notes"),
    ("mgr", "Marine Geology Reports"),
    ("ecs", "Estuarine, Coastal and Shelf Processes"),
)

FRESH4_SITE_SPECS: tuple[SiteSpec, ...] = (
    SiteSpec(
        name="fresh4-theses",
        title="OPUS Lindenau",
        layout="fresh4-theses",
        tagline="Der Hochschulschriftenserver der Universitätsbibliothek Lindenau",
        categories={
            "bilingual-acquisition": "Philosophische Fakultät",
            "classroom-air": "Fakultät für Bauingenieurwesen",
            "bee-colonies": "Fakultät für Agrarwissenschaften",
            "bilingual-other": "Philosophische Fakultät",
        },
    ),
    SiteSpec(
        name="fresh4-lab",
        title="Coastal Dynamics Group",
        layout="fresh4-lab",
        tagline="Department of Geography, University of Ardmore",
        categories={"coastal-erosion": "Shoreline change", "coast-other": "Shoreline change"},
    ),
    SiteSpec(
        name="fresh4-journal",
        title="Journal of Coastal and Rural Environments",
        layout="fresh4-journal",
        tagline="An open-access journal published by Ferrand University Press",
        categories={
            "coastal-erosion": "Coasts and Estuaries",
            "bee-colonies": "Agriculture and Ecology",
            "colony-other": "Agriculture and Ecology",
        },
    ),
)
#: Each site's requests, as `unfamiliar_corpus.UNFAMILIAR_PLANS` writes them (no "by" on the thesis server: one
#: author a thesis).
FRESH4_PLANS: dict[str, tuple[str, ...]] = {
    "fresh4-theses": ("topic", "year", "recent", "year"),
    "fresh4-lab": ("topic", "year", "author", "recent"),
    "fresh4-journal": ("topic", "cross:fresh4-lab", "recent", "year"),
}
#: Papers per topic on each site (the group and the journal share coastal papers: at most 10 works between them).
FRESH4_PER_TOPIC: dict[str, tuple[int, int]] = {
    "fresh4-theses": (5, 7),
    "fresh4-lab": (4, 5),
    "fresh4-journal": (4, 5),
}
#: Works on two sites: the group's papers that the journal publishes.
FRESH4_SHARED: dict[tuple[str, str], tuple[str, ...]] = {("fresh4-lab", "fresh4-journal"): ("coastal-erosion",)}
#: Sites whose works have one author each (a thesis); its other names are advisors and examiners.
FRESH4_SOLO = ("fresh4-theses",)
#: What `unfamiliar_corpus` adds, from its own random stream: the sites, requests, shared works, one-author sites.
FRESH4_BATCH = (FRESH4_SITE_SPECS, FRESH4_PLANS, FRESH4_SHARED, FRESH4_SOLO)

RESULTS_PER_PAGE = 10
_TYPES = ("Dissertation", "Masterarbeit")


def fresh4_identity(layout: str, day: date, serial: int, title: str) -> tuple[str, str, str, str | None, str | None]:
    """(key, path, PDF path, DOI, preprint id) of an item of the fourth fresh batch."""
    if layout == "fresh4-theses":
        key = str(serial)
        return (
            key,
            f"/frontdoor/index/index/docId/{serial}",
            f"/files/{serial}/{url_slug(title, limit=40)}.pdf",
            None,
            None,
        )
    if layout == "fresh4-lab":
        slug = url_slug(title, limit=70)
        code = LAB_VENUES[serial % len(LAB_VENUES)][0]
        return (
            slug,
            f"/publications/{slug}/",
            f"/files/{slug}.pdf",
            f"{DOI_PREFIX}/{code}.{day.year}.{serial:04d}",
            None,
        )
    volume = day.year - 2018
    return (
        str(serial),
        f"{JOURNAL_PATH}/article/view/{serial}",
        f"{JOURNAL_PATH}/article/download/{serial}/{serial + 2000}",
        f"{DOI_PREFIX}/jcre.v{volume}.{serial}",
        None,
    )


def german_date(day: date) -> str:
    """'2024-03-14' → '14.03.2024', as the library writes dates."""
    return f"{day:%d.%m.%Y}"


def embargoed(item: Item) -> date | None:
    """Until when a thesis's full text is locked (every fourth thesis), else None."""
    return date.fromisoformat(item.date) + timedelta(days=730) if int(item.key) % 4 == 0 else None


def thesis_people(item: Item) -> tuple[str, str, str]:
    """(advisor, second examiner, document type) of a thesis: the library's record, not its authors."""
    rng = random.Random(f"fresh4-people-{item.id}")
    given, surnames = author_names()
    advisor, examiner = (f"{rng.choice(given)} {rng.choice(surnames)}" for _ in range(2))
    return advisor, examiner, _TYPES[int(item.key) % 3 == 0]


def _code(name: str) -> str:
    """A faculty's name as its facet value: 'Fakultät für Chemie' → 'fakultaet-fuer-chemie'."""
    for umlaut, plain in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss")):
        name = name.replace(umlaut, plain)
    return url_slug(name)


#: The search's filters: (parameter, the item's value for it).
_FILTERS: tuple[tuple[str, Callable[[Item], str]], ...] = (
    ("fakultaet", lambda i: _code(i.category)),
    ("jahr", lambda i: str(i.year)),
    ("dokumentart", lambda i: thesis_people(i)[2]),
)


def _inverted(name: str) -> str:
    parts = name.split()
    return f"{parts[-1]}, {' '.join(parts[:-1])}"


class Fresh4ThesesSite(SiteApp):
    """A library's thesis server: listings are GET search results narrowed by facet links, German field tables."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/home/index/help": "help", "/home/index/contact": "contact",
                                                   "/home/index/imprint": "terms"}  # fmt: skip

    def routes(self) -> list[Route]:
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/solrsearch/index/search"), self._search),
            (re.compile(r"/browse/year"), self._years),
            (re.compile(r"/frontdoor/index/index/docId/(?P<doc>\d+)"), self._record),
            (re.compile(r"/files/(?P<doc>\d+)/(?P<name>[a-z0-9-]+)\.pdf"), self._file),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /export/\nDisallow: /oai\nDisallow: /statistic/\nDisallow: /admin/\n"

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        return {"home": "/", "years": "/browse/year", "latest": "/solrsearch/index/search?sort=neu",
                "facet": f"/solrsearch/index/search?jahr={item.year}", "record": item.path,
                "search": "/solrsearch/index/search?query=bienen"}  # fmt: skip

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            f'<header><a href="/" class="logo">{esc(self.spec.title)}</a> <span>{esc(self.spec.tagline)}</span>'
            '<nav><a href="/">Startseite</a> <a href="/solrsearch/index/search?sort=neu">Neueste Dokumente</a> '
            '<a href="/browse/year">Browsen</a> <a href="/home/index/help">Hilfe</a> '
            '<a href="/admin/login">Anmelden</a></nav>'
            '<form action="/solrsearch/index/search" method="get"><input name="query" aria-label="Suche">'
            '<button type="submit">Suchen</button></form></header>\n'
            f"<main>{content}</main>\n"
            '<footer>Universitätsbibliothek Lindenau · <a href="/home/index/contact">Kontakt</a> · '
            '<a href="/home/index/imprint">Impressum</a></footer>'
        )
        html = document(title=f"{title} – {self.spec.title}", head=head, body=body, lang="de")
        return Response.html(html, kind=kind, status=status)

    # ------------------------------------------------------------------ browsing is searching

    @staticmethod
    def _search_link(**params: str | int) -> str:
        return "/solrsearch/index/search?" + urlencode({k: v for k, v in params.items() if v != ""})

    def _faculties(self) -> list[str]:
        return list(dict.fromkeys(self.spec.categories.values()))

    def _home(self, request: Request) -> Response:
        faculties = "".join(
            f'<li><a href="{attr(self._search_link(fakultaet=_code(name)))}">{esc(name)}</a></li>'
            for name in self._faculties()
        )
        content = (
            f"<h1>Willkommen bei {esc(self.spec.title)}</h1><p>Hier veröffentlichen Angehörige der Universität "
            "Lindenau ihre Dissertationen und Masterarbeiten im Open Access. Suchen Sie im Volltext oder browsen Sie "
            f"nach Fakultät und Jahr.</p><h2>Browsen nach Fakultät</h2><ul>{faculties}</ul>"
            '<p><a href="/browse/year">Browsen nach Erscheinungsjahr</a> · '
            '<a href="/solrsearch/index/search?sort=neu">Neueste Dokumente</a></p>'
        )
        return self.page(title="Startseite", content=content, kind="home")

    def _years(self, request: Request) -> Response:
        years = sorted({i.year for i in self.items}, reverse=True)
        rows = "".join(f'<li><a href="{attr(self._search_link(jahr=y))}">{y}</a></li>' for y in years)
        content = f"<h1>Browsen nach Erscheinungsjahr</h1><ul>{rows}</ul>"
        return self.page(title="Browsen", content=content, kind="years")

    def _search(self, request: Request) -> Response:
        query, faculty, year, kind = (request.param(n) for n in ("query", "fakultaet", "jahr", "dokumentart"))
        found = search_items(self.items, query) if query.strip() else list(self.items)
        if request.param("sort", "neu" if not query.strip() else "relevanz") == "neu":
            found = sorted(found, key=lambda i: i.date, reverse=True)
        current = {"query": query, "fakultaet": faculty, "jahr": year, "dokumentart": kind,
                   "sort": request.param("sort")}  # fmt: skip
        narrowed = [
            i for i in found if all(value_of(i) == current[name] for name, value_of in _FILTERS if current[name])
        ]
        start = request.int_param("start", 0, maximum=max(0, len(narrowed) - 1))
        shown = narrowed[start : start + RESULTS_PER_PAGE]
        hits = "".join(
            f'<li><a href="{attr(i.path)}">{esc(i.title)}</a><br>{esc(_inverted(i.authors[0]))} · {i.year} · '
            f"{esc(thesis_people(i)[2])}</li>"
            for i in shown
        )
        pager = ""
        if start > 0:
            pager += (
                f'<a href="{attr(self._search_link(**current, start=max(0, start - RESULTS_PER_PAGE)))}">« Zurück</a> '
            )
        if start + RESULTS_PER_PAGE < len(narrowed):
            pager += f'<a href="{attr(self._search_link(**current, start=start + RESULTS_PER_PAGE))}">Weiter »</a>'
        summary = f"{start + 1} bis {start + len(shown)} von {len(narrowed)} Treffern" if shown else "Keine Treffer."
        content = (
            f'<div class="facets">{self._facets(found, current)}</div><div class="results"><h1>Suchergebnisse</h1>'
            f'<p>{summary}</p><form action="/solrsearch/index/search" method="get">'
            f'<input type="hidden" name="query" value="{attr(query)}"><label>Sortieren nach <select name="sort">'
            '<option value="relevanz">Relevanz</option><option value="neu">Datum (neueste zuerst)</option></select>'
            f'</label><button>OK</button></form><ol start="{start + 1}">{hits}</ol><p class="pager">{pager}</p></div>'
        )
        return self.page(title="Suchergebnisse", content=content, kind="results")

    def _facets(self, found: list[Item], current: dict[str, str]) -> str:
        """Facet links, each value counted among the hits the other facets leave (as Solr counts them)."""
        labels = {"fakultaet": {_code(n): n for n in self._faculties()}}
        html = []
        for (name, value_of), heading in zip(_FILTERS, ("Fakultät", "Jahr", "Dokumentart"), strict=True):
            others = [i for i in found if all(v(i) == current[n] for n, v in _FILTERS if n != name and current[n])]
            counts: dict[str, int] = {}
            for item in others:
                counts[value_of(item)] = counts.get(value_of(item), 0) + 1
            links = []
            for value in sorted(counts, reverse=name == "jahr"):
                label = f"{esc(labels.get(name, {}).get(value, value))} ({counts[value]})"
                if current[name] == value:
                    drop = self._search_link(**(current | {name: ""}))
                    links.append(f'<li><b>{label}</b> <a href="{attr(drop)}">entfernen</a></li>')
                else:
                    links.append(
                        f'<li><a href="{attr(self._search_link(**(current | {name: value})))}">{label}</a></li>'
                    )
            html.append(f"<h3>{heading}</h3><ul>{''.join(links)}</ul>")
        return "".join(html)

    # ------------------------------------------------------------------ records

    def _record(self, request: Request, doc: str) -> Response:
        item = self.item_at(f"/frontdoor/index/index/docId/{doc}")
        if item is None:
            return self.not_found("Das Dokument existiert nicht.")
        advisor, examiner, kind = thesis_people(item)
        online = date.fromisoformat(item.date)
        defended = online - timedelta(days=20 + int(item.key) % 70)
        locked = embargoed(item)
        full_text = (
            f'<p>Volltext: <a href="{attr(item.pdf_path)}">{esc(item.pdf_path.rsplit("/", 1)[1])}</a> '
            f"(gesperrt bis {german_date(locked)})</p>"
            if locked
            else f'<p>Volltext: <a href="{attr(item.pdf_path)}">{esc(item.pdf_path.rsplit("/", 1)[1])}</a> (PDF)</p>'
        )
        rows = [
            ("Titel (Englisch)", esc(item.title)),
            ("Verfasser", esc(_inverted(item.authors[0]))),
            ("Betreuer", f"Prof. Dr. {esc(_inverted(advisor))}"),
            ("Gutachter", f"Prof. Dr. {esc(_inverted(advisor))}; Dr. {esc(_inverted(examiner))}"),
            ("Dokumentart", kind),
            ("Sprache", "Englisch"),
            ("Jahr der Fertigstellung", str(item.year)),
            ("Tag der mündlichen Prüfung", german_date(defended)) if kind == "Dissertation" else None,
            ("Datum der Freischaltung", german_date(online)),
            ("Fakultät", esc(item.category)),
            ("URN", f"urn:nbn:de:lind-opus-{item.key}"),
            ("Freie Schlagwörter (Englisch)", esc("; ".join(item.keywords))),
        ]
        table = "".join(f"<tr><th>{label}:</th><td>{value}</td></tr>" for row in rows if row for label, value in [row])
        content = (
            f'<h1>{esc(item.title)}</h1><p class="author">{esc(item.authors[0])}</p>{full_text}'
            f'<table class="metadata">{table}</table><h2>Abstract (Englisch)</h2><p>{esc(item.abstract)}</p>'
            f'<p>Export: <a href="/export/bibtex/docId/{item.key}">BibTeX</a> '
            f'<a href="/export/ris/docId/{item.key}">RIS</a> · <a href="/statistic/docId/{item.key}">Statistik</a></p>'
        )
        return self.page(title=item.title, content=content, kind="record")

    def _file(self, request: Request, doc: str, name: str) -> Response:
        item = self.item_at(f"/frontdoor/index/index/docId/{doc}")
        if item is None or item.pdf_path != request.path:
            return self.not_found()
        locked = embargoed(item)
        if locked:
            content = (
                f"<h1>Zugriff gesperrt</h1><p>Der Volltext dieses Dokuments ist bis {german_date(locked)} gesperrt "
                f'(Sperrvermerk des Verfassers). <a href="{attr(item.path)}">Zurück zum Dokument</a></p>'
            )
            return self.page(title="Zugriff gesperrt", content=content, kind="embargo", status=403)
        return self.pdf(item)
