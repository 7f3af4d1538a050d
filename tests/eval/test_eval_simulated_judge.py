"""The simulated judge decides by its three rules from the real judge prompts, and always says it is simulated."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from eval_helpers import SITE, fast_settings, sample_evidence

from research_crawler.eval.evidence import RunEvidence
from research_crawler.eval.judge_client import make_judge
from research_crawler.eval.judges import Judge, build_judge_messages


def _judge(tmp_path: Path) -> Judge:
    return make_judge(fast_settings(tmp_path), "simulated")


def test_answer_relevance_needs_an_item_and_the_requests_words(tmp_path: Path) -> None:
    judge = _judge(tmp_path)
    good = judge.judge("answer_relevance", sample_evidence())
    assert good.status == "pass" and good.simulated and good.judge_model == "simulated-judge"
    assert good.reasoning.startswith("(simulated judge) the report lists 2 item(s)")
    off_topic = sample_evidence(markdown="1. [Cooking with cast iron](http://127.0.0.1:8001/abs/1)")
    assert judge.judge("answer_relevance", off_topic).status == "fail"
    empty = sample_evidence(items=0, markdown="No relevant items were found.")
    assert judge.judge("answer_relevance", empty).status == "fail"


def test_context_relevance_is_the_share_of_on_topic_titles(tmp_path: Path) -> None:
    judge = _judge(tmp_path)
    evidence = sample_evidence(collected=2)
    assert judge.judge("context_relevance", evidence).status == "pass"
    off_topic = [item.model_copy(update={"title": "About us"}) for item in evidence.collected_items]
    half = RunEvidence(report=evidence.report, collected_items=[evidence.collected_items[0], off_topic[1]])
    assert judge.judge("context_relevance", half).status == "pass"  # 0.5 is enough
    third = RunEvidence(report=evidence.report, collected_items=[evidence.collected_items[0], *off_topic, off_topic[0]])
    verdict = judge.judge("context_relevance", third)
    assert verdict.status == "fail" and "1 of the 4 collected item titles" in verdict.reasoning
    assert judge.judge("context_relevance", sample_evidence(collected=0)).status == "fail"


def test_groundedness_requires_every_reported_url_to_be_collected(tmp_path: Path) -> None:
    judge = _judge(tmp_path)
    assert judge.judge("groundedness", sample_evidence(items=2, collected=2)).status == "pass"
    invented = sample_evidence(items=2, collected=1)
    verdict = judge.judge("groundedness", invented)
    assert verdict.status == "fail" and f"{SITE}abs/2" in verdict.reasoning
    nothing = sample_evidence(items=0, collected=0, markdown="No relevant items were found.")
    assert judge.judge("groundedness", nothing).status == "pass"


def test_it_answers_in_the_judges_json_through_the_client_seam(tmp_path: Path) -> None:
    judge = _judge(tmp_path)
    messages = build_judge_messages("groundedness", sample_evidence(), max_evidence_chars=40_000)
    completion = judge.client.create({"messages": messages})
    reply = json.loads(completion.choices[0].message.content or "")
    assert set(reply) == {"reasoning", "verdict"} and reply["verdict"] is True
    assert judge.client.ledger.totals().input_tokens > 100, "tokens are counted offline like any model's"
    unknown = judge.client.create({"messages": [{"role": "system", "content": "You are a poet."}]})
    assert json.loads(unknown.choices[0].message.content or "")["verdict"] is False


def test_answer_relevance_fails_a_report_that_breaks_the_requests_contract(tmp_path: Path) -> None:
    """The same on-topic items pass or fail with the request's count, dates and order, as the rules read them."""
    judge = _judge(tmp_path)

    def verdict(query: str, dates: list[str | None]) -> tuple[str, str]:
        evidence = sample_evidence(items=len(dates))
        items = [item.model_copy(update={"date": d}) for item, d in zip(evidence.report.items, dates, strict=True)]
        report = evidence.report.model_copy(update={"query": query, "items": items})
        result = judge.judge("answer_relevance", dataclasses.replace(evidence, report=report))
        return result.status, result.reasoning

    assert verdict("Find papers on graph neural networks published in 2024", ["2024-05-01", "2024-01-02"])[0] == "pass"
    status, why = verdict("Find papers on graph neural networks published in 2024", ["2024-05-01", "2023-12-30"])
    assert status == "fail" and "not dated inside" in why and "2023-12-30" in why
    status, why = verdict("Find papers on graph neural networks published in 2024", ["2024-05-01", None])
    assert status == "fail" and "no date" in why
    status, why = verdict("Find 1 paper on graph neural networks", ["2024-05-01", "2024-01-02"])
    assert status == "fail" and "where 1 were asked for" in why
    assert verdict("Find the 2 most recent papers on graph neural networks", ["2024-05-01", "2024-01-02"])[0] == "pass"
    status, why = verdict("Find the 2 most recent papers on graph neural networks", ["2024-01-02", "2024-05-01"])
    assert status == "fail" and "not newest first" in why
