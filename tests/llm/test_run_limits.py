"""The run's limits: reservations made before a call, settled with what it took, released when it was not made;
group messages counted for the whole run; the report's writers never refused."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from scripted_client import ScriptedClient, Step, make_client

from research_crawler.config.settings import ModelSettings
from research_crawler.errors import ModelError
from research_crawler.llm.client import ModelReply
from research_crawler.llm.run_limits import STOPPED_BY_USER, RunInterrupted, RunLimitReached, RunLimits
from research_crawler.llm.usage import cost_of, estimate_prompt_tokens


def test_calls_in_flight_count_so_concurrent_callers_never_pass_the_call_limit() -> None:
    limits = RunLimits(max_calls=5)
    start = threading.Barrier(12)
    made: list[int] = []
    refused: list[str] = []

    def call() -> None:
        start.wait()
        try:
            held = limits.reserve("Crawler", tokens=10, cost_usd=0.0)
        except RunLimitReached as exc:
            refused.append(str(exc))
            return
        time.sleep(0.05)  # every caller is past its check before any call ends: check-then-act would let all in
        made.append(1)
        held.settle(tokens=10, cost_usd=0.0)

    threads = [threading.Thread(target=call) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(made) == 5
    assert len(refused) == 7 and all("5 model calls" in reason for reason in refused)


def test_a_token_reservation_holds_the_prompt_and_the_reply_bound_until_it_settles() -> None:
    limits = RunLimits(max_tokens=1000)
    first = limits.reserve("Crawler", tokens=600, cost_usd=0.0)
    # 600 held: a second call of 600 does not fit beside it; it waits, and once the first settles at 300 it fits.
    outcome: list[str] = []

    def second() -> None:
        limits.reserve("Collector", tokens=600, cost_usd=0.0).settle(tokens=500, cost_usd=0.0)
        outcome.append("made")

    waiting = threading.Thread(target=second)
    waiting.start()
    time.sleep(0.1)
    assert not outcome, "a call that does not fit beside the calls in flight waits for them"
    first.settle(tokens=300, cost_usd=0.0)
    waiting.join(timeout=5)
    assert outcome == ["made"]
    # 800 taken: a call that may take 201 would pass 1000 — refused, saying how much was taken and asked.
    refusal = r"1000 tokens is reached \(800 taken, and the next call may take up to 201\)"
    with pytest.raises(RunLimitReached, match=refusal):
        limits.reserve("Planner", tokens=201, cost_usd=0.0)
    limits.reserve("Planner", tokens=200, cost_usd=0.0).settle(tokens=200, cost_usd=0.0)


def test_a_call_that_was_not_made_gives_back_what_it_held_and_a_failed_one_counts_as_a_call() -> None:
    limits = RunLimits(max_calls=2, max_tokens=1000)
    with limits.reserve("Crawler", tokens=900, cost_usd=0.0):
        pass  # left without settling: the request never went out
    with limits.reserve("Crawler", tokens=900, cost_usd=0.0) as held:
        held.settle(tokens=0, cost_usd=0.0)  # sent, and it failed: a call with no usage
        held.release()  # once settled, releasing changes nothing
    limits.reserve("Crawler", tokens=1000, cost_usd=0.0).settle(tokens=1000, cost_usd=0.0)
    with pytest.raises(RunLimitReached, match="2 model calls"):
        limits.reserve("Crawler", tokens=1, cost_usd=0.0)


def test_the_cost_limit_holds_the_most_a_call_may_cost() -> None:
    limits = RunLimits(max_cost_usd=1.0)
    limits.reserve("Collector", tokens=100, cost_usd=0.5).settle(tokens=100, cost_usd=0.25)  # it took less
    limits.reserve("Crawler", tokens=100, cost_usd=0.75).settle(tokens=100, cost_usd=0.75)  # 1.0: fits exactly
    with pytest.raises(RunLimitReached, match=r"the run limit of \$1 is reached \(\$1.0000 spent\)"):
        limits.reserve("Crawler", tokens=100, cost_usd=0.125)


def test_the_report_writers_are_counted_but_never_refused() -> None:
    limits = RunLimits(max_calls=1, max_tokens=1000, exempt_agents={"Presenter"})
    limits.reserve("Planner", tokens=1000, cost_usd=0.0).settle(tokens=1000, cost_usd=0.0)
    with pytest.raises(RunLimitReached):
        limits.reserve("Planner", tokens=10, cost_usd=0.0)
    limits.reserve("Presenter", tokens=3000, cost_usd=0.0).settle(tokens=2500, cost_usd=0.0)
    assert limits.next_turn() == "the run limit of 1 model calls is reached"


def test_a_stop_by_the_user_refuses_calls_except_those_finishing_a_page() -> None:
    limits = RunLimits(finish_page_agents={"Collector"}, exempt_agents={"Presenter"})
    limits.cancelled.set()
    with pytest.raises(RunInterrupted, match=STOPPED_BY_USER):
        limits.reserve("Planner", tokens=10, cost_usd=0.0)
    limits.reserve("Collector", tokens=10, cost_usd=0.0).settle(tokens=10, cost_usd=0.0)
    limits.reserve("Presenter", tokens=10, cost_usd=0.0).settle(tokens=10, cost_usd=0.0)
    assert limits.next_turn() == STOPPED_BY_USER


def test_a_stop_by_the_user_wakes_a_call_waiting_for_room() -> None:
    limits = RunLimits(max_tokens=1000)
    held = limits.reserve("Crawler", tokens=800, cost_usd=0.0)
    raised: list[BaseException] = []

    def wait_for_room() -> None:
        try:
            limits.reserve("Collector", tokens=800, cost_usd=0.0)
        except RunLimitReached as exc:
            raised.append(exc)

    waiting = threading.Thread(target=wait_for_room)
    waiting.start()
    limits.cancelled.set()
    waiting.join(timeout=5)
    assert [type(exc) for exc in raised] == [RunInterrupted]
    held.release()


def test_group_messages_are_the_runs_across_every_caller() -> None:
    limits = RunLimits(max_messages=10)
    start = threading.Barrier(3)
    taken: list[int] = []

    def lane() -> None:
        start.wait()
        while limits.next_turn() is None:
            taken.append(1)

    lanes = [threading.Thread(target=lane) for _ in range(3)]
    for thread in lanes:
        thread.start()
    for thread in lanes:
        thread.join()
    assert len(taken) == 10 == limits.messages
    assert limits.next_turn() == "the run limit of 10 group messages is reached"
    limits.return_turn()
    assert limits.next_turn() is None and limits.messages == 10
    limits.count_turn()  # the report's turn: never refused
    assert limits.messages == 11


def _client(steps: list[Step], limits: RunLimits) -> ScriptedClient:
    return make_client(steps, client_kwargs={"limits": limits, "max_output_tokens": 300})[0]


PARAMS: dict[str, Any] = {"messages": [{"role": "system", "content": "Plan."}, {"role": "user", "content": "Go on."}]}
PROMPT = estimate_prompt_tokens(PARAMS["messages"])
TEXT = ModelReply(content="Done.", input_tokens=PROMPT, output_tokens=2)


def test_a_client_reserves_its_prompt_and_its_reply_bound_before_sending() -> None:
    short = _client([TEXT], RunLimits(max_tokens=PROMPT + 299))
    with pytest.raises(RunLimitReached, match="tokens"):
        short.create(PARAMS)
    assert short.requests == [] and short.ledger.calls() == []
    enough = _client([TEXT], RunLimits(max_tokens=PROMPT + 300))
    enough.create(PARAMS)
    assert enough.requests[0].options["max_tokens"] == 300 and len(enough.ledger.calls()) == 1


def test_a_client_reserves_the_most_a_call_may_cost_at_list_price() -> None:
    settings = ModelSettings()
    most = cost_of("gpt-4o", PROMPT, 300, settings.prices_per_million)
    with pytest.raises(RunLimitReached, match=r"\$"):
        _client([TEXT], RunLimits(max_cost_usd=most * 0.99)).create(PARAMS)
    _client([TEXT], RunLimits(max_cost_usd=most)).create(PARAMS)


def test_a_re_ask_is_a_call_of_its_own_within_the_limits() -> None:
    client = _client([ModelReply(content=""), TEXT], RunLimits(max_calls=1))
    with pytest.raises(RunLimitReached, match="1 model calls"):
        client.create(PARAMS)  # the empty reply would be asked again: a second call
    assert len(client.requests) == 1 and len(client.ledger.calls()) == 1


def test_a_request_that_failed_is_a_call_and_holds_no_tokens() -> None:
    limits = RunLimits(max_calls=2, max_tokens=PROMPT + 300)
    client = _client([ModelError("refused: bad key"), TEXT], limits)
    with pytest.raises(ModelError, match="bad key"):
        client.create(PARAMS)
    client.create(PARAMS)  # the failure took no tokens: the whole allowance is there for this one
    with pytest.raises(RunLimitReached, match="2 model calls"):
        client.create(PARAMS)
