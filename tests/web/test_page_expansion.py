"""Lists a page loads by script: its "Load more" control pressed (or its endless list scrolled) in the browser, as a
person would, within bounds, each press on the host's turn and its data requests obeying robots.txt; the items count
as read from that page. Which pages have such a list is told from their HTML, never a real page's "Show more"
that only unfolds an abstract."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from fault_server import FaultServer
from unlike_sites import Paper, endless_list_site, load_more_site

from research_crawler.config.settings import FetchSettings
from research_crawler.web.fetcher import Fetcher
from research_crawler.web.html_body import decode_html
from research_crawler.web.page_expansion import expansion_signal

REALWEB = Path(__file__).resolve().parents[3] / "shared" / "realweb" / "pages"
PAPERS = [Paper(f"p{n}", f"Study number {n} of graph neural networks", f"2025-01-{n + 1:02d}") for n in range(10)]


@pytest.fixture
def browser_settings(fast_settings: FetchSettings) -> FetchSettings:
    return fast_settings.model_copy(update={"page_deadline_s": 30.0, "browser_wait_s": 0.2, "per_host_delay_s": 0.2})


def paper_links(page_links: list[str], server: FaultServer) -> list[str]:
    return [url for url in page_links if url.startswith(server.url("/paper/"))]


@pytest.mark.browser
async def test_a_load_more_list_is_read_whole_in_the_browser(
    fault_server: FaultServer, browser_settings: FetchSettings
) -> None:
    load_more_site(fault_server, PAPERS, first=3, per_click=3)
    async with Fetcher(browser_settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/"))
    assert page.ok and page.render == "browser", page.reason
    assert len(paper_links([link.url for link in page.links], fault_server)) == 10  # 3 shown + 3 presses
    assert "pressed its 'load more' control 3 time(s)" in page.reason and "4 → 11 links" in page.reason
    calls = [hit.at for hit in fault_server.hits_for("/api/papers?offset=3")]
    calls += [hit.at for hit in fault_server.hits if hit.path.startswith("/api/papers?offset=") and hit.path[-1] != "3"]
    assert len(calls) == 3
    presses = sorted(hit.at for hit in fault_server.hits if hit.path.startswith("/api/"))
    assert all(later - earlier >= 0.15 for earlier, later in itertools.pairwise(presses))  # the host's pace


@pytest.mark.browser
async def test_a_control_relabelled_while_its_list_loads_is_pressed_again(
    fault_server: FaultServer, browser_settings: FetchSettings
) -> None:
    load_more_site(fault_server, PAPERS, first=3, per_click=4, slow_s=0.4)  # "Loading…", disabled, for 0.4 s
    async with Fetcher(browser_settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/"))
    assert len(paper_links([link.url for link in page.links], fault_server)) == 10, page.reason
    assert "2 time(s)" in page.reason and "the list is whole" in page.reason


@pytest.mark.browser
async def test_presses_are_bounded(fault_server: FaultServer, browser_settings: FetchSettings) -> None:
    load_more_site(fault_server, PAPERS, first=3, per_click=3)
    async with Fetcher(browser_settings.model_copy(update={"load_more_presses": 1})) as fetcher:
        page = await fetcher.fetch(fault_server.url("/"))
    assert len(paper_links([link.url for link in page.links], fault_server)) == 6
    assert "the bound of 1 presses" in page.reason
    assert len([hit for hit in fault_server.hits if hit.path.startswith("/api/")]) == 1


@pytest.mark.browser
async def test_the_data_a_press_asks_for_obeys_robots_txt(
    fault_server: FaultServer, browser_settings: FetchSettings
) -> None:
    load_more_site(fault_server, PAPERS, first=3, per_click=3)
    fault_server.robots("User-agent: *\nDisallow: /api/\n")
    async with Fetcher(browser_settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/"))
    assert page.ok and len(paper_links([link.url for link in page.links], fault_server)) == 3
    assert not [hit for hit in fault_server.hits if hit.path.startswith("/api/")]


@pytest.mark.browser
async def test_an_endless_list_is_scrolled(fault_server: FaultServer, browser_settings: FetchSettings) -> None:
    endless_list_site(fault_server, PAPERS, first=4, per_scroll=4)
    async with Fetcher(browser_settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/"))
    assert page.ok and page.render == "browser", page.reason
    assert len(paper_links([link.url for link in page.links], fault_server)) == 10
    assert "scrolled its endless list" in page.reason


async def test_without_a_browser_the_first_items_are_read_and_the_reason_says_so(
    fault_server: FaultServer, fast_settings: FetchSettings, tmp_path: Path
) -> None:
    load_more_site(fault_server, PAPERS, first=3, per_click=3)
    missing = tmp_path / "no-chromium"
    async with Fetcher(fast_settings.model_copy(update={"chromium_path": str(missing)})) as fetcher:
        page = await fetcher.fetch(fault_server.url("/"))
    assert page.ok and page.render == "http" and len(paper_links([link.url for link in page.links], fault_server)) == 3
    assert "a 'load more' control not pressed: no browser" in page.reason


@pytest.mark.parametrize(
    ("body", "signal"),
    [
        ("<ul><li><a href='/a'>One</a></li></ul><button>Load more</button>", "a 'load more' control"),
        ("<ul><li><a href='/a'>One</a></li></ul><a href='#'>Show more results</a>", "a 'load more' control"),
        ("<ul><li><a href='/a'>One</a></li></ul><input type='button' value='Load 20 more'>", "a 'load more' control"),
        (
            "<ul>" + "<li><a href='/a'>A paper on graph learning</a></li>" * 4 + "</ul><button>Show more</button>",
            "a 'load more' control",
        ),
        ("<ul><li><a href='/a'>One</a></li></ul><div class='infinite-scroll-sentinel'></div>", "an endless list"),
        ("<ul><li><a href='/a'>One</a></li></ul><a href='/list?page=2'>Load more</a>", None),  # a page: a link
        ("<p>An abstract that is long.</p><button>Show more</button>", None),  # unfolds the abstract
        ("<aside><ul><li><a href='/a'>Related</a></li></ul><button>Load more</button></aside>", None),  # a sidebar
        ("<p>We load more data than anyone.</p>", None),
    ],
)
def test_which_pages_have_a_list_loaded_by_script(body: str, signal: str | None) -> None:
    found = expansion_signal(f"<html><body><main>{body}</main></body></html>")
    assert (found or "").startswith(signal or "") and (found is None) == (signal is None)


def test_no_saved_real_page_is_taken_for_one() -> None:
    pages = sorted(REALWEB.glob("*.html"))
    assert len(pages) >= 50
    assert [path.name for path in pages if expansion_signal(decode_html(path.read_bytes(), None))] == []
