"""A page saved from a web archive has every link rewritten to the archive's copy of the page it leads to
(``https://archive.example.net/web/20240325103510/https://news.example.org/2024/03/25/a-story/``, or the same path
relative to the archive). Read under its own address, as ``page FILE --url`` reads a saved page, a headline on its
front page leads to the story: its link is numbered as the story's address. A page read inside the archive keeps
the archive's addresses, and so does a live page that cites an archived copy of another site's page.

Each page below is written for the test in the shape of a kind of real page; none is a copy of one.
"""

from __future__ import annotations

from research_crawler.pages.archived_copies import archived_address
from research_crawler.pages.view import build_page_view

SITE = "https://news.example.org/"
CAPTURE = "https://archive.example.net/web/20240325103510"
STORIES = (
    "https://news.example.org/2024/03/25/business/hospital-chain-financial-ruin/",
    "https://news.example.org/2024/03/24/metro/child-hit-by-driver/",
)


def _front_page(hrefs: list[str]) -> str:
    nav = f'<nav><a href="{hrefs[0]}">Metro</a> <a href="{hrefs[1]}">Sports</a></nav>'
    teasers = "".join(
        f'<div class="teaser"><h2><a href="{href}">A headline of a story that goes on a while {n}</a></h2>'
        "<p>A line under the headline that says what the story is about.</p></div>"
        for n, href in enumerate(hrefs[2:])
    )
    return f"<html><head><title>The Example News</title></head><body>{nav}<main>{teasers}</main></body></html>"


def _urls(html: str, url: str) -> list[str]:
    return [link.url for link in build_page_view(html, url=url).links]


def test_a_saved_copys_absolute_links_into_the_archive_are_the_pages_they_copy() -> None:
    hrefs = [f"{CAPTURE}/{SITE}metro/", f"{CAPTURE}/{SITE}sports/", *(f"{CAPTURE}/{story}" for story in STORIES)]
    urls = _urls(_front_page(hrefs), SITE)
    assert urls == [f"{SITE}metro/", f"{SITE}sports/", *STORIES]


def test_a_saved_copys_relative_links_into_the_archive_are_the_pages_they_copy() -> None:
    hrefs = [f"/web/20240325103510/{SITE}metro/", f"/web/20240325103510/{SITE}sports/"]
    hrefs += [f"/web/20240325103510im_/{story}?p1=front" for story in STORIES]
    urls = _urls(_front_page(hrefs), SITE)
    assert urls == [f"{SITE}metro/", f"{SITE}sports/", *(f"{story}?p1=front" for story in STORIES)]


def test_a_page_read_inside_the_archive_keeps_the_archives_addresses() -> None:
    hrefs = [f"{CAPTURE}/{SITE}metro/", f"{CAPTURE}/{SITE}sports/", *(f"{CAPTURE}/{story}" for story in STORIES)]
    urls = _urls(_front_page(hrefs), f"{CAPTURE}/{SITE}")
    assert urls == hrefs


def test_a_live_page_citing_an_archived_copy_elsewhere_keeps_the_archives_address() -> None:
    cited = f"{CAPTURE}/https://gone.example.com/report.html"
    html = (
        "<html><body><main><h1>Notes</h1><p>As the report said (<a href='https://gone.example.com/report.html'>"
        f"original</a>, <a href='{cited}'>archived copy</a>), the figures held.</p>"
        f"<p><a href='{SITE}about/'>About</a></p></main></body></html>"
    )
    urls = _urls(html, f"{SITE}notes/")
    assert cited in urls


def test_a_replay_address_names_the_page_it_copies() -> None:
    assert archived_address(f"{CAPTURE}/{STORIES[0]}") == STORIES[0]
    assert archived_address(f"{CAPTURE}id_/http:/news.example.org/a?b=1") == "http://news.example.org/a?b=1"
    assert archived_address(f"{SITE}2024/03/25/20240325103510/") is None
    assert archived_address(STORIES[0]) is None
