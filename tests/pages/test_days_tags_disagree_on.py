"""The day a reader takes where a page's tags give two: the one the page writes (a CMS's creation stamp a day off
the publication the page shows is no date of the item's).

Each page below is written for the test in the shape of a kind of page; none is a copy of a real one.
"""

from __future__ import annotations

import json

from research_crawler.pages.metadata import read_item_metadata

URL = "https://news.example.com/world/harbour-reopens"
TEXT = "<p>" + "The harbour that closed a decade ago took its first ships again this week, to the town's relief. " * 3
TEXT += "</p>"


def test_the_day_the_page_writes_beats_a_creation_stamp_a_day_later_in_another_tag() -> None:
    """JSON-LD gives only the CMS's dateCreated, a day after the publication that microdata gives and the article's
    footer writes (in the page's chrome, away from the title)."""
    title = "The old harbour reopens after ten years of works"
    json_ld = {"@type": "NewsArticle", "headline": title, "dateCreated": "2021-03-05T10:41:09Z"}
    page = (
        f"<html><head><title>{title}</title>"
        f'<script type="application/ld+json">{json.dumps(json_ld)}</script></head><body>'
        f'<article itemscope itemtype="https://schema.org/NewsArticle"><h1 itemprop="headline">{title}</h1>'
        f'{TEXT * 4}<div class="footer"><span>By Our Staff</span> <time itemprop="datePublished" '
        'datetime="2021-03-04T14:15+0000">4 March 2021 • 2:15pm</time></div></article></body></html>'
    )
    assert str(read_item_metadata(page, url=URL).date) == "2021-03-04"
