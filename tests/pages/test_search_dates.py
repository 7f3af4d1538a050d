"""A search form's date and sort fields are found by their names and options, and filled from the request."""

from __future__ import annotations

from datetime import date
from urllib.parse import parse_qs, urlsplit

from research_crawler.pages.html_forms import FormSubmission
from research_crawler.pages.search_dates import with_dates
from research_crawler.pages.search_forms import build_search_submission, find_search_mechanisms

YEAR_FORM = """<form method="GET" action="/search"><input type="text" name="query">
<select name="year"><option value="">All dates</option><option value="2025">2025</option></select>
<select name="size"><option value="25">25</option></select><button type="submit">Search</button></form>"""
RANGE_FORM = """<form role="search" action="/find" method="get"><input name="q">
<input type="date" name="date_from"><input type="date" name="date_to">
<select name="sort"><option value="relevance">Relevance</option><option value="pub-date-desc">Newest first</option>
</select></form>"""
PLAIN_FORM = '<form role="search" action="/find"><input name="q"></form>'


def fields_of(html: str):  # type: ignore[no-untyped-def]
    return find_search_mechanisms(html, url="https://s.test/")[0].dates


def test_a_year_select_is_found_and_filled_for_a_one_year_request() -> None:
    dates = fields_of(YEAR_FORM)
    assert dates.year == "year"
    search, changes = with_dates(
        FormSubmission("GET", "https://s.test/search?query=gnn&year=&size=25"),
        dates,
        start=date(2025, 1, 1),
        end=date(2025, 12, 31),
        newest=False,
    )
    assert parse_qs(urlsplit(search.url).query) == {"query": ["gnn"], "year": ["2025"], "size": ["25"]}
    assert changes == ["year=2025"]


def test_a_year_field_is_left_alone_for_a_range_it_cannot_hold() -> None:
    search, changes = with_dates(
        FormSubmission("GET", "https://s.test/search?query=gnn"),
        fields_of(YEAR_FORM),
        start=date(2024, 1, 1),
        end=date(2025, 12, 31),
        newest=False,
    )
    assert changes == [] and search.url == "https://s.test/search?query=gnn"


def test_date_range_and_sort_fields_are_filled() -> None:
    dates = fields_of(RANGE_FORM)
    assert (dates.start, dates.end, dates.sort, dates.newest) == ("date_from", "date_to", "sort", "pub-date-desc")
    search = FormSubmission("GET", "https://s.test/find?q=gnn")
    search, _ = with_dates(search, dates, start=date(2024, 6, 1), end=None, newest=True)
    expected = {"q": ["gnn"], "date_from": ["2024-06-01"], "sort": ["pub-date-desc"]}
    assert parse_qs(urlsplit(search.url).query) == expected


def test_a_posted_form_gets_its_dates_in_its_fields_in_place() -> None:
    form = RANGE_FORM.replace('method="get"', 'method="post"')
    mechanism = find_search_mechanisms(form, url="https://s.test/")[0]
    assert mechanism.method == "POST" and mechanism.usable
    search = build_search_submission(mechanism, "graph networks")
    assert search.fields == (("q", "graph networks"), ("date_from", ""), ("date_to", ""), ("sort", "relevance"))
    search, changes = with_dates(search, mechanism.dates, start=date(2024, 1, 1), end=date(2024, 12, 31), newest=True)
    assert search.method == "POST" and search.url == "https://s.test/find"
    assert search.fields == (
        ("q", "graph networks"),
        ("date_from", "2024-01-01"),
        ("date_to", "2024-12-31"),
        ("sort", "pub-date-desc"),
    )
    assert changes == ["date_from=2024-01-01", "date_to=2024-12-31", "sort=pub-date-desc"]


def test_a_form_without_date_fields_has_none() -> None:
    assert not fields_of(PLAIN_FORM).any
