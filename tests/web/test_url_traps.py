"""Crawler-trap URLs (Heritrix: path repetition ≤ 2): recognised in one place, never queued by save_links."""

from __future__ import annotations

import pytest

from research_crawler.config.settings import FetchSettings
from research_crawler.context.web_context import WebContext
from research_crawler.pages.page import Determination, Link, Page
from research_crawler.tools.hints import HintState
from research_crawler.tools.navigation import LinkScore, save_links
from research_crawler.web.url_traps import (
    DEFAULT_MAX_PATH_REPETITION,
    path_repetition_refusal,
    repeated_path_run,
)

SITE = "http://papers.test/"
STATE = HintState(subpages_left=4, items_collected=0)


@pytest.mark.parametrize(
    ("path", "run"),
    [
        ("/a/a/a/", ("a", 3)),
        ("/a/a/a", ("a", 3)),
        ("/a/a/a/a/a/a/a/a", ("a", 8)),
        ("/x/y/x/y/x/y/", ("x/y", 3)),
        ("/list/next/next/next/page", ("next", 3)),
        ("/c/a/b/a/b/a/b/d.html", ("a/b", 3)),
        ("/1/2/3/1/2/3/1/2/3/", ("1/2/3", 3)),
        ("/%61/a/A%2F/a/a", None),  # decoded "a", "a", "A/", "a", "a": no run of three
        ("/%61/a/a", ("a", 3)),  # percent-encoding does not hide a repetition
        ("//a//a//a//", ("a", 3)),  # nor do empty segments
    ],
)
def test_runs_longer_than_the_limit_are_found(path: str, run: tuple[str, int] | None) -> None:
    assert repeated_path_run(path) == run


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "",
        "/a/a/",
        "/x/y/x/y/",
        "/journals/1/volumes/1/issues/1",  # the same segment three times, never in a row
        "/a/b/a/c/a/",
        "/2020/01/01/",
        "/content/10.1101/2020.03.22.002386v3.full",
        "/list/cs/pastweek",
    ],
)
def test_real_paths_are_not_traps(path: str) -> None:
    assert repeated_path_run(path) is None
    assert path_repetition_refusal(f"http://papers.test{path}") is None


def test_the_limit_is_a_setting_with_heritrix_default() -> None:
    assert DEFAULT_MAX_PATH_REPETITION == FetchSettings().max_path_repetition == 2
    assert repeated_path_run("/a/a/a/", max_repetition=3) is None
    assert repeated_path_run("/a/a/a/a/", max_repetition=3) == ("a", 4)
    assert repeated_path_run("/a/a/", max_repetition=1) == ("a", 2)
    with pytest.raises(ValueError, match="at least 1"):
        repeated_path_run("/a/", max_repetition=0)
    with pytest.raises(ValueError):
        FetchSettings(max_path_repetition=0)


def test_only_the_path_counts_and_the_reason_says_why() -> None:
    assert path_repetition_refusal("http://papers.test/list?p=a/a/a/a#a/a/a") is None
    reason = path_repetition_refusal("http://papers.test/x/y/x/y/x/y/z")
    assert reason is not None
    assert "crawler trap" in reason and "'x/y' 3 times in a row" in reason and "at most 2" in reason
    assert path_repetition_refusal("http://[::1") is None  # malformed: the canonicaliser's business


def test_a_long_path_is_checked_quickly_and_correctly() -> None:
    distinct = "/".join(str(n) for n in range(600))
    assert repeated_path_run(f"/{distinct}/") is None
    assert repeated_path_run(f"/{distinct}/q/q/q") == ("q", 3)


def _page(paths: list[str]) -> Page:
    return Page(
        url=f"{SITE}list",
        final_url=f"{SITE}list",
        status=200,
        determination=Determination.OK,
        links=[
            Link(id=n, url=f"http://papers.test{path}", text=f"link {n}", same_site=True)
            for n, path in enumerate(paths, 1)
        ],
    )


def test_save_links_rejects_trap_urls_with_the_reason_and_never_queues_them() -> None:
    web = WebContext.for_site(SITE)
    page = _page(["/abs/1", "/a/a/a/", "/x/y/x/y/x/y/", "/journals/1/volumes/1/issues/1"])
    result = save_links(web, page, [LinkScore(id=n, score=8) for n in range(1, 5)], state=STATE)
    assert result.queued == ["http://papers.test/abs/1", "http://papers.test/journals/1/volumes/1/issues/1"]
    assert len(result.rejected) == 2
    assert result.rejected[0].startswith("link 2 (http://papers.test/a/a/a/): crawler trap")
    assert "link 3" in result.rejected[1] and "'x/y' 3 times" in result.rejected[1]
    assert "Rejected:" in result.message and "crawler trap" in result.message
    pending = {entry.url for entry in web.top_urls(10)}
    assert "http://papers.test/abs/1" in pending
    assert not {"http://papers.test/a/a/a/", "http://papers.test/x/y/x/y/x/y/"} & pending


def test_save_links_follows_the_configured_limit() -> None:
    web = WebContext.for_site(SITE)
    page = _page(["/a/a/a/"])
    assert save_links(web, page, [LinkScore(id=1, score=8)], state=STATE, max_path_repetition=3).queued == [
        "http://papers.test/a/a/a/"
    ]
