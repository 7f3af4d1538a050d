"""Usage accounting: cost math, price lookup of dated model names, the thread-safe ledger, estimates."""

from __future__ import annotations

import logging
import threading
from datetime import UTC, datetime

import pytest

from research_crawler.config.settings import ModelSettings
from research_crawler.llm.usage import (
    AgentUsage,
    ModelCall,
    UsageLedger,
    cost_of,
    estimate_prompt_tokens,
    estimate_reply_tokens,
    price_for,
)
from research_crawler.text.tokens import count_tokens

PRICES = ModelSettings().prices_per_million


def _call(
    agent: str, *, tokens: tuple[int, int] = (100, 10), cost: float = 0.001, ok: bool = True
) -> ModelCall:
    return ModelCall(
        agent=agent,
        model="gpt-4o",
        input_tokens=tokens[0],
        output_tokens=tokens[1],
        cost_usd=cost,
        latency_s=0.5,
        ok=ok,
        error="" if ok else "boom",
        finish_reason="stop" if ok else None,
        attempts=1,
        at=datetime.now(UTC),
    )


def test_cost_of_uses_per_million_prices() -> None:
    # gpt-4o: 2.5 USD per 1M input, 10 USD per 1M output
    assert cost_of("gpt-4o", 1_000_000, 0, PRICES) == pytest.approx(2.5)
    assert cost_of("gpt-4o", 2000, 500, PRICES) == pytest.approx(2000 * 2.5e-6 + 500 * 10e-6)
    assert cost_of("gpt-4o-mini", 10_000, 1000, PRICES) == pytest.approx(10_000 * 0.15e-6 + 1000 * 0.6e-6)


def test_dated_model_names_use_the_longest_base_price() -> None:
    assert price_for("gpt-4o-2024-08-06", PRICES) == PRICES["gpt-4o"]
    # "gpt-4o-mini-…" starts with both "gpt-4o-" and "gpt-4o-mini-": the longer name wins
    assert price_for("gpt-4o-mini-2024-07-18", PRICES) == PRICES["gpt-4o-mini"]
    assert price_for("gpt-4omni", PRICES) is None


def test_unknown_model_costs_zero_and_is_noted_once(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="research_crawler.llm.usage")
    name = "llama3.1:8b-test-note"
    assert cost_of(name, 5000, 5000, PRICES) == 0.0
    assert cost_of(name, 1, 1, PRICES) == 0.0
    notes = [record for record in caplog.records if name in record.getMessage()]
    assert len(notes) == 1


def test_negative_tokens_are_refused() -> None:
    with pytest.raises(ValueError, match="token counts"):
        cost_of("gpt-4o", -1, 0, PRICES)


def test_ledger_groups_by_agent_and_totals() -> None:
    ledger = UsageLedger()
    ledger.record(_call("planner", tokens=(100, 10), cost=0.002))
    ledger.record(_call("crawler", tokens=(50, 5), cost=0.0001))
    ledger.record(_call("planner", tokens=(200, 20), cost=0.004, ok=False))
    by_agent = ledger.by_agent()
    assert list(by_agent) == ["planner", "crawler"]
    planner = by_agent["planner"]
    assert planner.model_dump(exclude={"cost_usd"}) == AgentUsage(
        calls=2, input_tokens=300, output_tokens=30, failures=1, latency_s=1.0
    ).model_dump(exclude={"cost_usd"})
    assert planner.cost_usd == pytest.approx(0.006)
    totals = ledger.totals()
    assert (totals.calls, totals.input_tokens, totals.output_tokens, totals.failures) == (3, 350, 35, 1)
    assert totals.total_tokens == 385
    assert totals.cost_usd == pytest.approx(0.0061)
    assert ledger.by_model()["gpt-4o"].calls == 3


def test_ledger_is_thread_safe_and_tells_subscribers() -> None:
    ledger = UsageLedger()
    seen: list[ModelCall] = []
    seen_lock = threading.Lock()

    def listen(call: ModelCall) -> None:
        with seen_lock:
            seen.append(call)

    ledger.subscribe(listen)
    threads_n, calls_n = 8, 250
    barrier = threading.Barrier(threads_n)

    def work(index: int) -> None:
        barrier.wait()
        for _ in range(calls_n):
            ledger.record(_call(f"agent{index}", tokens=(3, 1), cost=0.5))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(threads_n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    totals = ledger.totals()
    assert totals.calls == threads_n * calls_n == len(ledger.calls()) == len(seen)
    assert totals.input_tokens == 3 * threads_n * calls_n
    assert totals.cost_usd == pytest.approx(0.5 * threads_n * calls_n)
    assert {name: usage.calls for name, usage in ledger.by_agent().items()} == {
        f"agent{i}": calls_n for i in range(threads_n)
    }


def test_a_failing_subscriber_does_not_stop_recording(caplog: pytest.LogCaptureFixture) -> None:
    ledger = UsageLedger()
    later: list[str] = []

    def broken(call: ModelCall) -> None:
        raise RuntimeError("trace disk full")

    ledger.subscribe(broken)
    ledger.subscribe(lambda call: later.append(call.agent))
    ledger.record(_call("planner"))
    assert later == ["planner"]
    assert len(ledger.calls()) == 1
    assert "trace disk full" in caplog.text
    ledger.unsubscribe(broken)
    ledger.record(_call("crawler"))
    assert later == ["planner", "crawler"]


def test_prompt_estimate_counts_every_part() -> None:
    system = {"role": "system", "content": "You plan the exploration of one website."}
    user = {"role": "user", "name": "WebSelector", "content": "Explore https://example.org for datasets."}
    base = estimate_prompt_tokens([system])
    both = estimate_prompt_tokens([system, user])
    # the second message adds its content, role and name, plus the per-message overhead
    assert both - base >= count_tokens(user["content"]) + count_tokens("user") + count_tokens("WebSelector")
    tools = [{"type": "function", "function": {"name": "visit", "parameters": {"type": "object"}}}]
    assert estimate_prompt_tokens([system], tools) > base
    multipart = {
        "role": "user",
        "content": [{"type": "text", "text": "Explore https://example.org for datasets."}],
    }
    assert estimate_prompt_tokens([system, multipart]) == estimate_prompt_tokens(
        [system, {"role": "user", "content": user["content"]}]
    )


def test_reply_estimate_counts_text_and_tool_calls() -> None:
    assert estimate_reply_tokens("") == 0
    assert estimate_reply_tokens("hello world") == count_tokens("hello world")
    with_call = estimate_reply_tokens(None, [("visit", '{"url": "https://example.org/a"}')])
    assert with_call >= count_tokens("visit") + count_tokens('{"url": "https://example.org/a"}')
