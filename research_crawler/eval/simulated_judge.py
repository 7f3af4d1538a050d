"""The simulated judge: a deterministic test double of the LLM judge, for offline evaluations and tests.

Like the simulated agents it sees only the judge prompt and answers through the same client seam, in the same
JSON, so the real prompts and the strict parsing are exercised. Its rules are deliberately simple:

- Answer Relevance: the report lists at least one item and mentions at least half of the request's topic words, and
  its items keep the request's contract as the same rules read it (`context/request_rules.py`): no more items than
  asked for, every item dated inside the dates asked for, newest first when asked;
- Context Relevance: at least half of the collected items share a word with the request;
- Groundedness: every URL in the report is the URL of a collected item.

Every reasoning it writes starts with "(simulated judge)"; it is never a default.
"""

from __future__ import annotations

import json
import math
import re
from datetime import date
from typing import Any

from research_crawler.config.report_settings import ReportSettings
from research_crawler.context.request import ResearchRequest
from research_crawler.context.request_rules import read_request
from research_crawler.context.urls import try_canonicalize_url
from research_crawler.eval.judges import JUDGE_METRICS, JudgeMetric, judge_templates
from research_crawler.llm.client import BaseModelClient, ModelReply, ModelRequest
from research_crawler.llm.simulated import content_words

__all__ = ["SIMULATED_JUDGE_MODEL", "SimulatedJudgeClient"]

SIMULATED_JUDGE_MODEL = "simulated-judge"

_URL = re.compile(r"https?://[^\s<>()\[\]\"']+")
_REPORT_ITEM = re.compile(r"^\[\d+\] ", re.MULTILINE)
_COLLECTED_TITLE = re.compile(r"^- (.+)$", re.MULTILINE)
_ITEM_URL = re.compile(r"^    url: (\S+)$", re.MULTILINE)
_ITEM_DATE = re.compile(r"\bdate: (\d{4}(?:-\d{2}){0,2})")
#: What "recent" means to the simulated judge: the report settings' default window.
_RECENT_DAYS = ReportSettings().recent_days


class SimulatedJudgeClient(BaseModelClient):
    """Decides by the rules above from the judge prompt it receives (see the module docstring)."""

    def __init__(self, config: dict[str, Any], **kwargs: Any) -> None:
        super().__init__({"model": SIMULATED_JUDGE_MODEL, **config}, **kwargs)

    def _complete(self, request: ModelRequest) -> ModelReply:
        metric = _metric_of(request.messages)
        user = next((str(m.get("content") or "") for m in request.messages if m.get("role") == "user"), "")
        if metric is None:
            verdict, reasoning = False, "the prompt is not one of the three judge prompts"
        else:
            system = next((str(m.get("content") or "") for m in request.messages if m.get("role") == "system"), "")
            verdict, reasoning = _RULES[metric](f"{user}\n{system}")  # the system prompt says what day it is
        content = json.dumps({"reasoning": f"(simulated judge) {reasoning}", "verdict": verdict})
        return ModelReply(content=content, finish_reason="stop", model=SIMULATED_JUDGE_MODEL)


def _metric_of(messages: list[dict[str, Any]]) -> JudgeMetric | None:
    system = next((str(m.get("content") or "") for m in messages if m.get("role") == "system"), "")
    templates = judge_templates()
    for metric in JUDGE_METRICS:
        if system.startswith(f"You are the {templates[metric]['title']} judge"):
            return metric
    return None


def _section(text: str, name: str) -> str:
    match = re.search(rf"<<<{name}\n(.*?)\n{name}>>>", text, re.DOTALL)
    return match.group(1) if match else ""


def _answer_relevance(prompt: str) -> tuple[bool, str]:
    request = read_request(_section(prompt, "REQUEST"), today=_today(prompt))
    request_words = content_words(request.search_words or request.text)
    report_words = content_words(_section(prompt, "REPORT"))
    listed = _section(prompt, "REPORT_ITEMS")
    items = len(_REPORT_ITEM.findall(listed))
    mentioned = request_words & report_words
    needed = math.ceil(len(request_words) / 2)
    broken = _contract_broken(request, listed, items, today=_today(prompt))
    verdict = items >= 1 and len(mentioned) >= needed and not broken
    return verdict, (
        f"the report lists {items} item(s) and mentions {len(mentioned)} of the {len(request_words)} topic words of "
        f"the request ({', '.join(sorted(mentioned)) or 'none'}); it needs at least one item and {needed} word(s)"
        + (f"; but {broken}." if broken else "; it keeps the request's count, dates and order.")
    )


def _today(prompt: str) -> date:
    match = re.search(r"today is (\d{4}-\d{2}-\d{2})", prompt)
    return date.fromisoformat(match.group(1)) if match else date.today()


def _contract_broken(request: ResearchRequest, listed: str, items: int, *, today: date) -> str:
    """What the listed items break of `request`'s count, dates and order ('' when nothing)."""
    if request.count is not None and items > request.count:
        return f"it lists {items} items where {request.count} were asked for"
    dates = [_ITEM_DATE.search(block) for block in _REPORT_ITEM.split(listed)[1:]]
    values = [match.group(1) if match else None for match in dates]
    if request.has_dates():
        fits = [(v, request.date_fit(v, today=today, recent_days=_RECENT_DAYS)) for v in values]
        outside = [v or "no date" for v, fit in fits if fit != "inside"]
        if outside:
            return f"{len(outside)} item(s) are not dated inside the dates asked for ({', '.join(outside[:3])})"
    if request.order == "newest" and (None in values or values != sorted(values, key=str, reverse=True)):
        return f"the items are not newest first ({', '.join(v or 'no date' for v in values)})"
    return ""


def _context_relevance(prompt: str) -> tuple[bool, str]:
    request_words = content_words(_section(prompt, "REQUEST"))
    titles = _COLLECTED_TITLE.findall(_section(prompt, "COLLECTED_ITEMS"))
    if not titles:
        return False, "nothing was collected, so there is no relevant context."
    on_topic = sum(1 for title in titles if content_words(title) & request_words)
    share = on_topic / len(titles)
    return share >= 0.5, (
        f"{on_topic} of the {len(titles)} collected item titles share a word with the request "
        f"(share {share:.2f}; at least 0.50 is relevant)."
    )


def _groundedness(prompt: str) -> tuple[bool, str]:
    report_urls = {_canonical(url) for url in _URL.findall(_section(prompt, "REPORT"))}
    collected = {_canonical(url) for url in _ITEM_URL.findall(_section(prompt, "COLLECTED_ITEMS"))}
    unsupported = sorted(report_urls - collected)
    if unsupported:
        return False, (
            f"{len(unsupported)} of the {len(report_urls)} URL(s) in the report are not collected items, "
            f"e.g. {unsupported[0]}."
        )
    return True, f"all {len(report_urls)} URL(s) in the report are URLs of collected items."


def _canonical(url: str) -> str:
    url = url.rstrip(".,;:")
    return try_canonicalize_url(url) or url


_RULES = {
    "answer_relevance": _answer_relevance,
    "context_relevance": _context_relevance,
    "groundedness": _groundedness,
}
