"""The production model client against a real HTTP server speaking the OpenAI chat API on loopback.

The real `openai` library does the HTTP; the mock server scripts faults (429 with Retry-After, 500, 408,
resets, slow replies, 401) and records what arrived, so retries are measured from the server's side.
The last tests run a real AG2 chat through the same client: the production path, tool call included.
"""

from __future__ import annotations

import json
import logging
import socket
from collections.abc import Iterator
from typing import Annotated, Any

import pytest
from mock_openai_server import (
    MockOpenAIServer,
    RecordedRequest,
    Scripted,
    empty,
    error,
    invalid_json,
    rate_limited,
    reset,
    slow,
    text,
    tool_call,
    tool_calls,
)
from openai.types.chat import ChatCompletion

from research_crawler.config.settings import ModelSettings
from research_crawler.errors import ConfigError, ModelError
from research_crawler.llm.ag2_setup import llm_config_for, quiet_autogen, register_client
from research_crawler.llm.client import NO_USABLE_REPLY_PREFIX
from research_crawler.llm.openai_client import OpenAICompatibleClient
from research_crawler.llm.usage import UsageLedger

CANARY_KEY = "sk-canary-7d1f0c9e4b2a"
PARAMS: dict[str, Any] = {
    "messages": [
        {"role": "system", "content": "You are the Planner."},
        {"role": "user", "name": "WebSelector", "content": "Explore http://127.0.0.1/ for papers."},
    ],
    "model": "gpt-4o",
    "stream": False,
    "model_client_cls": "OpenAICompatibleClient",
}


@pytest.fixture
def server() -> Iterator[MockOpenAIServer]:
    with MockOpenAIServer() as running:
        yield running


def fast_settings(server: MockOpenAIServer, **overrides: Any) -> ModelSettings:
    values: dict[str, Any] = {
        "base_url": server.base_url,
        "api_key": CANARY_KEY,
        "backoff_base_s": 0.01,
        "backoff_max_s": 0.05,
        "request_timeout_s": 3.0,
        "max_total_retry_s": 10.0,
        **overrides,
    }
    return ModelSettings(**values)


def make_client(server: MockOpenAIServer, **overrides: Any) -> tuple[OpenAICompatibleClient, UsageLedger]:
    ledger = UsageLedger()
    client = OpenAICompatibleClient(
        {"model": "gpt-4o", "model_client_cls": "OpenAICompatibleClient"},
        agent_name="planner",
        ledger=ledger,
        settings=fast_settings(server, **overrides),
    )
    return client, ledger


def test_text_reply_and_the_request_sent(server: MockOpenAIServer) -> None:
    server.enqueue(text("I will visit the publications page.", usage=(42, 9)))
    client, ledger = make_client(server)
    response = client.create({**PARAMS, "my_custom_key": "x", "max_tokens": 300})
    assert isinstance(response, ChatCompletion)
    assert client.message_retrieval(response) == ["I will visit the publications page."]
    assert response.usage is not None and (
        response.usage.prompt_tokens,
        response.usage.completion_tokens,
    ) == (42, 9)
    [request] = server.chat_requests()
    assert request.path == "/v1/chat/completions"
    assert request.headers["authorization"] == f"Bearer {CANARY_KEY}"
    assert request.body["model"] == "gpt-4o"
    assert request.body["messages"] == PARAMS["messages"]
    assert request.body["temperature"] == 0.0 and request.body["max_tokens"] == 300
    assert "tools" not in request.body  # no tools registered: no empty list a strict server would refuse
    for ag2_only in ("model_client_cls", "my_custom_key", "stream"):
        assert ag2_only not in request.body
    [call] = ledger.calls()
    assert (
        call.ok and call.model == "gpt-4o-2024-08-06" and call.cost_usd == pytest.approx(42 * 2.5e-6 + 9e-5)
    )


def test_tool_calls_come_back_as_chat_completion_tool_calls(server: MockOpenAIServer) -> None:
    server.enqueue(
        tool_calls(
            [
                ("choose_url", '{"url": "http://127.0.0.1/papers"}'),
                ("choose_url", '{"url":"http://127.0.0.1/b"}'),
            ]
        )
    )
    client, _ = make_client(server)
    tools = [{"type": "function", "function": {"name": "choose_url", "parameters": {"type": "object"}}}]
    response = client.create({**PARAMS, "tools": tools})
    message = client.message_retrieval(response)[0]
    assert response.choices[0].finish_reason == "tool_calls"
    assert [(call.function.name, call.function.arguments) for call in message.tool_calls] == [
        ("choose_url", '{"url": "http://127.0.0.1/papers"}'),
        ("choose_url", '{"url":"http://127.0.0.1/b"}'),
    ]
    assert all(call.id.startswith("call_") for call in message.tool_calls)
    assert server.chat_requests()[0].body["tools"] == tools


def test_a_reply_calling_an_unknown_tool_or_with_malformed_arguments_is_asked_again(server: MockOpenAIServer) -> None:
    server.enqueue(
        tool_calls([("choose_url", '{"url": "http://127.0.0.1/papers"}'), ("no_such_tool", "{}")]),
        tool_call("choose_url", '{"url": [1, 2'),
        tool_call("choose_url", '{"url": "http://127.0.0.1/papers"}'),
    )
    client, ledger = make_client(server)
    tools = [{"type": "function", "function": {"name": "choose_url", "parameters": {"type": "object"}}}]
    response = client.create({**PARAMS, "tools": tools})
    [call] = client.message_retrieval(response)[0].tool_calls
    assert call.function.arguments == '{"url": "http://127.0.0.1/papers"}'
    assert [c.ok for c in ledger.calls()] == [False, False, True]
    corrections = [r.body["messages"][-1]["content"] for r in server.chat_requests()[1:]]
    assert "'no_such_tool', which is not one of your tools" in corrections[0]
    assert "not valid JSON" in corrections[1]


@pytest.mark.parametrize("header", ["retry-after", "retry-after-ms"])
def test_429_waits_at_least_the_retry_after(server: MockOpenAIServer, header: str) -> None:
    limited = rate_limited(retry_after=0.25) if header == "retry-after" else rate_limited(retry_after_ms=250)
    server.enqueue(limited, text("after the wait"))
    client, ledger = make_client(server)
    response = client.create(PARAMS)
    assert client.message_retrieval(response) == ["after the wait"]
    first, second = server.chat_requests()
    assert second.at - first.at >= 0.24  # the backoff alone would be 0.01 s
    assert second.at - first.at < 5.0
    assert ledger.calls()[0].attempts == 2


@pytest.mark.parametrize(
    "fault",
    [error(500, "upstream overloaded"), error(408, "request timeout"), error(503), reset()],
    ids=["500", "408", "503", "connection-reset"],
)
def test_transient_faults_are_retried_then_succeed(server: MockOpenAIServer, fault: Scripted) -> None:
    server.enqueue(fault, text("recovered"))
    client, ledger = make_client(server)
    assert client.message_retrieval(client.create(PARAMS)) == ["recovered"]
    assert len(server.chat_requests()) == 2
    [call] = ledger.calls()
    assert call.ok and call.attempts == 2


def test_slow_reply_times_out_and_is_retried(server: MockOpenAIServer) -> None:
    server.enqueue(slow(2.0), text("quick this time"))
    client, ledger = make_client(server, request_timeout_s=0.3)
    assert client.message_retrieval(client.create(PARAMS)) == ["quick this time"]
    assert len(server.chat_requests()) == 2
    assert ledger.calls()[0].attempts == 2


def test_not_json_is_retried_then_named(server: MockOpenAIServer) -> None:
    server.enqueue(invalid_json(), invalid_json())
    client, ledger = make_client(server, max_retries=1)
    with pytest.raises(ModelError, match="not JSON"):
        client.create(PARAMS)
    assert len(server.chat_requests()) == 2
    assert not ledger.calls()[0].ok


def test_persistent_500_gives_up_after_max_retries_plus_one(server: MockOpenAIServer) -> None:
    server.enqueue(*[error(500, "still down")] * 5)
    client, ledger = make_client(server, max_retries=3)
    with pytest.raises(ModelError) as caught:
        client.create(PARAMS)
    assert len(server.chat_requests()) == 4
    message = str(caught.value)
    assert "after 4 attempt(s)" in message and "HTTP 500" in message and "still down" in message
    [call] = ledger.calls()
    assert not call.ok and call.attempts == 4


def _echo_auth_401(request: RecordedRequest) -> Scripted:
    # a badly behaved proxy that echoes the credential back in its error text
    return error(401, f"Incorrect API key provided: {request.headers.get('authorization')}")


def test_401_is_a_clear_error_and_the_key_never_leaks(
    server: MockOpenAIServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    server.enqueue(error(500, f"echo {CANARY_KEY}"), Scripted(responder=_echo_auth_401))
    client, ledger = make_client(server)
    with pytest.raises(ModelError) as caught:
        client.create(PARAMS)
    message = str(caught.value)
    assert "API key was refused" in message and "OPENAI_API_KEY" in message
    assert len(server.chat_requests()) == 2  # the 500 was retried, the 401 was not
    exc: BaseException | None = caught.value
    while exc is not None:  # nowhere in the exception chain
        assert CANARY_KEY not in str(exc)
        exc = exc.__cause__ or exc.__context__
    assert CANARY_KEY not in caplog.text
    assert all(CANARY_KEY not in call.model_dump_json() for call in ledger.calls())
    assert CANARY_KEY not in repr(client) and CANARY_KEY not in repr(client.settings)
    for request in server.requests:
        assert request.headers["authorization"] == f"Bearer {CANARY_KEY}"
        others = {name: value for name, value in request.headers.items() if name != "authorization"}
        assert CANARY_KEY not in json.dumps(others)
        assert CANARY_KEY.encode() not in request.raw_body


def test_empty_reply_is_asked_again_over_http(server: MockOpenAIServer) -> None:
    server.enqueue(empty(), empty(content=None), text("third time lucky"))
    client, ledger = make_client(server)
    assert client.message_retrieval(client.create(PARAMS)) == ["third time lucky"]
    requests = server.chat_requests()
    assert len(requests) == 3
    assert requests[1].body["messages"][-1]["role"] == "user"
    assert [call.ok for call in ledger.calls()] == [False, False, True]


def test_empty_replies_past_the_reask_limit_give_a_text_fallback(server: MockOpenAIServer) -> None:
    server.enqueue(empty(), empty())
    client, _ = make_client(server, max_reasks=1)
    [reply] = client.message_retrieval(client.create(PARAMS))
    assert reply.startswith(NO_USABLE_REPLY_PREFIX) and "empty" in reply


def test_no_usage_block_is_counted_offline(server: MockOpenAIServer) -> None:
    server.enqueue(text("counted by us", usage=None))
    client, ledger = make_client(server)
    client.create(PARAMS)
    [call] = ledger.calls()
    assert call.input_tokens > 10 and call.output_tokens > 0


def test_missing_key_for_openai_is_refused_but_a_local_server_needs_none(server: MockOpenAIServer) -> None:
    with pytest.raises(ModelError, match="set OPENAI_API_KEY"):
        OpenAICompatibleClient(
            {"model": "gpt-4o"}, agent_name="planner", ledger=UsageLedger(), settings=ModelSettings()
        )
    server.enqueue(text("local model here", model="llama3.1:8b"))
    client = OpenAICompatibleClient(
        {"model": "llama3.1:8b"},
        agent_name="crawler",
        ledger=UsageLedger(),
        settings=ModelSettings(base_url=server.base_url),
    )
    assert client.message_retrieval(client.create({**PARAMS, "model": "llama3.1:8b"})) == ["local model here"]
    assert server.chat_requests()[0].headers["authorization"] == "Bearer no-key-needed"


def test_unknown_model_404_names_the_model(server: MockOpenAIServer) -> None:
    server.enqueue(error(404, "The model `gpt-9` does not exist"))
    client, _ = make_client(server)
    with pytest.raises(ModelError, match=r"model 'gpt-9'.*not found.*does not exist"):
        client.create({**PARAMS, "model": "gpt-9"})
    assert len(server.chat_requests()) == 1


# -- AG2: the production path --------------------------------------------------------------------


def test_ag2_chat_with_a_tool_call_runs_through_the_client(
    server: MockOpenAIServer, capsys: pytest.CaptureFixture[str]
) -> None:
    quiet_autogen()
    from autogen import ConversableAgent, register_function

    server.enqueue(
        tool_call("add", '{"a": 2, "b": 40}', usage=(60, 15)),
        text("The sum is 42.", usage=(90, 6)),
    )
    ledger = UsageLedger()
    executed: list[tuple[int, int]] = []

    def add(a: Annotated[int, "first addend"], b: Annotated[int, "second addend"]) -> str:
        executed.append((a, b))
        return str(a + b)

    planner = ConversableAgent(
        "Planner",
        system_message="You add numbers with the add tool.",
        llm_config=llm_config_for("planner", model="gpt-4o", client_cls=OpenAICompatibleClient),
        human_input_mode="NEVER",
    )
    executor = ConversableAgent(
        "Executor",
        llm_config=False,
        human_input_mode="NEVER",
        is_termination_msg=lambda message: not message.get("tool_calls") and message.get("name") == "Planner",
    )
    register_function(add, caller=planner, executor=executor, name="add", description="Add two integers.")
    register_client(planner, OpenAICompatibleClient, ledger=ledger, settings=fast_settings(server))

    result = executor.initiate_chat(planner, message="What is 2 + 40?", max_turns=3, silent=True)

    assert executed == [(2, 40)]
    assert result.chat_history[-1]["content"] == "The sum is 42."
    first, second = (request.body for request in server.chat_requests())
    assert first["messages"][0] == {"role": "system", "content": "You add numbers with the add tool."}
    assert [tool["function"]["name"] for tool in first["tools"]] == ["add"]
    tool_message = second["messages"][-1]
    assert tool_message["role"] == "tool" and tool_message["content"] == "42"
    assert tool_message["tool_call_id"] == second["messages"][-2]["tool_calls"][0]["id"]
    assert "model_client_cls" not in first and "model_client_cls" not in second
    by_agent = ledger.by_agent()
    assert list(by_agent) == ["Planner"]
    assert (by_agent["Planner"].calls, by_agent["Planner"].input_tokens) == (2, 150)
    assert planner.get_actual_usage() is not None
    assert capsys.readouterr().out == ""  # quiet_autogen: nothing on the console


def test_ag2_model_error_escapes_the_chat_with_state_recorded(server: MockOpenAIServer) -> None:
    quiet_autogen()
    from autogen import ConversableAgent

    server.enqueue(error(401, "bad key"))
    ledger = UsageLedger()
    planner = ConversableAgent(
        "Planner",
        llm_config=llm_config_for("planner", model="gpt-4o", client_cls=OpenAICompatibleClient),
        human_input_mode="NEVER",
    )
    user = ConversableAgent("User", llm_config=False, human_input_mode="NEVER")
    register_client(planner, OpenAICompatibleClient, ledger=ledger, settings=fast_settings(server))
    with pytest.raises(ModelError, match="API key was refused"):
        user.initiate_chat(planner, message="hello", max_turns=1, silent=True)
    [call] = ledger.calls()
    assert call.agent == "Planner" and not call.ok


def test_ag2_setup_guards() -> None:
    stream = quiet_autogen()
    assert quiet_autogen() is stream
    import tiktoken
    from autogen.io import IOStream

    from research_crawler.text.tokens import encoding

    assert IOStream.get_global_default() is stream
    assert tiktoken.get_encoding("cl100k_base") is encoding("cl100k_base")  # no download needed
    with pytest.raises(Exception, match="human input"):
        stream.input("continue?")
    with pytest.raises(ConfigError, match="unknown agent role"):
        llm_config_for("wizard", model="gpt-4o", client_cls=OpenAICompatibleClient)
    config = llm_config_for("crawler", model="gpt-4o-mini", client_cls=OpenAICompatibleClient)
    assert config == {
        "config_list": [{"model": "gpt-4o-mini", "model_client_cls": "OpenAICompatibleClient"}],
        "cache_seed": None,
    }
    from autogen import ConversableAgent

    proxy = ConversableAgent("Proxy", llm_config=False, human_input_mode="NEVER")
    with pytest.raises(ConfigError, match="no llm_config"):
        register_client(proxy, OpenAICompatibleClient, ledger=UsageLedger(), settings=ModelSettings())


def test_cached_input_reported_by_the_endpoint_is_priced_at_the_cached_rate(server: MockOpenAIServer) -> None:
    server.enqueue(text("cached", usage=(2048, 10), cached_tokens=1536), text("not cached", usage=(2048, 10)))
    client, ledger = make_client(server)
    response = client.create(PARAMS)
    client.create(PARAMS)
    cached, fresh = ledger.calls()
    assert cached.cached_input_tokens == 1536 and fresh.cached_input_tokens == 0
    # gpt-4o: $2.50 per million input tokens, $1.25 cached, $10 output
    assert cached.cost_usd == pytest.approx((512 * 2.5 + 1536 * 1.25 + 10 * 10) / 1e6)
    assert fresh.cost_usd == pytest.approx((2048 * 2.5 + 10 * 10) / 1e6)
    assert client.cost(response) == pytest.approx(cached.cost_usd)
    assert ledger.totals().cached_input_tokens == 1536


def test_an_endpoint_where_nothing_listens_says_how_to_check_and_fix_it() -> None:
    with socket.socket() as probe:  # a loopback port where nothing listens: the local server not started
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings = ModelSettings(base_url=f"http://127.0.0.1:{port}/v1", max_retries=0, request_timeout_s=3.0)
    client = OpenAICompatibleClient(
        {"model": "gemma3-270m", "model_client_cls": "OpenAICompatibleClient"},
        agent_name="planner",
        ledger=UsageLedger(),
        settings=settings,
    )
    with pytest.raises(ModelError) as caught:
        client.create(PARAMS)
    message = str(caught.value)
    assert f"the connection to the model endpoint http://127.0.0.1:{port}/v1 failed" in message
    assert f"start its server (check with: curl -sf http://127.0.0.1:{port}/v1/models)" in message
    assert "OPENAI_BASE_URL" in message and "\n" not in message
