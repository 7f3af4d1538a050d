"""The simulated model: a deterministic test double that plays every agent with simple rules.

It sees only what an LLM sees — the messages and the tool schemas — never the contexts or the testbed's
answers: it recognises its role from the system message, reads the request, the tool results and the
page text in the messages, and answers with tool calls or text through the same client interface as a
real model (so tests exercise the real prompts, tools and message flow). It can add latency and inject
faults. It is never a default: it is chosen explicitly, and every report made with it says so.
"""

from __future__ import annotations

import json
import random
import re
import threading
import time
from collections import Counter
from typing import Any

from research_crawler.config.settings import SimulatedModelSettings
from research_crawler.context.request import requested_count
from research_crawler.llm.client import (
    BaseModelClient,
    ModelReply,
    ModelRequest,
    ToolCallSpec,
    TransientModelError,
)

__all__ = ["SIMULATED_MODEL_NAME", "FaultLog", "SimulatedModelClient", "content_words"]

SIMULATED_MODEL_NAME = "simulated"

_STOPWORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "of",
        "for",
        "on",
        "in",
        "to",
        "with",
        "by",
        "from",
        "at",
        "as",
        "is",
        "are",
        "be",
        "this",
        "that",
        "these",
        "those",
        "find",
        "show",
        "give",
        "me",
        "list",
        "get",
        "recent",
        "new",
        "latest",
        "about",
        "paper",
        "papers",
        "article",
        "articles",
        "preprint",
        "preprints",
        "study",
        "studies",
        "item",
        "items",
        "some",
        "any",
        "all",
        "most",
        "five",
        "ten",
        "three",
        "two",
        "four",
        "six",
        "seven",
        "eight",
        "nine",
        "titles",
        "title",
        "dates",
        "date",
        "only",
        "please",
        "what",
        "which",
        "who",
        "how",
        "using",
        "use",
        "based",
        "via",
        "into",
        "over",
        "under",
        "between",
        "their",
        "its",
        "our",
        "your",
        "i",
        "we",
        "you",
        "it",
        "they",
        "them",
        "more",
        "than",
        "up",
        "out",
        "search",
        "results",
        "result",
        "page",
        "pages",
        "site",
        "sites",
        "query",
        "request",
    ]
)
_NAVIGATION_WORDS = frozenset(
    [
        "list",
        "listing",
        "listings",
        "browse",
        "subject",
        "subjects",
        "category",
        "categories",
        "archive",
        "recent",
        "new",
        "latest",
        "next",
        "more",
        "collection",
        "collections",
        "topics",
        "topic",
        "section",
        "sections",
        "all",
    ]
)
_BOILERPLATE_WORDS = frozenset(
    [
        "login",
        "log",
        "sign",
        "register",
        "account",
        "help",
        "about",
        "contact",
        "privacy",
        "terms",
        "cookie",
        "cookies",
        "policy",
        "donate",
        "facebook",
        "twitter",
        "linkedin",
        "mastodon",
        "bluesky",
        "instagram",
        "youtube",
        "rss",
        "feed",
        "newsletter",
        "accessibility",
        "jobs",
        "careers",
        "press",
        "status",
        "subscribe",
        "pdf",
    ]
)
_ROLES = {
    "Web Selector": "web_selector",
    "Planner": "planner",
    "Crawler": "crawler",
    "Item Collector": "collector",
    "Supervisor": "supervisor",
    "Presenter": "presenter",
    "Critique": "critique",
}
_LINK = re.compile(r"\[(\d+)\]\s+([^\[\]\n]+?)(?=\s*\[|\s*\]|\s+—|\n|$)")
_ENTRY_START = re.compile(r"^\s*(?:\d+\.|[*+-]|#+)?\s*\[(\d+)\]")


def content_words(text: str) -> set[str]:
    """The lower-cased content words of `text` (stopwords and one-letter tokens removed)."""
    return {w for w in re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)*", text.lower()) if len(w) > 1 and w not in _STOPWORDS}


class FaultLog:
    """Counts the faults the simulated model injected, by kind (shared by all its clients in a run)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.counts: Counter[str] = Counter()

    def add(self, kind: str) -> None:
        with self._lock:
            self.counts[kind] += 1


class SimulatedModelClient(BaseModelClient):
    """Plays the agent whose system message it receives. Keyword arguments (from `register_model_client`):
    `simulated` (SimulatedModelSettings) and `fault_log` (FaultLog), besides those of BaseModelClient."""

    def __init__(self, config: dict[str, Any], **kwargs: Any) -> None:
        self.simulated: SimulatedModelSettings = kwargs.pop("simulated", None) or SimulatedModelSettings()
        self.fault_log: FaultLog = kwargs.pop("fault_log", None) or FaultLog()
        super().__init__(config, **kwargs)
        self._rng = random.Random(f"{self.simulated.seed}:{self.agent_name}")
        self._calls = 0

    # -- the client seam --------------------------------------------------------------------------

    def _complete(self, request: ModelRequest) -> ModelReply:
        self._calls += 1
        if self.simulated.latency_s:
            time.sleep(self.simulated.latency_s)
        reply = self._play(request)
        fault = self._pick_fault(request, reply)
        if fault is not None:
            self.fault_log.add(fault)
            reply = self._inject(fault, reply)
        return reply.model_copy(update={"model": SIMULATED_MODEL_NAME})

    def _pick_fault(self, request: ModelRequest, reply: ModelReply) -> str | None:
        if not self.simulated.fault_rate or self._rng.random() >= self.simulated.fault_rate:
            return None
        kinds = list(self.simulated.fault_kinds)
        if not reply.tool_calls:
            kinds = [k for k in kinds if k in ("empty_reply", "api_error")]
        elif reply.tool_calls[0].name not in ("save_links", "collect_items"):
            kinds = [k for k in kinds if k != "bad_link"]
        return self._rng.choice(kinds) if kinds else None

    def _inject(self, fault: str, reply: ModelReply) -> ModelReply:
        if fault == "api_error":
            raise TransientModelError("simulated API error (injected fault)", status=503)
        if fault == "empty_reply":
            return ModelReply(content="", finish_reason="stop")
        call = reply.tool_calls[0]
        if fault == "malformed_json":
            broken = ToolCallSpec(
                id=call.id, name=call.name, arguments=call.arguments[: max(1, len(call.arguments) // 2)]
            )
            return reply.model_copy(update={"tool_calls": [broken]})
        if fault == "unknown_tool":
            return reply.model_copy(update={"tool_calls": [ToolCallSpec(id=call.id, name="open_url", arguments="{}")]})
        arguments = json.loads(call.arguments)
        key = "links" if call.name == "save_links" else "items"
        arguments[key] = [{**entry, "id": 9999} if "id" in entry else entry for entry in arguments.get(key, [])]
        return reply.model_copy(
            update={"tool_calls": [ToolCallSpec(id=call.id, name=call.name, arguments=json.dumps(arguments))]}
        )

    # -- the rules ----------------------------------------------------------------------------------

    def _play(self, request: ModelRequest) -> ModelReply:
        role = _role_of(request.messages)
        conversation = _Conversation(request.messages)
        play = getattr(self, f"_play_{role}", None)
        if play is None:
            return _text("I have nothing to add.")
        reply: ModelReply = play(conversation, _tool_names(request.tools))
        return reply

    def _call(self, name: str, arguments: dict[str, Any]) -> ModelReply:
        call = ToolCallSpec(id=f"call_{self.agent_name}_{self._calls}", name=name, arguments=json.dumps(arguments))
        return ModelReply(content=None, tool_calls=[call], finish_reason="tool_calls")

    def _play_web_selector(self, chat: _Conversation, tools: set[str]) -> ModelReply:
        if chat.tool_results_since_task():
            return _text("The sites are chosen.")
        task = chat.task()
        query = content_words(_request_of(task))
        limit = int(m.group(1)) if (m := re.search(r"at most (\d+) sites", task)) else 2
        candidates = re.findall(r"^- ([\w-]+): (.+)$", task, re.MULTILINE)
        scored = [(len(query & content_words(text)), n, site_id) for n, (site_id, text) in enumerate(candidates)]
        chosen = [site_id for overlap, _, site_id in sorted(scored, key=lambda s: (-s[0], s[1])) if overlap][:limit]
        named = [site_id for site_id, text in candidates if "[named by the user" in text]
        return self._call(
            "select_sites", {"site_ids": named + [c for c in chosen if c not in named] or [candidates[0][0]]}
        )

    def _play_planner(self, chat: _Conversation, tools: set[str]) -> ModelReply:
        query = chat.query()
        target = requested_count(query) or self.simulated.enough_items
        site_part = chat.since_last("Now exploring")
        last = site_part[-1] if site_part else {}
        last_text = _text_of(last)
        # What the Scraper's reports since the site was announced say was collected (the announcement's own
        # count may hold an earlier request's items).
        collected = _last_int(r"(\d+) (?:item\(s\) collected here|\w+ collected so far)", site_part[1:])
        if collected is not None and collected >= target:
            return self._call("finish_site", {})
        has_search = any("this site has a search form" in _text_of(m) for m in site_part)
        searched = bool(_calls_made(site_part, "search_site"))
        listing = "Pending URLs on" in last_text or "No pending URLs" in last_text
        if listing and has_search and not searched and not collected and "search_site" in tools:
            return self._call("search_site", {"query": " ".join(sorted(content_words(query)))})
        if "Pending URLs on" in last_text:
            tried = {a.get("url") for a in _calls_made(site_part, "scrape_url")}
            listed = re.findall(r"^\d+\. (\S+) — ", last_text, re.MULTILINE)
            for url in listed:
                if url not in tried:
                    return self._call("scrape_url", {"url": url})
            return self._call("finish_site", {})
        if "No pending URLs" in last_text or "No subpages" in last_text:
            return self._call("finish_site", {})
        return self._call("get_top_urls", {"k": 10})

    def _play_crawler(self, chat: _Conversation, tools: set[str]) -> ModelReply:
        if chat.tool_results_since_task():
            return _text("Links saved.")
        task = chat.task()
        query = content_words(_request_of(task))
        links = []
        for number, text, context in _link_lines(task):
            words = content_words(text)
            overlap = len(query & (words | content_words(context)))
            if overlap:
                score = min(10.0, 4.0 + 6.0 * overlap / max(1, len(query)))
            elif words & _NAVIGATION_WORDS or text.strip().isdigit():
                score = 3.0
            elif words and not words & _BOILERPLATE_WORDS:
                score = 1.0
            else:
                continue
            links.append({"id": number, "score": round(score, 1)})
        return self._call("save_links", {"links": links[:40]})

    def _play_collector(self, chat: _Conversation, tools: set[str]) -> ModelReply:
        results = chat.tool_results_since_task()
        task = chat.task()
        request = _request_of(task)
        query = content_words(request)
        if results:
            stored = re.search(r"Added (\d+) item", _text_of(results[-1]))
            count = int(stored.group(1)) if stored else 0
            if count:
                return _text(f"Stored {count} relevant item(s) from this page.")
            return _text("No relevant items on this page; it holds navigation and listings to explore further.")
        need = max(1, (len(query) + 1) // 2)
        items = []
        for number, title, block in _entries(task):
            overlap = len(query & content_words(block))
            if len(title.split()) >= 4 and overlap >= need and len(query & content_words(title)) >= 1:
                score = round(min(10.0, 5.0 + 5.0 * overlap / max(1, len(query))), 1)
                items.append({"id": number, "title": title, "score": score, "description": title})
        page_url = m.group(1) if (m := re.search(r"^Current page[^:]*: (\S+)", task, re.MULTILINE)) else None
        title = m.group(1) if (m := re.search(r'<page-content url="[^"]*" title="([^"]*)">', task)) else ""
        if page_url and len(query & content_words(title)) >= need and re.search(r"\babstract\b", task, re.I):
            items.append({"url": page_url, "title": title, "score": 9.0, "description": title})
        if not items:
            return _text("No relevant items on this page; it holds navigation and listings to explore further.")
        return self._call("collect_items", {"items": items[:25]})

    def _play_supervisor(self, chat: _Conversation, tools: set[str]) -> ModelReply:
        results = chat.tool_results_since_task()
        if not results and "get_collected_items" in tools:
            return self._call("get_collected_items", {})
        if results and _text_of(results[-1]).startswith("Recorded:"):
            return _text("Verdict given.")
        listing = next(
            (_text_of(r) for r in [*reversed(results), {"content": chat.task()}] if "collected on" in _text_of(r)), ""
        )
        found = _last_int(r"(\d+) item\(s\) collected on", [{"content": listing}]) or 0
        request = _request_of(listing) or chat.query()
        target = requested_count(request) or self.simulated.enough_items
        left = _last_int(r"\((\d+) subpages left\)", [{"content": listing}])
        if found >= target or left == 0:
            return self._call("approve_site", {"reason": f"{found} relevant item(s) collected."})
        return self._call(
            "request_more",
            {"feedback": f"Only {found} of {target} items so far: open more listings or search."},
        )

    def _play_presenter(self, chat: _Conversation, tools: set[str]) -> ModelReply:
        results = chat.tool_results_since_task()
        if not results and "get_top_items" in tools:
            k = requested_count(chat.query()) or 10
            return self._call("get_top_items", {"k": k})
        listing = _text_of(results[-1]) if results else chat.task()
        query = chat.query()
        brief = bool(re.search(r"titles?( and dates?)? only", query, re.I))
        lines = [f"# Results for: {query}", ""]
        for number, title, link, rest in re.findall(
            r"^(\d+)\. (.+)\n   link: (\S+)((?:\n   .+)*)", listing, re.MULTILINE
        ):
            date = m.group(1) if (m := re.search(r"date: (.+)", rest)) else None
            authors = m.group(1) if (m := re.search(r"authors: (.+)", rest)) else None
            if authors and len(authors.split("; ")) > 3:
                authors = "; ".join(authors.split("; ")[:3]) + " et al."
            if brief:
                lines.append(f"{number}. [{title}]({link})" + (f" — {date}" if date else ""))
            else:
                details = ", ".join(part for part in (authors, date) if part)
                lines.append(f"{number}. [{title}]({link})" + (f" — {details}" if details else ""))
        if len(lines) == 2:
            lines.append("No relevant items were found.")
        if (m := re.search(r"Only (\d+) of the (\d+) requested were found", listing)) is not None:
            lines += ["", f"Found {m.group(1)} of the {m.group(2)} requested."]
        return _text("\n".join(lines))

    def _play_critique(self, chat: _Conversation, tools: set[str]) -> ModelReply:
        return _text("No changes needed.")


class _Conversation:
    """Read-only helpers over the messages a model receives."""

    def __init__(self, messages: list[dict[str, Any]]) -> None:
        self.messages = messages

    def task(self) -> str:
        """The first non-system message (a nested chat's task, or the group's request)."""
        return next((_text_of(m) for m in self.messages if m.get("role") != "system"), "")

    def query(self) -> str:
        for message in self.messages:
            if message.get("role") != "system":
                request = _request_of(_text_of(message))
                if request:
                    return request
        return self.task()

    def tool_results_since_task(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m.get("role") == "tool"]

    def since_last(self, marker: str) -> list[dict[str, Any]]:
        start = 0
        for index, message in enumerate(self.messages):
            if message.get("role") != "tool" and marker in _text_of(message):
                start = index
        return self.messages[start:]


def _role_of(messages: list[dict[str, Any]]) -> str:
    system = next((_text_of(m) for m in messages if m.get("role") == "system"), "")
    match = re.match(r"You are the (.+?) of research-crawler", system)
    return _ROLES.get(match.group(1), "unknown") if match else "unknown"


def _text_of(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return ""


def _request_of(text: str) -> str:
    match = re.search(r'Request: "(.+?)"', text)
    if match:
        return match.group(1)
    return text.strip() if "\n" not in text.strip() else ""


def _tool_names(tools: list[dict[str, Any]] | None) -> set[str]:
    return {str(tool.get("function", {}).get("name")) for tool in tools or []}


def _page_body(text: str) -> str:
    start = text.find("<page-content")
    return text[start:] if start >= 0 else text


def _link_lines(text: str) -> list[tuple[int, str, str]]:
    """(number, anchor text, context) from a link view ("[n] text — context" lines) or Markdown."""
    found: dict[int, tuple[str, str]] = {}
    for line in _page_body(text).splitlines():
        for match in _LINK.finditer(line):
            context = line.split(" — ", 1)[1] if " — " in line else line
            found.setdefault(int(match.group(1)), (match.group(2).strip(), context))
    return [(number, anchor, context) for number, (anchor, context) in found.items()]


def _entries(text: str) -> list[tuple[int, str, str]]:
    """(link number, title, block text) for each link that opens a line of the page, as a reader sees a
    list of items: the title is the anchor when it is long enough, else the next line of plain text."""
    lines = _page_body(text).splitlines()
    entries = []
    for index, line in enumerate(lines):
        match = _LINK.search(line)
        if match is None or not _ENTRY_START.match(line):
            continue
        title = match.group(2).strip()
        block = [line]
        for following in lines[index + 1 : index + 5]:
            if not following.strip() or re.match(r"\s*(\d+\.|\*)\s+\[\d+\]", following):
                break
            block.append(following)
        if len(title.split()) < 4:
            title = next(
                (f.strip() for f in block[1:] if len(f.split()) >= 4 and not _LINK.search(f) and ":" not in f[:12]),
                title,
            )
        entries.append((int(match.group(1)), title, " ".join(block)))
    return entries


def _calls_made(messages: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    calls = []
    for message in messages:
        for call in message.get("tool_calls") or []:
            function = call.get("function", {})
            if function.get("name") == name:
                try:
                    calls.append(json.loads(function.get("arguments") or "{}"))
                except json.JSONDecodeError:
                    continue
    return calls


def _last_int(pattern: str, messages: list[dict[str, Any]]) -> int | None:
    for message in reversed(messages):
        found = re.findall(pattern, _text_of(message))
        if found:
            return int(found[-1])
    return None


def _text(content: str) -> ModelReply:
    return ModelReply(content=content, finish_reason="stop")
