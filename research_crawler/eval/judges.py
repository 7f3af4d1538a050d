"""The three LLM judges of the RAG triad (paper §IV-B): Answer Relevance, Context Relevance and Groundedness.

Each judge asks a model for one binary verdict with its chain-of-thought reasoning, as the JSON object
``{"reasoning": "...", "verdict": true|false}``. Replies are parsed strictly: anything else is asked again
(`EvalSettings.judge_parse_retries` times) and then recorded as an error — never guessed, never a pass.
Prompts live in ``eval/judge_prompts.toml``.
"""

from __future__ import annotations

import json
import logging
import re
import string
import tomllib
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, Field

from research_crawler.context.web_context import CollectedItem
from research_crawler.errors import ConfigError, ModelError
from research_crawler.eval.evidence import RunEvidence
from research_crawler.llm.client import BaseModelClient
from research_crawler.report.models import ReportItem

__all__ = [
    "JUDGE_METRICS",
    "Judge",
    "JudgeMetric",
    "JudgeReplyError",
    "JudgeStatus",
    "JudgeVerdict",
    "build_judge_messages",
    "judge_templates",
    "parse_judge_reply",
]

logger = logging.getLogger(__name__)

JudgeMetric = Literal["answer_relevance", "context_relevance", "groundedness"]
JudgeStatus = Literal["pass", "fail", "error"]
JUDGE_METRICS: tuple[JudgeMetric, ...] = ("answer_relevance", "context_relevance", "groundedness")

_FENCED = re.compile(r"```(?:json)?\s*\n?(.*?)\n?\s*```", re.DOTALL)
_RAW_REPLY_CHARS = 2000
_SECTIONS = ("report", "report_items", "collected_items", "page_evidence")


class JudgeReplyError(ValueError):
    """A judge reply that is not exactly the required JSON object; the message says what is wrong."""


class JudgeVerdict(BaseModel):
    """One judge's verdict on one query; `status` is error when no usable verdict came (never counted as a pass)."""

    metric: JudgeMetric
    status: JudgeStatus
    reasoning: str = ""
    attempts: int = Field(0, ge=0, description="Replies asked for (the first one and the re-asks).")
    judge_model: str = ""
    simulated: bool = Field(False, description="True when the simulated judge (a test double) decided.")
    error: str = ""
    raw_reply: str = Field("", description="The last unusable reply, for errors (shortened).")

    @property
    def score(self) -> float | None:
        """1.0 for a pass, 0.0 for a fail, None for an error (left out of every mean)."""
        return None if self.status == "error" else float(self.status == "pass")


@cache
def judge_templates() -> dict[str, dict[str, str]]:
    """The judges' prompt templates by section (``common`` and one per metric)."""
    text = resources.files("research_crawler.eval").joinpath("judge_prompts.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    for metric in JUDGE_METRICS:
        if not {"title", "system", "user"} <= set(data.get(metric, {})):
            raise ConfigError(f"eval/judge_prompts.toml needs title, system and user for {metric}")
    return data


def _fill(template: str, values: dict[str, object], *, what: str) -> str:
    names = {name for _, name, _, _ in string.Formatter().parse(template) if name}
    unknown = names - values.keys()
    if unknown:
        raise ConfigError(f"the {what} judge prompt uses unknown placeholders {sorted(unknown)}")
    return template.format(**values)


def parse_judge_reply(text: str | None) -> tuple[bool, str]:
    """(verdict, reasoning) from a reply that is exactly ``{"reasoning": str, "verdict": bool}``.

    One surrounding Markdown code fence is tolerated (it is unambiguous); everything else — prose, a verdict
    written as a string or a number, missing, extra or repeated keys, empty reasoning — raises JudgeReplyError.
    """
    if text is None or not text.strip():
        raise JudgeReplyError("the reply was empty")
    body = text.strip()
    fenced = _FENCED.fullmatch(body)
    if fenced:
        body = fenced.group(1).strip()
    try:
        data = json.loads(body, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as exc:
        raise JudgeReplyError(f"it is not a JSON object ({exc.msg} at character {exc.pos})") from None
    if not isinstance(data, dict):
        raise JudgeReplyError(f"it is JSON but a {type(data).__name__}, not an object")
    missing = sorted({"reasoning", "verdict"} - set(data))
    extra = sorted(set(data) - {"reasoning", "verdict"})
    if missing or extra:
        parts = [f"missing key(s) {missing}" if missing else "", f"unexpected key(s) {extra}" if extra else ""]
        raise JudgeReplyError("the object has " + " and ".join(p for p in parts if p))
    verdict, reasoning = data["verdict"], data["reasoning"]
    if not isinstance(verdict, bool):
        raise JudgeReplyError(f'"verdict" must be the JSON boolean true or false, not {verdict!r}')
    if not isinstance(reasoning, str) or not reasoning.strip():
        raise JudgeReplyError('"reasoning" must be a non-empty string')
    return verdict, reasoning.strip()


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _ in pairs]
    repeated = sorted({key for key in keys if keys.count(key) > 1})
    if repeated:
        raise JudgeReplyError(f"the object repeats the key(s) {repeated}")
    return dict(pairs)


def build_judge_messages(
    metric: JudgeMetric, evidence: RunEvidence, *, max_evidence_chars: int
) -> list[dict[str, str]]:
    """The system and user messages of `metric`'s judge for one run, evidence cut to `max_evidence_chars`."""
    templates = judge_templates()
    report = evidence.report
    user_template = templates[metric]["user"]
    used = [name for name in _SECTIONS if "{" + name + "}" in user_template]
    budget = max_evidence_chars // max(1, len(used))
    markdown = report.markdown.strip() or "(the report is empty)"
    values: dict[str, object] = {
        "item_kind": report.item_kind,
        "query": report.query,
        "today": report.created_at.date().isoformat(),
        "report": _clip(markdown, budget),
        "report_item_count": len(report.items),
        "report_items": _listing([_report_item(i) for i in report.items], budget, empty="(no items)"),
        "collected_item_count": len(evidence.collected_items),
        "collected_items": _listing(
            [_collected_item(i) for i in evidence.collected_items], budget, empty=_nothing_collected(evidence)
        ),
        "page_evidence": _listing(
            [_page_evidence(i, evidence.page_excerpts.get(i.url, "")) for i in report.items],
            budget,
            empty="(no items reported)",
        ),
    }
    values["answer_format"] = _fill(templates["common"]["answer_format"], {}, what="common")
    system = _fill(templates[metric]["system"], values, what=metric)
    user = _fill(user_template, values, what=metric)
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def _nothing_collected(evidence: RunEvidence) -> str:
    return "(nothing was collected" + (f"; {'; '.join(evidence.notes)})" if evidence.notes else ")")


def _report_item(item: ReportItem) -> str:
    lines = [f"[{item.rank}] {item.title}", f"    url: {item.url}"]
    details = [
        f"authors: {', '.join(item.authors)}" if item.authors else "",
        f"date: {item.date}" if item.date else "",
        f"doi: {item.doi}" if item.doi else "",
    ]
    if any(details):
        lines.append("    " + "; ".join(d for d in details if d))
    return "\n".join(lines)


def _collected_item(item: CollectedItem) -> str:
    lines = [f"- {item.title}", f"    url: {item.url}", f"    found on: {item.found_on}"]
    if item.description:
        lines.append(f"    description: {item.description}")
    lines.append(f"    collector score: {item.score:g}/10")
    return "\n".join(lines)


def _page_evidence(item: ReportItem, excerpt: str) -> str:
    lines = [f"[{item.rank}] {item.url}"]
    if item.metadata_sources:
        fields = [
            f"title: {item.title}",
            f"authors: {', '.join(item.authors)}" if item.authors else "",
            f"date: {item.date}" if item.date else "",
            f"doi: {item.doi}" if item.doi else "",
            f"abstract: {_clip(item.abstract, 600)}" if item.abstract else "",
        ]
        sources = ", ".join(sorted(set(item.metadata_sources.values())))
        lines.append(f"    metadata read from the page ({sources}): " + "; ".join(f for f in fields if f))
    else:
        lines.append("    no metadata was read from this item's page")
    if excerpt:
        lines.append("    page excerpt:\n" + "\n".join("      " + line for line in excerpt.splitlines()))
    else:
        lines.append("    no fetched page of this item was kept")
    return "\n".join(lines)


def _listing(entries: Sequence[str], budget: int, *, empty: str) -> str:
    """Entries joined until `budget` characters; what did not fit is counted, not silently dropped."""
    if not entries:
        return empty
    shown: list[str] = []
    used = 0
    for entry in entries:
        if shown and used + len(entry) + 1 > budget:
            break
        shown.append(_clip(entry, budget))
        used += len(shown[-1]) + 1
    left = len(entries) - len(shown)
    if left:
        shown.append(f"[… {left} more not shown: the evidence limit was reached]")
    return "\n".join(shown)


def _clip(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[: max(0, limit - 60)].rstrip() + f"\n[… {len(text) - limit + 60} more characters not shown]"


class Judge:
    """Asks `client` for verdicts; one Judge serves all three metrics and may be shared between threads."""

    def __init__(
        self,
        client: BaseModelClient,
        *,
        parse_retries: int,
        max_evidence_chars: int,
        simulated: bool = False,
    ) -> None:
        self.client = client
        self.parse_retries = parse_retries
        self.max_evidence_chars = max_evidence_chars
        self.simulated = simulated

    @property
    def model(self) -> str:
        return self.client.model

    def judge(self, metric: JudgeMetric, evidence: RunEvidence) -> JudgeVerdict:
        """The verdict of `metric` on one run: pass, fail, or error when no parsable reply came."""
        messages = build_judge_messages(metric, evidence, max_evidence_chars=self.max_evidence_chars)
        return self.ask(metric, messages)

    def _verdict(self, metric: JudgeMetric, **fields: Any) -> JudgeVerdict:
        return JudgeVerdict(metric=metric, judge_model=self.model, simulated=self.simulated, **fields)

    def ask(self, metric: JudgeMetric, messages: list[dict[str, str]]) -> JudgeVerdict:
        """Send `messages`, re-asking after an unparsable reply; a model failure is an error verdict."""
        problem = ""
        reply: str | None = None
        for attempt in range(1, self.parse_retries + 2):
            try:
                completion = self.client.create({"messages": messages})
            except ModelError as exc:
                logger.warning("the %s judge failed: %s", metric, exc)
                return self._verdict(metric, status="error", attempts=attempt, error=f"the judge model failed: {exc}")
            reply = completion.choices[0].message.content if completion.choices else None
            try:
                verdict, reasoning = parse_judge_reply(reply)
            except JudgeReplyError as exc:
                problem = str(exc)
                logger.info("unusable %s judge reply (attempt %d): %s", metric, attempt, problem)
                retry = _fill(judge_templates()["common"]["retry"], {"problem": problem}, what="retry")
                messages = [
                    *messages,
                    {"role": "assistant", "content": reply or ""},
                    {"role": "user", "content": retry},
                ]
                continue
            return self._verdict(metric, status="pass" if verdict else "fail", reasoning=reasoning, attempts=attempt)
        attempts = self.parse_retries + 1
        return self._verdict(
            metric,
            status="error",
            attempts=attempts,
            error=f"no parsable verdict in {attempts} replies; the last one: {problem}",
            raw_reply=(reply or "")[:_RAW_REPLY_CHARS],
        )
