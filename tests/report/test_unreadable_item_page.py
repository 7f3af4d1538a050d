"""One item page that the metadata rules fail on (an error of the code, on a page no rule foresaw) never ends the
report: the item is kept as the Collector read it, the others are read as usual, and the trace says what failed."""

from __future__ import annotations

from pathlib import Path

import pytest

from research_crawler.config.settings import Settings
from research_crawler.context.graph import NavigationGraph
from research_crawler.context.search_context import SearchContext, SiteRef
from research_crawler.context.web_context import WebContext
from research_crawler.nested_chats import report_items
from research_crawler.pages.html_forms import FormSubmission
from research_crawler.pages.page import Determination, Page
from research_crawler.run.trace import Trace, read_trace
from research_crawler.tools.exploration import Exploration, PageAccess

SITE = "http://papers.test/"
ODD = "http://papers.test/p/odd.html"
PLAIN = "http://papers.test/p/plain.html"


def _page(url: str, site: SiteRef, /, *, form: FormSubmission | None = None) -> Page:
    title = "Odd page" if url == ODD else "Nitrate leaching under wet springs"
    html = f"<html><head><title>{title}</title><meta name='citation_publication_date' content='2021'></head>"
    return Page(url=url, final_url=url, status=200, determination=Determination.OK, title=title,
                html=html + f"<body><h1>{title}</h1></body></html>")  # fmt: skip


def test_an_item_page_the_rules_fail_on_keeps_the_item_and_the_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = report_items.read_item_metadata

    def failing(html: str, *, url: str) -> object:
        if url == ODD:
            raise ValueError("no rule foresaw this page")
        return real(html, url=url)

    monkeypatch.setattr(report_items, "read_item_metadata", failing)
    web = WebContext.for_site(SITE)
    for url, title in ((ODD, "Nitrate in odd soils"), (PLAIN, "Nitrate leaching under wet springs")):
        web.add_item(url, title=title, description="", score=8, found_on=SITE)
    graph = NavigationGraph()
    for url in (ODD, PLAIN):
        graph.add_link(SITE, url)
    search = SearchContext(query="nitrate leaching")
    search.add_site(SiteRef(name="papers", url=SITE))
    trace = Trace(tmp_path / "trace.jsonl")
    x = Exploration(settings=Settings(), search=search, pages=PageAccess(_page), trace=trace,
                    web_contexts={SITE: web}, graph=graph)  # fmt: skip
    chosen = report_items.choose_items(x, None)
    by_url = {item.url: item for item in chosen.items}
    assert set(by_url) == {ODD, PLAIN}
    assert by_url[ODD].title == "Nitrate in odd soils", "kept as the Collector read it"
    assert by_url[PLAIN].date == "2021", "the other item's page was read as usual"
    trace.close()
    (unread,) = [e for e in read_trace(tmp_path / "trace.jsonl") if e["event"] == "item_unread"]
    assert unread["url"] == ODD and "no rule foresaw this page" in unread["reason"]
