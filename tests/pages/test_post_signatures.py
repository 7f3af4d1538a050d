"""Writers as blogs, forums and one-writer sites sign their posts (the seventeenth batch of the page corpus showed
them): no "By" line, but the writer's name or handle beside the date — over it, before "on", before a colon, after
"by" at the line's end, over "opened on", in a closing line that names the post by its title, or in the site's
header as its one "By" line. And the credits that are not the item's writer: a reader's reply under the post.

Each page below is written for the test in the shape of a kind of real page; none is a copy of one.
"""

from __future__ import annotations

from research_crawler.pages.metadata import read_item_metadata

URL = "https://blog.example.org/2024/05/03/a-post"
TEXT = "<p>" + "A sentence of the post that goes on for a while to make a paragraph of it. " * 4 + "</p>"


def _page(body: str, *, title: str = "A Post About Gardens", head: str = "") -> str:
    return f"<!doctype html><html><head><title>{title}</title>{head}</head><body>{body}</body></html>"


def _authors(body: str, **kwargs: str) -> list[str]:
    return [str(name) for name in read_item_metadata(_page(body, **kwargs), url=URL).authors]


def test_a_name_over_the_date_over_the_title_is_the_writer() -> None:
    body = f"<header><div>Jane Q Gardener</div><div>February 5, 2026</div></header><h2>A Post About Gardens</h2>{TEXT}"
    assert _authors(body) == ["Jane Q Gardener"]


def test_a_name_alone_over_a_line_that_is_more_than_a_date_is_not_taken_for_a_writer() -> None:
    body = (
        f"<div>Jane Q Gardener</div><div>February 5, 2026 in Gardens and Trees</div><h2>A Post About Gardens</h2>{TEXT}"
    )
    assert _authors(body) == []


def test_a_linked_handle_then_on_and_the_date_is_the_writer() -> None:
    body = f'<h1>A Post About Gardens</h1><p><a href="/u/licot">Licot</a> on June 5, 2023</p>{TEXT}'
    assert _authors(body) == ["Licot"]


def test_a_name_then_a_colon_and_the_date_is_the_writer() -> None:
    body = f"<h1>A Post About Gardens</h1><p>Jane Gardener: 25 Feb 2026</p>{TEXT}"
    assert _authors(body) == ["Jane Gardener"]


def test_a_label_then_a_colon_and_the_date_names_no_one() -> None:
    body = f"<h1>A Post About Gardens</h1><p>Last Modified: 25 Feb 2026</p>{TEXT}"
    assert _authors(body) == []


def test_posted_on_a_date_by_a_linked_handle_is_the_writer() -> None:
    body = (
        '<h1>A Post About Gardens</h1><p>Posted on <a href="/2020/10/28/">October 28, 2020</a> by '
        f'<a href="/author/qgardener/">qgardener</a></p>{TEXT}'
    )
    assert _authors(body) == ["qgardener"]


def test_a_handle_the_line_does_not_link_is_not_taken() -> None:
    body = f"<h1>A Post About Gardens</h1><p>Posted on October 28, 2020 by qgardener</p>{TEXT}"
    assert _authors(body) == []


def test_a_linked_handle_over_opened_on_a_date_is_the_writer() -> None:
    body = (
        '<p><a rel="author" href="/owner">siteowner</a> / <a href="/owner/repo">repo</a></p>'
        '<h1>A Post About Gardens</h1><p>Open</p><p><a href="/qgardener">qgardener</a></p>'
        f'<p>opened on May 25, 2025 · edited by <a href="/qgardener">qgardener</a></p>{TEXT}'
    )
    assert _authors(body) == ["qgardener"]


def test_a_closing_line_naming_the_post_by_its_title_names_its_writer() -> None:
    body = (
        f"<h2>A Post About Gardens</h2><p>4th March 2026</p>{TEXT}"
        "<p>This is A Post About Gardens by Jane Gardener, posted on 4th March 2026.</p>"
    )
    assert _authors(body) == ["Jane Gardener"]


def test_the_one_by_line_of_a_sites_header_names_the_writer_of_its_posts() -> None:
    body = (
        '<div id="masthead"><p>By Jane Gardener</p></div><h1>A Post About Gardens</h1>'
        f"<h6>Wednesday, 26 February 2025</h6>{TEXT}"
    )
    assert _authors(body) == ["Jane Gardener"]


def test_a_readers_reply_names_no_writer() -> None:
    body = (
        f"<h1>A Post About Gardens</h1><p>Planted a while ago</p>{TEXT}"
        '<div class="reply"><div class="name-date"><a href="https://social.example/x"><span class="author">'
        "Henry Moto</span></a></div><p>Lovely post!</p></div>"
    )
    assert _authors(body) == []


def test_a_tags_one_credit_shown_as_a_line_under_the_title_is_the_byline() -> None:
    head = (
        '<script type="application/ld+json">{"@type": "Article", "headline": "A Post About Gardens", '
        '"author": {"@type": "Person", "name": "Example Review Insights"}}</script>'
    )
    body = (
        "<h1>A Post About Gardens</h1><p>How gardens grow.</p>"
        '<p><a href="/author/insights/">Example Review Insights</a></p><p>March 4, 2026</p>'
        f'{TEXT}<div class="popular"><span class="popular__byline"><a href="/author/mk/">Mia Kramer</a></span></div>'
    )
    assert _authors(body, head=head, title="A Post About Gardens | Example Review") == ["Example Review Insights"]


def test_a_pen_name_the_title_gives_after_by_is_no_sites_name() -> None:
    head = (
        '<script type="application/ld+json">{"@type": "NewsArticle", "headline": "A Post About Gardens", '
        '"author": [{"@type": "Person", "name": "qgardener"}]}</script>'
    )
    body = (
        f'<h1>Twelve Grams</h1><h1>A Post About Gardens</h1><p><a href="/@q">qgardener</a></p><p>Mar 06, 2025</p>{TEXT}'
    )
    assert _authors(body, head=head, title="A Post About Gardens - by qgardener") == ["qgardener"]


def test_a_tags_one_string_listing_several_writers_is_read_as_the_byline_lists_them() -> None:
    head = (
        '<script type="application/ld+json">{"@type": "Article", "headline": "A Post About Gardens", '
        '"author": {"@type": "Person", "name": "Jane Gardener, John Planter and Mia Kramer, Example News"}}</script>'
    )
    body = (
        "<h1>A Post About Gardens</h1><p>By Jane Gardener, John Planter and Mia Kramer, Example News</p>"
        f"<p>March 4, 2026</p>{TEXT}"
    )
    assert _authors(body, head=head) == ["Jane Gardener", "John Planter", "Mia Kramer"]
