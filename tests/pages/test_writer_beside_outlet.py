"""A writer's byline that goes on past the name: the blog the post is on ("Helen Ashby on Moss and Mortar"), the
section it is filed in ("By Jane Doe in Opinion"), the newspaper a syndicated story comes from ("By Jane Doe, Lake
County Herald"), the writer's role ("PR Engineer") or a link beside it ("Printable Version"). A careful reader
takes the person as the writer and none of the rest as a co-writer.

Each page below is written for the test in the shape of a kind of real page; none is a copy of one.
"""

from __future__ import annotations

import pytest

from research_crawler.pages.bylines import names_after_by, people_in
from research_crawler.pages.metadata import read_item_metadata
from research_crawler.pages.person_names import is_person_name

URL = "https://planet.example.org/2024/03/12/ferns"
TEXT = "<p>" + "Ferns grow well in a shaded corner of a small garden with moist soil and leaf mould. " * 4 + "</p>"


def _post(credit: str, *, date: str = "Tuesday 12 March 2024, 09:14") -> str:
    return (
        "<!doctype html><html><head><title>Growing ferns in shade - Planet Example</title></head><body>"
        '<nav><a href="/">Home</a></nav><div class="entry"><h2>Growing ferns in shade</h2>'
        f'<p class="meta">{credit}</p><p class="date">{date}</p>{TEXT}</div></body></html>'
    )


@pytest.mark.parametrize(
    "credit",
    [
        "Helen Ashby on Moss and Mortar",
        'Posted by Helen Ashby on <a href="/blogs/moss/">Moss and Mortar</a>',
        "By Helen Ashby on Moss and Mortar",
        "By Helen Ashby in Gardening",
    ],
)
def test_a_writer_on_a_blog_or_in_a_section_is_the_one_writer(credit: str) -> None:
    assert list(read_item_metadata(_post(credit), url=URL).authors) == ["Helen Ashby"]


def test_a_by_line_of_two_writers_filed_in_a_section_names_both() -> None:
    assert names_after_by("By Jane Doe and John Roe in Opinion") == ["Jane Doe", "John Roe"]
    meta = read_item_metadata(_post("By Jane Doe and John Roe in Opinion"), url=URL)
    assert list(meta.authors) == ["Jane Doe", "John Roe"]


def test_a_by_line_that_goes_on_to_a_date_still_ends_at_the_date() -> None:
    assert names_after_by("By Jane Doe on 12 March 2024") == ["Jane Doe"]


@pytest.mark.parametrize(
    "outlet", ["Lake County Herald", "Example Valley Sentinel", "Harbour Times", "Midland Tribune", "Fox Channel"]
)
def test_a_newspapers_name_is_no_persons(outlet: str) -> None:
    assert not is_person_name(outlet)
    assert people_in(f"By Jane Doe, {outlet}") == ["Jane Doe"]


@pytest.mark.parametrize("furniture", ["Printable Version", "PR Engineer", "Product Manager", "Company Founder"])
def test_a_role_or_a_print_link_beside_the_name_is_no_persons(furniture: str) -> None:
    assert not is_person_name(furniture)


def test_a_syndicated_story_credits_its_writer_not_the_paper_it_comes_from() -> None:
    html = (
        "<!doctype html><html><head><title>Harbour reopens after storm</title></head><body>"
        "<h1>Harbour reopens after storm</h1>"
        '<div class="article-byline"><span>By </span><a href="/author/jane-doe/" rel="author" class="fn">JANE DOE</a>'
        '<span class="p-author fn">Lake County Herald (Riverton)</span></div>'
        f"<p>4 July 2016</p>{TEXT}</body></html>"
    )
    assert list(read_item_metadata(html, url="https://news.example.org/harbour").authors) == ["JANE DOE"]


def test_a_by_line_beside_a_print_link_names_only_the_writer() -> None:
    html = (
        "<!doctype html><html><head><title>Stock footage sales</title></head><body><h1>Stock footage sales</h1>"
        '<small>Posted on 4/28/2016 by <a href="/Author/jane-doe">Jane Doe</a> | '
        '<a href="/print?id=1">Printable Version</a> | <a href="#comments">Comments (2)</a></small>'
        f"{TEXT}</body></html>"
    )
    assert list(read_item_metadata(html, url="https://news.example.org/footage").authors) == ["Jane Doe"]
