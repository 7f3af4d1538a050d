"""The simulated judge: a deterministic test double of the LLM judge, for offline evaluations and tests.

Like the simulated agents it sees only the judge prompt and answers through the same client seam, in the same
JSON, so the real prompts and the strict parsing are exercised. Its rules are deliberately simple:

- Answer Relevance: the report lists at least one item and mentions at least half of the request's topic words, and
  its items keep what the request asks as the judge reads it itself (`_asked`: neither the product's rules in
  `context/request_rules.py` nor the simulated model's reading, so a misreading by either is caught): no more items
  than asked for, every item dated inside the years or window asked for, newest first when asked;
- Context Relevance: at least half of the collected items share a word with the request;
- Groundedness: every URL in the report is the URL of a collected item.

Every reasoning it writes starts with "(simulated judge)"; it is never a default.
"""

from __future__ import annotations

import calendar
import json
import math
import re
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from research_crawler.config.sections import ReportSettings
from research_crawler.eval.addresses import address_key
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


_WORD_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                 "ten": 10, "twelve": 12, "fifteen": 15, "twenty": 20}  # fmt: skip
_AMOUNT = r"(\d{1,3}|" + "|".join(_WORD_NUMBERS) + ")"
_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365}


@dataclass(frozen=True)
class _Asked:
    """What a request asks of the report's items, as the judge reads it: how many, dated between which days, in
    which order; and its topic words."""

    topic_words: set[str]
    count: int | None = None
    first: date | None = None
    last: date | None = None
    newest_first: bool = False


def _asked(request: str, *, today: date) -> _Asked:
    text = request.lower()
    newest = re.search(
        rf"\b(?:most recent|newest|latest)\s+first\b|\bby date\b"
        rf"|\bthe\s+(?:{_AMOUNT}\s+)?(?:most recent|newest|latest)\b",
        text,
    )
    said = re.search(
        rf"\b{_AMOUNT}\s+(?:most recent\s+|newest\s+|latest\s+|recent\s+|new\s+)?(?:[a-z-]+\s+){{0,3}}?"
        r"(?:papers?|preprints?|articles?|items?|works?|publications?|studies|datasets?)\b",
        text,
    )
    number = (newest.group(1) if newest and newest.group(1) else None) or (said.group(1) if said else None)
    count = None if number is None else int(number) if number.isdigit() else _WORD_NUMBERS[number]
    first = last = None
    years = [int(y) for y in re.findall(r"\b((?:19|20)\d\d)\b", text)]
    if len(years) >= 2 and re.search(r"\b(?:between|from)\b.*\b(?:and|to)\b|\d\s*[-–]\s*\d", text):
        first, last = date(min(years), 1, 1), date(max(years), 12, 31)
    elif years and re.search(r"\b(?:since|from|after)\s+(?:19|20)\d\d\b|\b(?:19|20)\d\d\s+or\s+later\b", text):
        first = date(years[0] + (1 if re.search(r"\bafter\s+(?:19|20)", text) else 0), 1, 1)
    elif years and re.search(r"\b(?:before|until|up to)\s+(?:19|20)\d\d\b", text):
        last = date(years[0] - (1 if re.search(r"\bbefore\s+(?:19|20)", text) else 0), 12, 31)
    elif years:
        first, last = date(years[0], 1, 1), date(years[0], 12, 31)
    elif window := re.search(rf"\b(?:last|past)\s+(?:{_AMOUNT}\s+)?(day|week|month|year)s?\b", text):
        amount = window.group(1)
        amount_days = (int(amount) if amount and amount.isdigit() else _WORD_NUMBERS.get(amount or "", 1)) * _DAYS[
            window.group(2)
        ]
        first, last = today - timedelta(days=amount_days), today
    elif re.search(r"\b(?:recent|latest|newest)\b", text) and not newest:
        first, last = today - timedelta(days=_RECENT_DAYS), today
    return _Asked(content_words(request), count, first, last, bool(newest))


def _answer_relevance(prompt: str) -> tuple[bool, str]:
    asked = _asked(_section(prompt, "REQUEST"), today=_today(prompt))
    request_words = asked.topic_words
    report_words = content_words(_section(prompt, "REPORT"))
    listed = _section(prompt, "REPORT_ITEMS")
    items = len(_REPORT_ITEM.findall(listed))
    mentioned = request_words & report_words
    needed = math.ceil(len(request_words) / 2)
    broken = _contract_broken(asked, listed, items)
    verdict = items >= 1 and len(mentioned) >= needed and not broken
    return verdict, (
        f"the report lists {items} item(s) and mentions {len(mentioned)} of the {len(request_words)} topic words of "
        f"the request ({', '.join(sorted(mentioned)) or 'none'}); it needs at least one item and {needed} word(s)"
        + (f"; but {broken}." if broken else "; it keeps the request's count, dates and order.")
    )


def _today(prompt: str) -> date:
    match = re.search(r"today is (\d{4}-\d{2}-\d{2})", prompt)
    return date.fromisoformat(match.group(1)) if match else date.today()


def _inside(value: str | None, asked: _Asked) -> bool:
    """Whether an item dated `value` (a year, a month or a day) lies wholly inside the dates asked for."""
    match = re.match(r"^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?", value or "")
    if match is None:
        return False
    year = int(match.group(1))
    first_month, last_month = (int(match.group(2)),) * 2 if match.group(2) else (1, 12)
    last_day = int(match.group(3)) if match.group(3) else calendar.monthrange(year, last_month)[1]
    start = date(year, first_month, int(match.group(3) or 1))
    end = date(year, last_month, last_day)
    return (asked.first is None or start >= asked.first) and (asked.last is None or end <= asked.last)


def _contract_broken(asked: _Asked, listed: str, items: int) -> str:
    """What the listed items break of the count, dates and order asked for ('' when nothing)."""
    if asked.count is not None and items > asked.count:
        return f"it lists {items} items where {asked.count} were asked for"
    dates = [_ITEM_DATE.search(block) for block in _REPORT_ITEM.split(listed)[1:]]
    values = [match.group(1) if match else None for match in dates]
    if asked.first is not None or asked.last is not None:
        outside = [v or "no date" for v in values if not _inside(v, asked)]
        if outside:
            return f"{len(outside)} item(s) are not dated inside the dates asked for ({', '.join(outside[:3])})"
    if asked.newest_first and (None in values or values != sorted(values, key=str, reverse=True)):
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
    return address_key(url)


_RULES = {
    "answer_relevance": _answer_relevance,
    "context_relevance": _context_relevance,
    "groundedness": _groundedness,
}
