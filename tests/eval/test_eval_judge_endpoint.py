"""The LLM judge through the real openai client against a loopback OpenAI-compatible server with scripted replies."""

from __future__ import annotations

from pathlib import Path

import pytest
from eval_helpers import fast_settings, recorded_replies, sample_evidence
from mock_openai_server import MockOpenAIServer, error, text

from research_crawler.config.settings import Settings
from research_crawler.errors import ModelError
from research_crawler.eval.judge_client import make_judge


def _settings(tmp_path: Path, server: MockOpenAIServer) -> Settings:
    settings = fast_settings(tmp_path)
    settings.models.base_url = server.base_url
    settings.models.api_key = "sk-test-judge"  # type: ignore[assignment]
    return settings


def _reply(kind: str, name: str) -> str:
    reply: str = next(case["reply"] for case in recorded_replies()[kind] if case["name"] == name)
    return reply


def test_a_valid_reply_from_the_default_judge_model(tmp_path: Path, judge_endpoint: MockOpenAIServer) -> None:
    judge_endpoint.enqueue(text(_reply("valid", "pass"), usage=(900, 60)))
    judge = make_judge(_settings(tmp_path, judge_endpoint), "llm")
    verdict = judge.judge("answer_relevance", sample_evidence())
    assert (verdict.status, verdict.attempts, verdict.judge_model) == ("pass", 1, "gpt-4o")
    (request,) = judge_endpoint.chat_requests()
    assert request.body["model"] == "gpt-4o" and request.body["temperature"] == 0.0
    assert [m["role"] for m in request.body["messages"]] == ["system", "user"]
    assert request.body["messages"][0]["content"].startswith("You are the Answer Relevance judge")
    assert request.headers["authorization"] == "Bearer sk-test-judge"
    totals = judge.client.ledger.totals()
    assert (totals.calls, totals.input_tokens, totals.output_tokens) == (1, 900, 60)
    assert totals.cost_usd == pytest.approx((900 * 2.5 + 60 * 10.0) / 1_000_000)


def test_the_judge_model_can_be_chosen(tmp_path: Path, judge_endpoint: MockOpenAIServer) -> None:
    settings = _settings(tmp_path, judge_endpoint)
    settings.models.agent_models = {"judge": "gpt-4.1-mini"}
    judge_endpoint.enqueue(text(_reply("valid", "fail"), model="gpt-4.1-mini-2025-04-14"))
    verdict = make_judge(settings, "llm").judge("groundedness", sample_evidence())
    assert verdict.status == "fail" and verdict.judge_model == "gpt-4.1-mini"
    assert judge_endpoint.chat_requests()[0].body["model"] == "gpt-4.1-mini"


def test_malformed_then_valid_is_asked_again(tmp_path: Path, judge_endpoint: MockOpenAIServer) -> None:
    judge_endpoint.enqueue(text(_reply("malformed", "prose_then_json")), text(_reply("valid", "fenced")))
    verdict = make_judge(_settings(tmp_path, judge_endpoint), "llm").judge("groundedness", sample_evidence())
    assert (verdict.status, verdict.attempts) == ("pass", 2)
    first, second = judge_endpoint.chat_requests()
    assert second.body["messages"][:2] == first.body["messages"]
    assert second.body["messages"][2] == {"role": "assistant", "content": _reply("malformed", "prose_then_json")}
    assert "could not be used: it is not a JSON object" in second.body["messages"][3]["content"]


def test_always_malformed_is_an_error(tmp_path: Path, judge_endpoint: MockOpenAIServer) -> None:
    settings = _settings(tmp_path, judge_endpoint)
    settings.eval.judge_parse_retries = 3
    judge_endpoint.enqueue(*(text(_reply("malformed", "verdict_as_number")) for _ in range(4)))
    verdict = make_judge(settings, "llm").judge("context_relevance", sample_evidence())
    assert (verdict.status, verdict.score, verdict.attempts) == ("error", None, 4)
    assert len(judge_endpoint.chat_requests()) == 4 and judge_endpoint.pending() == 0
    assert verdict.raw_reply == _reply("malformed", "verdict_as_number")


def test_a_refused_key_is_an_error_verdict_without_the_key(tmp_path: Path, judge_endpoint: MockOpenAIServer) -> None:
    judge_endpoint.enqueue(error(401, "Incorrect API key provided: sk-test-judge"))
    verdict = make_judge(_settings(tmp_path, judge_endpoint), "llm").judge("answer_relevance", sample_evidence())
    assert verdict.status == "error" and "HTTP 401" in verdict.error
    assert "sk-test-judge" not in verdict.model_dump_json()


def test_the_llm_judge_needs_an_endpoint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(ModelError, match="OPENAI_API_KEY"):
        make_judge(fast_settings(tmp_path), "llm")


def test_the_judge_can_have_its_own_endpoint(tmp_path: Path, judge_endpoint: MockOpenAIServer) -> None:
    settings = fast_settings(tmp_path)
    settings.models.base_url = "http://127.0.0.1:9/v1"  # the agents' local server, not the judge's
    settings.models.api_key = "sk-agents"  # type: ignore[assignment]
    settings.eval.judge_base_url = judge_endpoint.base_url
    settings.eval.judge_api_key = "sk-judge"  # type: ignore[assignment]
    judge_endpoint.enqueue(text(_reply("valid", "pass")), text(_reply("valid", "pass")))
    assert make_judge(settings, "llm").judge("answer_relevance", sample_evidence()).status == "pass"
    assert judge_endpoint.chat_requests()[0].headers["authorization"] == "Bearer sk-judge"
    settings.eval.judge_api_key = None
    assert make_judge(settings, "llm").judge("answer_relevance", sample_evidence()).status == "pass"
    assert "sk-agents" not in judge_endpoint.chat_requests()[1].headers["authorization"]
