"""An aggregator's page (a Planet of blogs) heads each entry with its source's link, then the entry's own title link:
the source's link heads several entries' titles, so it is no one result's title. Whichever link a model names an
entry by — the source's, with the entry's teaser, or the entry's own, with that teaser — the item stored is the entry's
own page, never the source's."""

from __future__ import annotations

from research_crawler.context.web_context import WebContext
from research_crawler.pages.page import Page
from research_crawler.tools.hints import HintState
from research_crawler.tools.items import collect_items
from research_crawler.web.page_building import html_page

SITE = "http://lichens.test/"
STATE = HintState(subpages_left=3, items_collected=0)
TEASER = "New preprint by Ortiz et al.: how nitrogen from farms strips oak bark of its lichens. …"
TITLE = "Nitrogen Deposition and Epiphytic Lichen Loss in Upland Oakwoods"


def _entry(day: str, source: str, source_url: str, title: str, url: str, teaser: str) -> str:
    return (
        f'<div class="day"><h2>{day}</h2><div class="entry"><h3><a href="{source_url}">{source}</a> — '
        f'<a href="{url}">{title}</a></h3><p>{teaser}</p><p>by Ann Lee at <a href="{url}">10:52</a> · '
        f'<a href="{url}">Read more</a></p></div></div>'
    )


def _planet() -> Page:
    body = "<main><h1>Planet Lichens</h1>" + "".join([
        _entry("May 2, 2026", "Crust Notes", "/sources/crust-notes/", "Notes from the spring meeting",
               "/2026/05/02/spring-meeting/", "Talks on atlases and recording."),
        _entry("April 9, 2026", "Crust Notes", "/sources/crust-notes/", TITLE, "/2026/04/09/nitrogen-lichen/", TEASER),
        _entry("March 1, 2026", "Bark Book", "/sources/bark-book/", "Photo post: a walk in the woods",
               "/2026/03/01/photos/", "A few pictures."),
    ]) + "</main>"  # fmt: skip
    html = f"<html><head><title>Planet Lichens</title></head><body>{body}</body></html>"
    return html_page(
        html, url=SITE, final_url=SITE, site_url=SITE, status=200, content_type="text/html", render="http", attempts=1
    )


def _stored(item: dict[str, object]) -> list[tuple[str, str]]:
    page = _planet()
    web = WebContext(site_url=SITE)
    collect_items(web, page, [item], state=STATE)
    return [(stored.url, stored.title) for stored in web.items()]


def _link(text: str) -> int:
    return next(link.id for link in _planet().links if link.text == text)


def test_the_sources_link_with_an_entrys_teaser_is_that_entry() -> None:
    stored = _stored({"id": _link("Crust Notes"), "title": TEASER, "score": 8})
    assert stored == [(SITE + "2026/04/09/nitrogen-lichen/", TITLE)]


def test_the_entrys_own_link_with_its_teaser_stays_that_entry() -> None:
    stored = _stored({"id": _link(TITLE), "title": TEASER, "score": 8})
    assert [url for url, _ in stored] == [SITE + "2026/04/09/nitrogen-lichen/"]


def test_the_sources_link_by_its_own_name_is_kept_as_named() -> None:
    stored = _stored({"id": _link("Crust Notes"), "title": "Crust Notes", "score": 8})
    assert stored == [(SITE + "sources/crust-notes/", "Crust Notes")]


def test_a_source_heading_one_entry_is_left_as_the_listing_reads_it() -> None:
    stored = _stored({"id": _link("Photo post: a walk in the woods"), "title": "Photo post: a walk in the woods",
                      "score": 8})  # fmt: skip
    assert stored == [(SITE + "2026/03/01/photos/", "Photo post: a walk in the woods")]
