"""Three items found for "the 3 most recent papers" are enough only when they are papers: once a site's counted
items reach the number asked for, each is read on its own page (pages of the test's own), and a dataset or a press
clipping, which the report would leave out, no longer counts — the Planner is told fewer and reads on."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from research_crawler.config.settings import Settings
from research_crawler.context.request_rules import read_request
from research_crawler.context.search_context import SearchContext, SiteRef
from research_crawler.nested_chats.enough_check import check_before_enough
from research_crawler.pages.html_forms import FormSubmission
from research_crawler.pages.page import Determination, Page
from research_crawler.run.trace import Trace, read_trace
from research_crawler.tools.exploration import Exploration, PageAccess

SITE = "http://portal.test/"


def _html(body: str) -> str:
    return f"<html><head><title>Record</title></head><body><main>{body}</main></body></html>"


PAGES = {
    SITE + "p/1": _html("<h1>Phones Warn of Quakes</h1><p>Ines Moreau</p><p>3 May 2025</p><p>Journal article</p>"),
    SITE + "p/2": _html("<h1>Accelerometer records, 2021 to 2025</h1><p>Dataset</p><p>Soil Institute, 2025</p>"),
    SITE + "p/3": _html("<h1>Your phone could warn you</h1><p>Press/Media: Research</p><p>2 June 2025</p>"),
    SITE + "p/4": _html("<h1>Crowdsourced Arrays for Early Warning</h1><p>Tariq Bello</p><p>1 March 2025</p>"),
}


def _exploration(tmp_path: Path, request: str, fetched: list[str]) -> tuple[Exploration, Trace]:
    def fetch(url: str, _site: SiteRef, /, *, form: FormSubmission | None = None) -> Page:
        if url not in PAGES:  # the listing where the items were found
            return Page(url=url, final_url=url, status=200, determination=Determination.OK, html=_html("<h1>New</h1>"))
        fetched.append(url)
        return Page(url=url, final_url=url, status=200, determination=Determination.OK, html=PAGES[url])

    search = SearchContext(query=request, request=read_request(request, today=date(2026, 6, 1)))
    search.add_site(SiteRef(name="portal", url=SITE))
    trace = Trace(tmp_path / "trace.jsonl")
    x = Exploration(settings=Settings(), search=search, pages=PageAccess(fetch), trace=trace)
    x.start_next_site(None)
    return x, trace


def _collect(x: Exploration, *urls: str) -> None:
    for url in urls:
        x.web.add_item(url, title=f"Record {url[-1]}", description="", score=8, found_on=SITE)


def test_items_their_own_pages_show_are_no_papers_stop_counting_once_enough_are_collected(tmp_path: Path) -> None:
    fetched: list[str] = []
    x, trace = _exploration(tmp_path, "Find the 3 most recent papers on earthquake early warning", fetched)
    _collect(x, SITE + "p/1", SITE + "p/2")
    assert check_before_enough(x) == 0 and fetched == []  # fewer than asked: nothing is read before it is needed
    _collect(x, SITE + "p/3")
    assert x.items_counted() == 3 and x.hint_state().items_collected == 3
    assert check_before_enough(x) == 2
    assert x.items_counted() == 1 and x.hint_state().items_collected == 1  # the Planner reads on for two more
    assert set(x.findings.not_counted) == {SITE + "p/2", SITE + "p/3"}
    _collect(x, SITE + "p/4")
    assert check_before_enough(x) == 0 and x.items_counted() == 2  # 2 of 3: not enough, so nothing more is read
    assert sorted(fetched) == [SITE + "p/1", SITE + "p/2", SITE + "p/3"]  # each page once
    trace.close()
    events = [e for e in read_trace(tmp_path / "trace.jsonl") if e["event"] == "item_not_counted"]
    assert {e["url"] for e in events} == {SITE + "p/2", SITE + "p/3"}


def test_an_item_its_own_page_dates_outside_the_year_asked_for_stops_counting(tmp_path: Path) -> None:
    fetched: list[str] = []
    x, _trace = _exploration(tmp_path, "Find 2 papers on earthquake early warning published in 2024", fetched)
    _collect(x, SITE + "p/1", SITE + "p/4")  # undated where found: they may be of 2024, so they count
    assert x.items_counted() == 2
    assert check_before_enough(x) == 2  # their pages date them 2025
    assert "outside the dates asked for" in x.findings.not_counted[SITE + "p/1"]
    assert x.items_counted() == 0


def test_a_request_without_a_number_is_checked_at_the_reports_length(tmp_path: Path) -> None:
    fetched: list[str] = []
    x, _trace = _exploration(tmp_path, "Find papers on earthquake early warning", fetched)
    _collect(x, *PAGES)
    assert x.items_wanted > len(PAGES) and check_before_enough(x) == 0 and fetched == []
