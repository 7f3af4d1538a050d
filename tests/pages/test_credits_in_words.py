"""Writers a page credits in words below its story rather than in a byline under the title: a sentence "This post
was written by <name>, <role>", or a writer's label on a line of its own over the name ("Article by" / "<name>"),
as blogs credit their writer at the foot of a post.

Each page below is written for the test in the shape of a kind of real page; none is a copy of one.
"""

from __future__ import annotations

from research_crawler.pages.metadata import read_item_metadata

URL = "https://blog.example.net/posts/indexing-guide"
TEXT = "<p>" + "A sentence of the post that goes on for a while to make a paragraph of it. " * 4 + "</p>"
FOOTER = "<footer><p><a href='/'>Home</a> <a href='/about'>About</a></p><p>© 2025 Example Blog</p></footer>"


def _page(body: str, *, title: str = "A Guide to Journal Indexing | Example Blog") -> str:
    return f"<!doctype html><html><head><title>{title}</title></head><body>{body}{FOOTER}</body></html>"


def test_a_sentence_saying_who_wrote_the_post_names_the_writer_without_their_role() -> None:
    body = (
        f"<h1>A Guide to Journal Indexing</h1>{TEXT}{TEXT}"
        "<p>This post was written by Rosa Lindqvist, Head of Research and Community Outreach</p>"
        "<p>Posted on April 13, 2023</p>"
    )
    meta = read_item_metadata(_page(body), url=URL)
    assert meta.authors == ["Rosa Lindqvist"]
    assert meta.sources["authors"] == "page_byline"


def test_a_sentence_crediting_two_writers_names_both_in_order() -> None:
    body = (
        f"<h1>A Guide to Journal Indexing</h1>{TEXT}"
        "<p>This article was written by Rosa Lindqvist and Tomas Brenner.</p>"
    )
    assert read_item_metadata(_page(body), url=URL).authors == ["Rosa Lindqvist", "Tomas Brenner"]


def test_a_writers_label_alone_over_a_name_at_the_foot_names_the_writer() -> None:
    body = (
        f"<h1>A Guide to Journal Indexing</h1>{TEXT}{TEXT}"
        "<h3>Article by</h3><p>Mikael Saarinen</p><p><a href='/contact'>Let's talk</a></p>"
    )
    assert read_item_metadata(_page(body), url=URL).authors == ["Mikael Saarinen"]


def test_a_label_over_a_line_that_is_no_name_credits_no_one() -> None:
    body = f"<h1>A Guide to Journal Indexing</h1>{TEXT}<h3>Article by</h3><p>our friends at the lab down the road</p>"
    assert read_item_metadata(_page(body), url=URL).authors == []


def test_a_sentence_that_mentions_writing_without_crediting_the_post_names_no_one() -> None:
    body = f"<h1>A Guide to Journal Indexing</h1>{TEXT}<p>The book was written by Rosa Lindqvist in 1998.</p>"
    assert read_item_metadata(_page(body), url=URL).authors == []


def test_a_credit_in_the_sites_chrome_names_no_writer_of_the_post() -> None:
    body = (
        f"<h1>A Guide to Journal Indexing</h1>{TEXT}"
        "<aside class='sidebar'><h3>Article by</h3><p>Mikael Saarinen</p></aside>"
    )
    meta = read_item_metadata(_page(body), url=URL)
    assert "Mikael Saarinen" not in meta.authors
