"""Dates as people write them on pages, in the languages of the corpus's sites, at the precision written."""

from __future__ import annotations

import pytest

from research_crawler.pages.item_dates import dates_in_text, htmldate_date, normalise_date, tag_date, year_of


@pytest.mark.parametrize(
    ("text", "dates"),
    [
        ("Volume 1144, 15 November 2018, Pages 50-55", ["2018-11-15"]),
        ("Publication Date (Web): May 13, 2019", ["2019-05-13"]),
        ("28. Januar 2015 karstenruppert Schreibe einen Kommentar", ["2015-01-28"]),
        ("Data conseguimento 18 mar 2016", ["2016-03-18"]),
        ("Issue Date May 2025", ["2025-05"]),
        ("Date of Conference: 14-21 Oct. 2007", ["2007-10"]),
        ("Aufnahmedatum: 03.09.2019", ["2019-09-03"]),
        ("Folder Created: 2009-07-11", ["2009-07-11"]),
        ("Volume 9, Numbers 1-2 / February, 1996", ["1996-02"]),
        ("pp 17977–17979 and 2000 words", []),
        ("Date of publication: 2015/12/03", ["2015-12-03"]),
        ("First published: 25 March 2015Full publication history", ["2015-03-25"]),
        ("doi:10.1000/2015/12 and 2015for", []),
        # C's asctime, as mail archives and Unix `date` write a time: the zone is no month ("UTC 2024")
        ("Fri Mar  1 10:42:12 UTC 2024", ["2024-03-01"]),
        ("Posted Tue Oct 14 08:05:00 2025 by the list", ["2025-10-14"]),
    ],
)
def test_dates_written_in_text(text: str, dates: list[str]) -> None:
    assert dates_in_text(text) == dates


def test_a_tag_s_slashed_date_with_the_year_last_is_read_month_first() -> None:
    assert normalise_date("03/01/2003") == "2003-03-01"  # as Highwire tags and Zotero read it
    assert normalise_date("25/12/2015") == "2015-12-25"  # no 25th month: the day comes first
    assert normalise_date("2008/07/01") == "2008-07-01" and normalise_date("31/31/2015") == "31/31/2015"


def test_a_year_alone_counts_only_when_asked() -> None:
    assert dates_in_text("Vol. 37 (2008) , No. 7 p.682") == []
    assert dates_in_text("Vol. 37 (2008) , No. 7 p.682", bare_years=True) == ["2008"]
    assert year_of("Acta Palaeontologica Polonica 68 (4), 2023: 709-718") == "2023"


def test_htmldate_reads_the_publication_date_and_never_raises() -> None:
    page = '<html><head><meta property="article:published_time" content="2019-09-26T11:43:53+02:00"></head></html>'
    assert htmldate_date(page, url=None) == "2019-09-26"
    assert htmldate_date("\x00not html", url="https://example.org/") is None


def test_a_tag_s_day_in_iso_8601_s_basic_format_is_the_day_as_written() -> None:
    """A Japanese news site's JSON-LD writes "20180619T055000+0900": 19 June in its own zone (18 June in UTC)."""
    assert tag_date("20180619T055000+0900") == "2018-06-19"
    assert tag_date("20180619T0550Z") == "2018-06-19"
    assert tag_date("20181319T0550") == "20181319T0550"  # no thirteenth month: not a date


@pytest.mark.parametrize(
    ("text", "dates"),
    [
        ("Dec 28 Sat 2013 00:28", ["2013-12-28"]),  # a blog theme's stamp: the weekday between the day and year
        ("March 4, Tuesday, 2031", ["2031-03-04"]),
        ("Sat Dec 28 2013", ["2013-12-28"]),
        ("on 5 Monday 2013", []),  # no month: no date, never the fifth of another month
    ],
)
def test_a_weekday_between_a_day_and_its_year_is_no_month(text: str, dates: list[str]) -> None:
    assert dates_in_text(text) == dates
