"""The request as a contract: dates as spans, what fits a date window, the contract in one line, and rules
that read counts, dates, recency, order, kind, fields, sites and authors — and follow-ups that change them."""

from __future__ import annotations

from datetime import date

import pytest
from pydantic import ValidationError

from research_crawler.config.overrides import apply_overrides
from research_crawler.config.settings import Settings
from research_crawler.context.request import (
    MAX_QUERY_CHARS,
    ResearchRequest,
    checked_item_kind,
    checked_query,
    date_span,
)
from research_crawler.context.request_rules import constraint_only, read_follow_up, read_request
from research_crawler.errors import ConfigError

TODAY = date(2026, 11, 23)


def read(text: str) -> ResearchRequest:
    return read_request(text, today=TODAY)


def test_dates_are_spans() -> None:
    assert date_span("2025") == (date(2025, 1, 1), date(2025, 12, 31))
    assert date_span("2024-02") == (date(2024, 2, 1), date(2024, 2, 29))
    assert date_span("2025-03-04") == (date(2025, 3, 4), date(2025, 3, 4))
    assert date_span("2025-13") is None and date_span("March 2025") is None and date_span(None) is None


@pytest.mark.parametrize(
    ("value", "fit"),
    [
        ("2025-06-01", "inside"),
        ("2024-12-31", "outside"),
        ("2026-01-01", "outside"),
        ("2025", "inside"),
        (None, "unknown"),
    ],
)
def test_what_fits_a_year(value: str | None, fit: str) -> None:
    request = ResearchRequest(text="x", date_from=date(2025, 1, 1), date_to=date(2025, 12, 31))
    assert request.date_fit(value, today=TODAY, recent_days=365) == fit


def test_a_year_only_date_straddling_a_window_cannot_be_checked() -> None:
    request = ResearchRequest(text="x", date_from=date(2025, 6, 1))
    assert request.date_fit("2025", today=TODAY, recent_days=365) == "unknown"
    assert request.date_fit("2024", today=TODAY, recent_days=365) == "outside"


def test_recent_is_a_window_up_to_today() -> None:
    request = ResearchRequest(text="recent papers", recent=True)
    assert request.window(today=TODAY, recent_days=100) == (date(2026, 8, 15), TODAY)
    assert request.date_fit("2026-09-01", today=TODAY, recent_days=100) == "inside"
    assert request.date_fit("2026-01-01", today=TODAY, recent_days=100) == "outside"


def test_invalid_readings_are_refused_whole() -> None:
    with pytest.raises(ValidationError, match="after date_to"):
        ResearchRequest(text="x", date_from=date(2025, 1, 1), date_to=date(2024, 1, 1))
    with pytest.raises(ValidationError, match="unknown field"):
        ResearchRequest(text="x", fields=["title", "impact factor"])
    with pytest.raises(ValidationError):
        ResearchRequest(text="x", count=0)


@pytest.mark.parametrize("text", ["0", "00", "０", "000 papers on GNNs", "the 0 most recent papers on GNNs", "show 0"])
def test_the_rules_never_read_a_count_of_none(text: str) -> None:
    assert read(text).count is None
    previous = read("papers on graph neural networks")
    assert read_follow_up(previous, text, today=TODAY)[0].count is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the query is empty"),
        ("  \t ", "the query is empty"),
        ("0", "the query '0' has no words"),
        ("００", "the query '００' has no words"),
        ("2024 2025 !!", "the query '2024 2025 !!' has no words"),
        ("x" * (MAX_QUERY_CHARS + 1), "the query is 2,001 characters long; a request is at most 2,000"),
    ],
)
def test_a_query_that_asks_for_nothing_is_one_line_saying_what_to_write(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as raised:
        checked_query(text)
    assert "\n" not in str(raised.value) and 'e.g. "papers on graph neural networks"' in str(raised.value)


@pytest.mark.parametrize("kind", ["\u0000", "paper\u0000", "a\u001b]0;title\u0007", "<b>papers</b>", "", "  ", "-",
                                  "[x](http://evil.example)", "x" * 61])
def test_an_item_kind_is_words_wherever_it_comes_from(kind: str) -> None:
    with pytest.raises(ValueError, match="the item kind is a word or two"):
        checked_item_kind(kind)
    with pytest.raises(ValidationError, match="the item kind is a word or two"):
        ResearchRequest(text="x", item_kind=kind)
    with pytest.raises(ConfigError, match=r"explore\.item_kind: Value error, the item kind is a word or two"):
        apply_overrides(Settings(), {"explore.item_kind": kind})


def test_item_kinds_in_words_are_taken() -> None:
    for kind in ("paper", "job  post", "Datensätze", "l'article", "3D model", "論文"):
        assert checked_item_kind(kind) == " ".join(kind.split())


def test_a_request_in_any_script_or_a_count_alone_in_a_follow_up_is_taken() -> None:
    assert checked_query("  GNN 2024 ") == "GNN 2024"
    assert checked_query("グラフニューラルネットワーク") == "グラフニューラルネットワーク"
    assert checked_query("x" * MAX_QUERY_CHARS) == "x" * MAX_QUERY_CHARS
    assert checked_query("3", what="the follow-up", count_alone=True) == "3"
    with pytest.raises(ConfigError, match="the follow-up '0' has no words"):
        checked_query("0", what="the follow-up", count_alone=True)


@pytest.mark.parametrize(
    ("text", "summary"),
    [
        (
            "find five recent papers on diffusion models for protein design, titles and dates only",
            "5 papers on diffusion models for protein design · the last 365 days · titles and dates only",
        ),
        ("Find papers on graph neural networks published in 2022", "papers on graph neural networks · 2022 only"),
        ("Find 25 papers on graph neural networks", "25 papers on graph neural networks"),
        ("the 2 most recent preprints on CRISPR base editing", "2 papers on CRISPR base editing · newest first"),
        # "the most recent paper" asks for one; "the latest papers" for no number
        ("the most recent paper on CRISPR base editing", "1 paper on CRISPR base editing · newest first"),
        ("Find the latest preprint about RNA velocity", "1 paper on RNA velocity · newest first"),
        ("the newest dataset on protein folding", "1 dataset on protein folding · newest first"),
        ("the latest papers on RNA velocity", "papers on RNA velocity · newest first"),
        (
            "datasets about protein folding from the last six months",
            "datasets on protein folding · 2026-05-27 to 2026-11-23",
        ),
        (
            "papers by Geoffrey Hinton on capsule networks between 2017 and 2019",
            "papers on capsule networks · 2017–2019 · by Geoffrey Hinton",
        ),
        (
            "papers on climate model downscaling since 2024 on arxiv.org",
            "papers on climate model downscaling · since 2024 · on arxiv.org",
        ),
        ("What papers are there about graph neural networks?", "papers on graph neural networks"),
        ("preprints on RNA velocity before 2021, with abstracts", "papers on RNA velocity · until 2020 · abstracts"),
        # "published" before a range, a start or an end belongs to the dates, not to the topic
        ("Find papers on GNNs published between 2022 and 2024", "papers on GNNs · 2022–2024"),
        ("Find 20 papers on protein design published since 2024", "20 papers on protein design · since 2024"),
        ("papers on GNNs published after 2020", "papers on GNNs · since 2021"),
        ("papers on GNNs published before 2020", "papers on GNNs · until 2019"),
    ],
)
def test_rules_read_the_contract(text: str, summary: str) -> None:
    assert read(text).summary(today=TODAY, recent_days=365) == summary


def test_the_count_and_dates_stay_out_of_the_search_words() -> None:
    assert read("Find 25 papers on graph neural networks published in 2022").search_words == "graph neural networks"


@pytest.mark.parametrize(
    ("follow_up", "summary", "new_search"),
    [
        ("only 2025", "5 papers on protein design · 2025 only", False),
        ("newest first", "5 papers on protein design · the last 365 days · newest first", False),
        ("ten instead of five", "10 papers on protein design · the last 365 days", False),
        ("add authors", "5 papers on protein design · the last 365 days · authors", False),
        ("also search bioRxiv", "5 papers on protein design · the last 365 days · on bioRxiv", True),
        ('more like item 2 ("Equivariant Diffusion for Enzymes")', None, True),
    ],
)
def test_follow_ups_change_the_contract(follow_up: str, summary: str | None, new_search: bool) -> None:
    previous = read("find five recent papers on protein design")
    request, needs_search = read_follow_up(previous, f"{previous.text} — follow-up: {follow_up}", today=TODAY)
    assert needs_search is new_search
    if summary is not None:
        assert request.summary(today=TODAY, recent_days=365) == summary
    else:
        assert request.topic == "Equivariant Diffusion for Enzymes"
    assert request.text.startswith(previous.text) and follow_up in request.text


@pytest.mark.parametrize(
    ("text", "only"),
    [("only 2025", True), ("newest first", True), ("show 3", True), ("search arXiv too", False), ("about RNA", False)],
)
def test_a_follow_up_that_only_changes_the_choice_needs_no_search(text: str, only: bool) -> None:
    assert constraint_only(text, today=TODAY) is only


@pytest.mark.parametrize(
    "text",
    [
        "What has been published on speech recognition for low-resource languages?",
        "What papers have been published on speech recognition for low-resource languages?",
    ],
)
def test_a_question_about_what_was_published_reads_its_subject_alone(text: str) -> None:
    assert read(text).topic == "speech recognition for low-resource languages"


@pytest.mark.parametrize(
    ("text", "topic"),
    [
        ("What is new on seagrass restoration?", "seagrass restoration"),
        ("What do we know about sleep and memory?", "sleep and memory"),
        ("Is there anything recent on mass timber fire safety?", "mass timber fire safety"),
        ("Anything on quantum error correction from 2024?", "quantum error correction"),
        ("Which papers on bridge monitoring were published in 2024?", "bridge monitoring"),
        ("What papers were published on graph neural networks in 2025?", "graph neural networks"),
        ("papers about soil carbon that were published after 2020", "soil carbon"),
        # the same words as a subject stay
        ("Find papers on publishing practices in open science", "publishing practices in open science"),
        ("What are the latest papers on posted prices in auctions?", "posted prices in auctions"),
        ("papers on written language acquisition", "written language acquisition"),
    ],
)
def test_a_question_s_opening_and_its_word_that_works_were_published_are_no_part_of_its_subject(
    text: str, topic: str
) -> None:
    assert read(text).topic == topic


def test_a_query_loses_its_control_bidi_and_zero_width_characters() -> None:
    assert checked_query("GNN\x1b[2J papers\u202e\u200b\x07 ") == "GNN[2J papers"
    with pytest.raises(ConfigError, match="the query is empty"):
        checked_query("\x1b\x07\u200b")
