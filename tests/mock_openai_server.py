"""A real OpenAI-compatible chat server on 127.0.0.1 for tests, answering from a queue of scripted replies.

Point the real `openai` client at ``server.base_url`` (``http://127.0.0.1:<port>/v1``). Every request
is recorded (method, path, all headers, JSON body, arrival time) so tests can measure retry gaps from
the server side and check what the client sent::

    with MockOpenAIServer() as server:
        server.enqueue(rate_limited(retry_after=0.2), text("hello"))
        ...
        assert len(server.requests) == 2
"""

from __future__ import annotations

import json
import select
import socket
import struct
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from research_crawler.eval.reliability.chat_endpoint import CHAT_PATHS
from research_crawler.eval.reliability.strict_chat import refusal, request_problems

__all__ = [
    "MockOpenAIServer",
    "RecordedRequest",
    "Scripted",
    "empty",
    "error",
    "invalid_json",
    "length",
    "mock_openai_server",
    "rate_limited",
    "refused",
    "reset",
    "slow",
    "text",
    "tool_call",
    "tool_calls",
]



@dataclass(frozen=True)
class RecordedRequest:
    """One request as the server saw it; `at` is `time.monotonic()` on arrival."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any
    raw_body: bytes
    at: float


@dataclass
class Scripted:
    """One scripted answer: a status, JSON (or raw) body and headers, after `delay_s`.

    `reset` closes the connection without any response (an RST); `responder` computes the answer
    from the request instead (e.g. to echo a header back).
    """

    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    reset: bool = False
    raw: bytes | None = None
    responder: Callable[[RecordedRequest], Scripted] | None = None


def _completion(
    message: dict[str, Any],
    *,
    finish_reason: str,
    model: str,
    usage: tuple[int, int] | None,
    cached_tokens: int | None = None,
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": f"chatcmpl-{uuid.uuid4().hex[:20]}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason, "logprobs": None}],
    }
    if usage is not None:
        body["usage"] = {
            "prompt_tokens": usage[0],
            "completion_tokens": usage[1],
            "total_tokens": usage[0] + usage[1],
        }
        if cached_tokens is not None:  # OpenAI's prompt caching: the input its cache served
            body["usage"]["prompt_tokens_details"] = {"cached_tokens": cached_tokens}
    return body


def text(
    content: str,
    *,
    finish_reason: str = "stop",
    model: str = "gpt-4o-2024-08-06",
    usage: tuple[int, int] | None = (20, 5),
    delay_s: float = 0.0,
    cached_tokens: int | None = None,
) -> Scripted:
    """A plain text reply; `usage=None` leaves the usage block out (as some local servers do); `cached_tokens`
    adds ``usage.prompt_tokens_details.cached_tokens``."""
    message = {"role": "assistant", "content": content}
    body = _completion(message, finish_reason=finish_reason, model=model, usage=usage, cached_tokens=cached_tokens)
    return Scripted(body=body, delay_s=delay_s)


def tool_calls(
    calls: list[tuple[str, str]],
    *,
    model: str = "gpt-4o-2024-08-06",
    usage: tuple[int, int] | None = (30, 12),
    finish_reason: str = "tool_calls",
) -> Scripted:
    """A reply calling tools: (name, arguments string) pairs, sent as given (malformed JSON included)."""
    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": f"call_{uuid.uuid4().hex[:16]}",
                "type": "function",
                "function": {"name": n, "arguments": a},
            }
            for n, a in calls
        ],
    }
    return Scripted(body=_completion(message, finish_reason=finish_reason, model=model, usage=usage))


def tool_call(name: str, arguments: str, **options: Any) -> Scripted:
    """A reply calling one tool."""
    return tool_calls([(name, arguments)], **options)


def empty(*, content: str | None = "", usage: tuple[int, int] | None = (20, 0)) -> Scripted:
    """A reply with no content and no tool call."""
    message = {"role": "assistant", "content": content}
    return Scripted(body=_completion(message, finish_reason="stop", model="gpt-4o-2024-08-06", usage=usage))


def length(content: str = "The answer is cut", *, usage: tuple[int, int] | None = (20, 64)) -> Scripted:
    """A reply cut off at the output token limit (finish_reason=length)."""
    return text(content, finish_reason="length", usage=usage)


def error(status: int, message: str = "scripted error", *, headers: dict[str, str] | None = None) -> Scripted:
    """An HTTP error with OpenAI's error body."""
    body = {
        "error": {"message": message, "type": "server_error" if status >= 500 else "invalid_request_error"}
    }
    return Scripted(status=status, body=body, headers=dict(headers or {}))


def rate_limited(retry_after: float | None = None, *, retry_after_ms: float | None = None) -> Scripted:
    """HTTP 429, with ``retry-after`` (seconds) and/or ``retry-after-ms`` when given."""
    headers: dict[str, str] = {}
    if retry_after is not None:
        headers["retry-after"] = f"{retry_after:g}"
    if retry_after_ms is not None:
        headers["retry-after-ms"] = f"{retry_after_ms:g}"
    return error(429, "Rate limit reached, slow down", headers=headers)


def reset() -> Scripted:
    """Close the connection without sending a response."""
    return Scripted(reset=True)


def slow(delay_s: float, then: Scripted | None = None) -> Scripted:
    """`then` (default: a text reply), sent after `delay_s`."""
    answer = then if then is not None else text("slow reply")
    answer.delay_s = delay_s
    return answer


def invalid_json() -> Scripted:
    """HTTP 200 whose body is not JSON."""
    return Scripted(raw=b"this is not json", headers={"content-type": "application/json"})


def refused(problems: list[tuple[str, str]]) -> Scripted:
    """How a strict server refuses a malformed request (`strict_chat.refusal`): llama-cpp-python with HTTP 500, the
    others with HTTP 400."""
    status, body = refusal(problems)
    return Scripted(status=status, body=body)


class MockOpenAIServer:
    """The server; `enqueue` scripts answers in order. With the queue empty it answers HTTP 500
    ("no scripted response left"), so a test that sends more requests than it planned fails loudly.

    It is as strict as the strictest servers (`research_crawler.eval.reliability.strict_chat`): a chat request that
    llama-cpp-python, Ollama, vLLM or OpenAI would refuse is refused as that server refuses it, before any scripted
    answer is used, and kept in `refusals`. `strict=False` accepts anything.
    """

    def __init__(
        self,
        *,
        fallback: Callable[[RecordedRequest], Scripted] | None = None,
        strict: bool = True,
        serial: bool = False,
    ) -> None:
        self.strict = strict
        #: Answer one request at a time, as llama.cpp's and Ollama's servers do: the others wait inside the server.
        self.serial = serial
        self._serving = threading.Lock()
        #: Arrival times (monotonic) of the requests whose client closed the connection before the answer was sent.
        self.disconnects: list[float] = []
        #: Why each refused request was refused: (server whose rule it broke, what that server says).
        self.refusals: list[list[tuple[str, str]]] = []
        self.requests: list[RecordedRequest] = []
        #: Answers a request when the queue is empty (a scripted model, e.g. `simulated_endpoint.brain`).
        self.fallback = fallback
        self._queue: deque[Scripted] = deque()
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self._server.block_on_close = False
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05})
        self._thread.daemon = True

    # -- lifecycle -----------------------------------------------------------------------------------

    def start(self) -> MockOpenAIServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> MockOpenAIServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def base_url(self) -> str:
        """What to give the openai client (and ModelSettings.base_url)."""
        return self.url + "/v1"

    # -- scripting -----------------------------------------------------------------------------------

    def enqueue(self, *answers: Scripted) -> None:
        """Answer the next requests with `answers`, in order."""
        with self._lock:
            self._queue.extend(answers)

    def pending(self) -> int:
        """Scripted answers not used yet."""
        with self._lock:
            return len(self._queue)

    def chat_requests(self) -> list[RecordedRequest]:
        """Recorded requests to the chat completions endpoint."""
        with self._lock:
            return [request for request in self.requests if request.path in CHAT_PATHS]

    def _next(self, request: RecordedRequest) -> Scripted:
        with self._lock:
            self.requests.append(request)
            if request.path not in CHAT_PATHS or request.method != "POST":
                return error(404, f"mock server: no route for {request.method} {request.path}")
            problems = request_problems(request.body) if self.strict else []
            if problems:
                self.refusals.append(problems)
                return refused(problems)
            if self._queue:
                answer = self._queue.popleft()
            elif self.fallback is not None:
                answer = Scripted(responder=self.fallback)
            else:
                answer = error(500, "mock server: no scripted response left")
        while answer.responder is not None:
            answer = answer.responder(request)
        return answer

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self._answer()

            def do_GET(self) -> None:
                self._answer()

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def _answer(self) -> None:
                at = time.monotonic()
                size = int(self.headers.get("content-length") or 0)
                raw_body = self.rfile.read(size) if size else b""
                try:
                    body: Any = json.loads(raw_body) if raw_body else None
                except ValueError:
                    body = None
                recorded = RecordedRequest(
                    method=self.command,
                    path=self.path.split("?", 1)[0],
                    headers={name.lower(): value for name, value in self.headers.items()},
                    body=body,
                    raw_body=raw_body,
                    at=at,
                )
                if server.serial:
                    with server._serving:
                        self._reply(recorded)
                else:
                    self._reply(recorded)

            def _client_left_within(self, seconds: float) -> bool:
                """Wait `seconds`, watching the connection: whether the client closed it meanwhile."""
                deadline = time.monotonic() + seconds
                while (left := deadline - time.monotonic()) > 0:
                    readable, _, _ = select.select([self.connection], [], [], min(left, 0.02))
                    if readable and not self.connection.recv(1, socket.MSG_PEEK):
                        return True
                return False

            def _reply(self, recorded: RecordedRequest) -> None:
                answer = server._next(recorded)
                if answer.delay_s and self._client_left_within(answer.delay_s):
                    with server._lock:
                        server.disconnects.append(recorded.at)
                    return
                if answer.reset:
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    self.close_connection = True
                    self.connection.close()
                    return
                payload = answer.raw if answer.raw is not None else json.dumps(answer.body).encode()
                try:
                    self.send_response(answer.status)
                    headers = {"content-type": "application/json", **answer.headers}
                    for name, value in headers.items():
                        self.send_header(name, value)
                    self.send_header("content-length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (its timeout); nothing to answer

        return Handler


@pytest.fixture
def mock_openai_server() -> Iterator[MockOpenAIServer]:
    """A started `MockOpenAIServer`, stopped after the test."""
    with MockOpenAIServer() as server:
        yield server
