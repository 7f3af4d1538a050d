"""HELD OUT, and fresh (second batch): three more sites built unlike ours, as real publishers, repositories and
conferences are, written with their requests and ground truth before the crawler was ever run on them. Their first
benchmark run is kept as it came out (`benchmarks/records/fresh_heldout2_first_run.txt`). Do not read or tune
anything to this module or to `fresh_heldout2_repository.py`.

- Lindqvist Journal of Environmental and Energy Research (`fresh2-journal`): one journal browsed by "All issues"
  (volume per year, one issue per quarter) → an issue's table of contents grouped by article type, pages but no
  dates → articles at DOI-style addresses (``/article/10.5555/ljeer-2024-00123``) whose metadata is only JSON-LD
  and a visible history ("Received …; Accepted …; Published online 3 November 2024"). The newest quarter's articles
  are in no issue yet: only "Early View" lists them. Its search is forbidden by robots.txt.
- Hallam Research Online (`fresh2-repository`, in `fresh2_repository`): an institutional repository (DSpace-like):
  a search whose results page by "Next ›" (``rel="next"``), ranked by relevance unless a sort select asks for the
  newest; browse by community, by issue date and by an author index A–Z; listings show titles in sentence case, cut
  after 70 characters; item pages carry no tags, only a metadata table, with an accession date after the issue date;
  robots.txt forbids usage statistics and the search filters, and asks a 1-second crawl delay.
- The Joint Conference on Computational Science (`fresh2-proceedings`): an edition per year; each edition's
  proceedings is one long table of contents in sessions (keynotes without papers among them) with an author index;
  paper pages with citation_* tags. Some of its speech papers are deposited in the repository too (one work, two
  sites). robots.txt forbids the reviewing system the header links to.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import ClassVar

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import attr, document, esc, json_script, long_date, meta_name
from research_crawler.eval.testbed.models import Item, SiteSpec
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp
from research_crawler.eval.testbed.vocabulary import DOI_PREFIX

__all__ = [
    "FRESH2_BATCH",
    "FRESH2_PER_TOPIC",
    "FRESH2_PLANS",
    "FRESH2_SHARED",
    "FRESH2_SITE_SPECS",
    "Fresh2JournalSite",
    "Fresh2ProceedingsSite",
    "fresh2_identity",
]

FRESH2_SITE_SPECS: tuple[SiteSpec, ...] = (
    SiteSpec(
        name="fresh2-journal",
        title="Lindqvist Journal of Environmental and Energy Research",
        layout="fresh2-journal",
        tagline="An international journal of environmental science and energy technology",
        categories={
            "electrolytes": "Research Article",
            "smoke": "Research Article",
            "bleaching": "Review",
            "electrolyte-drinks": "Short Communication",
            "tobacco": "Research Article",
        },
    ),
    SiteSpec(
        name="fresh2-repository",
        title="Hallam Research Online",
        layout="fresh2-repository",
        tagline="The open-access repository of Hallam University",
        categories={
            "atoms": "Department of Physics",
            "lowres-asr": "School of Computing",
            "bleaching": "School of Ocean Sciences",
            "atom-economy": "Department of Physics",
            "handwriting": "School of Computing",
        },
    ),
    SiteSpec(
        name="fresh2-proceedings",
        title="Joint Conference on Computational Science",
        layout="fresh2-proceedings",
        tagline="Proceedings of the annual Joint Conference on Computational Science (JCCS)",
        categories={
            "lowres-asr": "Speech and Language Processing",
            "antibiotics": "Computational Drug Discovery",
            "electrolytes": "Materials Modelling",
            "handwriting": "Speech and Language Processing",
            "antibiotic-stewardship": "Computational Drug Discovery",
        },
    ),
)
#: Each site's requests, as `unfamiliar_corpus.UNFAMILIAR_PLANS` writes them.
FRESH2_PLANS: dict[str, tuple[str, ...]] = {
    "fresh2-journal": ("topic", "recent", "year"),
    "fresh2-repository": ("topic", "recent", "author"),
    "fresh2-proceedings": ("author", "year", "cross:fresh2-repository"),
}
#: Papers per topic on each site (a report lists 10: the two sites that share speech papers hold at most 10 works).
FRESH2_PER_TOPIC: dict[str, tuple[int, int]] = {
    "fresh2-journal": (5, 7),
    "fresh2-repository": (4, 5),
    "fresh2-proceedings": (4, 5),
}
#: Works on two sites: the conference's speech papers that its authors deposit in the repository as well.
FRESH2_SHARED: dict[tuple[str, str], tuple[str, ...]] = {("fresh2-proceedings", "fresh2-repository"): ("lowres-asr",)}
#: What `unfamiliar_corpus` adds, from its own random stream: the sites, their requests, the works on two sites.
FRESH2_BATCH = (FRESH2_SITE_SPECS, FRESH2_PLANS, FRESH2_SHARED)

_HANDLE = "20.500.11937"
_FIRST_VOLUME_YEAR = 2011  # volume 11 is 2022's


def fresh2_identity(layout: str, day: date, serial: int, title: str) -> tuple[str, str, str, str | None, str | None]:
    """(key, path, PDF path, DOI, preprint id) of an item of the second fresh batch."""
    if layout == "fresh2-journal":
        key = f"ljeer-{day.year}-{serial:05d}"
        doi = f"{DOI_PREFIX}/{key}"
        return key, f"/article/{doi}", f"/content/pdf/{doi}.pdf", doi, None
    if layout == "fresh2-repository":
        return (
            f"hro-{serial}",
            f"/handle/{_HANDLE}/{serial}",
            f"/bitstream/{_HANDLE}/{serial}/1/fulltext.pdf",
            None,
            None,
        )
    key = f"jccs{day.year}-{serial:04d}"
    return key, f"/{day.year}/papers/{key}", f"/{day.year}/papers/{key}.pdf", None, None


def _quarter(item: Item) -> tuple[int, int]:
    return item.year, (int(item.date[5:7]) - 1) // 3 + 1


_QUARTER_MONTHS = ("January–March", "April–June", "July–September", "October–December")


class Fresh2JournalSite(SiteApp):
    """One journal: all issues → an issue's contents by article type → JSON-LD-only articles; Early View."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/about": "about", "/authors": "submit", "/privacy": "privacy"}

    def routes(self) -> list[Route]:
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/loi"), self._issues),
            (re.compile(r"/toc/early"), self._early_view),
            (re.compile(r"/toc/(?P<volume>\d+)/(?P<issue>\d)"), self._contents),
            (re.compile(r"/article/(?P<doi>10\.5555/ljeer-\d{4}-\d{5})"), self._article),
            (re.compile(r"/content/pdf/(?P<doi>10\.5555/ljeer-\d{4}-\d{5})\.pdf"), self._file),
            (re.compile(r"/action/doSearch"), self._search),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /action/\nDisallow: /personalize/\n"

    def sample_paths(self) -> dict[str, str]:
        volume, issue = self._issue_list()[0]
        return {"home": "/", "issues": "/loi", "early": "/toc/early", "contents": f"/toc/{volume}/{issue}",
                "article": self.items[0].path}  # fmt: skip

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            f'<header><a href="/">{esc(self.spec.title)}</a><nav><a href="/toc/early">Early View</a> '
            '<a href="/loi">All issues</a> <a href="/authors">For authors</a> <a href="/about">About</a> '
            '<a href="/personalize/alerts">Get content alerts</a></nav>'
            '<form action="/action/doSearch" method="get"><input name="AllField" aria-label="Search this journal">'
            "<button>Search</button></form></header>\n"
            f'<main>{content}</main>\n<footer>ISSN 2790-1142 (online) · <a href="/privacy">Privacy</a></footer>'
        )
        return Response.html(document(title=f"{title} - {self.spec.title}", head=head, body=body), kind=kind,
                             status=status)  # fmt: skip

    # ------------------------------------------------------------------ where each article appears

    def _early(self) -> tuple[int, int]:
        """The newest quarter, whose articles are published online but in no issue yet."""
        return max(_quarter(item) for item in self.items)

    def _issue_list(self) -> list[tuple[int, int]]:
        """(volume, issue) of every issue, newest first."""
        quarters = sorted({_quarter(item) for item in self.items} - {self._early()}, reverse=True)
        return [(year - _FIRST_VOLUME_YEAR, quarter) for year, quarter in quarters]

    def _in_issue(self, volume: int, issue: int) -> list[Item]:
        """The issue's articles in page order (reviews after research, by when they were accepted)."""
        quarter = (volume + _FIRST_VOLUME_YEAR, issue)
        if quarter == self._early():
            return []
        return sorted((i for i in self.items if _quarter(i) == quarter), key=lambda i: (i.category, i.key))

    def _pages(self, item: Item) -> str:
        year, quarter = _quarter(item)
        inside = self._in_issue(year - _FIRST_VOLUME_YEAR, quarter)
        first = 1 + 14 * (quarter - 1) * 6 + 14 * inside.index(item)
        return f"{first}–{first + 8 + int(item.key[-2:]) % 5}"

    def _entry(self, item: Item, *, early: bool) -> str:
        shown = f"First published: {long_date(item.date)}" if early else f"Pages: {self._pages(item)}"
        return (
            f'<div class="issue-item"><span class="type">{esc(item.category)}</span>'
            f'<h3><a href="{attr(item.path)}">{esc(item.title)}</a></h3>'
            f'<p class="authors">{esc(", ".join(item.authors))}</p><p>{shown}</p>'
            f'<p><a href="{attr(item.pdf_path)}">PDF</a></p></div>'
        )

    # ------------------------------------------------------------------ pages

    def _home(self, request: Request) -> Response:
        volume, issue = self._issue_list()[0]
        content = (
            f"<h1>{esc(self.spec.title)}</h1><p>{esc(self.spec.tagline)}, published quarterly with articles "
            'online as soon as they are accepted.</p><ul><li><a href="/toc/early">Early View: articles online ahead '
            f'of an issue</a></li><li><a href="/toc/{volume}/{issue}">Current issue: Volume {volume}, Issue {issue}'
            '</a></li><li><a href="/loi">All issues</a></li></ul>'
        )
        return self.page(title="Home", content=content, kind="home")

    def _issues(self, request: Request) -> Response:
        parts = []
        for volume in sorted({v for v, _ in self._issue_list()}, reverse=True):
            issues = "".join(
                f'<li><a href="/toc/{volume}/{n}">Issue {n}</a>, {_QUARTER_MONTHS[n - 1]} '
                f"{volume + _FIRST_VOLUME_YEAR}</li>"
                for v, n in self._issue_list() if v == volume
            )  # fmt: skip
            parts.append(f"<h2>Volume {volume} ({volume + _FIRST_VOLUME_YEAR})</h2><ul>{issues}</ul>")
        return self.page(title="All issues", content=f"<h1>All issues</h1>{''.join(parts)}", kind="issues")

    def _contents(self, request: Request, volume: str, issue: str) -> Response:
        items = self._in_issue(int(volume), int(issue))
        if not items:
            return self.not_found()
        sections = []
        for section in dict.fromkeys(item.category for item in items):
            entries = "".join(self._entry(item, early=False) for item in items if item.category == section)
            sections.append(f"<h2>{esc(section)}s</h2>{entries}")
        order = self._issue_list()
        at = order.index((int(volume), int(issue)))
        around = [(label, order[n]) for label, n in (("‹ Previous issue", at + 1), ("Next issue ›", at - 1))
                  if 0 <= n < len(order)]  # fmt: skip
        nav = " ".join(f'<a href="/toc/{v}/{n}">{label}</a>' for label, (v, n) in around)
        heading = (
            f"Volume {volume}, Issue {issue}, {_QUARTER_MONTHS[int(issue) - 1]} {int(volume) + _FIRST_VOLUME_YEAR}"
        )
        content = f"<h1>{heading}</h1><p>{nav}</p>{''.join(sections)}"
        return self.page(title=heading, content=content, kind="contents")

    def _early_view(self, request: Request) -> Response:
        items = sorted((i for i in self.items if _quarter(i) == self._early()), key=lambda i: i.date, reverse=True)
        content = (
            "<h1>Early View</h1><p>Articles published online in their final form before inclusion in an issue.</p>"
            + "".join(self._entry(item, early=True) for item in items)
        )
        return self.page(title="Early View", content=content, kind="early-view")

    def _article(self, request: Request, doi: str) -> Response:
        item = self.item_at(f"/article/{doi}")
        if item is None:
            return self.not_found()
        day = date.fromisoformat(item.date)
        serial = int(item.key[-5:])
        received = day - timedelta(days=120 + serial % 200)
        accepted = day - timedelta(days=12 + serial % 30)
        year, quarter = _quarter(item)
        where = (
            "Early View: online version of record before inclusion in an issue"
            if (year, quarter) == self._early()
            else f'<a href="/toc/{year - _FIRST_VOLUME_YEAR}/{quarter}">Volume {year - _FIRST_VOLUME_YEAR}, '
            f"Issue {quarter}</a>, pages {self._pages(item)}"
        )
        data = {
            "@context": "https://schema.org",
            "@type": "ScholarlyArticle",
            "headline": item.title,
            "author": [{"@type": "Person", "name": name} for name in item.authors],
            "datePublished": item.date,
            "identifier": f"https://doi.org/{item.doi}",
            "isPartOf": {"@type": "Periodical", "name": self.spec.title},
        }
        content = (
            f'<article><p class="type">{esc(item.category)}</p><p>{where}</p><h1>{esc(item.title)}</h1>'
            f'<p class="authors">{esc(", ".join(item.authors))}</p>'
            f"<p>Correspondence: {esc(item.authors[-1])}</p>"
            f"<p>Received {long_date(received.isoformat())}; Accepted {long_date(accepted.isoformat())}; "
            f"Published online {long_date(item.date)}</p><h2>Abstract</h2><p>{esc(item.abstract)}</p>"
            f"<p>Keywords: {esc('; '.join(item.keywords))}</p><p>https://doi.org/{esc(item.doi)}</p>"
            f'<p><a href="{attr(item.pdf_path)}">Download PDF</a></p></article>'
        )
        head = json_script(data, script_type="application/ld+json")
        return self.page(title=item.title, content=content, kind="article", head=head)

    def _file(self, request: Request, doi: str) -> Response:
        item = self.item_at(f"/article/{doi}")
        return self.pdf(item) if item else self.not_found()

    def _search(self, request: Request) -> Response:
        found = search_items(self.items, request.param("AllField"))
        listed = "".join(self._entry(item, early=True) for item in found[:20]) or "<p>No results.</p>"
        return self.page(title="Search", content=f"<h1>Search results</h1>{listed}", kind="search")


class Fresh2ProceedingsSite(SiteApp):
    """A conference: editions → one long table of contents in sessions, an author index; tagged paper pages."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/cfp": "submit", "/organisers": "about", "/venue": "contact"}

    def routes(self) -> list[Route]:
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/(?P<year>20\d\d)/?"), self._contents),
            (re.compile(r"/(?P<year>20\d\d)/authors"), self._author_index),
            (re.compile(r"/(?P<year>20\d\d)/papers/(?P<key>jccs\d{4}-\d{4})"), self._paper),
            (re.compile(r"/(?P<year>20\d\d)/papers/(?P<key>jccs\d{4}-\d{4})\.pdf"), self._file),
            (re.compile(r"/review/.*"), self._review),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /review/\n"

    def sample_paths(self) -> dict[str, str]:
        year = self.items[0].year
        return {"home": "/", "contents": f"/{year}/", "authors": f"/{year}/authors", "paper": self.items[0].path}

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            f'<header><a href="/">JCCS</a> <nav><a href="/cfp">Call for papers</a> <a href="/organisers">'
            'Organisers</a> <a href="/venue">Venue</a> <a href="/review/login">Reviewer login</a></nav></header>\n'
            f"<main>{content}</main>\n<footer>{esc(self.spec.tagline)}</footer>"
        )
        return Response.html(document(title=f"{title} · JCCS", head=head, body=body), kind=kind, status=status)

    def _years(self) -> list[int]:
        return sorted({item.year for item in self.items}, reverse=True)

    def _edition(self, year: int) -> list[Item]:
        """The edition's papers in programme order: by session, then as the programme committee placed them."""
        return sorted((i for i in self.items if i.year == year), key=lambda i: (i.category, i.title[::-1]))

    def _pages(self, item: Item) -> str:
        first = 1 + 12 * self._edition(item.year).index(item)
        return f"{first}–{first + 11}"

    def _home(self, request: Request) -> Response:
        cities = ("Tartu", "Porto", "Ghent", "Bergen", "Trieste", "Aarhus")
        editions = "".join(
            f'<li><a href="/{year}/">JCCS {year}</a>, {cities[year % len(cities)]}: proceedings</li>'
            for year in self._years()
        )
        content = (
            f"<h1>{esc(self.spec.title)}</h1><p>A yearly meeting of researchers who compute: language, drugs, "
            f"materials and more. Every accepted paper appears in the proceedings.</p><h2>Proceedings</h2>"
            f"<ul>{editions}</ul>"
        )
        return self.page(title="Home", content=content, kind="home")

    def _contents(self, request: Request, year: str) -> Response:
        papers = self._edition(int(year))
        if not papers:
            return self.not_found()
        sessions = []
        for n, session in enumerate(dict.fromkeys(item.category for item in papers), start=1):
            rows = "".join(
                f'<tr><td><a href="{attr(item.path)}">{esc(item.title)}</a><br>'
                f'<span class="authors">{esc(", ".join(item.authors))}</span></td>'
                f'<td class="pages">{self._pages(item)}</td></tr>'
                for item in papers
                if item.category == session
            )
            sessions.append(
                f"<h3>Session {n}: {esc(session)}</h3><table>{rows}</table>"
                f"<h3>Keynote {n}</h3><p>Invited talk (no paper in the proceedings).</p>"
            )
        content = (
            f"<h1>Proceedings of JCCS {year}</h1><p>Table of contents</p>"
            f'<p><a href="/{year}/authors">Author index</a></p>{"".join(sessions)}'
        )
        return self.page(title=f"Proceedings {year}", content=content, kind="contents")

    def _author_index(self, request: Request, year: str) -> Response:
        papers = self._edition(int(year))
        if not papers:
            return self.not_found()
        names = sorted({name for item in papers for name in item.authors}, key=lambda n: n.split()[-1])
        rows = "".join(
            f"<li>{esc(name.split()[-1])}, {esc(' '.join(name.split()[:-1]))}: "
            + ", ".join(
                f'<a href="{attr(i.path)}">{self._pages(i).split("–")[0]}</a>' for i in papers if name in i.authors
            )
            + "</li>"
            for name in names
        )
        content = f'<h1>JCCS {year}: author index</h1><p><a href="/{year}/">Table of contents</a></p><ul>{rows}</ul>'
        return self.page(title=f"Author index {year}", content=content, kind="authors")

    def _paper(self, request: Request, year: str, key: str) -> Response:
        item = self.item_at(f"/{year}/papers/{key}")
        if item is None:
            return self.not_found()
        head = "\n".join(
            [
                meta_name("citation_title", item.title),
                *(meta_name("citation_author", name) for name in item.authors),
                meta_name("citation_publication_date", item.date.replace("-", "/")),
                meta_name("citation_conference_title", f"Proceedings of JCCS {item.year}"),
                meta_name("citation_firstpage", self._pages(item).split("–")[0]),
                meta_name("citation_pdf_url", self.links.absolute(item.pdf_path)),
            ]
        )
        content = (
            f'<p><a href="/{item.year}/">Proceedings of JCCS {item.year}</a> › Session: {esc(item.category)}</p>'
            f"<h1>{esc(item.title)}</h1><p>{esc(', '.join(item.authors))}</p>"
            f"<p>Pages {self._pages(item)} · Published online: {item.date}</p><h2>Abstract</h2>"
            f'<p>{esc(item.abstract)}</p><p><a href="{attr(item.pdf_path)}">Paper (PDF)</a></p>'
        )
        return self.page(title=item.title, content=content, kind="paper", head=head)

    def _file(self, request: Request, year: str, key: str) -> Response:
        item = self.item_at(f"/{year}/papers/{key}")
        return self.pdf(item) if item else self.not_found()

    def _review(self, request: Request) -> Response:
        content = '<h1>Reviewer login</h1><form method="post" action="/review/login"><input name="user">' \
                  '<input name="password" type="password"><button>Sign in</button></form>'  # fmt: skip
        return self.page(title="Reviewer login", content=content, kind="login")
