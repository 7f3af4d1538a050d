"""Dates and titles of kinds of page the reader had missed: a CMS's stamp on a page whose only year is its title's
subject; the update's day a theme sets in a sidebar element right beside the title; a source's name glued to its
date by adjacent inline elements; a section heading that begins with the site's name, over an article whose
headline is set as plain text.

Each page below is written for the test in the shape of a kind of page; none is a copy of a real one.
"""

from __future__ import annotations

import json

from research_crawler.pages.item_dates import dates_in_text
from research_crawler.pages.metadata import read_item_metadata

URL = "https://news.example.com/stories/harbour-report"
PARAGRAPH = "<p>" + "The harbour board met on a wet morning to hear the engineers explain the new sea wall. " * 3
PARAGRAPH += "</p>"


def _json_ld(**fields: str) -> str:
    data = {"@context": "https://schema.org", "@type": "Article", **fields}
    return f'<script type="application/ld+json">{json.dumps(data)}</script>'


def _page(body: str, *, head: str = "", title_element: str = "Example News") -> str:
    return (
        f"<!doctype html><html><head><title>{title_element}</title>{head}</head><body>"
        f'<nav><a href="/">Home</a> <a href="/stories">Stories</a></nav>{body}'
        "<footer>Example News</footer></body></html>"
    )


def test_a_stamp_is_not_shown_by_the_year_the_title_is_about() -> None:
    title = "Seven Harbour Projects to Watch in 2031"
    html = _page(
        f"<main><h1>{title}</h1>{PARAGRAPH}</main>",
        head=_json_ld(headline=title, datePublished="2031-02-11"),
        title_element=title,
    )
    meta = read_item_metadata(html, url=URL)
    assert meta.title == title
    assert meta.date is None  # the page shows no date; "2031" is what the title is about


def test_a_stamp_whose_year_a_dateline_shows_is_still_kept() -> None:
    title = "Seven Harbour Projects to Watch in 2031"
    html = _page(
        f"<main><h1>{title}</h1><p>Published 2031</p>{PARAGRAPH}</main>",
        head=_json_ld(headline=title, datePublished="2031-02-11"),
        title_element=title,
    )
    assert read_item_metadata(html, url=URL).date == "2031-02-11"


def test_the_update_a_sidebar_element_shows_right_beside_the_title_dates_the_item() -> None:
    title = "Harbour Board Approves the New Sea Wall"
    html = _page(
        f'<main><h1>{title}</h1><div class="sidebar-meta">Edited by Example Desk</div>'
        f'<div class="sidebar-meta">Updated: March 04, 2030 03:49 pm</div>{PARAGRAPH}</main>',
        title_element=title,
    )
    assert read_item_metadata(html, url=URL).date == "2030-03-04"


def test_a_sidebar_update_far_from_the_title_is_the_sites() -> None:
    title = "Harbour Board Approves the New Sea Wall"
    far = "".join(f'<div class="sidebar-meta">Related link {n}</div>' for n in range(6))
    html = _page(
        f'<main><h1>{title}</h1>{far}<div class="sidebar-meta">Updated: March 04, 2030</div>{PARAGRAPH}</main>',
        title_element=title,
    )
    assert read_item_metadata(html, url=URL).date is None


def test_a_sources_name_glued_to_its_date_leaves_the_date_readable() -> None:
    assert dates_in_text("Example WireOctober 3, 2016") == ["2016-10-03"]
    assert dates_in_text("Harbour Desk StaffMay 2019") == ["2019-05"]
    assert dates_in_text("mentionedMay 24, 2024") == []  # a verb glued to a date: a reply's stamp, no dateline
    title = "Harbour Board Approves the New Sea Wall"
    html = _page(
        f"<main><h1>{title}</h1><p><span>Example Wire</span><span>October 3, 2016</span></p>{PARAGRAPH}</main>",
        title_element=title,
    )
    assert read_item_metadata(html, url=URL).date == "2016-10-03"


def test_a_section_heading_that_begins_with_the_sites_name_is_not_the_title() -> None:
    headline = "Harbour board approves the new sea wall after a long night"
    html = _page(
        f'<main><h4>Example Daily Top Stories</h4><div class="headline">{headline}</div>'
        f"<div>2030-03-04</div>{PARAGRAPH}</main>",
        title_element=f"{headline} - Example Daily",
    )
    assert read_item_metadata(html, url=URL).title == headline


def test_a_heading_that_is_the_titles_short_first_part_is_still_the_title() -> None:
    html = _page(
        f"<main><h1>Models</h1>{PARAGRAPH}</main>",
        title_element="Models | Example framework documentation",
    )
    assert read_item_metadata(html, url=URL).title == "Models"


def test_the_sites_name_heading_a_widget_under_the_article_does_not_take_its_title() -> None:
    headline = "Harbour board approves the new sea wall"
    html = _page(
        f"<main><h1>{headline}</h1><p>By Ann Example</p>{PARAGRAPH}</main>"
        "<section><h4>Example Daily</h4><h5>Another story from the same site</h5></section>",
        title_element=f"{headline} | Example Daily",
    )
    assert read_item_metadata(html, url=URL).title == headline


def test_a_blogs_name_over_its_posts_title_still_gives_the_post() -> None:
    html = _page(
        f"<div><h1>Field Notes</h1><p>Notes from the coast</p></div><main><h2>Counting seabirds at dawn</h2>"
        f"{PARAGRAPH}</main>",
        title_element="Counting seabirds at dawn « Field Notes",
    )
    assert read_item_metadata(html, url=URL).title == "Counting seabirds at dawn"


def test_with_no_tags_the_heading_the_title_element_rewords_beats_a_teasers_heading() -> None:
    html = _page(
        "<main><h1>A Fresh Start: the harbour master following in the wake of his mother</h1>"
        f"{PARAGRAPH}{PARAGRAPH}<h2>Lighthouse keeper retires after forty years on the rock</h2>"
        "<p>By Ben Example</p></main>",
        title_element="Harbour master following in wake of mother Ada - Example Weekly",
    )
    title = read_item_metadata(html, url=URL).title
    assert title == "A Fresh Start: the harbour master following in the wake of his mother"


# the site's programme of other shows between the item and the day the page shows (a radio station's listings)
_PROGRAMME = "".join(f"<h2>Programme {n}</h2><p>Concert {n}</p>" for n in range(12))


def _dublin_core_page(dateline: str) -> str:
    title = "Harbour Board Approves the New Sea Wall"
    return _page(
        f"<main><h1>{title}</h1>{PARAGRAPH}</main>{_PROGRAMME}<div>{dateline}</div>",
        head='<meta name="DC.date" content="2030-02-26">',
        title_element=f"{title} | Stories | Example Radio",
    )


def test_the_one_day_a_page_shows_beats_a_dublin_core_day_it_never_writes() -> None:
    assert read_item_metadata(_dublin_core_page("04.03.2030"), url=URL).date == "2030-03-04"


def test_a_dublin_core_day_stands_where_the_page_shows_it_or_no_day() -> None:
    assert read_item_metadata(_dublin_core_page("Example Radio"), url=URL).date == "2030-02-26"
    assert read_item_metadata(_dublin_core_page("26.02.2030"), url=URL).date == "2030-02-26"
