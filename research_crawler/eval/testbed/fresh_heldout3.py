"""HELD OUT, and fresh (third batch): three more sites built as real preprint servers, societies and university
repositories are, on topics no other testbed site holds (`fresh_heldout3_topics.toml`), written with their requests
and ground truth before the crawler was ever run on them. Do not read or tune anything to this module, to
`fresh_heldout3_society.py`, `fresh_heldout3_repository.py` or the topics file: their first run is the measure.

- Strandline Preprints (`fresh3-preprints`): browsed subject → year → month (a calendar of months with counts);
  an Atom feed per subject (``<link rel="alternate">``) and two ``Sitemap:`` lines in robots.txt; a search box that
  only a browser can use (no form: a script builds the results address); preprints in versions ("v1 posted …, v2
  revised …") whose pages carry OpenGraph tags only. Those published since link to the society's version.
- Transactions of the Carrick Society (`fresh3-society`, in `fresh_heldout3_society.py`): every page first asks
  who the visitor is (healthcare professional, researcher, member of the public), answered by a posted form that
  sets a cookie; listings show 6 cards and a "Show more" button whose script fetches the next ones as JSON by an
  opaque cursor; articles carry no tags, only the page's embedded application JSON and a visible "Version of record
  online: 03 May 2024" and "Cite as" line. Publishes some of the preprint server's soil papers (one work, two sites).
- Ashbourne Research Repository (`fresh3-repository`, in `fresh_heldout3_repository.py`): an EPrints-like
  university repository: browse by year (citations grouped by item type) and by division (grouped by year), "Latest
  additions" ordered by deposit as a table of truncated titles paged "Page 2 of 7" / "Older entries »"; item pages
  untagged ("Authors: Surname, Given; …", "Publication date: 3rd March 2024", a later "Date deposited"); its search
  is under /cgi/, which robots.txt forbids.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import ClassVar

from lxml import etree

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc, long_date, meta_property, url_slug
from research_crawler.eval.testbed.models import Item, SiteSpec
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp
from research_crawler.eval.testbed.vocabulary import DOI_PREFIX

__all__ = [
    "FRESH3_BATCH",
    "FRESH3_PER_TOPIC",
    "FRESH3_PLANS",
    "FRESH3_SITE_SPECS",
    "FRESH3_TOPICS_FILE",
    "Fresh3PreprintSite",
    "fresh3_identity",
    "preprint_versions",
]

#: The third batch's own topics and near misses (the format of `unfamiliar_topics.toml`), held out with it.
FRESH3_TOPICS_FILE = "fresh_heldout3_topics.toml"

FRESH3_SITE_SPECS: tuple[SiteSpec, ...] = (
    SiteSpec(
        name="fresh3-preprints",
        title="Strandline Preprints",
        layout="fresh3-preprints",
        tagline="Preprints in the environmental and life sciences, shared before peer review",
        categories={
            "permafrost-carbon": "Biogeosciences",
            "bird-migration": "Ecology and Evolution",
            "soil-microplastics": "Soil Science",
            "permafrost-engineering": "Biogeosciences",
            "tracking-other": "Ecology and Evolution",
        },
    ),
    SiteSpec(
        name="fresh3-society",
        title="Transactions of the Carrick Society",
        layout="fresh3-society",
        tagline="The journal of the Carrick Society for Medicine and the Environment",
        categories={
            "sepsis-detection": "Clinical Medicine",
            "soil-microplastics": "Environmental Health",
            "early-detection-other": "Clinical Medicine",
            "plastics-other": "Environmental Health",
        },
    ),
    SiteSpec(
        name="fresh3-repository",
        title="Ashbourne Research Repository",
        layout="fresh3-repository",
        tagline="Open access to the research of Ashbourne University",
        categories={
            "bird-migration": "School of Biological Sciences",
            "sepsis-detection": "Medical School",
            "permafrost-carbon": "Department of Geography",
            "early-detection-other": "Medical School",
            "tracking-other": "School of Biological Sciences",
        },
    ),
)
#: Each site's requests, as `unfamiliar_corpus.UNFAMILIAR_PLANS` writes them.
FRESH3_PLANS: dict[str, tuple[str, ...]] = {
    "fresh3-preprints": ("topic", "recent", "year"),
    "fresh3-society": ("topic", "recent", "cross:fresh3-preprints", "author"),
    "fresh3-repository": ("topic", "year", "author", "recent"),
}
#: Papers per topic on each site (the two that share soil papers hold at most 10 works between them).
FRESH3_PER_TOPIC: dict[str, tuple[int, int]] = {
    "fresh3-preprints": (4, 5),
    "fresh3-society": (4, 5),
    "fresh3-repository": (5, 7),
}
#: Works on two sites: soil preprints that the society's journal publishes later.
FRESH3_SHARED: dict[tuple[str, str], tuple[str, ...]] = {
    ("fresh3-preprints", "fresh3-society"): ("soil-microplastics",)
}
#: What `unfamiliar_corpus` adds, from its own random stream: the sites, their requests, the works on two sites.
FRESH3_BATCH = (FRESH3_SITE_SPECS, FRESH3_PLANS, FRESH3_SHARED)

_ATOM = "http://www.w3.org/2005/Atom"
_SITEMAP = "http://www.sitemaps.org/schemas/sitemap/0.9"


def fresh3_identity(layout: str, day: date, serial: int, title: str) -> tuple[str, str, str, str | None, str | None]:
    """(key, path, PDF path, DOI, preprint id) of an item of the third fresh batch."""
    if layout == "fresh3-preprints":
        key = f"{day:%y%m}.{serial:05d}"
        return key, f"/preprint/{key}", f"/preprint/{key}.full.pdf", None, key
    if layout == "fresh3-society":
        key = f"tcs.{day.year}.{serial:04d}"
        slug = url_slug(title, limit=50)
        return (
            key,
            f"/journal/article/{serial}/{slug}",
            f"/journal/article-pdf/{serial}/{key}.pdf",
            f"{DOI_PREFIX}/{key}",
            None,
        )
    return f"ashb-{serial}", f"/id/eprint/{serial}/", f"/id/eprint/{serial}/1/{url_slug(title)}.pdf", None, None


def preprint_versions(item: Item) -> list[date]:
    """When each version of a preprint was posted: v1 on the item's date; every third preprint revised once."""
    first = date.fromisoformat(item.date)
    serial = int(item.key[-5:])
    return [first] if serial % 3 else [first, first + timedelta(days=25 + serial % 140)]


def _short(day: date) -> str:
    return f"{day.day} {MONTHS[day.month - 1][:3]} {day.year}"


class Fresh3PreprintSite(SiteApp):
    """A preprint server: subject → year → month listings, an Atom feed per subject, sitemaps, versions."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/about": "about", "/submit": "submit", "/help": "help"}

    def routes(self) -> list[Route]:
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/subject/(?P<code>[a-z-]+)"), self._subject),
            (re.compile(r"/subject/(?P<code>[a-z-]+)/feed\.atom"), self._feed),
            (re.compile(r"/subject/(?P<code>[a-z-]+)/(?P<year>\d{4})"), self._year),
            (re.compile(r"/subject/(?P<code>[a-z-]+)/(?P<year>\d{4})/(?P<month>\d\d)"), self._month),
            (re.compile(r"/preprint/(?P<key>\d{4}\.\d{5})(?:v(?P<version>\d))?"), self._preprint),
            (re.compile(r"/preprint/(?P<key>\d{4}\.\d{5})\.full\.pdf"), self._file),
            (re.compile(r"/find"), self._find),
            (re.compile(r"/sitemaps/listings\.xml"), self._listings_sitemap),
            (re.compile(r"/sitemaps/preprints\.xml"), self._preprints_sitemap),
        ]

    def robots_txt(self) -> str:
        return (
            "User-agent: *\nDisallow: /submit/\nDisallow: /moderation/\nDisallow: /preprint/*/stats\n\n"
            f"Sitemap: {self.links.absolute('/sitemaps/listings.xml')}\n"
            f"Sitemap: {self.links.absolute('/sitemaps/preprints.xml')}\n"
        )

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        code = self._code(item.category)
        return {"home": "/", "subject": f"/subject/{code}", "year": f"/subject/{code}/{item.year}",
                "month": f"/subject/{code}/{item.date[:4]}/{item.date[5:7]}", "preprint": item.path,
                "version": f"{item.path}v1", "find": "/find?text=terns"}  # fmt: skip

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            f'<header><a class="brand" href="/">{esc(self.spec.title)}</a> <nav><a href="/">Subjects</a> '
            '<a href="/about">About</a> <a href="/submit">Submit a preprint</a> <a href="/help">Help</a></nav>'
            '<div class="search" role="search"><input type="search" id="q" placeholder="Search preprints" '
            'aria-label="Search preprints"> <button type="button" id="go">Search</button></div>'
            "<script>document.getElementById('go').addEventListener('click', function () {"
            " var q = document.getElementById('q').value.trim();"
            " if (q) { window.location.href = '/find?text=' + encodeURIComponent(q) + '&sort=relevance'; } });"
            "</script></header>\n"
            f"<main>{content}</main>\n<footer>{esc(self.spec.tagline)}. Preprints are not peer reviewed.</footer>"
        )
        return Response.html(document(title=f"{title} | {self.spec.title}", head=head, body=body), kind=kind,
                             status=status)  # fmt: skip

    # ------------------------------------------------------------------ the hierarchy

    @staticmethod
    def _code(category: str) -> str:
        return url_slug(category.split(" and ")[0])

    def _subjects(self) -> dict[str, str]:
        return {self._code(name): name for name in dict.fromkeys(self.spec.categories.values())}

    def _in(self, code: str) -> list[Item]:
        return [i for i in self.items if self._code(i.category) == code]

    def _entry(self, item: Item) -> str:
        versions = preprint_versions(item)
        revised = f"; v{len(versions)} revised {_short(versions[-1])}" if len(versions) > 1 else ""
        return (
            f'<li><a href="{attr(item.path)}">{esc(item.key)}</a> <b>{esc(item.title)}</b><br>'
            f"{esc(', '.join(item.authors))}<br><small>v1 posted {_short(versions[0])}{revised}</small></li>"
        )

    def _crumbs(self, *parts: tuple[str, str]) -> str:
        links = " › ".join(f'<a href="{attr(href)}">{esc(label)}</a>' for label, href in parts)
        return f'<p class="breadcrumbs"><a href="/">Home</a> › {links}</p>'

    def _home(self, request: Request) -> Response:
        subjects = "".join(
            f'<li><a href="/subject/{code}">{esc(name)}</a> ({len(self._in(code))} preprints)</li>'
            for code, name in self._subjects().items()
        )
        content = (
            f"<h1>{esc(self.spec.title)}</h1><p>{esc(self.spec.tagline)}. Every preprint is screened by a "
            f"moderator, then posted in its subject.</p><h2>Browse by subject</h2><ul>{subjects}</ul>"
        )
        return self.page(title="Home", content=content, kind="home")

    def _subject(self, request: Request, code: str) -> Response:
        name = self._subjects().get(code)
        if name is None:
            return self.not_found()
        years = sorted({i.year for i in self._in(code)}, reverse=True)
        rows = "".join(
            f'<li><a href="/subject/{code}/{y}">{y}</a> ({sum(i.year == y for i in self._in(code))})</li>'
            for y in years
        )
        feed = f"/subject/{code}/feed.atom"
        content = (
            f"{self._crumbs((name, f'/subject/{code}'))}<h1>{esc(name)}</h1><p>Preprints by the year they were "
            f'first posted. <a href="{feed}">Subscribe to this subject (Atom)</a></p><ul class="years">{rows}</ul>'
        )
        head = f'<link rel="alternate" type="application/atom+xml" title="{attr(name)}" href="{feed}" />'
        return self.page(title=name, content=content, kind="subject", head=head)

    def _year(self, request: Request, code: str, year: str) -> Response:
        name = self._subjects().get(code)
        posted = [i for i in self._in(code) if i.date[:4] == year] if name else []
        if not posted:
            return self.not_found()
        cells = []
        for month in range(1, 13):
            count = sum(int(i.date[5:7]) == month for i in posted)
            label = f"{MONTHS[month - 1]} ({count})"
            cells.append(
                f'<td><a href="/subject/{code}/{year}/{month:02d}">{label}</a></td>' if count else f"<td>{label}</td>"
            )
        grid = "".join(f"<tr>{''.join(cells[row * 4 : row * 4 + 4])}</tr>" for row in range(3))
        content = (
            f"{self._crumbs((name or '', f'/subject/{code}'), (year, f'/subject/{code}/{year}'))}"
            f'<h1>{esc(name)}: {year}</h1><table class="calendar">{grid}</table>'
        )
        return self.page(title=f"{name} {year}", content=content, kind="year")

    def _month(self, request: Request, code: str, year: str, month: str) -> Response:
        name = self._subjects().get(code)
        posted = [i for i in self._in(code) if i.date[:7] == f"{year}-{month}"] if name else []
        if not posted:
            return self.not_found()
        label = f"{MONTHS[int(month) - 1]} {year}"
        crumbs = self._crumbs(
            (name or "", f"/subject/{code}"), (year, f"/subject/{code}/{year}"), (label, request.path)
        )
        content = (
            f"{crumbs}"
            f"<h1>{esc(name)}: {label}</h1><p>{len(posted)} preprints first posted this month, newest first.</p>"
            f"<ol>{''.join(self._entry(i) for i in posted)}</ol>"
        )
        return self.page(title=f"{name}, {label}", content=content, kind="month")

    # ------------------------------------------------------------------ preprints

    def _preprint(self, request: Request, key: str, version: str | None) -> Response:
        item = self.item_at(f"/preprint/{key}")
        versions = preprint_versions(item) if item else []
        if item is None or (version is not None and not 1 <= int(version) <= len(versions)):
            return self.not_found()
        shown = int(version) if version else len(versions)
        history = "".join(
            f'<li><a href="{attr(item.path)}v{n}">v{n}</a>: {"posted" if n == 1 else "revised"} '
            f"{long_date(day.isoformat())}</li>"
            for n, day in enumerate(versions, start=1)
        )
        newer = (
            f'<p class="notice">A newer version of this preprint is available: v{len(versions)}.</p>'
            if shown < len(versions)
            else ""
        )
        journal = next((c for c in self.testbed.copies_of(item) if c.site != item.site), None)
        published = (
            f'<p class="published">Now published in <a href="{attr(self.links.on_site(journal.site, journal.path))}">'
            f"{esc(self.testbed.site(journal.site).title)}</a>, doi:{esc(journal.doi)}</p>"
            if journal else ""
        )  # fmt: skip
        code = self._code(item.category)
        content = (
            f"{self._crumbs((item.category, f'/subject/{code}'))}{newer}<h1>{esc(item.title)}</h1>"
            f'<p class="authors">{esc(", ".join(item.authors))}</p><p>Strandline {esc(item.key)}v{shown}</p>'
            f"{published}<h2>Abstract</h2><p>{esc(item.abstract)}</p><h2>Version history</h2><ul>{history}</ul>"
            f'<p><a href="{attr(item.pdf_path)}">Download PDF</a></p>'
        )
        head = "\n".join(
            [
                meta_property("og:type", "article"),
                meta_property("og:title", item.title),
                meta_property("og:url", self.links.absolute(item.path)),
                meta_property("og:site_name", self.spec.title),
                *(meta_property("article:author", name) for name in item.authors),
                meta_property("article:published_time", f"{versions[0].isoformat()}T09:00:00+00:00"),
                meta_property("article:modified_time", f"{versions[-1].isoformat()}T09:00:00+00:00"),
            ]
        )
        return self.page(title=item.title, content=content, kind="preprint", head=head)

    def _file(self, request: Request, key: str) -> Response:
        item = self.item_at(f"/preprint/{key}")
        return self.pdf(item) if item else self.not_found()

    def _find(self, request: Request) -> Response:
        text = request.param("text")
        found = search_items(self.items, text) if text.strip() else []
        listed = f"<ol>{''.join(self._entry(i) for i in found[:25])}</ol>" if found else "<p>No preprints match.</p>"
        content = f"<h1>Search</h1><p>{len(found)} results for “{esc(text)}”</p>{listed}"
        return self.page(title="Search", content=content, kind="search")

    # ------------------------------------------------------------------ feeds and sitemaps

    def _feed(self, request: Request, code: str) -> Response:
        name = self._subjects().get(code)
        if name is None:
            return self.not_found()
        feed = etree.Element(f"{{{_ATOM}}}feed", nsmap={None: _ATOM})
        etree.SubElement(feed, f"{{{_ATOM}}}title").text = f"{self.spec.title}: {name}"
        etree.SubElement(feed, f"{{{_ATOM}}}id").text = self.links.absolute(request.path)
        newest = self._in(code)[:10]
        etree.SubElement(feed, f"{{{_ATOM}}}updated").text = f"{newest[0].date}T09:00:00Z"
        etree.SubElement(feed, f"{{{_ATOM}}}link", href=self.links.absolute(f"/subject/{code}"), rel="alternate")
        for item in newest:
            entry = etree.SubElement(feed, f"{{{_ATOM}}}entry")
            etree.SubElement(entry, f"{{{_ATOM}}}title").text = item.title
            etree.SubElement(entry, f"{{{_ATOM}}}id").text = self.links.absolute(item.path)
            etree.SubElement(entry, f"{{{_ATOM}}}link", href=self.links.absolute(item.path), rel="alternate")
            etree.SubElement(entry, f"{{{_ATOM}}}published").text = f"{item.date}T09:00:00Z"
            etree.SubElement(entry, f"{{{_ATOM}}}updated").text = f"{preprint_versions(item)[-1]}T09:00:00Z"
            for author in item.authors:
                etree.SubElement(etree.SubElement(entry, f"{{{_ATOM}}}author"), f"{{{_ATOM}}}name").text = author
            etree.SubElement(entry, f"{{{_ATOM}}}summary").text = item.abstract
        return Response.xml(feed, kind="feed", content_type="application/atom+xml; charset=utf-8")

    def _urlset(self, pages: list[tuple[str, str]]) -> Response:
        urlset = etree.Element(f"{{{_SITEMAP}}}urlset", nsmap={None: _SITEMAP})
        for path, modified in pages:
            url = etree.SubElement(urlset, f"{{{_SITEMAP}}}url")
            etree.SubElement(url, f"{{{_SITEMAP}}}loc").text = self.links.absolute(path)
            etree.SubElement(url, f"{{{_SITEMAP}}}lastmod").text = modified
        return Response.xml(urlset, kind="sitemap")

    def _listings_sitemap(self, request: Request) -> Response:
        pages: dict[str, str] = {}
        for item in sorted(self.items, key=lambda i: i.date):
            code = self._code(item.category)
            for path in (
                f"/subject/{code}",
                f"/subject/{code}/{item.year}",
                f"/subject/{code}/{item.date[:4]}/{item.date[5:7]}",
            ):
                pages[path] = item.date
        return self._urlset(sorted(pages.items()))

    def _preprints_sitemap(self, request: Request) -> Response:
        return self._urlset([(i.path, preprint_versions(i)[-1].isoformat()) for i in self.items])
