"""The model client against servers as strict and as slow as the local ones (llama.cpp's, llama-cpp-python's, Ollama's,
vLLM's): messages each of them accepts, a malformed request named once and not retried, a reply cut off by its token
count, and one request at a time with the queue's wait outside the request's timeout."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from mock_openai_server import MockOpenAIServer, Scripted, error, refused, slow, text, tool_call

from research_crawler.config.settings import ModelSettings
from research_crawler.errors import ModelError
from research_crawler.eval.reliability.strict_chat import request_problems
from research_crawler.llm.chat_messages import portable_messages
from research_crawler.llm.client import NO_USABLE_REPLY_PREFIX
from research_crawler.llm.endpoint_slots import concurrent_requests, is_local_endpoint
from research_crawler.llm.openai_client import OpenAICompatibleClient
from research_crawler.llm.usage import UsageLedger

TOOL = {
    "type": "function",
    "function": {
        "name": "choose_pages",
        "description": "Choose pages.",
        "parameters": {"type": "object", "properties": {"urls": {"type": "array"}}, "required": ["urls"]},
    },
}
#: A conversation as AG2 builds it after one tool exchange: the assistant's call with null content, the tool's
#: answer with its id but no name, and a correction with a name.
AG2_CONVERSATION: list[dict[str, Any]] = [
    {"role": "system", "content": "You are the Planner."},
    {"role": "user", "name": "WebSelector", "content": "Explore http://127.0.0.1/ for papers."},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "choose_pages", "arguments": '{"urls": []}'}}
        ],
    },
    {"tool_call_id": "call_1", "role": "tool", "content": "Chose no page."},
]


@pytest.fixture
def server() -> Iterator[MockOpenAIServer]:
    with MockOpenAIServer() as running:
        yield running


def make_client(server: MockOpenAIServer, *, agent: str = "planner", **overrides: Any) -> OpenAICompatibleClient:
    values: dict[str, Any] = {
        "base_url": server.base_url,
        "backoff_base_s": 0.01,
        "backoff_max_s": 0.05,
        "request_timeout_s": 3.0,
        "max_total_retry_s": 10.0,
        **overrides,
    }
    return OpenAICompatibleClient(
        {"model": "gemma3-270m"}, agent_name=agent, ledger=UsageLedger(), settings=ModelSettings(**values)
    )


def params(messages: list[dict[str, Any]] | None = None, **options: Any) -> dict[str, Any]:
    return {"messages": messages or AG2_CONVERSATION, "model": "gemma3-270m", **options}


# -- messages every server accepts ------------------------------------------------------------------------------


def test_ag2s_messages_are_refused_by_the_strict_servers_and_ours_by_none() -> None:
    refused_by = {server for server, _ in request_problems({"messages": AG2_CONVERSATION})}
    assert refused_by == {"llama-cpp-python"}  # an assistant's null content
    sent = portable_messages(AG2_CONVERSATION)
    assert request_problems({"messages": sent, "tools": [TOOL]}) == []
    assert sent[2]["content"] == "" and sent[3] == {
        "role": "tool",
        "content": "Chose no page.",
        "tool_call_id": "call_1",
        "name": "choose_pages",
    }
    assert AG2_CONVERSATION[2]["content"] is None  # AG2's own messages are left as they were


def test_odd_shapes_become_strings_and_empty_call_lists_are_left_out() -> None:
    sent = portable_messages(
        [
            {"role": "user", "content": [{"type": "text", "text": "parts stay parts"}]},
            {"role": "assistant", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]},
            {"role": "assistant", "content": None, "tool_calls": [], "function_call": None, "name": "bad name!"},
            {"role": "user", "content": {"not": "text"}, "tool_responses": []},
        ]
    )
    assert sent[0]["content"] == [{"type": "text", "text": "parts stay parts"}]
    assert sent[1]["content"] == "a\nb"
    assert sent[2] == {"role": "assistant", "content": ""}
    assert sent[3] == {"role": "user", "content": '{"not": "text"}'}
    assert request_problems({"messages": sent}) == []


def test_a_conversation_after_a_tool_exchange_is_accepted_by_a_strict_server(server: MockOpenAIServer) -> None:
    server.enqueue(text("done"))
    client = make_client(server)
    assert client.message_retrieval(client.create(params(tools=[TOOL]))) == ["done"]
    assert server.refusals == [] and len(server.chat_requests()) == 1


# -- a malformed request is a bug report, not a fault to retry ---------------------------------------------------


@pytest.mark.parametrize(
    "answer",
    [
        refused([("llama-cpp-python", "messages.2: AssistantMessage.content: Input should be a valid string")]),
        refused([("ollama", "invalid message content type: <nil>")]),
        refused([("vllm", "When using `tool_choice`, `tools` must be set.")]),
        error(422, "Unprocessable Entity"),
    ],
    ids=["llama-cpp-python-500", "ollama-400", "vllm-400", "422"],
)
def test_a_request_the_server_names_malformed_is_not_retried_and_said_in_one_line(
    server: MockOpenAIServer, answer: Scripted
) -> None:
    server.enqueue(answer, text("never reached"))
    client = make_client(server, max_retries=3)
    with pytest.raises(ModelError) as caught:
        client.create(params(tools=[TOOL]))
    message = str(caught.value)
    assert len(server.chat_requests()) == 1, "a malformed request fails the same way every time: not retried"
    assert "\n" not in message and "malformed" in message and "bug in research-crawler" in message
    assert "planner" in message and "gemma3-270m" in message
    assert message.count("the model endpoint") <= 1


def test_a_plain_500_is_still_retried(server: MockOpenAIServer) -> None:
    server.enqueue(error(500, "CUDA out of memory"), text("recovered"))
    client = make_client(server)
    assert client.message_retrieval(client.create(params(tools=[TOOL]))) == ["recovered"]
    assert len(server.chat_requests()) == 2


def test_a_prompt_longer_than_the_context_says_what_to_change(server: MockOpenAIServer) -> None:
    body = {
        "error": {
            "message": "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens "
            "(8700 in the messages, 300 in the completion).",
            "type": "invalid_request_error",
            "code": "context_length_exceeded",
        }
    }
    server.enqueue(Scripted(status=400, body=body))
    client = make_client(server, agent="collector")
    with pytest.raises(ModelError, match=r"does not fit the context .* --n_ctx\) or lower page_view\.chunk_tokens"):
        client.create(params())
    assert len(server.chat_requests()) == 1


# -- a reply cut off at the token limit, whatever finish_reason says ---------------------------------------------


def test_a_tool_call_cut_at_max_tokens_is_recognised_by_its_token_count(server: MockOpenAIServer) -> None:
    # llama.cpp says finish_reason=tool_calls for a call cut at max_tokens: the count says it was cut
    cut = tool_call("choose_pages", '{"urls": ["http://127.0.0.1/a"]}', usage=(200, 300))
    server.enqueue(cut, tool_call("choose_pages", '{"urls": []}', usage=(220, 12)))
    client = make_client(server)
    client.max_output_tokens = 300
    completion = client.create(params(tools=[TOOL]))
    assert completion.choices[0].message.tool_calls is not None
    first, second = server.chat_requests()
    assert first.body["max_tokens"] == 300
    correction = second.body["messages"][-1]
    assert correction["name"] == "correction" and "cut off" in correction["content"]
    assert "300 of 300 tokens" in correction["content"]
    assert client.ledger.calls()[0].error.startswith("the reply was cut off")


def test_cut_off_replies_past_the_reask_limit_give_the_fallback(server: MockOpenAIServer) -> None:
    server.enqueue(*[text("long", usage=(10, 50)) for _ in range(3)])
    client = make_client(server, max_reasks=2)
    client.max_output_tokens = 50
    content = client.message_retrieval(client.create(params()))[0]
    assert isinstance(content, str) and content.startswith(NO_USABLE_REPLY_PREFIX) and "50 of 50 tokens" in content


# -- one request at a time ---------------------------------------------------------------------------------------


def test_a_local_endpoint_is_sent_one_request_at_a_time_by_default() -> None:
    assert is_local_endpoint("http://127.0.0.1:8899/v1") and is_local_endpoint("http://localhost:11434/v1")
    assert is_local_endpoint("http://192.168.1.20:8000/v1") and is_local_endpoint("http://[::1]:8080/v1")
    assert not is_local_endpoint("https://api.openai.com/v1") and not is_local_endpoint(None)
    assert concurrent_requests("http://127.0.0.1:8899/v1", None) == 1
    assert concurrent_requests("http://127.0.0.1:8899/v1", 4) == 4
    assert concurrent_requests("https://llm.example.org/v1", None) is None


def _at_once(clients: list[OpenAICompatibleClient]) -> list[BaseException | list[Any]]:
    """Each client's create, all started together; each result or the exception it raised."""
    results: list[BaseException | list[Any]] = [[] for _ in clients]

    def ask(index: int) -> None:
        try:
            results[index] = clients[index].message_retrieval(clients[index].create(params()))
        except BaseException as exc:
            results[index] = exc

    threads = [threading.Thread(target=ask, args=(index,)) for index in range(len(clients))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results


def test_the_wait_for_a_one_at_a_time_server_does_not_count_against_the_timeout() -> None:
    # Crawler and Collector ask at once; the server answers one at a time, each in 0.6 s; the timeout is 1 s.
    # Sent together, the second would wait 0.6 s inside the server and time out at 1 s; queued here, it is sent
    # when the first is answered and has its whole second.
    with MockOpenAIServer(serial=True) as server:
        server.enqueue(slow(0.6, text("first")), slow(0.6, text("second")))
        clients = [make_client(server, agent=agent, request_timeout_s=1.0, max_retries=0) for agent in ("a", "b")]
        results = _at_once(clients)
        assert sorted(map(str, results)) == ["['first']", "['second']"], results
        first, second = sorted(request.at for request in server.chat_requests())
        assert second - first >= 0.55, "the second request was sent before the first was answered"
        assert all(call.latency_s < 1.0 for client in clients for call in client.ledger.calls())


def test_a_set_concurrency_sends_requests_together() -> None:
    with MockOpenAIServer() as server:
        server.enqueue(slow(0.5, text("x")), slow(0.5, text("y")))
        clients = [make_client(server, agent=a, max_concurrent_requests=2) for a in ("a", "b")]
        started = time.monotonic()
        _at_once(clients)
        assert time.monotonic() - started < 0.95
        first, second = sorted(request.at for request in server.chat_requests())
        assert second - first < 0.3


def test_a_timed_out_request_is_cancelled_by_closing_its_connection() -> None:
    # Ollama, vLLM and llama.cpp's own server stop generating when the client goes: closing is how to cancel
    with MockOpenAIServer(serial=True) as server:
        server.enqueue(slow(5.0, text("too late")), text("next"))
        client = make_client(server, request_timeout_s=0.5, max_retries=1)
        started = time.monotonic()
        assert client.message_retrieval(client.create(params())) == ["next"]
        assert time.monotonic() - started < 3.0, "the retry waited for the abandoned request"
        assert len(server.disconnects) == 1
        assert json.dumps(client.ledger.calls()[0].model_dump(mode="json"))
