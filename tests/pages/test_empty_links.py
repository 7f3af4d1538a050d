"""A link the page shows only with a count of zero beside it holds nothing (`pages/empty_links.py`)."""

from __future__ import annotations

from research_crawler.pages.empty_links import shown_empty
from research_crawler.pages.page import Determination, Page
from research_crawler.pages.view import build_page_view

URL = "http://index.test/"
HTML = """<html><head><title>Index</title></head><body>
<header><a href="/">Index</a> <a href="/browse/values">Browse</a> <a href="/about">About</a></header>
<main><h1>Index</h1><ul>
<li><a href="/browse/mind">Philosophy of Mind</a> (0)</li>
<li><a href="/browse/logic">Logic</a> [0 items]</li>
<li><a href="/browse/values">Value Theory</a> (12)</li>
<li><a href="/browse/ethics">Ethics</a> (10) · <a href="/news">News</a></li>
<li><a href="/paper/7">Luck and blame in 2020</a> by A. Rahman</li>
</ul></main></body></html>"""


def index_page() -> Page:
    view = build_page_view(HTML, url=URL)
    return Page(url=URL, final_url=URL, determination=Determination.OK, markdown=view.markdown, links=view.links)


def test_a_category_shown_with_a_zero_count_is_empty_and_one_with_entries_is_not() -> None:
    page = index_page()
    by_url = {link.url.removeprefix(URL.rstrip("/")): link.id for link in page.links}
    assert shown_empty(page, by_url["/browse/mind"])
    assert shown_empty(page, by_url["/browse/logic"])
    # the header's "Browse" opens the category the list counts 12 entries in
    assert not shown_empty(page, by_url["/browse/values"])
    assert not shown_empty(page, by_url["/browse/ethics"])
    assert not shown_empty(page, by_url["/news"])
    assert not shown_empty(page, by_url["/paper/7"])
    assert not shown_empty(page, 99)
