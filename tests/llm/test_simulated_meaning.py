"""The simulated model judges relevance by meaning (its own all-mpnet-base-v2) unless told to judge by words.

Each agent that judges relevance is played through its rule on a task shaped as the run sends it: the Web
Selector choosing sites, the Crawler scoring links, the Collector deciding items.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest

from research_crawler.config.settings import ModelSettings, SimulatedModelSettings
from research_crawler.errors import ConfigError
from research_crawler.llm.client import ModelReply, ModelRequest, ToolCallSpec
from research_crawler.llm.simulated import SimulatedModelClient
from research_crawler.llm.simulated_agents import RULES, Player
from research_crawler.llm.simulated_conversation import Conversation
from research_crawler.llm.simulated_encoder import DoubleEncoder, double_judge
from research_crawler.llm.simulated_meaning import MeaningJudge, topic_of
from research_crawler.llm.usage import UsageLedger

REQUEST = "Find papers on solid-state battery electrolytes"
SULFIDE = "Sulfide Solid Electrolytes with High Ionic Conductivity"
OTHER_WORDS = "Lithium-ion conductors for all-solid-state cells"  # no word in common with the request


@pytest.fixture(scope="module")
def judge() -> MeaningJudge:
    return double_judge()


def _call(name: str, arguments: dict[str, Any]) -> ModelReply:
    return ModelReply(tool_calls=[ToolCallSpec(id="c1", name=name, arguments=json.dumps(arguments))])


def _play(role: str, system: str, task: str, meaning: MeaningJudge | None) -> dict[str, Any]:
    chat = Conversation([{"role": "system", "content": system}, {"role": "user", "content": task}])
    reply = RULES[role](chat, set(), Player(call=_call, enough_items=5, meaning=meaning))
    assert reply.tool_calls, reply.content
    arguments: dict[str, Any] = json.loads(reply.tool_calls[0].arguments)
    return arguments


def _collector_task(*titles: str) -> str:
    lines = "\n".join(f"{n}. [{n}] {title}\n   J. Doe, 2025" for n, title in enumerate(titles, 1))
    return (
        f'Request: "{REQUEST}"\n'
        f'<page-content url="http://s.test/list" title="Recent submissions">\n{lines}\n</page-content>\n'
        "Store the relevant papers with collect_items."
    )


def _collected(task: str, meaning: MeaningJudge | None) -> list[str]:
    arguments = _play("collector", "You are the Item Collector of research-crawler.", task, meaning)
    return [item["title"] for item in arguments["items"]]


def _link_scores(meaning: MeaningJudge | None) -> dict[int, float]:
    task = (
        f'Request: "{REQUEST}"\n<page-content url="http://s.test/" title="Home">\n'
        f"[1] Next page — more results\n[2] {OTHER_WORDS} — J. Doe, 2025\n[3] Privacy policy\n"
        "[4] Photosynthesis in desert plants under drought stress — A. Roe, 2024\n</page-content>\n"
        "Call save_links with the links worth visiting."
    )
    arguments = _play("crawler", "You are the Crawler of research-crawler.", task, meaning)
    return {link["id"]: link["score"] for link in arguments["links"]}


def test_the_collector_takes_a_title_in_other_words_by_meaning_and_declines_it_by_words(judge: MeaningJudge) -> None:
    task = _collector_task(SULFIDE, "Photosynthesis in Desert Plants under Drought Stress")
    assert _collected(task, judge) == [SULFIDE]
    assert _collected(task, None) == []  # one word of three shared: the words rules decline it


def test_the_crawler_scores_a_link_about_the_topic_in_other_words_above_navigation(judge: MeaningJudge) -> None:
    by_meaning = _link_scores(judge)
    assert by_meaning[2] > by_meaning[1] >= by_meaning[4]
    assert 3 not in by_meaning  # boilerplate is not saved
    by_words = _link_scores(None)
    assert by_words[2] <= by_words[1]  # no shared word: by words the topical link is no better than "Next page"


def test_the_web_selector_chooses_the_site_whose_field_holds_the_request(judge: MeaningJudge) -> None:
    task = (
        f'Request: "{REQUEST}"\nCandidate sites (id: name — description):\n'
        "- acl: ACL Anthology — Papers in computational linguistics and natural language processing.\n"
        "- chemrxiv: ChemRxiv — Preprints in chemistry: materials, energy, catalysis, electrochemistry.\n"
        "- medrxiv: medRxiv — Preprints in medicine and health sciences: epidemiology, clinical trials.\n"
        "Call select_sites with the ids of at most 1 sites, best first."
    )
    system = "You are the Web Selector of research-crawler."
    assert _play("web_selector", system, task, judge) == {"site_ids": ["chemrxiv"]}
    assert _play("web_selector", system, task, None) == {"site_ids": ["acl"]}  # no shared word: the first


def test_judging_by_meaning_is_deterministic(judge: MeaningJudge) -> None:
    fresh = MeaningJudge(DoubleEncoder(judge._encoder.model))  # type: ignore[attr-defined]
    task = _collector_task(SULFIDE, OTHER_WORDS, "Random Forests for Credit Scoring", "Energy Storage in Garnets")
    assert _collected(task, judge) == _collected(task, fresh) == _collected(task, judge)
    assert _link_scores(judge) == _link_scores(fresh)


class _CountingEncoder:
    def __init__(self) -> None:
        self.encoded: list[str] = []

    def encode(self, texts: Sequence[str]) -> list[list[float]]:
        self.encoded += texts
        return [[1.0, 0.0] if "battery" in text else [0.0, 1.0] for text in texts]


def test_embeddings_are_cached_by_text_and_the_request_is_read_as_its_topic() -> None:
    encoder = _CountingEncoder()
    meaning = MeaningJudge(encoder)
    assert meaning.similarity("find five recent papers on battery cells", ["a battery", "a tree"]) == [1.0, 0.0]
    assert meaning.similarity("find five recent papers on battery cells", ["a  battery", "a bird"]) == [1.0, 0.0]
    assert encoder.encoded == ["battery cells", "a battery", "a tree", "a bird"]
    assert topic_of('Find five recent papers on "diffusion models", titles only') == "diffusion models"


def test_the_client_needs_a_judge_to_judge_by_meaning(judge: MeaningJudge) -> None:
    common: dict[str, Any] = {"agent_name": "Crawler", "ledger": UsageLedger(), "settings": ModelSettings()}
    with pytest.raises(ConfigError, match=r"simulated\.judge=words"):
        SimulatedModelClient({"model": "simulated"}, **common)
    words = SimulatedModelClient(
        {"model": "simulated"}, simulated=SimulatedModelSettings(judge="words"), meaning=judge, **common
    )
    assert words.meaning is None  # judge=words keeps the words rules even when a judge is at hand
    by_meaning = SimulatedModelClient({"model": "simulated"}, meaning=judge, **common)
    task = _collector_task(SULFIDE)
    request = ModelRequest(
        model="simulated",
        messages=[
            {"role": "system", "content": "You are the Item Collector of research-crawler."},
            {"role": "user", "content": task},
        ],
        agent="Item Collector",
    )
    played = by_meaning._play(request).tool_calls[0].arguments
    assert [item["title"] for item in json.loads(played)["items"]] == [SULFIDE]
    assert json.loads(words._play(request).tool_calls[0].arguments)["items"] == []


def test_a_section_heading_under_a_short_link_is_not_taken_for_an_item(judge: MeaningJudge) -> None:
    task = (
        f'Request: "{REQUEST}"\n'
        '<page-content url="http://s.test/a/1" title="An article">\n'
        "* [1] Download PDF\n### Solid-State Battery Electrolytes: Related Articles\n\n"
        f"1. [2] {SULFIDE}\n</page-content>\nStore the relevant papers with collect_items."
    )
    assert _collected(task, judge) == [SULFIDE]


def _subject_scores(judge: MeaningJudge, lines: str) -> dict[int, float]:
    task = (
        'Request: "Find papers on machine learning for antibiotic discovery"\n'
        f'<page-content url="http://s.test/" title="Home">\n{lines}\n</page-content>\n'
        "Call save_links with the links worth visiting."
    )
    arguments = _play("crawler", "You are the Crawler of research-crawler.", task, judge)
    return {link["id"]: link["score"] for link in arguments["links"]}


MENU = "Site menu (only in the page's header, navigation or footer):"


def test_browsing_by_subject_the_pages_own_links_come_before_the_sites_menu(judge: MeaningJudge) -> None:
    # a conference: its editions are the page's own, "Organisers" and "Venue" its menu, never taken for subjects
    own = _subject_scores(judge, f"[1] CONF 2025 — Ghent: proceedings\n[2] CONF 2024 — Porto\n{MENU}\n"
                                 "[3] Organisers\n[4] Venue\n[5] Call for papers")  # fmt: skip
    assert min(own[1], own[2]) > max(own.get(number, 0.0) for number in (3, 4, 5))
    # a portal whose subjects are only in its menu: they stay the way on
    portal = _subject_scores(judge, f"[1] All articles\n{MENU}\n[2] About\n[3] Infectious Disease\n[4] Oceans\n"
                                    "[5] Language Technology")  # fmt: skip
    assert portal[3] >= 3.5 > portal.get(2, 0.0)  # taken above the page's other links, as on a page with no menu
