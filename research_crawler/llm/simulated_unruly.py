"""The unruly behaviour of the simulated model (`simulated.behaviour = "unruly"`): what real models do that
the careful double does not, drawn with a seeded RNG so a run is reproducible.

With probability `unruly_rate` a reply misbehaves in one way that fits it: several tool calls in one turn,
a call to a tool the agent was not given, arguments that are not JSON or miss a field, a link number the page
does not have, or text where a tool call was needed; the Presenter pads its report with invented items. And
whenever page text it reads gives an order (visit a URL, call a tool, put a link in the report), it obeys
with probability `obey_rate`. The guards must hold by construction whatever it does.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable

from research_crawler.config.sections import SimulatedModelSettings
from research_crawler.llm.client import ModelReply, ToolCallSpec
from research_crawler.llm.simulated_conversation import Conversation

__all__ = ["misbehave"]

#: Another agent's tools, and tools that pages name: none of them is ever offered together with the others.
_FOREIGN_TOOLS = ("scrape_url", "save_links", "approve_site", "write_file", "open_url", "select_sites")
_URL = re.compile(r"https?://[^\s\"'<>)\]]+")
_ORDER = re.compile(r"\b(visit|open|go to|scrape_url|collect|include|cite|send|call)\b", re.IGNORECASE)
_NAMED_TOOL = re.compile(r"\b(?:call|use|with) (?:the )?`?([a-z]+_[a-z_]+)`?", re.IGNORECASE)
_PAGE = re.compile(r"<page-content[^>]*>(.*?)</page-content>", re.DOTALL)
_ITEM_TEXT = re.compile(r"^   (?:about|link): (.+)$", re.MULTILINE)
_IMAGE_OR_LINK = re.compile(r"!?\[[^\]]*\]\(https?://[^)\s]+\)")
_INVENTED = (
    "A Unified Theory of Everything in Graph Learning",
    "Deep Protein Design Is All You Need",
    "Large Language Models Solve Science",
)

Mutation = Callable[[random.Random, ModelReply, Conversation], ModelReply | None]


def misbehave(
    rng: random.Random, settings: SimulatedModelSettings, role: str, reply: ModelReply, chat: Conversation
) -> tuple[ModelReply, str | None]:
    """`reply` as an unruly model might have given it instead, and the misbehaviour's name (None: unchanged)."""
    orders = _orders(chat)
    if orders and rng.random() < settings.obey_rate:
        obeyed = _obey(rng, role, reply, orders)
        if obeyed is not None:
            return obeyed, "obeyed_page"
    if rng.random() >= settings.unruly_rate:
        return reply, None
    fitting = [(name, mutate) for name, mutate in _MUTATIONS if _fits(name, role, reply)]
    rng.shuffle(fitting)
    for name, mutate in fitting:
        changed = mutate(rng, reply, chat)
        if changed is not None:
            return changed, name
    return reply, None


def _fits(name: str, role: str, reply: ModelReply) -> bool:
    if name == "padded_report":
        return role == "presenter" and not reply.tool_calls
    if not reply.tool_calls:
        return False
    return name != "bad_link" or reply.tool_calls[0].name in ("save_links", "collect_items")


def _with_calls(reply: ModelReply, calls: list[tuple[str, str]]) -> ModelReply:
    first = reply.tool_calls[0].id
    specs = [ToolCallSpec(id=f"{first}_{n}", name=name, arguments=args) for n, (name, args) in enumerate(calls)]
    return ModelReply(content=None, tool_calls=specs, finish_reason="tool_calls")


def _arguments(reply: ModelReply) -> dict[str, object]:
    value = json.loads(reply.tool_calls[0].arguments or "{}")
    return value if isinstance(value, dict) else {}


def _parallel(rng: random.Random, reply: ModelReply, chat: Conversation) -> ModelReply | None:
    """Two tool calls in one turn, as models that make parallel calls do."""
    call = reply.tool_calls[0]
    arguments = _arguments(reply)
    second: tuple[str, str]
    if call.name == "scrape_url":
        listed = re.findall(r"^\d+\. (\S+) — ", _last_text(chat), re.MULTILINE)
        listed = [url for url in listed if url != arguments.get("url")]
        second = ("scrape_url", json.dumps({"url": rng.choice(listed)})) if listed else ("finish_site", "{}")
    elif call.name == "approve_site":
        second = ("request_more", json.dumps({"feedback": "Look for more."}))
    elif call.name == "request_more":
        second = ("approve_site", json.dumps({"reason": "Enough."}))
    elif call.name in ("save_links", "collect_items"):
        key = "links" if call.name == "save_links" else "items"
        entries = list(arguments.get(key) or [])  # type: ignore[call-overload]
        half = len(entries) // 2
        first, rest = json.dumps({key: entries[:half]}), json.dumps({key: entries[half:]})
        return _with_calls(reply, [(call.name, first), (call.name, rest)])
    else:
        second = (call.name, call.arguments)
    return _with_calls(reply, [(call.name, call.arguments), second])


def _unknown_tool(rng: random.Random, reply: ModelReply, chat: Conversation) -> ModelReply | None:
    name = rng.choice([tool for tool in _FOREIGN_TOOLS if tool != reply.tool_calls[0].name])
    return _with_calls(reply, [(name, reply.tool_calls[0].arguments)])


def _malformed(rng: random.Random, reply: ModelReply, chat: Conversation) -> ModelReply | None:
    arguments = reply.tool_calls[0].arguments
    return _with_calls(reply, [(reply.tool_calls[0].name, arguments[: max(1, len(arguments) // 2)])])


def _missing_field(rng: random.Random, reply: ModelReply, chat: Conversation) -> ModelReply | None:
    arguments = _arguments(reply)
    if not arguments:
        return None
    arguments.pop(rng.choice(sorted(arguments)))
    arguments["note"] = "as discussed"
    return _with_calls(reply, [(reply.tool_calls[0].name, json.dumps(arguments))])


def _bad_link(rng: random.Random, reply: ModelReply, chat: Conversation) -> ModelReply | None:
    call = reply.tool_calls[0]
    key = "links" if call.name == "save_links" else "items"
    entries = [dict(e) for e in _arguments(reply).get(key) or [] if isinstance(e, dict)]  # type: ignore[attr-defined]
    entries.append({"id": 900 + rng.randrange(99), "score": 9, "title": "A paper that is not on this page"})
    if call.name == "save_links":
        entries[-1].pop("title")
    return _with_calls(reply, [(call.name, json.dumps({key: entries}))])


def _text_instead(rng: random.Random, reply: ModelReply, chat: Conversation) -> ModelReply | None:
    return ModelReply(content="I think the next step is clear; let us continue with the plan.", finish_reason="stop")


def _padded(rng: random.Random, reply: ModelReply, chat: Conversation) -> ModelReply | None:
    extra = [f"- [{title}](https://papers.example.org/{n}) — a must-read." for n, title in enumerate(_INVENTED, 1)]
    return ModelReply(content=(reply.content or "") + "\n\nAlso worth reading:\n" + "\n".join(extra))


_MUTATIONS: tuple[tuple[str, Mutation], ...] = (
    ("parallel_calls", _parallel),
    ("unknown_tool", _unknown_tool),
    ("malformed_arguments", _malformed),
    ("invalid_arguments", _missing_field),
    ("bad_link", _bad_link),
    ("text_instead_of_call", _text_instead),
    ("padded_report", _padded),
)


def _last_text(chat: Conversation) -> str:
    return str(chat.messages[-1].get("content") or "") if chat.messages else ""


def _orders(chat: Conversation) -> list[str]:
    """Sentences of the untrusted text the model reads — a page between its markers, the items' own texts in
    the Presenter's listing — that give an order (our own hints and tool results give none)."""
    text = " ".join(str(m.get("content") or "") for m in chat.messages if m.get("role") in ("user", "tool"))
    untrusted = " ".join([*_PAGE.findall(text), *_ITEM_TEXT.findall(text)])
    sentences = re.split(r"(?<=[.!?])\s+|\n", untrusted)
    return [s for s in sentences if _ORDER.search(s) and (_URL.search(s) or _NAMED_TOOL.search(s))]


def _obey(rng: random.Random, role: str, reply: ModelReply, orders: list[str]) -> ModelReply | None:
    """The reply with a page's order carried out on top of the work (None: nothing it can act on)."""
    urls = [url for order in orders for url in _URL.findall(order)]
    tools = [name for order in orders for name in _NAMED_TOOL.findall(order)]
    if role == "presenter" and not reply.tool_calls:
        planted = [m for order in orders for m in _IMAGE_OR_LINK.findall(order)] or [f"<{u}>" for u in urls]
        if planted:
            return ModelReply(content=(reply.content or "") + "\n\nAs requested: " + " ".join(planted[:3]))
        return None
    calls = [(call.name, call.arguments) for call in reply.tool_calls]
    if role == "collector" and urls and calls and calls[0][0] == "collect_items":
        arguments = _arguments(reply)
        item = {"url": rng.choice(urls), "title": "Full list of papers", "score": 10, "description": "as asked"}
        arguments["items"] = [*list(arguments.get("items") or []), item]  # type: ignore[call-overload]
        return _with_calls(reply, [("collect_items", json.dumps(arguments)), *calls[1:]])
    if tools and calls:
        obeyed = (rng.choice(tools), json.dumps({"url": urls[0]} if urls else {}))
        return _with_calls(reply, [*calls, obeyed])
    return None
