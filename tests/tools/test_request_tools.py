"""The Web Selector's record_request: a valid reading is stored whole; an invalid one is refused with why and
changes nothing."""

from __future__ import annotations

from research_crawler.config.settings import Settings
from research_crawler.context.search_context import SearchContext, SiteRef
from research_crawler.pages.page import Page
from research_crawler.run.trace import Trace
from research_crawler.tools.exploration import Exploration, PageAccess
from research_crawler.tools.request_tools import RequestTools

TEXT = "five papers on graph kernels from 2025, newest first"


def _fetch(url: str, _site: SiteRef) -> Page:
    raise AssertionError("recording a request fetches nothing")


def tools() -> tuple[Exploration, RequestTools]:
    x = Exploration(settings=Settings(), search=SearchContext(query=TEXT), pages=PageAccess(_fetch), trace=Trace(None))
    return x, RequestTools(x, text=TEXT)


def test_a_valid_reading_is_stored_whole() -> None:
    x, request_tools = tools()
    answer = request_tools.record_request(
        topic="graph kernels", count=5, date_from="2025-01-01", date_to="2025-12-31", order="newest"
    )
    assert answer.startswith("Recorded: 5 papers on graph kernels · 2025 only · newest first")
    assert x.search.request is not None and x.search.request.text == TEXT and request_tools.new_search


def test_an_invalid_reading_is_refused_with_why_and_changes_nothing() -> None:
    x, request_tools = tools()
    answer = request_tools.record_request(topic="graph kernels", count=0, date_from="2025-13-01", fields=["colour"])
    assert answer.startswith("Error: this reading of the request is invalid")
    assert "count" in answer and "date_from" in answer and "colour" in answer
    assert x.search.request is None and request_tools.recorded is None
