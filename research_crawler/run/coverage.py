"""What the budget did not cover, per site: the best pages still pending with their scores, a site search not
tried, pages that could not be read, and an estimate of the share of the promising pages explored — read from the
Web Contexts and the navigation graph at the end of a run (a follow-up on the site starts from the same map)."""

from __future__ import annotations

from collections.abc import Sequence

from research_crawler.context.urls import try_canonicalize_url
from research_crawler.context.web_context import WebContext
from research_crawler.report.models import FailedPage, PendingPage, ReportItem, SiteCoverage
from research_crawler.tools.exploration import Exploration

__all__ = ["PROMISING_SCORE", "site_coverage"]

#: A link the Crawler scored at least this (of 10) is a promising page.
PROMISING_SCORE = 5.0
#: Pending pages listed per site.
BEST_PENDING = 5
_SEARCH_ANCHOR = "site search:"


def site_coverage(x: Exploration, items: Sequence[ReportItem] = ()) -> list[SiteCoverage]:
    """The coverage of every site the run explored, in the order they were finished (then the one under way).
    A pending page that is a collected item's own page or PDF (`items` as the report read them) is not left-out
    work: opening it finds no new item."""
    urls = [record.site.url for record in x.search.finished_sites]
    if x.search.current_site is not None and x.search.current_site.url not in urls:
        urls.append(x.search.current_site.url)
    of_items = {c for item in items for url in (item.url, item.pdf_url) if url and (c := try_canonicalize_url(url))}
    return [_one(x, x.web_contexts[url], of_items) for url in dict.fromkeys(urls) if url in x.web_contexts]


def _one(x: Exploration, web: WebContext, of_items: set[str]) -> SiteCoverage:
    graph = x.graph.graph
    pending = [p for p in web.top_urls(len(web.pending)) if p.url not in web.collected and p.url not in of_items]
    promising_pending = [entry for entry in pending if entry.score >= PROMISING_SCORE]
    visited = web.visited_urls
    failed = []
    promising_visited = 0
    searched = False
    for url in sorted(visited):
        if url not in graph:
            continue
        determination = graph.nodes[url].get("determination")
        if determination not in (None, "ok"):
            failed.append(FailedPage(url=url, determination=str(determination)))
        incoming = [attrs for _, _, attrs in graph.in_edges(url, data=True)]
        search_results = any(str(attrs.get("anchor_text") or "").startswith(_SEARCH_ANCHOR) for attrs in incoming)
        searched = searched or search_results
        chosen = max((a["score"] or 0.0 for a in incoming), default=0.0) >= PROMISING_SCORE or search_results
        if url != web.site_url and chosen:
            promising_visited += 1
    known = promising_visited + len(promising_pending)
    return SiteCoverage(
        url=web.site_url,
        pages_visited=web.visited_count,
        pages_pending=len(pending),
        promising_pending=len(promising_pending),
        best_pending=[
            PendingPage(url=entry.url, score=entry.score, anchor_text=entry.anchor_text)
            for entry in pending[:BEST_PENDING]
        ],
        promising_explored_share=round(promising_visited / known, 3) if known else None,
        search_form=web.site_url in x.findings.site_search,
        search_refusal=_search_refusal(x, web.site_url),
        search_tried=searched,
        failed_pages=failed,
    )


def _search_refusal(x: Exploration, site_url: str) -> str | None:
    """Why the site's search may not be used, when every search it offers is refused (its robots.txt forbids it)."""
    mechanisms = x.findings.site_search.get(site_url, [])
    if not mechanisms or x.findings.can_search(site_url):
        return None
    return "; ".join(dict.fromkeys(m.note for m in mechanisms if m.note)) or "no usable search"
