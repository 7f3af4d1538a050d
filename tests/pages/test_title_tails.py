"""Titles of kinds of page the reader had missed: a tag title with the site's name after a one-word heading (a
documentation page), or with the work's kind and years in brackets after the heading it repeats.

Each page below is written for the test in the shape of a kind of page; none is a copy of a real one.
"""

from __future__ import annotations

from research_crawler.pages.metadata import read_item_metadata

URL = "https://docs.example.org/guide/routes"
PARAGRAPH = "<p>" + "The coast road runs past small towns, long beaches and a lighthouse that is open in summer. " * 3
PARAGRAPH += "</p>"


def _page(body: str, *, head: str = "", title_element: str = "Example Docs") -> str:
    return (
        f"<!doctype html><html><head><title>{title_element}</title>{head}</head><body>"
        f'<nav><a href="/">Home</a> <a href="/guide">Guide</a></nav>{body}'
        "<footer>Example Docs</footer></body></html>"
    )


def test_a_one_word_heading_is_the_title_a_tag_writes_with_the_sites_name() -> None:
    html = _page(
        "<main><h1>Routes</h1>" + PARAGRAPH + "</main>",
        head='<meta property="og:title" content="Routes | Example framework documentation">',
        title_element="Routes | Example framework documentation | Example",
    )
    assert read_item_metadata(html, url=URL).title == "Routes"


def test_a_tag_title_with_the_works_kind_in_brackets_is_the_heading_it_adds_them_to() -> None:
    html = _page(
        "<main><h1>Harbour Lights</h1><p>Drama | 52min | TV Series (2031– )</p>" + PARAGRAPH + "</main>",
        head='<meta property="og:title" content="Harbour Lights (TV Series 2031– )">',
        title_element="Harbour Lights (TV Series 2031– ) - Example Screen",
    )
    assert read_item_metadata(html, url=URL).title == "Harbour Lights"


def test_a_tag_title_whose_brackets_the_page_shows_keeps_them() -> None:
    html = _page(
        "<main><h1>Harbour Lights (2031)</h1>" + PARAGRAPH + "</main>",
        head='<meta property="og:title" content="Harbour Lights (2031)">',
    )
    assert read_item_metadata(html, url=URL).title == "Harbour Lights (2031)"
