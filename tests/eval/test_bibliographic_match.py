"""The evaluation's own comparison of titles, authors and years (eval/bibliographic_match.py): it accepts a work
written another way and catches what a misreading reader would report, apart from the product's readers."""

from __future__ import annotations

import pytest

from research_crawler.eval.bibliographic_match import (
    authors_match,
    match_words,
    surname_readings,
    titles_match,
    years_match,
)
from research_crawler.eval.testbed.unfamiliar_corpus import generate_unfamiliar_web
from research_crawler.eval.work_figures import entry_problems
from research_crawler.report.models import ReportItem


def test_titles_are_compared_by_their_words_in_every_script_with_their_accents() -> None:
    assert match_words("  Ｄｅｅｐ  Learning—for ÉTUDES: a Review! ") == "deep learning for études a review"
    assert titles_match("DEEP LEARNING: A REVIEW.", "Deep learning — a review")
    assert not titles_match("Etude des Muller", "Étude des Müller")  # a reader that drops accents changed it
    assert titles_match("東京の研究", "東京の研究") and not titles_match("大阪の研究", "東京の研究")
    assert not titles_match("", "")  # no title is no match
    assert not titles_match("Deep learning: a review | Meridian Letters", "Deep learning: a review")


@pytest.mark.parametrize(
    "reported",
    ["Rosa Petrova", "Petrova, Rosa", "Petrova R", "Petrova R.", "R. Petrova", "PETROVA, R.", "Petrova RM"],
)
def test_a_first_author_written_any_usual_way_matches(reported: str) -> None:
    assert authors_match(reported, "Rosa Petrova")


@pytest.mark.parametrize("reported", ["R", "Rosa", "Ivanova R", "Rosa Ivanova", ""])
def test_a_misread_first_author_does_not_match(reported: str) -> None:
    """What a reader that takes "Petrova R"'s last word for the surname reports ("R"), or a given name alone."""
    assert not authors_match(reported, "Rosa Petrova")


def test_particles_initials_and_names_in_other_scripts() -> None:
    assert surname_readings("Jan van der Berg") == [["van", "der", "berg"]]
    assert surname_readings("van der Berg JH") == [["jh"], ["van", "der", "berg"]]
    assert authors_match("van der Berg J.H.", "Jan van der Berg") and authors_match("Berg, Jan", "Jan van der Berg")
    assert authors_match("Jean-Luc Picard", "Picard, J.-L.") and authors_match("J. Lee", "Lee, J.")
    assert authors_match("Jun LI", "Jun Li")  # capitals after a given name: the surname
    assert authors_match("山田太郎", "山田太郎") and not authors_match("山田花子", "山田太郎")


def test_a_year_is_the_reported_dates_first_digits() -> None:
    assert years_match("2024-03-05", 2024) and years_match("2024", 2024)
    assert not years_match("2023-12-31", 2024) and not years_match(None, 2024)


def test_the_entry_figures_catch_a_first_author_misread_and_pass_one_written_surname_first() -> None:
    web = generate_unfamiliar_web(2024)
    item = web.items_on("consent-journal")[0]
    given, family = item.authors[0].rsplit(" ", 1)

    def entry(first_author: str) -> ReportItem:
        values = {"rank": 1, "title": item.title, "url": "http://127.0.0.1:9/x", "site": "http://127.0.0.1:9/",
                  "found_on": "http://127.0.0.1:9/", "collector_score": 8, "date": item.date,
                  "authors": [first_author, *item.authors[1:]]}  # fmt: skip
        return ReportItem.model_validate(values)

    assert entry_problems(entry(f"{family} {given[0]}"), item) == []  # Vancouver style: the right author
    assert entry_problems(entry(given[0]), item) == [f"first author {given[0]!r}, not {item.authors[0]!r}"]
