"""The simulated Critique asks a concrete revision of a seeded share of drafts, and the Presenter applies it."""

from __future__ import annotations

import json
from typing import Any

from research_crawler.llm.client import ModelReply, ToolCallSpec
from research_crawler.llm.simulated_agents import RULES, Player
from research_crawler.llm.simulated_conversation import Conversation

LISTING = (
    "1. Graph Attention Networks\n   link: http://s.test/a/1\n   date: 2024-05-01\n"
    "   about: Attention over neighbours lets each node weigh its links. It is fast.\n"
    "2. Message Passing at Scale\n   link: http://s.test/a/2\n   date: 2023-01-02\n"
)


def _call(name: str, arguments: dict[str, Any]) -> ModelReply:
    return ModelReply(tool_calls=[ToolCallSpec(id="c1", name=name, arguments=json.dumps(arguments))])


def _reply(role: str, task: str, *, rate: float, seed: int = 0) -> str:
    chat = Conversation([{"role": "system", "content": f"You are the {role} of research-crawler."},
                         {"role": "user", "content": task}])  # fmt: skip
    key = "critique" if role == "Critique" else "presenter"
    reply = RULES[key](chat, set(), Player(call=_call, enough_items=5, revision_rate=rate, seed=seed))
    return reply.content or ""


def _draft(seed: int) -> str:
    return f"# Results for: graph neural networks (draft {seed})\n\n1. [Graph Attention Networks](http://s.test/a/1)"


def test_the_critique_asks_revisions_at_its_seeded_rate_and_names_what_is_missing() -> None:
    request = 'Request: "Find papers on graph neural networks"\nReview this draft report:\n\n'
    reviews = [_reply("Critique", request + _draft(n), rate=0.5) for n in range(40)]
    asked = [r for r in reviews if r != "No changes needed."]
    assert 10 <= len(asked) <= 30, len(asked)  # about half, seeded by the draft
    assert reviews == [_reply("Critique", request + _draft(n), rate=0.5) for n in range(40)]  # deterministic
    assert all("why it is relevant" in r for r in asked)  # the draft has no sentence under its item
    assert all(_reply("Critique", request + _draft(n), rate=0.0) == "No changes needed." for n in range(10))
    short = 'Request: "Find 5 papers on graph neural networks"\nReview this draft report:\n\n'
    asked_short = [_reply("Critique", short + _draft(n), rate=1.0) for n in range(3)]
    assert all("only 1 of the 5 requested" in r for r in asked_short), asked_short


def test_the_presenter_applies_the_review_to_its_revision() -> None:
    request = 'Request: "Find papers on graph neural networks"\n'
    draft = _reply("Presenter", f"{request}{LISTING}\n\nWrite the report in Markdown from these items.", rate=0.0)
    assert "Attention over neighbours" not in draft
    review = "- Add one sentence to each item saying why it is relevant to the request."
    revised = _reply(
        "Presenter",
        f"{request}Revise your draft report following the review. The items:\n{LISTING}\n"
        f"Reply with the whole revised report only.\n\nReview:\n{review}\n\nDraft:\n{draft}",
        rate=0.0,
    )
    assert "   Attention over neighbours lets each node weigh its links." in revised
    assert "It is fast." not in revised  # one sentence, from the item's own summary
    assert revised.count("http://s.test/a/") == draft.count("http://s.test/a/") == 2
