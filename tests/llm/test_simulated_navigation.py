"""The simulated Crawler and Planner on an archive browsed by date, as a model reads the request and the Planner's
view: a year the request asks for before the others, the newest year and month first for "the most recent", and an
item's page marked "(collected)" left alone while more items are wanted."""

from __future__ import annotations

import json
from typing import Any

from research_crawler.llm.client import ModelReply, ToolCallSpec
from research_crawler.llm.simulated_agents import RULES, Player
from research_crawler.llm.simulated_conversation import Conversation


def _call(name: str, arguments: dict[str, Any]) -> ModelReply:
    return ModelReply(tool_calls=[ToolCallSpec(id="c1", name=name, arguments=json.dumps(arguments))])


def _play(role: str, messages: list[str], tools: set[str]) -> tuple[str, dict[str, Any]]:
    chat = Conversation([{"role": "system", "content": f"You are the {role} of research-crawler. Today is 2026-11-26."},
                         *({"role": "user", "content": text} for text in messages)])  # fmt: skip
    key = role.lower()
    reply = RULES[key](chat, tools, Player(call=_call, enough_items=5))
    (call,) = reply.tool_calls
    return call.name, json.loads(call.arguments)


def _scores(request: str, links: list[str]) -> dict[str, float]:
    view = "\n".join(f"[{n}] {text} — {text}" for n, text in enumerate(links, 1))
    task = f'Request: "{request}"\n<page-content url="http://archive.test/browse/ocean" title="Ocean">\n{view}\n'
    name, arguments = _play("Crawler", [task + "</page-content>\nScore the links with save_links."], {"save_links"})
    assert name == "save_links"
    return {links[link["id"] - 1]: link["score"] for link in arguments["links"]}


def test_the_crawler_puts_the_year_asked_for_above_the_other_years() -> None:
    scores = _scores(
        "Find papers on coral reef bleaching published in 2024", ["2026 (3)", "2025 (2)", "2024 (4)", "Browse"]
    )
    assert scores["2024 (4)"] > scores["Browse"] > scores["2026 (3)"] and scores["2025 (2)"] < scores["2024 (4)"]
    ranged = _scores("Find papers on coral reef bleaching from 2022 to 2023", ["2024", "2023", "2022", "2021"])
    assert ranged["2023"] == ranged["2022"] > ranged["2024"] == ranged["2021"]


def test_for_the_most_recent_the_crawler_puts_the_latest_year_and_month_first_whatever_the_page_order() -> None:
    scores = _scores("Find the 3 most recent papers on wildfire smoke", ["2022", "2024", "2025", "March", "Aug (2)"])
    assert scores["2025"] > scores["2024"] > scores["2022"]
    assert scores["Aug (2)"] > scores["March"]
    # with no date in the request, the calendar is navigation like any other: no year is preferred
    plain = _scores("Find papers on wildfire smoke", ["2022", "2024", "2025"])
    assert len(set(plain.values())) == 1


def test_the_planner_leaves_items_collected_already_while_it_wants_more() -> None:
    announce = 'Now exploring archive.test (http://archive.test/), at most 5 subpages. Request: "Find papers on X".'
    report = (
        "Page http://archive.test/search?q=x — Results\nStored 2 relevant item(s).\n(2 new item(s) stored.)\n\n"
        "Pending URLs on http://archive.test/ (4 in all):\n"
        "1. /record/1 — A first paper (collected)\n2. /record/2 — A second paper (collected)\n"
        "3. /browse/ocean — Ocean\n4. /about — About\n\nHint: 3 subpages left on this site; 2 papers collected so far."
    )
    assert _play("Planner", [announce, report], {"scrape_url", "finish_site"}) == (
        "scrape_url",
        {"url": "/browse/ocean"},
    )
    only_collected = report.replace("3. /browse/ocean — Ocean\n4. /about — About\n", "")
    assert _play("Planner", [announce, only_collected], {"scrape_url", "finish_site"}) == ("finish_site", {})
