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


def test_a_portals_tag_title_with_the_outlet_in_full_width_brackets_is_the_heading() -> None:
    # a news portal's tag title credits the outlet in full-width brackets, then names the portal; the heading shows
    # the title alone and the line under it starts with the outlet's name
    heading = "市立図書館、夜間の開館を試行へ"
    html = _page(
        f"<main><h1>{heading}</h1><p>港町新報 4/2(水) 9:30配信</p>" + PARAGRAPH + "</main>",
        head=f'<meta property="og:title" content="{heading}（港町新報） - 例ニュース">',
        title_element=f"{heading} （港町新報） - 例ニュース",
    )
    assert read_item_metadata(html, url=URL).title == heading


def test_a_photo_credit_in_brackets_and_the_sites_name_after_a_full_width_colon_are_cut() -> None:
    heading = "港の再開発 住民説明会で賛否"
    html = _page(
        f"<main><h1>{heading}</h1>" + PARAGRAPH + "</main>",
        title_element=f"{heading}　（写真＝共同）　：例経済新聞",
    )
    assert read_item_metadata(html, url=URL).title == heading


def test_a_title_whose_brackets_the_heading_shows_too_keeps_them() -> None:
    title = "Harbour Lights (a history)"
    html = _page(
        f"<main><h1>{title}</h1>" + PARAGRAPH + "</main>",
        head=f'<meta property="og:title" content="{title}">',
        title_element=f"{title} - Example Docs",
    )
    assert read_item_metadata(html, url=URL).title == title
