"""A results page that says its search matched nothing is told to the Planner plainly (a site's search may match
every word: fewer or other words may find what the long query did not); real results pages are not taken for it."""

from __future__ import annotations

from pathlib import Path

import pytest

from research_crawler.tools.site_search import found_nothing
from research_crawler.web.page_building import page_from_file

REALWEB = Path(__file__).resolve().parents[3] / "shared" / "realweb" / "pages"


@pytest.mark.parametrize(
    ("text", "nothing"),
    [
        ("# Results for “x”\n0 articles match. Showing 0 of 0.", True),
        ("No results found for “graph networks”.", True),
        ("Your search did not match any documents.", True),
        ("Sorry, no matching records.", True),
        ("# Find a study\n0 studies found", True),
        ("No matching trials were found.", True),
        ("Showing 1-10 of 245 results", False),
        ("12 results for graph networks", False),
        ("No. 5 results in physics", False),
        ("3 studies found", False),
    ],
)
def test_a_search_that_found_nothing_is_recognised(text: str, nothing: bool) -> None:
    assert found_nothing(text) is nothing


def test_no_saved_real_results_page_is_taken_for_an_empty_one() -> None:
    pages = sorted(REALWEB.glob("*search*")) + sorted(REALWEB.glob("*listing*"))
    assert len(pages) >= 8
    assert [path.name for path in pages if found_nothing(page_from_file(path).markdown)] == []
