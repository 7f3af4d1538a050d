"""A link the page shows more than once is named by its most telling anchor, with the count shown beside it
(`pages/links.py`): a reader of the link view knows which category holds how many entries."""

from __future__ import annotations

from research_crawler.pages.view import build_page_view, link_view

URL = "https://bib.example/areas"


def _links(body: str) -> dict[str, tuple[str, str, str]]:
    view = build_page_view(f"<html><body>{body}</body></html>", url=URL)
    return {link.url.rsplit("/", 1)[-1]: (link.text, link.count, link.context) for link in view.links}


def test_a_link_in_the_menu_and_the_content_is_named_by_the_content_s_anchor_and_count() -> None:
    links = _links(
        "<header><a href='/value'>Browse</a></header>"
        "<main><h1>Areas</h1><ul><li><a href='/value'>Value Theory</a> (12)</li></ul></main>"
    )
    assert links["value"][:2] == ("Value Theory", "12")


def test_a_name_beats_a_generic_anchor_wherever_it_comes_and_takes_its_own_context() -> None:
    links = _links(
        "<ol><li><a href='/w/7'>More</a> <a href='/w/7'>On the sources of testimonial injustice</a> (2021) "
        "Jane Roe</li></ol>"
    )
    text, count, context = links["7"]
    assert text == "On the sources of testimonial injustice"
    assert count == ""  # a year in brackets is the work's date, not a count
    assert "2021" in context and "Roe" in context and "sources" not in context


def test_a_title_beats_an_image_s_longer_alt_text_and_a_card_that_wraps_the_entry() -> None:
    links = _links(
        "<a href='/w/1'><img src='c.png' alt='Cover of the book On Luck and Blame in Moral Life'></a>"
        "<h3><a href='/w/1'>On Luck and Blame</a></h3>"
        "<a href='/w/2'><h3>Resultant luck revisited</h3><p>A. Rahman, 2023. We argue…</p></a>"
        "<p><a href='/w/2'>Resultant luck revisited</a></p>"
    )
    assert links["1"][0] == "On Luck and Blame"
    assert links["2"][0] == "Resultant luck revisited"


def test_a_link_shown_once_keeps_its_anchor() -> None:
    assert _links("<p><a href='/about'>About</a></p>")["about"][:2] == ("About", "")


def test_counts_stay_with_their_links_in_the_link_view() -> None:
    view = build_page_view(
        "<html><body><ul><li><a href='/mind'>Philosophy of Mind</a> (0)</li>"
        "<li><a href='/science'>Science</a> <span class='count'>(0)</span></li>"
        "<li><b><a href='/value'>Value Theory</a></b> [1,204 entries]</li></ul></body></html>",
        url=URL,
    )
    lines = link_view(view).splitlines()
    assert "[1] Philosophy of Mind (0)" in lines
    assert "[2] Science (0)" in lines
    assert "[3] Value Theory (1,204 entries)" in lines
    assert all(link.context == "" for link in view.links)  # the count is the link's, not words around it


def test_a_count_is_read_only_right_after_the_anchor() -> None:
    links = _links(
        "<p><a href='/a'>Ethics</a> is reviewed in (3) places; <a href='/b'>Logic</a> <a href='/c'>x</a> (4)</p>"
    )
    assert links["a"][1] == "" and links["b"][1] == "" and links["c"][1] == "4"
