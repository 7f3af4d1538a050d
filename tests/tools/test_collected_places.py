"""A link or a page named by its handle ("Ice Group / dem-tools": a code forge's project, a course, a meeting-notes
space) is a place that may hold works, never a work: `collect_items` refuses it, however the model titles it, and
still stores the works named by their titles, on the same page and inside the project."""

from __future__ import annotations

from research_crawler.context.web_context import WebContext
from research_crawler.pages.page import Page
from research_crawler.tools.hints import HintState
from research_crawler.tools.items import collect_items
from research_crawler.tools.named_places import names_a_place
from research_crawler.web.page_building import html_page

SITE = "http://forge.test/"
STATE = HintState(subpages_left=4, items_collected=0)


def page(body: str, *, url: str, title: str) -> Page:
    html = f"<html><head><title>{title}</title></head><body>{body}</body></html>"
    return html_page(
        html, url=url, final_url=url, site_url=SITE, status=200, content_type="text/html", render="http", attempts=1
    )


LISTING = page(
    "<h1>Explore projects</h1><ul>"
    '<li><h2><a href="/ice/dem-tools">Ice Group / dem-tools</a></h2><p>Scripts to fetch elevation models</p></li>'
    '<li><h2><a href="/ice/course-geo101">Ice Group / course-geo101</a></h2><p>Lecture notes on ice flow</p></li>'
    '<li><h2><a href="/ice/floe">Ice Group / floe</a></h2><p>Sea Ice Drift Measured from Radar Pairs</p></li>'
    '<li><h2><a href="/papers/input-output">Input/Output Scheduling for Ice Models</a></h2></li>'
    "</ul>",
    url="http://forge.test/explore",
    title="Explore projects · Forge",
)

PROJECT = page(
    '<p><a href="/ice">Ice Group</a> / floe</p><h1>floe</h1><p>Sea Ice Drift Measured from Radar Pairs</p>'
    '<table><tr><td><a href="/ice/floe/-/tree/main/paper">paper</a></td><td>Add software paper</td></tr>'
    '<tr><td><a href="/ice/floe/-/tree/main/src">src</a></td><td>Refactor</td></tr></table>'
    '<p><a href="https://doi.org/10.5281/zenodo.99">DOI</a> Sea Ice Drift Measured from Radar Pairs.</p>'
    '<p>Please cite the accompanying paper (<a href="/ice/floe/-/blob/main/paper/paper.md">paper/paper.md</a>).</p>',
    url="http://forge.test/ice/floe",
    title="Ice Group / floe · Forge",
)
PAPER = "http://forge.test/ice/floe/-/blob/main/paper/paper.md"


def link_id(shown: Page, text: str) -> int:
    return next(link.id for link in shown.links if link.text.startswith(text))


def test_projects_named_by_their_handle_are_refused_and_titled_works_kept() -> None:
    web = WebContext.for_site(SITE)
    entries = [
        {"id": link_id(LISTING, "Ice Group / dem-tools"), "title": "Ice Group / dem-tools", "score": 6},
        {"id": link_id(LISTING, "Ice Group / course-geo101"), "title": "Ice Group / course-geo101", "score": 6},
        # what a model may well do: title the project by the line under its name
        {"id": link_id(LISTING, "Ice Group / floe"), "title": "Sea Ice Drift Measured from Radar Pairs", "score": 8},
        {"id": link_id(LISTING, "Input/Output"), "title": "Input/Output Scheduling for Ice Models", "score": 7},
    ]
    result = collect_items(web, LISTING, entries, state=STATE)
    assert [item.title for item in web.items()] == ["Input/Output Scheduling for Ice Models"]
    assert len(result.rejected) == 3 and all("names a place by its handle" in why for why in result.rejected)
    assert "opening it" in result.rejected[0]
    floe = link_id(LISTING, "Ice Group / floe")
    assert result.places[floe] == 8  # a way to the works it holds, with the relevance the model saw in its line


def test_a_project_page_or_the_doi_it_cites_is_stored_as_the_paper_it_carries() -> None:
    for named in (
        {"url": PROJECT.final_url, "title": "Sea Ice Drift Measured from Radar Pairs", "score": 8},  # the page
        {"id": link_id(PROJECT, "DOI"), "title": "Sea Ice Drift Measured from Radar Pairs.", "score": 8},  # off site
        {"id": link_id(PROJECT, "paper/paper.md"), "title": "Sea Ice Drift Measured from Radar Pairs", "score": 8},
    ):
        web = WebContext.for_site(SITE)
        result = collect_items(web, PROJECT, [named], state=STATE)
        assert [item.url for item in web.items()] == [PAPER], result.message
        assert not result.rejected


def test_a_project_page_that_carries_no_paper_file_is_no_item() -> None:
    bare = page(
        "<h1>course-geo101</h1><p>Lecture notes on ice flow</p>",
        url="http://forge.test/ice/course-geo101",
        title="Ice Group / course-geo101 · Forge",
    )
    web = WebContext.for_site(SITE)
    result = collect_items(web, bare, [{"url": bare.final_url, "title": "course-geo101", "score": 5}], state=STATE)
    assert not web.items() and "names a place" in result.rejected[0]


def test_only_a_path_ending_in_its_own_address_segment_names_a_place() -> None:
    assert names_a_place("alice / thesis-template", "http://forge.test/alice/thesis-template/")
    assert not names_a_place("A / B Testing at Scale", "http://forge.test/papers/ab-testing")
    assert not names_a_place("Ice Group / floe", "http://forge.test/papers/17")  # a path, not this address's
    assert not names_a_place("floe", "http://forge.test/ice/floe")  # one name: a title may be one word
