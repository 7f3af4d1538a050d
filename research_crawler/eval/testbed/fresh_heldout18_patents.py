"""HELD OUT, fresh (eighteenth batch): the Nordhavn Patent Register, built as Espacenet shows published patent
documents (see `fresh_heldout18.py`; do not read or tune anything to it). The home page shows the newest
publications and leads to the classification browser (`/classification`), whose CPC subclasses
(`/classification/C04B`) list their families newest publication first, five a page (`?page=2`), each row as
Espacenet writes it (title in capitals, inventors "SURNAME GIVEN [CC]", "Publication info: EP4123456 (A1)
2024-03-15", the priority date). A document's bibliographic data (`/publication/EP4123456A1`) gives its number and
kind code, inventors, applicants, classifications, application and priority numbers with their dates, the
publication date, the abstract and the family's other members: some applications were granted later, the grant (B1)
its own page, the same invention; a family page (`/family/51234567`) lists every member, the foreign ones without
links. The claims tab and the original document are pages of their own. Search, legal status and exports are
forbidden.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date, timedelta
from typing import ClassVar

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.markup import attr, document, esc
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp, paged

__all__ = [
    "PER_PAGE",
    "SUBCLASSES",
    "Fresh18PatentsSite",
    "family_id",
    "grant_date",
    "inventor",
    "newest_first",
    "priority_date",
]

PER_PAGE = 5
#: CPC subclasses the browser shows (symbol → title); one is empty, as most are.
SUBCLASSES = {
    "A01D": "Harvesting; Mowing",
    "B25J": "Manipulators; Chambers provided with manipulation devices",
    "C04B": "Lime, magnesia; slag; cements; compositions thereof, e.g. mortars, concrete or like building materials",
}
_SECTIONS = {"A": "Human necessities", "B": "Performing operations; transporting", "C": "Chemistry; metallurgy"}
_GROUPS = {"C04B": ("C04B28/04", "C04B40/0039", "C04B2103/0001"), "B25J": ("B25J15/0023", "B25J15/12", "A01D46/30")}
_APPLICANTS = {
    "C04B": ("BASALTBOUW B V [NL]", "UNIV ELLESFORD [GB]", "KRONBERG ZEMENT AG [DE]"),
    "B25J": ("FIELDGRASP ROBOTICS LTD [GB]", "AGRIHAND AS [NO]", "UNIV ELLESFORD [GB]"),
}
_COUNTRIES = ("GB", "NL", "DE", "NO", "DK", "US", "FR")
_LAST_BULLETIN = date(2026, 10, 28)


def _hash(text: str) -> int:
    return sum(ord(c) * (n + 13) for n, c in enumerate(text))


def inventor(name: str) -> str:
    """An inventor as Espacenet writes one ('OKAFOR ADA [GB]')."""
    given, _, surname = _plain(name).rpartition(" ")
    return f"{surname.upper()} {given.upper()} [{_COUNTRIES[_hash(name) % len(_COUNTRIES)]}]"


def _plain(name: str) -> str:
    """A name in the patent offices' Latin letters ('Björn' → 'Bjorn')."""
    return "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))


def priority_date(item: Item) -> date:
    """The first filing, a year or more before publication (applications are published 18 months after it)."""
    return date.fromisoformat(item.date) - timedelta(days=540 + _hash(item.title) % 60)


def filing_date(item: Item) -> date:
    return priority_date(item) + timedelta(days=300 + _hash(item.key) % 65)


def grant_date(item: Item) -> date | None:
    """When the application was granted (published as B1), for some applications up to the last bulletin."""
    if _hash(item.title) % 3:
        return None
    granted = date.fromisoformat(item.date) + timedelta(days=420 + _hash(item.key) % 400)
    return granted if granted <= _LAST_BULLETIN else None


def family_id(item: Item) -> str:
    return str(50_000_000 + _hash(item.key + item.title) * 7 % 9_000_000)


def newest_first(items: list[Item]) -> list[Item]:
    return sorted(items, key=lambda i: (i.date, i.key), reverse=True)


def _us_number(item: Item) -> str:
    """The family's US application, published in the same year ('US2024123456')."""
    return f"US{item.year}{_hash(item.key) % 10**7:07d}"


def _number(item: Item) -> tuple[str, str]:
    """(number, kind code) of an application: 'EP4123456', 'A1'."""
    return item.key[:-2], item.key[-2:]


class Fresh18PatentsSite(SiteApp):
    """An Espacenet-like register: home, classification browser, subclass lists, bibliographic data, families."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/help": "help", "/about": "about", "/legal-notice": "terms"}

    def routes(self) -> list[Route]:
        self.by_key = {i.key: i for i in self.items}
        self.grants = {_number(i)[0] + "B1": i for i in self.items if grant_date(i)}
        self.families = {family_id(i): i for i in self.items}
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/classification"), self._browser),
            (re.compile(r"/classification/(?P<symbol>[A-H]\d\d[A-Z])"), self._subclass),
            (re.compile(r"/publication/(?P<key>EP\d{7}[AB][12])"), self._biblio),
            (re.compile(r"/publication/(?P<key>EP\d{7}[AB][12])/claims"), self._claims),
            (re.compile(r"/publication/(?P<key>EP\d{7}A[12])/original-document\.pdf"), self._original),
            (re.compile(r"/family/(?P<number>\d{8})"), self._family),
        ]

    def robots_txt(self) -> str:
        return (
            "User-agent: *\nDisallow: /search\nDisallow: /publication/*/legal-status\nDisallow: /export/\n"
            "Disallow: /api/\nDisallow: /myregister/\n"
        )

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        return {
            "home": "/",
            "browser": "/classification",
            "subclass": f"/classification/{item.category}",
            "biblio": item.path,
            "claims": f"{item.path}/claims",
            "family": f"/family/{family_id(item)}",
            "pdf": item.pdf_path,
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        site = self.spec.title
        body = (
            f'<div id="header"><a href="/" class="logo">{esc(site)}</a><form id="searchForm" action="/search" method='
            '"get"><label for="q">Smart search</label><input type="text" id="q" name="q"><input type="submit" '
            'value="Search"></form><ul class="topnav"><li><a href="/">Home</a></li><li><a href="/classification">'
            'Classification search</a></li><li><a href="/myregister/">My patents list (0)</a></li><li><a href="/help">'
            f'Help</a></li></ul></div><div id="content">{content}</div><div id="footer"><a href="/about">About</a> | '
            f'<a href="/legal-notice">Legal notice</a> | <span>{esc(site)} - {esc(self.spec.tagline)}</span></div>'
        )
        return Response.html(document(title=f"{site} - {title}", head=head, body=body), kind=kind, status=status)

    def _row(self, n: int, item: Item) -> str:
        number, kind = _number(item)
        granted = grant_date(item)
        also = f"; {number} (B1) {granted}" if granted else ""
        return (
            f'<tr class="result"><td class="n">{n}.</td><td><a class="publicationLinkClass" href="{attr(item.path)}">'
            f'{esc(item.title.upper())}</a><div class="inventors">Inventor: '
            f"{esc('; '.join(inventor(a) for a in item.authors[:3]))}{' ...' if len(item.authors) > 3 else ''}"
            f'</div><div class="applicant">Applicant: {esc(self._applicant(item))}</div><div class="cpc">CPC: '
            f'{esc(" ".join(_GROUPS[item.category][:2]))}</div><div class="info">Priority date: '
            f'{priority_date(item)}</div><div class="pubinfo">Publication info: {number} ({kind}) {item.date}'
            f"{also}</div></td></tr>"
        )

    def _applicant(self, item: Item) -> str:
        names = _APPLICANTS[item.category]
        return names[_hash(item.key) % len(names)]

    def _home(self, request: Request) -> Response:
        rows = "".join(self._row(n, i) for n, i in enumerate(newest_first(self.items)[:5], start=1))
        content = (
            f"<h1>{esc(self.spec.title)}</h1><p>{esc(self.spec.tagline)}, with their bibliographic data, claims and "
            'original documents. Browse the <a href="/classification">Cooperative Patent Classification</a> or use '
            f'the smart search.</p><h2>Recently published</h2><table class="resultList">{rows}</table>'
        )
        return self.page(title="Home", content=content, kind="home")

    def _browser(self, request: Request) -> Response:
        sections = ""
        for letter, name in _SECTIONS.items():
            subs = "".join(
                f'<li><a href="/classification/{code}">{code}</a> {esc(title)} '
                f"({sum(1 for i in self.items if i.category == code)})</li>"
                for code, title in SUBCLASSES.items()
                if code.startswith(letter)
            )
            sections += f'<li class="section"><strong>{letter}</strong> {esc(name)}<ul>{subs}</ul></li>'
        content = f'<h1>Cooperative Patent Classification</h1><ul class="cpcBrowser">{sections}</ul>'
        return self.page(title="Classification search", content=content, kind="collection")

    def _subclass(self, request: Request, symbol: str) -> Response:
        if symbol not in SUBCLASSES:
            return self.not_found()
        found = newest_first([i for i in self.items if i.category == symbol])
        shown, pager = paged(request, found, PER_PAGE, lambda n: f"/classification/{symbol}?page={n}")
        start = found.index(shown[0]) + 1 if shown else 1
        rows = "".join(self._row(start + n, i) for n, i in enumerate(shown))
        count = f"<p>Approximately {len(found)} results found</p>" if found else "<p>No results found</p>"
        content = (
            f'<h1>{symbol}: {esc(SUBCLASSES[symbol])}</h1>{count}<p class="sort">Sorted by publication date, newest '
            f'first</p><table class="resultList">{rows}</table>{pager}'
        )
        return self.page(title=f"Results in {symbol}", content=content, kind="listing" if shown else "collection")

    # ------------------------------------------------------------------ one document

    def _document(self, key: str) -> tuple[Item, str, str] | None:
        """(item, kind code, publication date) of an application or a grant."""
        if key in self.by_key:
            item = self.by_key[key]
            return item, key[-2:], item.date
        grant = self.grants.get(key)
        granted = grant_date(grant) if grant is not None else None
        return (grant, "B1", granted.isoformat()) if grant is not None and granted else None

    def _tabs(self, key: str, item: Item, kind: str) -> str:
        tabs = [("Bibliographic data", f"/publication/{key}"), ("Claims", f"/publication/{key}/claims")]
        if kind.startswith("A"):
            tabs.append(("Original document", item.pdf_path))
        tabs.append(("INPADOC legal status", f"/publication/{key}/legal-status"))
        links = "".join(f'<li><a href="{attr(href)}">{esc(name)}</a></li>' for name, href in tabs)
        return f'<ul class="tabs">{links}<li><a href="/family/{family_id(item)}">INPADOC patent family</a></li></ul>'

    def _biblio(self, request: Request, key: str) -> Response:
        found = self._document(key)
        if found is None:
            return self.not_found()
        item, kind, published = found
        number, own = _number(item)
        granted = grant_date(item)
        members = [(f"{number}{own}", f"{number} ({own})")] + ([(f"{number}B1", f"{number} (B1)")] if granted else [])
        family = [f'<a href="/publication/{target}">{esc(label)}</a>' for target, label in members if target != key]
        family += [
            f"{_us_number(item)} (A1)",
            f"WO{filing_date(item).year}{_hash(item.title)} (A1)",
        ]
        also = "; ".join(family)
        filed = filing_date(item)
        rows = [
            ("Inventor(s):", esc("; ".join(inventor(a) for a in item.authors))),
            ("Applicant(s):", esc(self._applicant(item))),
            (
                "Classification:",
                f"- international: {esc(_GROUPS[item.category][0])}<br>- cooperative: "
                + esc("; ".join(f"{g} (EP)" for g in _GROUPS[item.category])),
            ),
            ("Application number:", f"EP{filed:%Y}{_hash(item.key) % 10**7:07d} {filed:%Y%m%d}"),
            (
                "Priority number(s):",
                f"GB{priority_date(item):%Y}{_hash(item.title) % 10**7:07d} {priority_date(item):%Y%m%d}",
            ),
            ("Also published as:", also),
        ]
        table = "".join(f'<tr><th scope="row">{label}</th><td>{value}</td></tr>' for label, value in rows)
        status = "Patent granted" if kind == "B1" else ("The patent has been granted" if granted else "Examination")
        content = (
            f'{self._tabs(key, item, kind)}<div id="pagebody"><h2 class="biblioTitle">Bibliographic data: {number} '
            f'({kind}) ― {published}</h2><h3 class="title">{esc(item.title.upper())}</h3><table class="tableType3">'
            f'{table}</table><p class="status">Status: {status}</p><h4>Abstract of {number} ({kind})</h4><p '
            f'class="printAbstract">{esc(item.abstract)}</p></div>'
        )
        return self.page(title="Bibliographic data", content=content, kind="article")

    def _claims(self, request: Request, key: str) -> Response:
        found = self._document(key)
        if found is None:
            return self.not_found()
        item, kind, _ = found
        words = item.title.lower()
        content = (
            f'{self._tabs(key, item, kind)}<div id="pagebody"><h2>Claims of {key[:-2]} ({kind})</h2><ol class='
            f'"claims"><li>A {esc(words)}, characterised in that it comprises the features disclosed herein.</li>'
            f"<li>The {esc(words)} according to claim 1, for use as described.</li></ol></div>"
        )
        return self.page(title="Claims", content=content, kind="detail")

    def _original(self, request: Request, key: str) -> Response:
        item = self.by_key.get(key)
        return self.pdf(item) if item is not None else self.not_found()

    def _family(self, request: Request, number: str) -> Response:
        item = self.families.get(number)
        if item is None:
            return self.not_found()
        own, kind = _number(item)
        rows = f'<li><a href="{attr(item.path)}">{own} ({kind})</a> {item.date}</li>'
        granted = grant_date(item)
        if granted:
            rows += f'<li><a href="/publication/{own}B1">{own} (B1)</a> {granted}</li>'
        rows += f"<li>{_us_number(item)} (A1)</li>"
        content = (
            f'<h1>INPADOC patent family {number}</h1><p class="title">{esc(item.title.upper())}</p><p>Earliest '
            f'priority: {priority_date(item)}</p><ul class="family">{rows}</ul>'
        )
        return self.page(title="INPADOC patent family", content=content, kind="listing")
