"""A model's reading of a request is believed only when it is made of what the request says: a topic that shares a
word with it, dates the request gave (in years, or in a phrase the rules read as dates)."""

from __future__ import annotations

from datetime import date

import pytest

from research_crawler.context.reading_check import reading_doubts
from research_crawler.context.request import ResearchRequest
from research_crawler.context.request_rules import read_request

TODAY = date(2026, 11, 26)


def doubts(text: str, **reading: object) -> list[str]:
    model = ResearchRequest.model_validate({"text": text, **reading})
    return reading_doubts(model, text=text, rules=read_request(text, today=TODAY))


@pytest.mark.parametrize(
    ("text", "topic"),
    [
        ("Find papers on graph neural networks", "graph neural networks"),
        ("Find papers on graph neural networks", "graph neural network"),  # a plural dropped
        ("Find papers on graph neural networks", "GNNs"),  # initials
        ("Recent preprints about protein folding", "folding of proteins"),
        ("Find papers", "papers"),  # a request with no subject: nothing to check the topic against
    ],
)
def test_a_topic_made_of_the_requests_words_is_believed(text: str, topic: str) -> None:
    assert doubts(text, topic=topic) == []


@pytest.mark.parametrize("topic", ["search_topics", "x", "papers", "quantum chemistry"])
def test_a_topic_sharing_nothing_with_the_request_is_doubted(topic: str) -> None:
    assert doubts("Find papers on graph neural networks", topic=topic) == [
        f"its topic {topic!r} shares no word with the request"
    ]


def test_dates_the_request_never_gave_are_doubted() -> None:
    found = doubts(
        "Find papers on graph neural networks",
        topic="graph neural networks",
        date_from="2026-11-26",
        date_to="2026-11-26",
    )
    assert found == ["its dates (2026-11-26 to 2026-11-26) are not in the request"]


@pytest.mark.parametrize(
    ("text", "date_from", "date_to"),
    [
        ("Find papers on graph neural networks from 2025", "2025-01-01", "2025-12-31"),
        ("graph neural networks papers between 2019 and 2021", "2019-01-01", "2021-12-31"),
        ("Find papers on graph neural networks from the last 2 years", "2024-11-26", None),  # a relative phrase
    ],
)
def test_dates_the_request_gave_are_believed(text: str, date_from: str, date_to: str | None) -> None:
    assert doubts(text, topic="graph neural networks", date_from=date_from, date_to=date_to) == []
