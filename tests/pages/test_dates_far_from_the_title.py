"""Dates a page shows away from its title: a dateline marked as the item's publication in a part of the layout that
reads as chrome, and a dateline over the byline past a box of related links; a journal article's issue month tagged
stays beside the day it labels as published.

Each page below is written for the test in the shape of a kind of page; none is a copy of a real one.
"""

from __future__ import annotations

import json

from research_crawler.pages.metadata import read_item_metadata
from research_crawler.pages.written_dates import marked_published_text

URL = "https://news.example.com/business/harbour-reopens"
TITLE = "The old harbour reopens after ten years of works"
TEXT = "<p>" + "The harbour that closed a decade ago took its first ships again this week, to the town's relief. " * 3
TEXT += "</p>"


def _tagged_page(body: str) -> str:
    json_ld = {"@type": "NewsArticle", "headline": TITLE, "datePublished": "2019-06-12T15:40:00Z"}
    return (
        f"<html><head><title>{TITLE}</title>"
        f'<script type="application/ld+json">{json.dumps(json_ld)}</script></head><body>{body}</body></html>'
    )


def _related_links(count: int) -> str:
    return "".join(
        f'<p><a href="/business/story-{n}">Another business story number {n} of the day</a></p>' for n in range(count)
    )


def test_a_dateline_marked_date_published_counts_as_shown_inside_an_aside() -> None:
    """The article's body sits in an <aside> (a theme's broken layout), far below the title: its dateline, marked
    itemprop="datePublished", is still the item's date the JSON-LD gives."""
    page = _tagged_page(
        f'<article itemscope itemtype="https://schema.org/NewsArticle"><h1>{TITLE}</h1>{_related_links(12)}'
        '<aside class="related"><div><time datetime="2019-06-12 15:40" itemprop="datePublished">June 12, 2019</time>'
        f"<small>This story first appeared elsewhere</small></div>{TEXT * 3}</aside></article>"
    )
    assert read_item_metadata(page, url=URL).date == "2019-06-12"


def test_the_same_stamp_with_no_dateline_marked_is_still_written_nowhere() -> None:
    """Without the marked dateline, the page shows no date: the JSON-LD's stamp is no date a reader is given."""
    page = _tagged_page(f"<article><h1>{TITLE}</h1>{_related_links(12)}<aside>{TEXT * 3}</aside></article>")
    assert read_item_metadata(page, url=URL).date is None


def test_a_comments_marked_date_is_not_the_items() -> None:
    """A comment is an item of its own (itemprop="comment" with its own itemscope): its datePublished is its own."""
    page = (
        '<html><body><article itemscope itemtype="https://schema.org/BlogPosting"><h1>A post</h1>'
        '<div itemprop="comment" itemscope itemtype="https://schema.org/Comment">'
        '<time itemprop="datePublished">June 13, 2019</time></div>'
        '<p itemprop="datePublished" hidden>June 14, 2019</p><ol class="comment-list"><li>'
        '<time itemprop="datePublished">June 15, 2019</time></li></ol>'
        '<div itemscope itemtype="https://schema.org/Comment"><time itemprop="datePublished">June 16, 2019</time>'
        "</div>"
        '<span itemprop="datePublished">June 12, 2019</span></article></body></html>'
    )
    assert marked_published_text(page) == "June 12, 2019"


def test_an_untagged_dateline_over_the_byline_far_above_the_title_dates_the_item() -> None:
    """No tag dates the page; its header writes the day ("5/24/2016") over the writer's name, then a box of related
    links stands between it and the title: htmldate's search of the text finds the day the page presents alone."""
    page = (
        "<html><head><title>Startups get cloud grants</title></head><body>"
        '<div class="story-header"><p><a href="/cloud">Cloud</a></p><p>5/24/2016</p><p>02:05 PM</p>'
        '<p><a href="/author/ann-lee">Ann Lee</a></p></div>'
        f'<div class="related"><p>RELATED CONTENT</p>{_related_links(8)}</div>'
        f"<h1>Startups get cloud grants</h1>{TEXT * 3}</body></html>"
    )
    assert read_item_metadata(page, url="https://tech.example.com/cloud/startups-get-cloud-grants").date == (
        "2016-05-24"
    )


def test_a_date_found_only_in_prose_does_not_date_an_untagged_page() -> None:
    page = (
        "<html><head><title>Startups get cloud grants</title></head><body>"
        f"<h1>Startups get cloud grants</h1>{TEXT * 3}"
        "<p>The programme, first announced on 5/24/2016 by the ministry, was then widened to twelve countries.</p>"
        "</body></html>"
    )
    assert read_item_metadata(page, url="https://tech.example.com/cloud/startups-get-cloud-grants").date is None


def test_a_day_the_sites_menu_lists_does_not_date_an_untagged_page() -> None:
    """The site's menu lists its offers by day ("from Monday, 28.10.2024"): those days are the shop's, not the
    recipe's, which shows none."""
    offers = "".join(f"<li><a href='/offers/{day}'>from Monday, {day}.10.2024</a></li>" for day in (21, 28))
    page = (
        f"<html><head><title>Cheese dumplings</title></head><body><nav><ul>{offers}</ul></nav>"
        f"<div class='recipes'>{_related_links(8)}</div><h1>Cheese dumplings</h1>{TEXT * 3}</body></html>"
    )
    assert read_item_metadata(page, url="https://shop.example.com/recipes/cheese-dumplings").date is None


def test_an_issue_month_tagged_stays_beside_a_labelled_publication_day() -> None:
    """An article online before its issue: the tag gives the issue's month, as reference managers cite it; the day
    the page labels as published does not replace it."""
    page = (
        "<html><head><title>Folding of small proteins</title>"
        '<meta name="citation_title" content="Folding of small proteins">'
        '<meta name="citation_author" content="Roe, Jane">'
        '<meta name="citation_date" content="2021/08"></head><body>'
        "<p>Article</p><p>Published: 15 July 2021</p><h1>Folding of small proteins</h1>"
        f"<p>Jane Roe</p>{TEXT * 3}</body></html>"
    )
    assert read_item_metadata(page, url=URL).date == "2021-08"
