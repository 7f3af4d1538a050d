"""The shared client policy, driven by a scripted subclass: retries, Retry-After, re-asks, token counts."""

from __future__ import annotations

import json
from typing import Any

import pytest
from openai.types.chat import ChatCompletion
from pydantic import SecretStr
from scripted_client import FakeTime, ScriptedClient, Step, make_client

from research_crawler.config.settings import ModelSettings, Settings
from research_crawler.errors import ConfigError, ModelError
from research_crawler.llm.client import (
    NO_USABLE_REPLY_PREFIX,
    BaseModelClient,
    ModelReply,
    ModelRequest,
    ToolCallSpec,
)
from research_crawler.llm.model_retries import TransientModelError
from research_crawler.llm.usage import UsageLedger, estimate_prompt_tokens, estimate_reply_tokens

PARAMS: dict[str, Any] = {
    "messages": [
        {"role": "system", "content": "You are the Planner."},
        {"role": "user", "name": "WebSelector", "content": "Explore https://example.org"},
    ],
    "model": "gpt-4o",
    "stream": False,
    "model_client_cls": "ScriptedClient",
}


def ok_text(content: str = "Next I visit the papers page.", **fields: Any) -> ModelReply:
    return ModelReply(content=content, input_tokens=100, output_tokens=10, **fields)


def text_of(response: ChatCompletion) -> str | None:
    return response.choices[0].message.content


def test_text_reply_becomes_a_chat_completion_and_a_ledger_entry() -> None:
    client, ledger, _ = make_client([ok_text()])
    response = client.create(PARAMS)
    assert isinstance(response, ChatCompletion)
    assert text_of(response) == "Next I visit the papers page."
    assert response.choices[0].finish_reason == "stop"
    assert client.message_retrieval(response) == ["Next I visit the papers page."]
    assert response.usage is not None and (
        response.usage.prompt_tokens,
        response.usage.completion_tokens,
    ) == (100, 10)
    [call] = ledger.calls()
    assert (call.agent, call.model, call.ok, call.attempts) == ("planner", "gpt-4o", True, 1)
    assert call.cost_usd == pytest.approx(100 * 2.5e-6 + 10 * 10e-6)
    assert client.cost(response) == pytest.approx(call.cost_usd)
    usage = BaseModelClient.get_usage(response)
    assert usage["prompt_tokens"] == 100 and usage["completion_tokens"] == 10 and usage["total_tokens"] == 110


VISIT = {
    "type": "function",
    "function": {
        "name": "visit",
        "description": "Visit a URL.",
        "parameters": {"type": "object", "properties": {"url": {"type": "string"}}, "required": ["url"]},
    },
}
WITH_TOOLS: dict[str, Any] = {**PARAMS, "tools": [VISIT]}


def visit(arguments: str, call_id: str = "call_1") -> ModelReply:
    call = ToolCallSpec(id=call_id, name="visit", arguments=arguments)
    return ModelReply(tool_calls=[call], finish_reason="tool_calls", input_tokens=50, output_tokens=5)


def test_tool_calls_come_back_as_function_tool_calls_with_raw_arguments() -> None:
    calls = [
        ToolCallSpec(id="call_1", name="visit", arguments='{"url": "https://example.org/papers"}'),
        ToolCallSpec(id="call_2", name="visit", arguments='{ "url" :"https://example.org/b" }'),  # kept as written
    ]
    client, _, _ = make_client([ModelReply(tool_calls=calls, finish_reason="tool_calls")])
    response = client.create(WITH_TOOLS)
    message = client.message_retrieval(response)[0]
    assert response.choices[0].finish_reason == "tool_calls"
    assert [(c.id, c.function.name, c.function.arguments) for c in message.tool_calls] == [
        ("call_1", "visit", '{"url": "https://example.org/papers"}'),
        ("call_2", "visit", '{ "url" :"https://example.org/b" }'),
    ]
    assert message.model_dump()["tool_calls"][0]["type"] == "function"


@pytest.mark.parametrize(
    ("bad", "problem", "told"),
    [
        (
            ModelReply(tool_calls=[ToolCallSpec(id="c", name="open_url", arguments="{}")], finish_reason="tool_calls"),
            "called 'open_url', which is not one of its tools (visit)",
            "Your tools are: visit",
        ),
        (visit('{"url": '), "are not valid JSON", "complete JSON"),
        (visit('["https://example.org"]'), "must be a JSON object, not list", "follow its parameters"),
        (visit("{}"), "lacks the required argument(s) url", "follow its parameters"),
        (
            visit('{"url": "https://example.org", "why": "x"}'),
            "why is not a parameter of visit",
            "follow its parameters",
        ),
    ],
    ids=["unknown tool", "malformed JSON", "not an object", "missing field", "unknown field"],
)
def test_a_bad_tool_call_is_asked_again_and_never_handed_to_the_agent(bad: ModelReply, problem: str, told: str) -> None:
    good = visit('{"url": "https://example.org/papers"}')
    client, ledger, _ = make_client([bad, good])
    response = client.create(WITH_TOOLS)
    [call] = client.message_retrieval(response)[0].tool_calls
    assert call.function.arguments == '{"url": "https://example.org/papers"}'
    first, second = ledger.calls()
    assert not first.ok and problem in first.error and second.ok
    correction = client.requests[1].messages[-1]
    assert correction["role"] == "user" and told in correction["content"]
    assert client.requests[1].messages[:-1] == client.requests[0].messages  # the bad reply is not in the history


def test_a_model_that_keeps_calling_unknown_tools_ends_with_no_usable_reply() -> None:
    call = ToolCallSpec(id="c", name="delete_all", arguments="{}")
    unknown = ModelReply(tool_calls=[call], finish_reason="tool_calls")
    client, ledger, _ = make_client([unknown, unknown, unknown], max_reasks=2)
    response = client.create(WITH_TOOLS)
    assert (text_of(response) or "").startswith(NO_USABLE_REPLY_PREFIX)
    assert client.message_retrieval(response)[0].startswith(NO_USABLE_REPLY_PREFIX)
    assert [call.ok for call in ledger.calls()] == [False, False, False]


def test_text_where_a_tool_call_is_needed_is_asked_again_but_text_after_a_tool_result_is_fine() -> None:
    client, ledger, _ = make_client([ok_text("Looks fine."), visit('{"url": "https://example.org/a"}')])
    client.must_call_tool = True
    response = client.create(WITH_TOOLS)
    assert client.message_retrieval(response)[0].tool_calls
    assert "text where a tool call was needed" in ledger.calls()[0].error
    answered = {
        **WITH_TOOLS,
        "messages": [
            *PARAMS["messages"],
            {"role": "assistant", "content": None, "tool_calls": [{"id": "c", "type": "function"}]},
            {"role": "tool", "tool_call_id": "c", "content": "Visited."},
        ],
    }
    client2, _, _ = make_client([ok_text("Done.")])
    client2.must_call_tool = True
    assert text_of(client2.create(answered)) == "Done."


def test_every_call_is_reported_to_the_listener() -> None:
    seen: list[bool] = []
    client, _, _ = make_client([visit("{}"), visit('{"url": "https://example.org/a"}')])
    client.on_call = lambda call: seen.append(call.ok)
    client.create(WITH_TOOLS)
    assert seen == [False, True]


def test_replies_are_bounded_and_one_tool_call_per_turn_is_asked_for() -> None:
    client, _, _ = make_client([ok_text(), ok_text(), ok_text()])
    client.max_output_tokens = 300
    client.create(WITH_TOOLS)
    client.create({**PARAMS, "max_tokens": 50})  # the agent's own config wins; no tools: no parallel_tool_calls
    assert client.requests[0].options == {"max_tokens": 300, "parallel_tool_calls": False}
    assert client.requests[1].options == {"max_tokens": 50}
    quiet, _, _ = make_client([ok_text()], parallel_tool_calls=None)
    quiet.create(WITH_TOOLS)
    assert quiet.requests[0].options == {}


def test_request_is_a_deep_copy_with_known_options_only() -> None:
    params = json.loads(json.dumps(PARAMS))
    params["tools"] = [{"type": "function", "function": {"name": "visit", "parameters": {"type": "object"}}}]
    params.update(max_tokens=256, seed=7, my_custom_key="x")
    client, _, _ = make_client([ok_text()], temperature=0.3)
    client.create(params)
    [request] = client.requests
    assert request.options == {"max_tokens": 256, "seed": 7, "parallel_tool_calls": False}
    assert request.temperature == 0.3
    assert request.agent == "planner" and request.model == "gpt-4o"
    assert request.tools == params["tools"]
    params["messages"][0]["content"] = "changed after the call"  # AG2's dicts are live objects
    assert request.messages[0]["content"] == "You are the Planner."


def test_config_temperature_wins_over_settings() -> None:
    client, _, _ = make_client([ok_text()], temperature=0.0)
    client.create({**PARAMS, "temperature": 0.9})
    assert client.requests[0].temperature == 0.9


def test_transient_errors_are_retried_with_exponential_backoff() -> None:
    client, ledger, fake_time = make_client(
        [TransientModelError("HTTP 500"), TransientModelError("HTTP 502"), ok_text("finally")],
        backoff_base_s=0.5,
        backoff_max_s=8.0,
    )
    response = client.create(PARAMS)
    assert text_of(response) == "finally"
    assert fake_time.sleeps == [0.5, 1.0]
    [call] = ledger.calls()
    assert call.ok and call.attempts == 3
    assert call.latency_s == pytest.approx(1.5)


def test_backoff_is_capped() -> None:
    steps: list[Step] = [TransientModelError("HTTP 503") for _ in range(5)]
    client, _, fake_time = make_client(
        [*steps, ok_text()], max_retries=5, backoff_base_s=1.0, backoff_max_s=3.0, max_total_retry_s=100
    )
    client.create(PARAMS)
    assert fake_time.sleeps == [1.0, 2.0, 3.0, 3.0, 3.0]


def test_retry_after_is_honoured_when_longer_than_the_backoff() -> None:
    client, _, fake_time = make_client(
        [
            TransientModelError("HTTP 429", retry_after=4.0),
            TransientModelError("HTTP 429", retry_after=0.1),
            ok_text(),
        ],
        backoff_base_s=0.5,
    )
    client.create(PARAMS)
    # the server's wait when longer, the backoff when the server asks for less
    assert fake_time.sleeps == [4.0, 1.0]


def test_retries_exhausted_raise_model_error_and_record_the_failure() -> None:
    client, ledger, fake_time = make_client([TransientModelError("HTTP 500: upstream") for _ in range(3)])
    with pytest.raises(ModelError) as caught:
        client.create(PARAMS)
    assert not isinstance(caught.value, TransientModelError)
    assert "after 3 attempt(s)" in str(caught.value) and "HTTP 500: upstream" in str(caught.value)
    assert len(client.requests) == 3  # max_retries=2 → three attempts
    assert len(fake_time.sleeps) == 2
    [call] = ledger.calls()
    assert not call.ok and call.attempts == 3 and "HTTP 500" in call.error
    assert ledger.totals().failures == 1


def test_total_retry_time_is_bounded() -> None:
    fake_time = FakeTime()

    def slow_failure(request: ModelRequest) -> ModelReply:
        fake_time.now += 30.0  # each attempt hangs until its timeout
        raise TransientModelError("timed out")

    client, ledger, _ = make_client(
        [slow_failure] * 10, fake_time=fake_time, max_retries=10, backoff_base_s=1.0, max_total_retry_s=60.0
    )
    with pytest.raises(ModelError, match="retry budget"):
        client.create(PARAMS)
    # 30 s, wait 1, 30 s (61 s spent) → the next wait would pass the 60 s budget
    assert len(client.requests) == 2
    assert fake_time.sleeps == [1.0]
    assert ledger.calls()[0].attempts == 2


def test_retry_after_beyond_the_budget_gives_up_at_once() -> None:
    client, _, fake_time = make_client([TransientModelError("HTTP 429", retry_after=600.0)], max_total_retry_s=120)
    with pytest.raises(ModelError, match=r"waiting 600\.0 s"):
        client.create(PARAMS)
    assert fake_time.sleeps == []


def test_permanent_errors_are_not_retried() -> None:
    client, ledger, fake_time = make_client([ModelError("the API key was refused")])
    with pytest.raises(ModelError, match="API key was refused"):
        client.create(PARAMS)
    assert fake_time.sleeps == [] and len(client.requests) == 1
    [call] = ledger.calls()
    assert not call.ok and call.error == "the API key was refused"


def test_a_bug_in_a_subclass_is_recorded_and_raised_unchanged() -> None:
    client, ledger, _ = make_client([KeyError("oops")])
    with pytest.raises(KeyError):
        client.create(PARAMS)
    assert ledger.calls()[0].error.startswith("KeyError")


def test_empty_reply_is_asked_again_then_succeeds() -> None:
    client, ledger, _ = make_client([ModelReply(content="  ", input_tokens=50, output_tokens=0), ok_text("ok now")])
    response = client.create(PARAMS)
    assert text_of(response) == "ok now"
    first, second = client.requests
    assert len(second.messages) == len(first.messages) + 1
    assert second.messages[-1]["role"] == "user" and "empty" in second.messages[-1]["content"]
    assert [call.ok for call in ledger.calls()] == [False, True]
    # AG2 sees the tokens of both round trips
    assert response.usage is not None and response.usage.prompt_tokens == 150


def test_length_replies_reasked_then_text_fallback() -> None:
    cut = ModelReply(content="The items are: 1. A", finish_reason="length", input_tokens=80, output_tokens=64)
    client, ledger, _ = make_client([cut, cut, cut], max_reasks=2)
    response = client.create(PARAMS)
    content = text_of(response)
    assert content is not None and content.startswith(NO_USABLE_REPLY_PREFIX) and "finish_reason=length" in content
    assert response.choices[0].finish_reason == "stop"
    assert len(client.requests) == 3
    # every re-ask sends the original messages plus one nudge, not a growing pile of nudges
    assert all(len(request.messages) == len(PARAMS["messages"]) + 1 for request in client.requests[1:])
    assert "cut off" in client.requests[1].messages[-1]["content"]
    calls = ledger.calls()
    assert [call.ok for call in calls] == [False, False, False]
    assert all("finish_reason=length" in call.error for call in calls)
    assert response.usage is not None and response.usage.completion_tokens == 3 * 64


def test_tool_call_cut_by_length_is_unusable() -> None:
    truncated = ModelReply(
        tool_calls=[ToolCallSpec(id="c", name="store_links", arguments='{"links": [1, 2')],
        finish_reason="length",
    )
    client, ledger, _ = make_client([truncated], max_reasks=0)
    response = client.create(PARAMS)
    assert (text_of(response) or "").startswith(NO_USABLE_REPLY_PREFIX)
    assert response.choices[0].message.tool_calls is None
    assert not ledger.calls()[0].ok


def test_tokens_are_counted_offline_when_the_reply_has_no_usage() -> None:
    params = {**PARAMS, "tools": [{"type": "function", "function": {"name": "visit", "parameters": {}}}]}
    reply = ModelReply(
        content="Visiting now.",
        tool_calls=[ToolCallSpec(id="c1", name="visit", arguments='{"url": "https://example.org/a"}')],
    )
    client, ledger, _ = make_client([reply])
    response = client.create(params)
    expected_in = estimate_prompt_tokens(params["messages"], params["tools"])
    expected_out = estimate_reply_tokens("Visiting now.", [("visit", '{"url": "https://example.org/a"}')])
    assert expected_in > 20 and expected_out > 10
    [call] = ledger.calls()
    assert (call.input_tokens, call.output_tokens) == (expected_in, expected_out)
    assert response.usage is not None and response.usage.total_tokens == expected_in + expected_out


def test_unpriced_model_costs_zero_and_is_marked() -> None:
    ledger = UsageLedger()
    client = ScriptedClient(
        {"model": "llama3.1:8b"},
        steps=[ModelReply(content="hi", input_tokens=10, output_tokens=2, model="llama3.1:8b")],
        agent_name="crawler",
        ledger=ledger,
        settings=ModelSettings(),
    )
    response = client.create(PARAMS)
    [call] = ledger.calls()
    assert call.cost_usd == 0.0 and not call.priced
    assert client.cost(response) == 0.0


def test_dated_reply_model_is_priced_by_its_base_name() -> None:
    client, ledger, _ = make_client([ok_text(model="gpt-4o-2024-08-06")])
    client.create(PARAMS)
    [call] = ledger.calls()
    assert call.model == "gpt-4o-2024-08-06" and call.priced and call.cost_usd > 0


def test_bad_config_and_params_give_clear_errors() -> None:
    with pytest.raises(ConfigError, match="needs a 'model'"):
        ScriptedClient({}, steps=[], agent_name="planner", ledger=UsageLedger(), settings=ModelSettings())
    client, _, _ = make_client([])
    with pytest.raises(ModelError, match="no list of messages"):
        client.create({"model": "gpt-4o"})
    with pytest.raises(ConfigError, match="temperature"):
        client.create({**PARAMS, "temperature": "hot"})


def test_repr_names_agent_and_model_only() -> None:
    client, _, _ = make_client([])
    assert repr(client) == "ScriptedClient(agent='planner', model='gpt-4o')"


def test_model_settings_roles_and_validation() -> None:
    settings = ModelSettings(agent_models={"crawler": "gpt-4.1-nano"})
    assert settings.model_for("planner") == "gpt-4.1-mini"
    assert settings.model_for("presenter") == "gpt-4o-mini"
    assert settings.model_for("crawler") == "gpt-4.1-nano"
    assert settings.model_for("judge") == "gpt-4o", "an evaluation's judge keeps its own, stronger model"
    assert ModelSettings(judge_model="o4-mini", agent_models={"judge": "gpt-4.1"}).model_for("judge") == "gpt-4.1"
    with pytest.raises(ConfigError, match="unknown agent role"):
        settings.model_for("wizard")
    with pytest.raises(ValueError, match="unknown agent role"):
        ModelSettings(agent_models={"wizard": "gpt-4o"})
    with pytest.raises(ValueError, match="http:// or https://"):
        ModelSettings(base_url="localhost:11434")
    assert ModelSettings(base_url="http://localhost:11434/v1/").base_url == "http://localhost:11434/v1"
    assert ModelSettings(api_key=SecretStr("  ")).api_key is None
    assert "sk-" not in repr(ModelSettings(api_key=SecretStr("sk-secret-canary")))


def _settings(**values: Any) -> Settings:
    """`Settings` built the way the CLI builds it: arguments plus the environment."""
    return Settings(**values)


def _key(settings: Settings) -> str | None:
    key = settings.models.api_key
    return key.get_secret_value() if key is not None else None


def test_settings_read_the_plain_openai_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-env")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:11434/v1")
    settings = _settings()
    assert _key(settings) == "sk-from-env"
    assert settings.models.base_url == "http://127.0.0.1:11434/v1"
    # an explicit value wins; a sub-model given whole is completed, not replaced
    assert _key(_settings(models={"api_key": "sk-explicit"})) == "sk-explicit"
    given = _settings(models=ModelSettings(strong_model="gpt-4.1"))
    assert given.models.strong_model == "gpt-4.1"
    assert _key(given) == "sk-from-env"
    monkeypatch.setenv("RESEARCH_CRAWLER_MODELS__API_KEY", "sk-prefixed")
    assert _key(_settings()) == "sk-prefixed"
    monkeypatch.delenv("OPENAI_API_KEY")
    monkeypatch.delenv("OPENAI_BASE_URL")
    monkeypatch.delenv("RESEARCH_CRAWLER_MODELS__API_KEY")
    assert _key(_settings()) is None and _settings().models.base_url is None
