"""The bioRxiv-like site: subject collections, article pages with `citation_*` and Dublin Core tags, and a
search that only works by POST (the query then lives in the URL path, under a robots.txt-disallowed /search/).
"""

from __future__ import annotations

import hashlib
import re
from typing import ClassVar
from urllib.parse import quote

from research_crawler.eval.testbed.corpus import DOI_PREFIX
from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import (
    attr,
    cookie_banner,
    document,
    esc,
    meta_name,
    template,
    tracker,
)
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["BiorxivLikeSite"]

SUBJECTS: tuple[str, ...] = (
    "Animal Behavior and Cognition",
    "Biochemistry",
    "Bioinformatics",
    "Biophysics",
    "Cancer Biology",
    "Cell Biology",
    "Ecology",
    "Evolutionary Biology",
    "Genetics",
    "Genomics",
    "Microbiology",
    "Neuroscience",
    "Plant Biology",
    "Zoology",
)
_PAGE_SIZE = 10
_NUMRESULTS = (10, 25, 50, 75)
_PREFIX = re.escape(DOI_PREFIX)
_KEY = r"(?P<key>\d{4}\.\d{2}\.\d{2}\.\d{6})"


def _slug(subject: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", subject.lower()).strip("-")


_BY_SLUG = {_slug(s): s for s in SUBJECTS}


class BiorxivLikeSite(SiteApp):
    """bioPreprint: the bioRxiv look, HighWire markup, POST-only search."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {
        "/content/about-biopreprint": "about",
        "/content/faq": "help",
        "/content/contact-us": "contact",
        "/content/privacy": "privacy",
        "/content/terms": "terms",
        "/submit-a-manuscript": "submit",
    }

    def routes(self) -> list[Route]:
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/collection/(?P<slug>[a-z0-9-]+)"), self._collection),
            (
                re.compile(
                    rf"/content/{_PREFIX}/{_KEY}(?:v(?P<version>\d+))?"
                    r"(?P<suffix>\.full\.pdf|\.article-info|\.article-metrics)?"
                ),
                self._article,
            ),
            (re.compile(r"/search"), self._search_entry),
            (re.compile(r"/search/(?P<terms>.+)"), self._search_results),
            (re.compile(r"/admin(?:/.*)?"), self._admin),
        ]

    def robots_txt(self) -> str:
        return (
            f"# robots.txt for {self.spec.title}\n"
            "User-agent: *\nDisallow: /search/\nDisallow: /admin/\nDisallow: /user/\n\n"
            "User-agent: GPTBot\nDisallow: /\n"
        )

    def sample_paths(self) -> dict[str, str]:
        first = self.items[0]
        return {
            "home": "/",
            "collection": f"/collection/{_slug(first.category)}",
            "article": first.path,
            "article-info": f"{first.path}.article-info",
            "pdf": first.pdf_path,
            "search-form": "/search",
            "search": "/search/protein%20numresults%3A10%20sort%3Arelevance-rank",
            "about": "/content/about-biopreprint",
            "help": "/content/faq",
        }

    # ------------------------------------------------------------------ chrome

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        a = self.links.absolute
        build_id = hashlib.sha1(f"{self.spec.name}{title}".encode()).hexdigest()[:22]
        subjects = "\n".join(
            f'<li class="leaf"><a href="/collection/{attr(_slug(s))}">{esc(s)}</a></li>' for s in SUBJECTS
        )
        body = template("biorxiv_chrome.html").substitute(
            home=attr(a("/")),
            site_title=esc(self.spec.title),
            tagline=esc(self.spec.tagline),
            build_id=build_id,
            subjects=subjects,
            content=content,
            cookie_banner=cookie_banner(
                site_title=self.spec.title, privacy_href="/content/privacy", style="sliding-popup"
            ),
        )
        head_all = (
            '<link type="text/css" rel="stylesheet" href="/sites/default/files/css/css_biopreprint.css" '
            'media="all" />\n'
            f"{tracker('UA-BIOPREPRINT-1')}\n{head}"
        )
        return Response.html(
            document(
                title=f"{title} | {self.spec.title}",
                head=head_all,
                body=body,
                body_class="html not-front not-logged-in page-node",
            ),
            kind=kind,
            status=status,
        )

    # ------------------------------------------------------------------ pages

    def _citation(self, item: Item, *, position: int) -> str:
        authors = ", ".join(
            f'<span class="highwire-citation-author" data-delta="{n}">'
            f'<span class="nlm-given-names">{esc(name.rpartition(" ")[0])}</span> '
            f'<span class="nlm-surname">{esc(name.rpartition(" ")[2])}</span></span>'
            for n, name in enumerate(item.authors)
        )
        parity = "odd" if position % 2 else "even"
        return (
            f'<li class="{parity} search-result search-result-highwire-citation">'
            '<div class="highwire-article-citation">'
            '<div class="highwire-cite highwire-cite-highwire-article clearfix">'
            '<span class="highwire-cite-title">'
            f'<a href="{attr(item.path)}" class="highwire-cite-linked-title">'
            f'<span class="highwire-cite-title">{esc(item.title)}</span></a></span>\n'
            f'<div class="highwire-cite-authors">{authors}</div>\n'
            '<div class="highwire-cite-metadata">'
            f'<span class="highwire-cite-metadata-journal">{esc(self.spec.title)} </span>'
            f'<span class="highwire-cite-metadata-pages">{esc(item.key)}; </span>'
            f'<span class="highwire-cite-metadata-doi">doi: https://doi.org/{esc(item.doi or "")}</span>'
            "</div></div></div></li>"
        )

    def _pager(self, base: str, page: int, total: int) -> str:
        pages = max(1, -(-total // _PAGE_SIZE))
        cells = [
            f'<li class="pager-current">{n + 1}</li>'
            if n == page
            else f'<li class="pager-item"><a href="{attr(base)}?page={n}">{n + 1}</a></li>'
            for n in range(pages)
        ]
        if page + 1 < pages:
            cells.append(f'<li class="pager-next"><a href="{attr(base)}?page={page + 1}">next ›</a></li>')
            cells.append(f'<li class="pager-last"><a href="{attr(base)}?page={pages - 1}">last »</a></li>')
        return f'<ul class="pager">{"".join(cells)}</ul>'

    def _home(self, request: Request) -> Response:
        newest = "\n".join(self._citation(i, position=n) for n, i in enumerate(self.items[:5], start=1))
        subjects = " ".join(f'<a href="/collection/{attr(_slug(s))}">{esc(s)}</a>' for s in SUBJECTS)
        content = (
            f'<div class="pane-welcome"><h1>{esc(self.spec.title)}</h1><p>{esc(self.spec.tagline)}. '
            "Articles are not peer-reviewed, edited, or typeset before being posted online.</p></div>\n"
            '<div class="pane-new-results"><h2>New Results</h2>'
            f'<ul class="highwire-search-results-list">{newest}</ul>'
            '<a href="/collection/all" class="more-link">More new results</a></div>\n'
            f'<div class="pane-subjects"><h2>Browse by subject</h2><p>{subjects}</p></div>'
        )
        return self.page(title="The preprint server for biology", content=content, kind="home")

    def _collection(self, request: Request, slug: str) -> Response:
        if slug != "all" and slug not in _BY_SLUG:
            return self.not_found(f"No subject collection named {slug}.")
        subject = "All Articles" if slug == "all" else _BY_SLUG[slug]
        items = self.items if slug == "all" else [i for i in self.items if i.category == subject]
        page = request.int_param("page", 0, maximum=10_000)
        shown = items[page * _PAGE_SIZE : (page + 1) * _PAGE_SIZE]
        entries = "\n".join(self._citation(i, position=n) for n, i in enumerate(shown, start=1))
        content = (
            f'<h1 class="pane-title">{esc(subject)}</h1>\n<div class="highwire-list-summary">Showing new and '
            f"updated articles in {esc(subject)} ({len(items)} results)</div>\n"
            + (f'<ul class="highwire-search-results-list">{entries}</ul>' if shown else "<p>No articles found.</p>")
            + self._pager(f"/collection/{slug}", page, len(items))
        )
        return self.page(title=subject, content=content, kind="collection")

    def _article(self, request: Request, key: str, version: str | None, suffix: str | None) -> Response:
        item = next((i for i in self.items if i.key == key), None)
        if item is None:
            return self.not_found(f"No article with DOI {DOI_PREFIX}/{key}.")
        if version != item.path.rsplit("v", 1)[1]:  # unversioned or old version: go to the current one
            return Response.redirect(item.path + (suffix or ""), status=301)
        if suffix == ".full.pdf":
            return self.pdf(item)
        a = self.links.absolute
        head = "\n".join(
            [
                f'<link rel="canonical" href="{attr(a(item.path))}" />',
                meta_name("DC.Format", "text/html"),
                meta_name("DC.Language", "en"),
                meta_name("DC.Title", item.title),
                meta_name("DC.Identifier", item.doi or ""),
                meta_name("DC.Date", item.date),
                meta_name("DC.Publisher", "Cold Harbour Laboratory"),
                meta_name("DC.Rights", "The copyright holder for this preprint is the author/funder. CC BY 4.0"),
                meta_name("DC.AccessRights", "open"),
                meta_name("DC.Description", item.abstract),
                *(meta_name("DC.Contributor", n) for n in item.authors),
                meta_name("citation_title", item.title),
                *(meta_name("citation_author", n) for n in item.authors),
                meta_name("citation_date", item.date),
                meta_name("citation_publication_date", item.date.replace("-", "/")),
                meta_name("citation_doi", item.doi or ""),
                meta_name("citation_journal_title", self.spec.title),
                meta_name("citation_publisher", "Cold Harbour Laboratory"),
                meta_name("citation_section", "New Results"),
                meta_name("citation_pdf_url", a(item.pdf_path)),
                meta_name("citation_public_url", a(item.path)),
            ]
        )
        tabs = (
            f'<ul class="tabs inline panels-ajax-tab"><li class="first"><a href="{attr(item.path)}" '
            'class="active">'
            f'Abstract</a></li><li><a href="{attr(item.path)}.article-info">Info/History</a></li>'
            f'<li><a href="{attr(item.path)}.article-metrics">Metrics</a></li>'
            f'<li class="last"><a href="{attr(item.pdf_path)}">Preview PDF</a></li></ul>'
        )
        if suffix == ".article-info":
            subject_link = f'<a href="/collection/{attr(_slug(item.category))}">{esc(item.category)}</a>'
            body = (
                '<div class="pane-article-info"><h2>Article History</h2>'
                f"<ul><li>Posted {esc(item.date)}.</li></ul>"
                f"<h2>Subject Area</h2><p>{subject_link}</p>"
                "<h2>Copyright</h2><p>The copyright holder for this preprint is the author/funder. "
                "It is made available under a CC-BY 4.0 International license.</p></div>"
            )
            kind = "article-info"
        elif suffix == ".article-metrics":
            body = (
                '<div class="pane-article-metrics"><h2>Article usage</h2><p>Abstract views, full-text views '
                "and PDF downloads are updated daily.</p></div>"
            )
            kind = "article-metrics"
        else:
            related = [i for i in self.items if i.category == item.category and i is not item][:3]
            body = (
                f'<div class="section abstract"><h2>Abstract</h2><p id="p-2">{esc(item.abstract)}</p></div>\n'
                f'<div class="pane-related"><h2>Recent articles in {esc(item.category)}</h2><ul>'
                + "".join(f'<li><a href="{attr(r.path)}">{esc(r.title)}</a></li>' for r in related)
                + "</ul></div>"
            )
            kind = "article"
        doi = esc(item.doi or "")
        content = (
            '<div class="highwire-article"><div class="pane-article-type">New Results</div>\n'
            f'<h1 class="highwire-cite-title" id="page-title">{esc(item.title)}</h1>\n'
            f'<div class="highwire-cite-authors">{esc(", ".join(item.authors))}</div>\n'
            f'<div class="highwire-cite-metadata">doi: <a href="https://doi.example.invalid/{doi}">'
            f"https://doi.org/{doi}</a></div>\n"
            '<div class="pane-preprint-notice">This article is a preprint and has not been certified by '
            "peer review.</div>\n"
            f'<div class="highwire-cite-date">Posted {esc(item.date)}.</div>\n{tabs}\n{body}\n'
            f'<div class="pane-subject"><a href="/collection/{attr(_slug(item.category))}">'
            f"{esc(item.category)}</a></div></div>"
        )
        return self.page(title=item.title, content=content, kind=kind, head=head)

    def _search_entry(self, request: Request) -> Response:
        if request.method == "POST":
            keywords = request.param("keywords").strip()
            if not keywords:
                return Response.redirect("/search")
            terms = quote(f"{keywords} numresults:{_PAGE_SIZE} sort:relevance-rank", safe="")
            return Response.redirect(f"/search/{terms}")
        content = (
            '<h1>Advanced Search</h1><form class="highwire-search-form" action="/search" method="post" '
            'accept-charset="UTF-8"><label for="edit-keywords-adv">Keywords</label> '
            '<input type="text" id="edit-keywords-adv" name="keywords" value="" size="60" />'
            '<input type="submit" name="op" value="Search" class="form-submit" /></form>'
            "<p>Search titles, authors and abstracts. Use quotation marks to search for a phrase.</p>"
        )
        return self.page(title="Advanced Search", content=content, kind="search-form")

    def _search_results(self, request: Request, terms: str) -> Response:
        keywords: list[str] = []
        options: dict[str, str] = {}
        for token in terms.split():
            name, sep, value = token.partition(":")
            if sep and name in ("numresults", "sort", "limit_from", "limit_to", "jcode"):
                options[name] = value
            else:
                keywords.append(token)
        results = search_items(self.items, " ".join(keywords))
        if options.get("sort") == "publication-date":
            results.sort(key=lambda i: i.date, reverse=True)
        if "limit_from" in options:
            results = [i for i in results if i.date >= options["limit_from"]]
        if "limit_to" in options:
            results = [i for i in results if i.date <= options["limit_to"]]
        size = (
            int(options["numresults"])
            if options.get("numresults", "").isdigit() and int(options["numresults"]) in _NUMRESULTS
            else _PAGE_SIZE
        )
        page = request.int_param("page", 0, maximum=10_000)
        shown = results[page * size : (page + 1) * size]
        entries = "\n".join(self._citation(i, position=n) for n, i in enumerate(shown, start=1))
        base = "/search/" + quote(terms, safe="")
        pager = self._pager(base, page, len(results)) if size == _PAGE_SIZE else ""
        content = (
            f'<h1>Search results</h1><div class="highwire-search-summary">{len(results)} results for '
            f"<em>{esc(' '.join(keywords))}</em></div>\n"
            + (f'<ul class="highwire-search-results-list">{entries}</ul>' if shown else "<p>No results.</p>")
            + pager
        )
        return self.page(title="Search results", content=content, kind="search")

    def _admin(self, request: Request) -> Response:
        return self.page(
            title="Access denied",
            kind="forbidden",
            status=403,
            content="<h1>Access denied</h1><p>You are not authorized to access this page.</p>",
        )
