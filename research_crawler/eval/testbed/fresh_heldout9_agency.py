"""HELD OUT, fresh (ninth batch): GOV.VELD, a government's publications built as GOV.UK's are (see
`fresh_heldout9.py`; do not read or tune anything to it). A finder lists every document twenty a page, sorted
"Updated (newest)" by default, with facets of document type, organisation and topic in a GET form and as links;
research and analysis sits among guidance, consultations, statistics, policy papers and FOI releases that are not
research. A publication page names its organisation, its "Published" and "Last updated" dates (written "12 March
2024") and an update history, holds its attachments (the report as a PDF, an annex, an easy-read version, an HTML
summary) and names the report's authors only in its details text; its JSON-LD names the organisation as author.
Collections group a topic's documents; organisation and topic pages show the newest; print views are forbidden by
robots.txt.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass
from datetime import date, timedelta
from typing import ClassVar
from urllib.parse import urlencode

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.full_text import search_terms
from research_crawler.eval.testbed.markup import attr, document, esc, json_script, long_date, url_slug
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.pdf import tiny_pdf
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp, paged

__all__ = ["DOCUMENT_TYPES", "OTHER_DOCUMENTS", "PER_PAGE", "Document", "Fresh9AgencySite", "documents"]

PER_PAGE = 20
#: Document types as the finder's facet names them (the key is the URL's value).
DOCUMENT_TYPES = {"research": "Research and analysis", "guidance": "Guidance", "consultation": "Consultation outcome",
                  "statistics": "Official Statistics", "policy_paper": "Policy paper",
                  "foi": "FOI release"}  # fmt: skip
_ORGANISATIONS = {"Home heating and energy efficiency": "Department for Energy and Homes",
                  "Dementia care": "Office for Health and Care Improvement"}  # fmt: skip
#: Each topic's documents that are not research: (type, title, days after 1 January 2022).
OTHER_DOCUMENTS = {
    "Home heating and energy efficiency": (
        ("guidance", "Boiler Upgrade Scheme: guidance for installers", 180),
        ("guidance", "Check if you can get a grant to replace your boiler", 610),
        ("consultation", "Future of home heating: consultation outcome", 420),
        ("statistics", "Household energy efficiency statistics: headline release, September 2026", 1715),
        ("foi", "FOI release: installations of low-carbon heating by region", 980),
        ("policy_paper", "Warm homes plan: policy paper", 1300),
        ("statistics", "Energy performance certificates for existing dwellings: 2025", 1190),
        ("guidance", "Heat network zoning: guidance for local authorities", 1540),
    ),
    "Dementia care": (
        ("guidance", "Dementia: applying All Our Health", 95),
        ("statistics", "Recorded dementia diagnoses: October 2026", 1750),
        ("consultation", "Dementia strategy 2026 to 2031: consultation outcome", 1400),
        ("foi", "FOI release: care home places for people with dementia", 760),
        ("guidance", "Visiting arrangements in care homes", 300),
        ("statistics", "Unpaid carers statistics: 2024 to 2025", 1260),
        ("policy_paper", "Social care workforce plan", 880),
    ),
}
_LAST = date(2026, 11, 20)


@dataclass(frozen=True)
class Document:
    """A document of the finder: a research item, or guidance, statistics and the like (no item)."""

    slug: str
    title: str
    kind: str
    topic: str
    published: date
    updated: date
    item: Item | None = None

    @property
    def path(self) -> str:
        return f"/government/publications/{self.slug}"

    @property
    def organisation(self) -> str:
        return _ORGANISATIONS[self.topic]


def _updated(item: Item) -> date:
    """A third of the reports are updated later (an easy-read version, a corrected annex), some by a year or more."""
    crc = zlib.crc32(item.key.encode())
    published = date.fromisoformat(item.date)
    return published if crc % 3 else min(_LAST, published + timedelta(days=30 + crc % 500))


def documents(items: list[Item]) -> list[Document]:
    """Every document, "Updated (newest)" first."""
    made = [Document(i.key, i.title, "research", i.category, date.fromisoformat(i.date), _updated(i), i) for i in items]
    for topic, others in OTHER_DOCUMENTS.items():
        for kind, title, offset in others:
            published = date(2022, 1, 1) + timedelta(days=offset)
            made.append(Document(url_slug(title, limit=200), title, kind, topic, published, published))
    return sorted(made, key=lambda d: (d.updated, d.published, d.slug), reverse=True)


def _org_slug(name: str) -> str:
    return url_slug(name)


def _names(authors: tuple[str, ...]) -> str:
    return authors[0] if len(authors) == 1 else ", ".join(authors[:-1]) + " and " + authors[-1]


class Fresh9AgencySite(SiteApp):
    """A government publications site: finder, publication pages with attachments, collections, organisations."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/help/cookies": "privacy", "/help/accessibility-statement":
                                                   "accessibility", "/contact": "contact",
                                                   "/help/terms-conditions": "terms"}  # fmt: skip

    def routes(self) -> list[Route]:
        self.documents = documents(self.items)
        self.by_slug = {d.slug: d for d in self.documents}
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/search/(?P<finder>all|research-and-statistics)"), self._finder),
            (re.compile(r"/government/publications/(?P<slug>[a-z0-9-]+)"), self._publication),
            (re.compile(r"/government/publications/(?P<slug>[a-z0-9-]+)/(?P<part>[a-z0-9-]+)"), self._part),
            (re.compile(r"/government/collections/(?P<slug>[a-z0-9-]+)"), self._collection),
            (re.compile(r"/government/organisations/(?P<slug>[a-z0-9-]+)"), self._organisation),
            (re.compile(r"/browse/(?P<slug>[a-z0-9-]+)"), self._browse),
            (re.compile(r"/media/(?P<file>\d+)/(?P<name>[a-z0-9-]+)\.pdf"), self._file),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /*/print$\nDisallow: /info/\nDisallow: /api/\n"

    def sample_paths(self) -> dict[str, str]:
        research = next(d for d in self.documents if d.item is not None)
        topic = url_slug(research.topic)
        return {"home": "/", "finder": "/search/all", "research": "/search/research-and-statistics",
                "publication": research.path, "collection": f"/government/collections/{topic}-research",
                "organisation": f"/government/organisations/{_org_slug(research.organisation)}",
                "browse": f"/browse/{topic}"}  # fmt: skip

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            '<a href="#main-content" class="govuk-skip-link">Skip to main content</a>'
            '<div class="gem-c-cookie-banner"><p>We use some essential cookies to make this service work.</p>'
            '<a href="/help/cookies">View cookies</a></div>'
            '<header class="govuk-header"><a href="/" class="govuk-header__link--homepage">GOV.VELD</a>'
            '<nav><a href="/browse/home-heating-and-energy-efficiency">Services and information</a> '
            '<a href="/search/all">Government activity</a></nav>'
            '<form action="/search/all" method="get"><input name="keywords" aria-label="Search GOV.VELD">'
            "<button>Search</button></form></header>\n"
            f'<main class="govuk-main-wrapper" id="main-content">{content}</main>\n'
            '<footer class="govuk-footer"><a href="/help/accessibility-statement">Accessibility statement</a> · '
            '<a href="/contact">Contact</a> · <a href="/help/terms-conditions">Terms and conditions</a> · '
            "All content is available under the Open Government Licence v3.0, except where otherwise stated</footer>"
        )
        html = document(title=f"{title} - GOV.VELD", head=head, body=body, body_class="govuk-template__body")
        return Response.html(html, kind=kind, status=status)

    def _home(self, request: Request) -> Response:
        topics = "".join(f'<li><a href="/browse/{url_slug(t)}">{esc(t)}</a></li>' for t in _ORGANISATIONS)
        orgs = "".join(
            f'<li><a href="/government/organisations/{_org_slug(o)}">{esc(o)}</a></li>' for o in _ORGANISATIONS.values()
        )
        content = (
            "<h1>Welcome to GOV.VELD</h1><p>The best place to find government services and information.</p>"
            f"<h2>Services and information</h2><ul>{topics}</ul><h2>Government activity</h2><ul>"
            '<li><a href="/search/all">Publications</a>: guidance, consultations, policy papers and more</li>'
            '<li><a href="/search/research-and-statistics">Research and statistics</a></li></ul>'
            f"<h2>Departments</h2><ul>{orgs}</ul>"
        )
        return self.page(title="Welcome to GOV.VELD", content=content, kind="home")

    def _finder(self, request: Request, finder: str) -> Response:
        kinds = request.query.get("content_store_document_type") or (
            ["research", "statistics"] if finder == "research-and-statistics" else []
        )
        orgs = request.query.get("organisations[]", [])
        topic = request.param("topic")
        keywords = request.param("keywords")
        order = request.param("order", "updated-newest")
        chosen = [
            d
            for d in self.documents
            if (not kinds or d.kind in kinds)
            and (not orgs or _org_slug(d.organisation) in orgs)
            and (not topic or url_slug(d.topic) == topic)
            and (not keywords or set(search_terms(keywords)) <= set(search_terms(d.title)))
        ]
        if order == "updated-oldest":
            chosen.reverse()
        params = [("content_store_document_type", k) for k in request.query.get("content_store_document_type", [])]
        params += [("organisations[]", o) for o in orgs] + ([("topic", topic)] if topic else [])
        params += ([("keywords", keywords)] if keywords else []) + ([("order", order)] if order != "updated-newest"
                                                                     else [])  # fmt: skip

        def link(n: int, extra: list[tuple[str, str]] | None = None) -> str:
            query = params + (extra or []) + ([("page", str(n))] if n > 1 else [])
            return f"/search/{finder}" + (f"?{urlencode(query)}" if query else "")

        shown, pager = paged(request, chosen, PER_PAGE, link)
        rows = "".join(
            f'<li class="gem-c-document-list__item"><a href="{d.path}">{esc(d.title)}</a>'
            f'<ul class="gem-c-document-list__item-metadata"><li>Document type: {DOCUMENT_TYPES[d.kind]}</li>'
            f"<li>Organisation: {esc(d.organisation)}</li><li>Updated: <time>{long_date(d.updated.isoformat())}"
            "</time></li></ul></li>"
            for d in shown
        )
        facets = "".join(
            f'<label><input type="checkbox" name="content_store_document_type" value="{k}"'
            f"{' checked' if k in kinds else ''}> {v}</label> "
            f'<a href="/search/{finder}?content_store_document_type={k}">{v} only</a><br>'
            for k, v in DOCUMENT_TYPES.items()
        )
        facets += "".join(
            f'<label><input type="checkbox" name="organisations[]" value="{_org_slug(o)}"> {esc(o)}</label><br>'
            for o in _ORGANISATIONS.values()
        )
        sorts = " ".join(
            f'<option value="{v}"{" selected" if v == order else ""}>{label}</option>'
            for v, label in (("updated-newest", "Updated (newest)"), ("updated-oldest", "Updated (oldest)"))
        )
        heading = "Research and statistics" if finder == "research-and-statistics" else "Search"
        content = (
            f'<h1>{heading}</h1><form action="/search/{finder}" method="get" class="js-live-search-form">'
            f'<input name="keywords" value="{attr(keywords)}"><h2>Filter</h2>{facets}'
            f'<label>Sort by <select name="order">{sorts}</select></label><button>Filter results</button></form>'
            f'<p class="result-info">{len(chosen)} results</p><ul class="gem-c-document-list">{rows}</ul>{pager}'
        )
        return self.page(title=heading, content=content, kind="finder")

    def _publication(self, request: Request, slug: str) -> Response:
        doc = self.by_slug.get(slug)
        if doc is None:
            return self.not_found()
        item = doc.item
        org = doc.organisation
        head = json_script(
            {"@context": "http://schema.org", "@type": "Article", "headline": doc.title,
             "datePublished": f"{doc.published.isoformat()}T09:30:00+00:00",
             "dateModified": f"{doc.updated.isoformat()}T09:30:00+00:00",
             "author": {"@type": "Organization", "name": org}, "publisher": {"@type": "Organization",
                                                                              "name": "GOV.VELD"}},
            script_type="application/ld+json",
        )  # fmt: skip
        history = f"<li>{long_date(doc.published.isoformat())}<br>First published.</li>"
        if doc.updated != doc.published:
            history = f"<li>{long_date(doc.updated.isoformat())}<br>Added an easy read version.</li>" + history
        attachments = self._attachments(doc)
        if item is not None:
            writers = _names(item.authors)
            credit = (
                f"<p>This report was written by {esc(writers)}.</p>"
                if zlib.crc32(item.key.encode()) % 2
                else f"<p>Research carried out for the {esc(org)} by {esc(writers)}.</p>"
            )
            details = f"<p>{esc(item.abstract)}</p>{credit}"
        else:
            details = f"<p>{esc(doc.title)}. This page is kept up to date by the {esc(org)}.</p>"
        content = (
            f'<nav class="govuk-breadcrumbs"><a href="/">Home</a> › <a href="/browse/{url_slug(doc.topic)}">'
            f"{esc(doc.topic)}</a></nav>"
            f'<span class="govuk-caption-xl">{DOCUMENT_TYPES[doc.kind]}</span><h1 class="gem-c-title__text">'
            f'{esc(doc.title)}</h1><p class="gem-c-metadata">From: <a href="/government/organisations/'
            f'{_org_slug(org)}">{esc(org)}</a><br>Published {long_date(doc.published.isoformat())}'
            + (
                f"<br>Last updated {long_date(doc.updated.isoformat())} — "
                '<a href="#full-publication-update-history">See all updates</a>'
                if doc.updated != doc.published
                else ""
            )
            + f'</p><section id="documents"><h2>Documents</h2>{attachments}</section>'
            f'<section id="details"><h2>Details</h2>{details}</section>'
            f'<p><a href="{doc.path}/print">Print this page</a></p>'
            f'<section id="full-publication-update-history"><h2>Updates to this page</h2><ol>{history}</ol></section>'
        )
        return self.page(title=doc.title, content=content, kind="research" if item else "document", head=head)

    def _attachments(self, doc: Document) -> str:
        if doc.item is None:
            return f'<section class="attachment"><h3><a href="{doc.path}/{doc.slug[:40].rstrip("-")}">{esc(doc.title)}'
            "</a></h3><p>HTML</p></section>"
        item = doc.item
        file = int(item.pdf_path.split("/")[2])
        parts = [(item.pdf_path, item.title, f"PDF, {1 + file % 9}.{file % 7} MB, {20 + file % 61} pages"),
                 (f"/media/{file + 1}/annex-a-technical-appendix.pdf", "Annex A: technical appendix", "PDF, 640 KB"),
                 (f"{doc.path}/summary", f"{item.title}: summary", "HTML")]  # fmt: skip
        if doc.updated != doc.published:
            parts.append((f"/media/{file + 2}/easy-read-version.pdf", f"{item.title}: easy read", "PDF, 2.1 MB"))
        return "".join(
            f'<section class="attachment"><h3><a href="{attr(href)}">{esc(name)}</a></h3><p>{esc(about)}</p></section>'
            for href, name, about in parts
        )

    def _part(self, request: Request, slug: str, part: str) -> Response:
        doc = self.by_slug.get(slug)
        if doc is None:
            return self.not_found()
        if part == "print":
            return self.page(title=doc.title, content=f"<h1>{esc(doc.title)}</h1>", kind="print")
        text = esc(doc.item.abstract) if doc.item else "The guidance in full, section by section."
        content = (
            f'<span class="govuk-caption-xl">{DOCUMENT_TYPES[doc.kind]}</span><h1>{esc(doc.title)}</h1><p>{text}</p>'
        )
        return self.page(title=doc.title, content=content, kind="attachment")

    def _listing(self, docs: list[Document]) -> str:
        return "".join(
            f'<li><a href="{d.path}">{esc(d.title)}</a> <span>{DOCUMENT_TYPES[d.kind]} · '
            f"{long_date(d.updated.isoformat())}</span></li>"
            for d in docs
        )

    def _collection(self, request: Request, slug: str) -> Response:
        topic = next((t for t in _ORGANISATIONS if f"{url_slug(t)}-research" == slug), None)
        if topic is None:
            return self.not_found()
        docs = [d for d in self.documents if d.topic == topic and d.kind in ("research", "guidance")]
        research = sorted((d for d in docs if d.kind == "research"), key=lambda d: d.title)
        content = (
            f'<span class="govuk-caption-xl">Collection</span><h1>{esc(topic)}: research and guidance</h1>'
            f"<p>Research commissioned by the {esc(_ORGANISATIONS[topic])}, and the guidance it informed.</p>"
            f"<h2>Research reports</h2><ul>{self._listing(research)}</ul>"
            f"<h2>Guidance</h2><ul>{self._listing([d for d in docs if d.kind == 'guidance'])}</ul>"
        )
        return self.page(title=f"{topic}: research and guidance", content=content, kind="collection")

    def _organisation(self, request: Request, slug: str) -> Response:
        topic = next((t for t, o in _ORGANISATIONS.items() if _org_slug(o) == slug), None)
        if topic is None:
            return self.not_found()
        org = _ORGANISATIONS[topic]
        latest = [d for d in self.documents if d.organisation == org][:5]
        content = (
            f'<span class="govuk-caption-xl">Ministerial department</span><h1>{esc(org)}</h1>'
            f"<h2>Latest from the {esc(org)}</h2><ul>{self._listing(latest)}</ul>"
            f'<p><a href="/search/all?{urlencode([("organisations[]", slug)])}">See all publications</a></p>'
            f'<p><a href="/government/collections/{url_slug(topic)}-research">Our research</a></p>'
        )
        return self.page(title=org, content=content, kind="organisation")

    def _browse(self, request: Request, slug: str) -> Response:
        topic = next((t for t in _ORGANISATIONS if url_slug(t) == slug), None)
        if topic is None:
            return self.not_found()
        latest = [d for d in self.documents if d.topic == topic][:6]
        content = (
            f'<h1>{esc(topic)}</h1><h2>Collections</h2><ul><li><a href="/government/collections/{slug}-research">'
            f"{esc(topic)}: research and guidance</a></li></ul><h2>Latest</h2><ul>{self._listing(latest)}</ul>"
            f'<p><a href="/search/all?topic={slug}">See all in {esc(topic.lower())}</a></p>'
        )
        return self.page(title=topic, content=content, kind="browse")

    def _file(self, request: Request, file: str, name: str) -> Response:
        item = next((i for i in self.items if i.pdf_path == request.path), None)
        if item is not None:
            return self.pdf(item)
        report = next((i for i in self.items if i.pdf_path.split("/")[2] in (str(int(file) - 1), str(int(file) - 2))),
                      None)  # fmt: skip
        if report is None or name not in ("annex-a-technical-appendix", "easy-read-version"):
            return self.not_found()
        title = "Annex A: technical appendix" if name.startswith("annex") else "Easy read version"
        return Response(200, tiny_pdf(title, [report.title]), "application/pdf", "pdf")
