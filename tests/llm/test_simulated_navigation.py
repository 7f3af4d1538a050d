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


def test_the_planner_collects_as_many_as_the_report_lists_and_never_opens_site_chrome() -> None:
    announce = (
        'Now exploring archive.test (http://archive.test/), at most 5 subpages. Request: "Find papers on X".\n'
        "The report lists up to 10 papers: keep opening promising pages until that many relevant papers are "
        "collected here or nothing promising is left."
    )
    report = (
        "Page http://archive.test/search?q=x — Results\nStored 6 relevant item(s).\n\n"
        "Pending URLs on http://archive.test/ (3 in all):\n"
        "1. /deposit — Deposit\n2. /browse/ocean — Ocean\n3. /about — About\n\n"
        "Hint: 3 subpages left on this site; 6 of 10 papers collected so far."
    )
    # 6 is more than the 5 it takes as enough when told nothing, but fewer than the 10 it is told the report lists
    assert _play("Planner", [announce, report], {"scrape_url", "finish_site"}) == (
        "scrape_url",
        {"url": "/browse/ocean"},
    )
    chrome_only = report.replace("2. /browse/ocean — Ocean\n", "")
    assert _play("Planner", [announce, chrome_only], {"scrape_url", "finish_site"}) == ("finish_site", {})
    # told nothing of the report's length (what another model might also take from the request alone), 5 is enough
    untold = report.replace(announce, "").replace("6 of 10 papers", "6 papers")
    assert _play("Planner", [announce.splitlines()[0], untold], {"scrape_url", "finish_site"}) == ("finish_site", {})


def test_the_supervisor_weighs_the_items_against_what_the_report_lists() -> None:
    def verdict(found: int, left: int) -> str:
        listing = (
            f'Query: "Find papers on X"\n{found} item(s) collected on http://archive.test/:\n'
            + "".join(f"{n}. Paper {n} — http://archive.test/record/{n} (score 7/10)\n" for n in range(1, found + 1))
            + f"\nHint: Approve the site if the papers collected ({found} of the 3 the report lists) answer the "
            f"query, or the site cannot give more; otherwise say what is missing ({left} subpages left)."
        )
        chat = Conversation([{"role": "system", "content": "You are the Supervisor of research-crawler."},
                             {"role": "user", "content": listing}])  # fmt: skip
        (call,) = RULES["supervisor"](
            chat, {"approve_site", "request_more"}, Player(call=_call, enough_items=5)
        ).tool_calls
        return call.name

    assert verdict(3, left=2) == "approve_site"  # 3 of the 3 the report lists, though 5 would be its own "enough"
    assert verdict(2, left=2) == "request_more"
    assert verdict(2, left=0) == "approve_site"  # the site cannot give more


def test_on_its_last_page_the_planner_opens_an_item_rather_than_an_index() -> None:
    announce = 'Now exploring archive.test (http://archive.test/), at most 5 subpages. Request: "Find papers on X".'
    report = (
        "Page http://archive.test/browse/x/2026/05 — X, May 2026\nStored 1 relevant item(s).\n\n"
        "Pending URLs on http://archive.test/ (3 in all):\n"
        "1. /browse/x/2025 — 2025 (on: X)\n2. /record/95 — How Dry Processing Reshapes NASICON Frameworks\n\n"
        "Hint: {left} subpages left on this site; 1 of 3 papers collected so far."
    )
    assert _play("Planner", [announce, report.format(left=1)], {"scrape_url"}) == ("scrape_url", {"url": "/record/95"})
    assert _play("Planner", [announce, report.format(left=2)], {"scrape_url"}) == (
        "scrape_url",
        {"url": "/browse/x/2025"},
    )


def test_the_planner_opens_an_author_link_only_for_a_request_by_an_author() -> None:
    report = (
        "Page http://archive.test/search?q=x — Results\nStored 6 relevant item(s).\n\n"
        "Pending URLs on http://archive.test/ (2 in all):\n"
        "1. /search?query=Sato%2C+Xin&searchtype=author — Xin Sato\n2. /list/cs.LG/recent — Machine Learning\n\n"
        "Hint: 3 subpages left on this site; 6 of 10 papers collected so far."
    )
    for request, url in (
        ("Find papers on X", "/list/cs.LG/recent"),
        ("Find papers on X by Sato", "/search?query=Sato%2C+Xin&searchtype=author"),
    ):
        announce = f'Now exploring archive.test (http://archive.test/), at most 5 subpages. Request: "{request}".'
        assert _play("Planner", [announce, report], {"scrape_url", "finish_site"}) == ("scrape_url", {"url": url})
