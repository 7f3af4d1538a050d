"""The simulated model's own reading of a request and of a follow-up (not the product's request rules)."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest

from research_crawler.llm.client import ModelReply, ToolCallSpec
from research_crawler.llm.simulated_agents import RULES, Player
from research_crawler.llm.simulated_conversation import Conversation
from research_crawler.llm.simulated_request import follow_up_reading, request_reading

TODAY = date(2026, 5, 1)


@pytest.mark.parametrize(
    ("text", "reading"),
    [
        ("find five recent papers on diffusion models for protein design, titles and dates only",
         {"count": 5, "recent": True, "fields": ["title", "date"], "fields_only": True, "item_kind": "paper",
          "topic": "diffusion models for protein design"}),
        ("Find the 2 most recent papers on graph neural networks",
         {"order": "newest", "count": 2, "item_kind": "paper", "topic": "graph neural networks"}),
        ("Find papers on CRISPR gene editing published between 2021 and 2024",
         {"date_from": "2021-01-01", "date_to": "2024-12-31", "item_kind": "paper", "topic": "CRISPR gene editing"}),
        ("Find 1 papers: Find papers on graph neural networks",
         {"count": 1, "item_kind": "paper", "topic": "graph neural networks"}),
        ("datasets for traffic forecasting from the last 6 months",
         {"date_from": "2025-11-02", "date_to": "2026-05-01", "item_kind": "dataset", "topic": "traffic forecasting"}),
        ("What are the 5 most recent papers about graph neural networks?",  # the demo's request
         {"order": "newest", "count": 5, "item_kind": "paper", "topic": "graph neural networks"}),
        ("What were the 3 latest preprints on CRISPR?",
         {"order": "newest", "count": 3, "item_kind": "paper", "topic": "CRISPR"}),
        ("What has been published on CRISPR gene editing?",
         {"topic": "CRISPR gene editing"}),
        ("What was written about graph neural networks in 2024?",
         {"date_from": "2024-01-01", "date_to": "2024-12-31", "topic": "graph neural networks"}),
        ("What has been published on medieval trade fairs?",  # the "me" of "medieval" is no "me"
         {"topic": "medieval trade fairs"}),
        ("Find me papers on graph neural networks",
         {"item_kind": "paper", "topic": "graph neural networks"}),
        ("papers on graph neural networks by Smith on arXiv",
         {"sites": ["arXiv"], "authors": ["Smith"], "item_kind": "paper", "topic": "graph neural networks"}),
    ],
)  # fmt: skip
def test_the_double_reads_a_request_as_a_model_filling_record_request_would(text: str, reading: dict[str, Any]) -> None:
    assert request_reading(text, today=TODAY) == reading


def test_a_follow_up_changes_what_it_says_and_searches_again_only_for_a_topic_or_a_site() -> None:
    earlier = request_reading("Find papers on graph neural networks", today=TODAY)
    assert follow_up_reading(earlier, "only 2025", today=TODAY) == {
        **earlier, "date_from": "2025-01-01", "date_to": "2025-12-31", "new_search": False
    }
    assert follow_up_reading(earlier, "ten instead of five", today=TODAY)["count"] == 10
    assert follow_up_reading(earlier, "also search bioRxiv", today=TODAY) == {
        **earlier, "sites": ["bioRxiv"], "new_search": True
    }
    assert follow_up_reading(earlier, "now about protein design", today=TODAY)["topic"] == "protein design"
    liked = follow_up_reading(earlier, 'more like item 2 ("Graph Attention Networks")', today=TODAY)
    assert liked["like"] == liked["topic"] == "Graph Attention Networks" and liked["new_search"]


def test_the_web_selector_takes_today_from_its_system_prompt() -> None:
    def call(name: str, arguments: dict[str, Any]) -> ModelReply:
        return ModelReply(tool_calls=[ToolCallSpec(id="c1", name=name, arguments=json.dumps(arguments))])

    system = "You are the Web Selector of research-crawler. Read the request as a contract. Today is 2020-03-15."
    chat = Conversation([{"role": "system", "content": system},
                         {"role": "user", "content": 'Request: "papers on qubits from the last 2 weeks"'}])  # fmt: skip
    reply = RULES["web_selector"](chat, {"record_request"}, Player(call=call, enough_items=5))
    arguments = json.loads(reply.tool_calls[0].arguments)
    assert (arguments["date_from"], arguments["date_to"]) == ("2020-03-01", "2020-03-15")
