"""Bot-challenge pages and soft 404s served with status 200 are ``blocked`` and never citable (RELIABILITY.md,
bad content), over HTTP and in the browser, while real pages — the 51 saved pages of shared/realweb, every
testbed page, and look-alikes that talk about 404s or load a vendor's scripts — stay ``ok``."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import pytest
import realweb
from fault_server import FaultServer
from unlike_sites import loopback_settings

from research_crawler.config.settings import FetchSettings
from research_crawler.eval.reliability.block_page_samples import (
    BLOCK_SITE_QUERY,
    CHALLENGE_PAGES,
    LOOKALIKE_PAGES,
    SOFT_404_PAGES,
    BlockSite,
    block_page_site,
)
from research_crawler.eval.testbed import generate_testbed
from research_crawler.eval.testbed.layouts import make_site_app, offline_links
from research_crawler.eval.testbed.site_app import Request
from research_crawler.llm.client import ModelReply, ModelRequest
from research_crawler.llm.simulated import SimulatedModelClient
from research_crawler.pages.page import Determination, Page
from research_crawler.report.models import Report
from research_crawler.run.session import ResearchSession
from research_crawler.run.trace import read_trace
from research_crawler.web.block_pages import (
    MAX_CHALLENGE_WORDS,
    MAX_SOFT_404_WORDS,
    detect_block_page,
    main_text_words,
)
from research_crawler.web.fetcher import Fetcher, page_from_file
from research_crawler.web.page_building import html_page


def assert_bare_blocked(page: Page) -> None:
    """Blocked, and nothing left that an agent or a tool could read."""
    assert page.determination is Determination.BLOCKED, (page.determination, page.reason)
    assert not page.ok
    assert page.markdown == "" and page.links == [] and page.html == ""


def built(html: str, *, status: int = 200) -> Page:
    return html_page(
        html,
        url="http://papers.test/p",
        final_url="http://papers.test/p",
        site_url="http://papers.test/",
        status=status,
        content_type="text/html",
        render="http",
        attempts=1,
    )


# -- over HTTP, served with status 200 ---------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(CHALLENGE_PAGES))
async def test_challenge_pages_served_with_200_are_blocked(
    fault_server: FaultServer, fast_settings: FetchSettings, name: str
) -> None:
    fault_server.page("/list/recent", CHALLENGE_PAGES[name])
    async with Fetcher(fast_settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/list/recent"))
    assert_bare_blocked(page)
    assert page.status == 200 and page.attempts == 1
    assert page.reason.startswith("a bot-challenge page (") and "served with HTTP 200" in page.reason
    assert len(fault_server.hits_for("/list/recent")) == 1  # a challenge is not retried


@pytest.mark.parametrize("name", sorted(SOFT_404_PAGES))
async def test_soft_404s_served_with_200_are_blocked(
    fault_server: FaultServer, fast_settings: FetchSettings, name: str
) -> None:
    fault_server.page("/abs/2401.00001", SOFT_404_PAGES[name])
    async with Fetcher(fast_settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/abs/2401.00001"))
    assert_bare_blocked(page)
    assert page.reason.startswith("a soft 404: the page says it was not found")


@pytest.mark.parametrize("name", sorted(LOOKALIKE_PAGES))
async def test_lookalike_pages_stay_ok(fault_server: FaultServer, fast_settings: FetchSettings, name: str) -> None:
    fault_server.page("/page", LOOKALIKE_PAGES[name])
    async with Fetcher(fast_settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/page"))
    assert page.ok, page.reason
    assert page.markdown.strip() and page.html


def test_the_reason_names_the_signal_but_quotes_nothing_of_the_page() -> None:
    page = built(CHALLENGE_PAGES["cloudflare_managed"])
    assert "Cloudflare 'Just a moment…'" in page.reason
    assert "papers.example.org" not in page.reason  # page text is untrusted: never echoed to an agent
    heading = built(SOFT_404_PAGES["heading_only"])
    assert "its main heading" in heading.reason and "withdrawn" not in heading.reason


def test_the_served_status_is_kept_and_said() -> None:
    page = built(SOFT_404_PAGES["plain"], status=203)
    assert page.status == 203 and page.reason.endswith("(served with HTTP 203)")


def test_a_saved_challenge_page_read_from_a_file_is_blocked(tmp_path: Path) -> None:
    saved = tmp_path / "challenge.html"
    saved.write_text(CHALLENGE_PAGES["cloudflare_blocked"], encoding="utf-8")
    page = page_from_file(saved, url="https://papers.example.org/list")
    assert_bare_blocked(page)
    assert page.render == "file"


# -- what the detector weighs ------------------------------------------------------------------------


def test_a_challenge_signal_on_a_page_with_real_content_is_not_a_block() -> None:
    words = " ".join(["Residue graphs guide the design of stable protein folds."] * 60)
    long_page = CHALLENGE_PAGES["cloudflare_managed"].replace("</noscript>", f"</noscript><main><p>{words}</p></main>")
    long_page = long_page.replace("role='main'", "")
    assert main_text_words(long_page) > MAX_CHALLENGE_WORDS
    assert detect_block_page(long_page) is None
    assert built(long_page).ok


def test_cloudflare_bot_detection_scripts_on_ordinary_pages_are_not_challenges() -> None:
    page = (
        "<html><head><title>Listing</title></head><body><h1>Listing</h1><p>Four short entries.</p>"
        "<script>var a=document.createElement('script');a.src='/cdn-cgi/challenge-platform/scripts/jsd/main.js';"
        "</script><script src='/cdn-cgi/challenge-platform/scripts/precursor/main.js'></script></body></html>"
    )
    assert detect_block_page(page) is None


def test_a_not_found_heading_over_a_long_page_is_not_a_soft_404() -> None:
    words = " ".join(["The requested resource is described at length here."] * 30)
    page = f"<html><head><title>Page not found</title></head><body><p>{words}</p></body></html>"
    assert main_text_words(page) > MAX_SOFT_404_WORDS
    assert detect_block_page(page) is None


def test_item_tags_outweigh_a_not_found_heading() -> None:
    assert detect_block_page(LOOKALIKE_PAGES["paper_titled_page_not_found"]) is None
    untagged = LOOKALIKE_PAGES["paper_titled_page_not_found"].replace("citation_title", "description")
    assert detect_block_page(untagged) is not None  # the tags, not luck, keep the paper ok


_SEATS_NOTICE = (
    "<html><head><title>Colour constancy under mixed light - Conference Publication</title></head><body>"
    "<nav><a href='/browse'>Browse</a> <a href='/search'>Search</a></nav>"
    "<div class='Notification'>All Online Seats Are in Use. Seats will become available after 15 minutes of "
    "inactivity. In the meantime, you can continue to browse and search.</div>"
    "<footer>About · Contact · Terms of use</footer></body></html>"
)


@pytest.mark.parametrize(
    "notice",
    [
        _SEATS_NOTICE,
        _SEATS_NOTICE.replace(
            "All Online Seats Are in Use.", "The maximum number of concurrent users for your institution is reached."
        ),
    ],
)
def test_a_notice_that_all_seats_are_in_use_is_a_busy_page(notice: str) -> None:
    block = detect_block_page(notice)
    assert block is not None and block.kind == "busy"
    page = built(notice)
    assert page.determination is Determination.BLOCKED and page.blocked_by == "busy"
    assert "Colour constancy" not in page.reason  # the reason quotes nothing of the page


def test_an_article_about_concurrent_user_limits_is_not_busy() -> None:
    words = " ".join(["Licence servers cap the maximum number of concurrent users of a database."] * 40)
    page = (
        f"<html><head><title>Licensing</title></head><body><main><h1>Licensing</h1><p>{words}</p></main></body></html>"
    )
    assert detect_block_page(page) is None


def test_site_chrome_does_not_count_as_content() -> None:
    page = SOFT_404_PAGES["with_site_chrome"]
    assert main_text_words(page) < 60  # the 40 navigation links and 25 footer links are left out
    assert len(page.split()) > 100


@pytest.mark.parametrize(
    "heading",
    [
        "Page not found",
        "404",
        "Error 404 - Not Found",
        "404 Page Not Found | Example",
        "Oops! That page can’t be found.",
        "Sorry, the page you were looking for does not exist",
        "We can't find that page",
        "Article not found | Nature",
    ],
)
def test_not_found_headings_are_recognised(heading: str) -> None:
    page = f"<html><head><title>{heading}</title></head><body><p>Try the search.</p></body></html>"
    block = detect_block_page(page)
    assert block is not None and block.kind == "soft_404"


@pytest.mark.parametrize(
    "heading",
    [
        "HTTP 404 - Wikipedia",
        "How to fix 404 errors",
        "No results found",
        "Dark matter not found in dwarf galaxies",
        "Search results",
        "Error",
    ],
)
def test_headings_that_only_mention_not_found_are_not_soft_404s(heading: str) -> None:
    page = f"<html><head><title>{heading}</title></head><body><h1>{heading}</h1><p>Short.</p></body></html>"
    assert detect_block_page(page) is None


def test_bad_input_is_never_a_block_and_never_raises() -> None:
    deep = "<div>" * 3000 + "x" + "</div>" * 3000
    for html in ("", "   ", "<<<>>>", "\x00\x01", f"<html><head><title>404</title></head><body>{deep}</body></html>"):
        detect_block_page(html)  # no exception, whatever the input
    assert detect_block_page("") is None
    assert detect_block_page(None) is None  # type: ignore[arg-type]


# -- no false positives on real pages ----------------------------------------------------------------


@pytest.mark.skipif(not realweb.AVAILABLE, reason=realweb.MISSING_REASON)
def test_none_of_the_51_real_pages_is_blocked() -> None:
    names = sorted(path.name for path in (Path(realweb.REALWEB) / "pages").glob("*.html"))
    assert len(names) == 51
    for name in names:
        page = page_from_file(Path(realweb.REALWEB) / "pages" / name)
        assert page.ok, f"{name}: {page.determination} {page.reason}"
        assert detect_block_page(page.html) is None, name


def _testbed_pages() -> Iterator[tuple[str, str, int, str]]:
    """(site, path, status, html) of every HTML page the testbed serves from its page list, every item page,
    every decoy page, an empty search, and a missing page."""
    testbed = generate_testbed()
    for site in testbed.site_names():
        app = make_site_app(testbed, site, offline_links(testbed, site))
        paths = [*app.sample_paths().values(), *(item.path for item in testbed.items_on(site)), *app.decoy_paths]
        paths += ["/search?q=zzyzx+quantum+kale", "/no/such/page"]
        for target in paths:
            path, _, query = target.partition("?")
            response = app.handle(Request("GET", path, parse_qs(query)))
            if response.content_type.startswith("text/html"):
                yield site, target, response.status, response.body.decode("utf-8")


def test_no_testbed_page_served_with_200_is_blocked_and_its_404_page_would_be() -> None:
    ok_pages = not_found_pages = 0
    for site, path, status, html in _testbed_pages():
        page = built(html, status=status)
        if status == 200:
            ok_pages += 1
            assert page.ok, f"{site}{path}: {page.reason}"
        else:
            not_found_pages += 1
            assert page.determination is Determination.BLOCKED, f"{site}{path} served with 200 would be a soft 404"
    assert ok_pages > 250 and not_found_pages >= 5


# -- in the browser ----------------------------------------------------------------------------------


@pytest.mark.browser
async def test_the_browser_strategy_blocks_challenges_and_soft_404s_too(
    fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    fault_server.page("/challenge", CHALLENGE_PAGES["perimeterx"])
    fault_server.page("/missing", SOFT_404_PAGES["wordpress"])
    fault_server.page("/fine", LOOKALIKE_PAGES["listing_mentioning_not_found"])
    settings = fast_settings.model_copy(update={"page_deadline_s": 15.0, "render": "browser"})
    async with Fetcher(settings) as fetcher:
        challenge, missing, fine = [
            await fetcher.fetch(fault_server.url(path)) for path in ("/challenge", "/missing", "/fine")
        ]
    assert challenge.render == missing.render == "browser"
    assert_bare_blocked(challenge)
    assert "PerimeterX" in challenge.reason
    assert_bare_blocked(missing)
    assert fine.ok and len(fine.links) == 4


# -- a whole run: never collected, never a source of metadata -----------------------------------------


@dataclass
class BlockRun:
    report: Report
    site: BlockSite
    server: FaultServer
    prompts: list[ModelRequest] = field(default_factory=list)

    def url(self, path: str) -> str:
        return self.server.url(path)

    @property
    def fetches(self) -> list[dict[str, Any]]:
        trace = read_trace(Path(self.report.run_dir or "") / "trace.jsonl")
        return [event for event in trace if event["event"] == "fetch"]


@pytest.fixture(scope="module")
def block_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BlockRun]:
    site = block_page_site()
    prompts: list[ModelRequest] = []
    lock = threading.Lock()
    original = SimulatedModelClient._complete

    def recording(self: SimulatedModelClient, request: ModelRequest) -> ModelReply:
        with lock:
            prompts.append(request)
        return original(self, request)

    with FaultServer() as server:
        for path, html in site.pages.items():
            server.page(path, html)
        settings = loopback_settings(server, tmp_path_factory.mktemp("block-run") / "runs")
        patch = pytest.MonkeyPatch()
        patch.setattr(SimulatedModelClient, "_complete", recording)
        try:
            report = ResearchSession(settings, backend="simulated").run(BLOCK_SITE_QUERY, sites=[server.url("/")])
        finally:
            patch.undo()
        yield BlockRun(report, site, server, prompts)


def test_the_run_met_the_challenge_page_and_saw_it_blocked(block_run: BlockRun) -> None:
    outcome = {event["url"]: event["determination"] for event in block_run.fetches}
    assert outcome[block_run.url("/list/more")] == "blocked"
    assert outcome[block_run.url("/abs/3")] == "blocked"
    assert outcome[block_run.url("/")] == "ok"


def test_nothing_is_collected_from_a_blocked_page(block_run: BlockRun) -> None:
    blocked = {event["url"] for event in block_run.fetches if event["determination"] == "blocked"}
    assert block_run.report.items, "nothing was collected: the test would prove little"
    assert not [item.url for item in block_run.report.items if item.found_on in blocked]
    collected = {item.url for item in block_run.report.items}
    for path in block_run.site.challenge_only_items:
        assert block_run.url(path) not in collected
        assert block_run.server.hits_for(path) == []  # its links never reached the queue


def test_no_agent_ever_read_the_challenge_page(block_run: BlockRun) -> None:
    text = "\n".join(str(request.messages) for request in block_run.prompts)
    assert "hidden behind a challenge page" not in text
    assert "needs to review the security of your connection" not in text


def test_an_item_whose_page_is_a_soft_404_is_kept_without_metadata(block_run: BlockRun) -> None:
    items = {item.url: item for item in block_run.report.items}
    dead = items[block_run.url("/abs/3")]  # found on the ok listing: kept, as the Collector read it
    assert dead.title == "Scalable graph neural networks for de novo protein design"
    assert dead.authors == [] and dead.doi is None and dead.date is None and not dead.metadata_sources
    real = items[block_run.url("/abs/1")]  # an ok item page: its tags are read
    assert real.doi == "10.5555/block.1" and real.authors == ["Okafor, Ngozi"]
