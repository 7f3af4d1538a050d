"""HELD OUT, fresh (twenty-second batch): the Tarn Lab Handbook, a hydrology lab's Jupyter Book built with the Sphinx
book theme (see `fresh_heldout22.py`; do not read or tune anything to it). `/` redirects to `intro.html`. Every page
has the book's sidebar: captions for its parts (Welcome, Working in the lab, Fieldwork, Computing, Paper companions),
each listing its chapters; a chapter's sections are listed only while a page of that chapter is open. "Paper
companions" (`papers/index.html`) has a chapter per year, newest first (`papers/2024/index.html`), whose page is a
bibliography of that year's papers as sphinxcontrib-bibtex writes APA, ordered by first author ("Okafor, A., Rossi,
C., & Vance, D. (2024). Title. Journal, 12(3), 45–67. https://doi.org/…"), each title linking its companion page. A
companion page (`papers/2024/<slug>.html`) gives the paper's title, its authors joined with "and", "Published 12
March 2024 in <journal>", its DOI, for a paper first posted as a preprint a link to it on Scree Preprints (one work,
two sites), the abstract and the notebook's cells that redo the paper's figures; "Previous" and "Next" links follow
the book's order and every footer says "Last updated on" the day the book was built. No metadata tags. The search
page is a script over `searchindex.js`; robots.txt forbids the notebook sources and the downloads.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from datetime import date
from typing import ClassVar

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.fresh_heldout22 import JOURNALS, journal_of
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = [
    "BUILT",
    "GUIDES",
    "Entry",
    "Fresh22HandbookSite",
    "apa_authors",
    "apa_citation",
    "book_order",
    "joined_authors",
    "published_line",
    "years_of",
]

#: The day the book was last built (every page's footer).
BUILT = date(2026, 11, 2)
#: The handbook's own pages (path → (part, title, text)) before the paper companions.
GUIDES: dict[str, tuple[str, str, str]] = {
    "intro.html": (
        "Welcome",
        "Welcome to the Tarn Lab",
        "This handbook is how we work: what to do in your first week, how we run fieldwork safely, where our code "
        "and data live, and a companion notebook for every paper we publish, so that anyone can redo our figures.",
    ),
    "onboarding/first-week.html": (
        "Working in the lab",
        "Your first week",
        "Get a university account, join the lab chat, book a desk and ask for access to the shared storage. Read the "
        "code of conduct and the data management plan before your first field trip.",
    ),
    "onboarding/code-of-conduct.html": (
        "Working in the lab",
        "Code of conduct",
        "We treat each other with respect in the lab, in the field and online. Report concerns to the lab lead or to "
        "the department's wellbeing officer; reports are handled in confidence.",
    ),
    "onboarding/data-management.html": (
        "Working in the lab",
        "Data management",
        "Raw data are never edited. Every dataset has a README, a licence and a DOI before the paper that uses it is "
        "submitted. Field notebooks are scanned weekly.",
    ),
    "fieldwork/safety.html": (
        "Fieldwork",
        "Field safety",
        "Nobody works alone on steep ground or on ice. File a trip plan, carry a radio and turn back when the forecast "
        "changes. Winter trips need an avalanche course.",
    ),
    "fieldwork/instruments.html": (
        "Fieldwork",
        "Instruments and loggers",
        "Our tensiometers, piezometers, snow pillows and rain gauges are logged every fifteen minutes. Calibration "
        "sheets are kept with each instrument's record.",
    ),
    "computing/cluster.html": (
        "Computing",
        "Using the cluster",
        "Jobs run through the scheduler; never run heavy work on the login node. Scratch space is purged after thirty "
        "days, so copy results to project storage.",
    ),
    "computing/environments.html": (
        "Computing",
        "Python environments",
        "Each companion notebook pins its environment in an environment.yml. Create it with mamba, then register the "
        "kernel so that the notebook finds it.",
    ),
}
_STYLES = '<link rel="stylesheet" href="/_static/styles/sphinx-book-theme.css" />'
_PARTS = ("Welcome", "Working in the lab", "Fieldwork", "Computing")


def _digest(text: str) -> int:
    return int(hashlib.sha1(text.encode()).hexdigest()[:12], 16)


def joined_authors(authors: tuple[str, ...]) -> str:
    """'A, B and C', as the companion pages name the authors."""
    return authors[0] if len(authors) == 1 else ", ".join(authors[:-1]) + " and " + authors[-1]


def _initials(given: str) -> str:
    return " ".join(f"{part[0]}." for part in given.split())


def apa_authors(authors: tuple[str, ...]) -> str:
    """APA 7 names: 'Okafor, A., Rossi, C., & Vance, D.' (up to twenty; one name alone has no ampersand)."""
    names = [f"{a.rsplit(' ', 1)[1]}, {_initials(a.rsplit(' ', 1)[0])}" for a in authors]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + ", & " + names[-1]


def _volume(item: Item) -> tuple[int, int, int]:
    seed = _digest(item.key)
    first = 1 + seed % 300
    return item.year - 2010 + seed % 3, 1 + seed % 6, first


def apa_citation(item: Item) -> str:
    """The bibliography entry as plain text (the title is a link on the page)."""
    volume, issue, first = _volume(item)
    journal = JOURNALS[journal_of(item.title)]
    return (
        f"{apa_authors(item.authors)} ({item.year}). {item.title}. {journal}, {volume}({issue}), "
        f"{first}–{first + 14 + _digest(item.title) % 20}. https://doi.org/{item.doi}"
    )


def published_line(item: Item) -> str:
    """'Published 12 March 2024 in Earth Surface Letters'."""
    day = date.fromisoformat(item.date)
    return f"Published {day.day} {MONTHS[day.month - 1]} {day.year} in {JOURNALS[journal_of(item.title)]}"


def years_of(items: list[Item]) -> list[int]:
    """The years with papers, newest first (a chapter each)."""
    return sorted({i.year for i in items}, reverse=True)


def _first_author_key(item: Item) -> tuple[str, str, str]:
    first = item.authors[0]
    return first.rsplit(" ", 1)[1], first, item.title


def book_order(items: list[Item]) -> list[Item]:
    """The companions in the book's order: years newest first, within a year by first author (the bibliography's)."""
    return [i for year in years_of(items) for i in sorted((i for i in items if i.year == year), key=_first_author_key)]


@dataclass(frozen=True)
class Entry:
    """One page of the book in its order: its path, title and, for a companion, its paper."""

    path: str
    title: str
    item: Item | None = None


class Fresh22HandbookSite(SiteApp):
    """A Jupyter Book: sidebar of parts, chapters per year of paper companions, bibliographies, notebook pages."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {
        "/people.html": "members",
        "/contact.html": "contact",
        "/accessibility.html": "accessibility",
    }

    def routes(self) -> list[Route]:
        self.by_page = {i.path: i for i in self.items}
        self.order = self._order()
        return [
            (re.compile(r"/"), self._root),
            (re.compile(r"/(?P<path>(?:onboarding|fieldwork|computing)/[a-z-]+\.html|intro\.html)"), self._guide),
            (re.compile(r"/papers/index\.html"), self._papers),
            (re.compile(r"/papers/(?P<year>\d{4})/index\.html"), self._year),
            (re.compile(r"/papers/\d{4}/[a-z0-9-]+\.html"), self._companion),
            (re.compile(r"/_static/papers/\d{4}-[a-z0-9-]+\.pdf"), self._pdf),
            (re.compile(r"/search\.html"), self._search),
            (re.compile(r"/searchindex\.js"), self._search_index),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /_sources/\nDisallow: /_downloads/\nDisallow: /_images/\n"

    def sample_paths(self) -> dict[str, str]:
        item = book_order(self.items)[0]
        return {
            "intro": "/intro.html",
            "guide": "/fieldwork/safety.html",
            "papers": "/papers/index.html",
            "year": f"/papers/{item.year}/index.html",
            "companion": item.path,
            "search": "/search.html",
            "search-index": "/searchindex.js",
        }

    def _order(self) -> list[Entry]:
        entries = [Entry("/" + path, title) for path, (_, title, _) in GUIDES.items()]
        entries.append(Entry("/papers/index.html", "Paper companions"))
        for year in years_of(self.items):
            entries.append(Entry(f"/papers/{year}/index.html", f"Papers from {year}"))
            entries += [Entry(i.path, i.title, i) for i in book_order(self.items) if i.year == year]
        return entries

    # ------------------------------------------------------------------ chrome

    def _sidebar(self, current: str) -> str:
        chapter = re.match(r"/papers/(\d{4})/", current)
        parts = []
        for part in _PARTS:
            links = "".join(
                f'<li class="toctree-l1{" current active" if "/" + path == current else ""}"><a class="reference '
                f'internal" href="/{path}">{esc(title)}</a></li>'
                for path, (owner, title, _) in GUIDES.items()
                if owner == part
            )
            parts.append(
                f'<p class="caption" role="heading"><span class="caption-text">{part}</span></p><ul>{links}</ul>'
            )
        years = []
        for year in years_of(self.items):
            inner = ""
            if chapter is not None and chapter.group(1) == str(year):
                inner = (
                    "<ul>"
                    + "".join(
                        f'<li class="toctree-l2{" current active" if i.path == current else ""}"><a class="reference '
                        f'internal" href="{attr(i.path)}">{esc(i.title)}</a></li>'
                        for i in book_order(self.items)
                        if i.year == year
                    )
                    + "</ul>"
                )
            years.append(
                f'<li class="toctree-l1 has-children"><a class="reference internal" href="/papers/{year}/index.html">'
                f"Papers from {year}</a>{inner}</li>"
            )
        parts.append(
            '<p class="caption" role="heading"><span class="caption-text">Paper companions</span></p><ul><li class='
            f'"toctree-l1"><a class="reference internal" href="/papers/index.html">About the companions</a></li>'
            f"{''.join(years)}</ul>"
        )
        return (
            '<div class="bd-sidebar-primary bd-sidebar"><div class="sidebar-header-items"><a class="navbar-brand '
            'logo" href="/intro.html"><img src="/_static/logo.png" class="logo__image" alt="Tarn Lab Handbook - Home">'
            '</a></div><form class="bd-search" action="/search.html" method="get"><input type="search" name="q" '
            'placeholder="Search this book..."></form><nav class="bd-links" aria-label="Main">'
            f"{''.join(parts)}</nav></div>"
        )

    def _frame(self, current: str, title: str, article: str, kind: str, status: int = 200) -> Response:
        paths = [e.path for e in self.order]
        steps = ""
        if current in paths:
            at = paths.index(current)
            if at > 0:
                before = self.order[at - 1]
                steps += (
                    f'<a class="left-prev" href="{attr(before.path)}"><p class="prev-next-subtitle">previous</p>'
                    f'<p class="prev-next-title">{esc(before.title)}</p></a>'
                )
            if at + 1 < len(paths):
                after = self.order[at + 1]
                steps += (
                    f'<a class="right-next" href="{attr(after.path)}"><p class="prev-next-subtitle">next</p>'
                    f'<p class="prev-next-title">{esc(after.title)}</p></a>'
                )
        body = (
            f'<div class="bd-container"><div class="bd-container__inner bd-page-width">{self._sidebar(current)}'
            '<main id="main-content" class="bd-main"><div class="bd-header-article"><div class="article-header-'
            'buttons"><a href="https://mybinder.org/v2/gh/tarn-lab/handbook/main" class="btn">Launch Binder</a>'
            '<a href="https://github.com/tarn-lab/handbook" class="btn">Repository</a></div></div><article class='
            f'"bd-article" role="main">{article}</article><footer class="prev-next-footer">{steps}</footer>'
            '</main></div></div><footer class="bd-footer-content"><p class="component-author">By the Tarn Lab, '
            'Department of Geography and Earth Sciences</p><p class="copyright">© Copyright 2026.</p><p class='
            f'"last-updated">Last updated on {BUILT:%b} {BUILT.day:02d}, {BUILT.year}.</p><p><a href="/people.html">'
            'People</a> · <a href="/contact.html">Contact</a> · <a href="/accessibility.html">Accessibility</a></p>'
            "</footer>"
        )
        html = document(title=f"{title} — Tarn Lab Handbook", head=_STYLES, body=body)
        return Response.html(html, kind=kind, status=status)

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        return self._frame("", title, content, kind, status)

    # ------------------------------------------------------------------ pages

    def _root(self, request: Request) -> Response:
        return Response.redirect("/intro.html", status=302)

    def _guide(self, request: Request, path: str) -> Response:
        _, title, text = GUIDES[path]
        article = f'<section id="{attr(path.rsplit("/", 1)[-1][:-5])}"><h1>{esc(title)}</h1><p>{esc(text)}</p>'
        if path == "intro.html":
            article += (
                '<p>Start with <a class="reference internal" href="/onboarding/first-week.html">Your first week'
                '</a>. Our papers and the notebooks behind them are under <a class="reference internal" href="/papers/'
                'index.html">Paper companions</a>.</p>'
            )
        return self._frame("/" + path, title, article + "</section>", "about")

    def _papers(self, request: Request) -> Response:
        years = "".join(
            f'<li><a class="reference internal" href="/papers/{year}/index.html">Papers from {year}</a> '
            f"({sum(i.year == year for i in self.items)})</li>"
            for year in years_of(self.items)
        )
        article = (
            '<section id="paper-companions"><h1>Paper companions</h1><p>Every paper the lab publishes has a companion '
            "here: a notebook that downloads the data from its archive and redoes the paper's figures. Companions are "
            "grouped by the year the paper appeared; each year's page lists its papers as a bibliography.</p>"
            f'<div class="toctree-wrapper compound"><ul>{years}</ul></div></section>'
        )
        return self._frame("/papers/index.html", "Paper companions", article, "collection")

    def _year(self, request: Request, year: str) -> Response:
        mine = [i for i in book_order(self.items) if str(i.year) == year]
        if not mine:
            return self.not_found()
        entries = "".join(
            f'<div class="citation" id="id{n}" role="doc-biblioentry"><span class="label"><span class="fn-bracket">'
            f'[</span>{esc(self._label(i))}<span class="fn-bracket">]</span></span><p>{esc(apa_authors(i.authors))}'
            f' ({i.year}). <a class="reference internal" href="{attr(i.path.rsplit("/", 1)[1])}">{esc(i.title)}</a>.'
            f' <em>{esc(JOURNALS[journal_of(i.title)])}</em>, {esc(self._pages(i))}. <a class="reference external" '
            f'href="https://doi.org/{attr(i.doi)}">https://doi.org/{esc(i.doi)}</a></p></div>'
            for n, i in enumerate(mine, 1)
        )
        article = (
            f'<section id="papers-from-{year}"><h1>Papers from {year}</h1><p>Papers the lab published in {year}. '
            "Follow a title to its companion notebook.</p>"
            f'<div class="docutils container" id="id0"><div role="list" class="citation-list">{entries}</div></div>'
            "</section>"
        )
        return self._frame(f"/papers/{year}/index.html", f"Papers from {year}", article, "listing")

    @staticmethod
    def _label(item: Item) -> str:
        return f"{item.authors[0].rsplit(' ', 1)[1][:3]}{str(item.year)[2:]}"

    @staticmethod
    def _pages(item: Item) -> str:
        volume, issue, first = _volume(item)
        return f"{volume}({issue}), {first}–{first + 14 + _digest(item.title) % 20}"

    def _companion(self, request: Request) -> Response:
        item = self.by_page.get(request.path)
        if item is None:
            return self.not_found()
        preprint = ""
        for copy in self.testbed.copies_of(item):
            if copy.site != item.site:
                preprint = (
                    '<p>A preprint of this paper was posted on <a class="reference external" href="'
                    f'{attr(self.links.on_site(copy.site, copy.path))}">Scree Preprints</a> before review.</p>'
                )
        slug = item.path.rsplit("/", 1)[1][:-5]
        keyword = item.keywords[0] if item.keywords else "the study area"
        cells = (
            '<div class="cell docutils container"><div class="cell_input docutils container"><div class="highlight-'
            'ipython3 notranslate"><pre><span></span>import xarray as xr\nimport pandas as pd\nimport matplotlib.'
            f'pyplot as plt\n\nrecords = pd.read_csv("data/{esc(slug[:24])}.csv", parse_dates=["time"])\nrecords.'
            'describe()</pre></div></div><div class="cell_output docutils container"><div class="output text_plain'
            f'"><pre>count    {2000 + _digest(slug) % 7000}\nmean     {(_digest(slug) % 900) / 10:.1f}\nstd      '
            f"{(_digest(slug) % 300) / 10:.1f}</pre></div></div></div><p>The next cell redoes Figure 2 for "
            f'{esc(keyword)}.</p><div class="cell docutils container"><div class="cell_input docutils container">'
            '<pre>fig, ax = plt.subplots(figsize=(8, 4))\nrecords.plot(x="time", y="value", ax=ax)\nax.set_ylabel('
            '"observed")</pre></div><div class="cell_output docutils container"><img alt="../../_images/figure2.png" '
            'src="/_images/figure2.png" /></div></div>'
        )
        article = (
            f'<section class="tex2jax_ignore mathjax_ignore" id="{attr(slug)}"><h1>{esc(item.title)}</h1><div class='
            '"admonition note"><p class="admonition-title">About this paper</p><p>'
            f'{esc(joined_authors(item.authors))}</p><p>{esc(published_line(item))}. DOI: <a class="reference external"'
            f' href="https://doi.org/{attr(item.doi)}">{esc(item.doi)}</a></p>{preprint}<p><a class="reference '
            f'internal" href="{attr(item.pdf_path)}">Accepted manuscript (PDF)</a> · <a class="reference download '
            f'internal" href="/_downloads/{_digest(slug) % 10**8:08x}/{attr(slug)}.ipynb">Download the notebook</a>'
            f'</p></div><section id="abstract"><h2>Abstract</h2><p>{esc(item.abstract)}</p></section><section '
            f'id="reproducing-the-figures"><h2>Reproducing the figures</h2>{cells}</section></section>'
        )
        return self._frame(item.path, item.title, article, "article")

    def _pdf(self, request: Request) -> Response:
        item = next((i for i in self.items if i.pdf_path == request.path), None)
        return self.pdf(item) if item is not None else self.not_found()

    def _search(self, request: Request) -> Response:
        article = (
            '<section id="search-documentation"><h1>Search</h1><noscript><div class="admonition error"><p>Please '
            'activate JavaScript to enable the search functionality.</p></div></noscript><form action="" method='
            '"get"><input type="text" name="q" aria-labelledby="search-documentation" value="" autocomplete="off">'
            '<input type="submit" value="search"></form><div id="search-results"></div></section><script src='
            '"/_static/searchtools.js"></script><script src="/searchindex.js" defer></script>'
        )
        return self._frame("/search.html", "Search", article, "search")

    def _search_index(self, request: Request) -> Response:
        docnames = [e.path.lstrip("/")[:-5] for e in self.order]
        index = {"docnames": docnames, "titles": [e.title for e in self.order], "envversion": {"sphinx": 61}}
        return Response.text(
            f"Search.setIndex({json.dumps(index, ensure_ascii=False)})", kind="script", content_type="text/javascript"
        )
