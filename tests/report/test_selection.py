"""Choosing a report's items under the contract: dates filter, newest first by date, never padded, no work by
other authors than those named, one work one item — and a compliance line per constraint."""

from __future__ import annotations

from datetime import date

import pytest

from research_crawler.context.request import ResearchRequest
from research_crawler.report.models import ReportItem
from research_crawler.report.selection import select_items

TODAY = date(2026, 11, 23)
SITE = "https://s.test/"


def item(n: int, day: str | None, **fields: object) -> ReportItem:
    values: dict[str, object] = {
        "rank": n,
        "title": f"Paper number {n} on graph networks",
        "url": f"{SITE}abs/{n}",
        "site": SITE,
        "found_on": SITE,
        "collector_score": 8,
        "date": day,
    }
    values.update(fields)
    return ReportItem.model_validate(values)


CANDIDATES = [item(1, "2021-03-01"), item(2, "2025-05-02"), item(3, None), item(4, "2025-11-20"), item(5, "2026-02-01")]


def choose(request: ResearchRequest, wanted: int = 10) -> tuple[list[int], list[str]]:
    chosen = select_items(CANDIDATES, request=request, wanted=wanted, today=TODAY, recent_days=365, item_kind="paper")
    return [int(i.url.rsplit("/", 1)[1]) for i in chosen.items], chosen.compliance


def test_a_year_is_never_violated_and_what_was_left_out_is_said() -> None:
    numbers, lines = choose(ResearchRequest(text="x", date_from=date(2025, 1, 1), date_to=date(2025, 12, 31)))
    assert numbers == [2, 4]
    assert lines[0] == "2 paper(s) in 2025; 2 outside those dates left out (1 older, 1 newer)"
    assert lines[1].startswith("1 paper(s) with no date shown could not be checked")


def test_the_n_most_recent_are_exactly_the_newest_newest_first() -> None:
    numbers, lines = choose(ResearchRequest(text="x", count=2, order="newest"), wanted=2)
    assert numbers == [5, 4] and "newest first" in lines


def test_a_count_is_never_padded() -> None:
    request = ResearchRequest(text="x", count=4, date_from=date(2025, 1, 1))
    numbers, lines = choose(request, wanted=4)
    assert numbers == [2, 4, 5]
    assert lines[0].startswith("only 3 of the 4 requested are dated since 2025")


def test_without_constraints_the_ranking_stands() -> None:
    assert choose(ResearchRequest(text="x"), wanted=3)[0] == [1, 2, 3]


def by_lee(candidates: list[ReportItem]) -> tuple[list[str], list[str]]:
    chosen = select_items(
        candidates,
        request=ResearchRequest(text="x", authors=["Ana Lee"]),
        wanted=3,
        today=TODAY,
        recent_days=365,
        item_kind="paper",
    )
    return [i.url.rsplit("/", 1)[1] for i in chosen.items], chosen.compliance


def test_works_by_other_authors_and_unchecked_ones_are_left_out_when_some_are_by_the_author() -> None:
    # "by Lee" is a constraint like a year: a work whose byline names others is left out and counted; one whose
    # authors could not be read is not listed beside works seen to be Lee's, but named as unchecked
    by_others = [item(n, "2023-01-01", authors=["Kim, Sun"]) for n in (1, 2)]
    numbers, lines = by_lee(
        [
            *by_others,
            item(3, None),
            item(9, "2022-01-01", authors=["Lee, Ana"]),
            item(8, "2024-01-01", authors=["Bo Chen", "Ana Lee"]),
        ]
    )
    assert numbers == ["9", "8"]  # Lee's in the ranking's order, nothing else
    assert lines[0] == "2 by Ana Lee; 2 by other authors left out"
    assert lines[1] == (
        "1 paper(s) with no authors shown could not be checked and were left out: “Paper number 3 on graph networks”"
    )


def test_when_no_work_is_seen_to_be_by_the_author_the_unchecked_ones_are_listed_and_said_unchecked() -> None:
    # rather than an empty report: what was found is listed, and the report says its authors could not be checked
    numbers, lines = by_lee([item(1, "2023-01-01", authors=["Kim, Sun"]), item(3, None)])
    assert numbers == ["3"]
    assert lines[0] == "0 by Ana Lee; 1 by other authors left out"
    assert lines[1] == "1 paper(s) with no authors shown could not be checked: “Paper number 3 on graph networks”"


@pytest.mark.parametrize(
    ("named", "author", "by"),
    [
        ("Petrova R", "Rosa Petrova", True),  # was left out: the surname was read as "r"
        ("Petrova R", "Kim R", False),  # was kept: the initial "R" was taken for a surname
        ("Petrova", "Petrova R", True),
        ("Lee, J.", "Jae Lee", True),  # was left out: the surname was read as "j."
        ("Lee, J.", "Lee, Ana", False),  # the same surname, another person's initial
        ("Jean-Luc Picard", "Picard, J.-L.", True),
        ("van der Berg JH", "Jan Hendrik van der Berg", True),  # was left out: the surname was read as "jh"
        ("Jun LI", "Li, Jun", True),
        ("王小明", "王小明", True),
        ("王小明", "王大明", False),
    ],
)
def test_a_work_is_by_the_author_a_request_names_by_the_one_reading_of_names(named: str, author: str, by: bool) -> None:
    # the request's author and the work's are one person by `pages.person_names.same_person`, however each is written
    chosen = select_items(
        [item(1, "2024-01-01", authors=[author]), item(2, "2024-01-02", authors=["Ines Okafor"])],
        request=ResearchRequest(text="x", authors=[named]),
        wanted=3,
        today=TODAY,
        recent_days=365,
        item_kind="paper",
    )
    assert [i.url.rsplit("/", 1)[1] for i in chosen.items] == (["1"] if by else [])
