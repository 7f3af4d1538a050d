"""Chat endpoints on loopback for the catalogue's model cases (and the tests' recording proxy): `LoopbackChatServer`
serves ``base_url`` (…/v1) from a thread for the length of a ``with`` block and hands every POST to `respond`.

`StrictChatEndpoint` refuses what llama-cpp-python, Ollama, vLLM or OpenAI would refuse (`strict_chat.py`), as they
refuse it, and answers the rest with a function of the request's body (`tiny_model.tiny_completion`, say). It counts
what it refused and what it answered, and serves one request at a time, as llama.cpp's and Ollama's servers do.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Self

from research_crawler.eval.reliability.strict_chat import refusal, request_problems

__all__ = ["CHAT_PATHS", "LoopbackChatServer", "StrictChatEndpoint"]

CHAT_PATHS = ("/v1/chat/completions", "/chat/completions")
Answer = Callable[[dict[str, Any]], dict[str, Any]]


class LoopbackChatServer:
    """An HTTP server on 127.0.0.1 whose POSTs are answered by `respond` (status, JSON payload)."""

    def __init__(self) -> None:
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def respond(self, path: str, raw: bytes) -> tuple[int, bytes]:
        """The status and JSON payload that answer a POST of `raw` to `path`."""
        raise NotImplementedError

    def close(self) -> None:
        """What to release once the server has stopped (nothing here)."""

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None) -> None:
        self._server.shutdown()
        self._server.server_close()
        self.close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("content-length") or 0))
                status, payload = endpoint.respond(self.path.split("?", 1)[0], raw)
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Handler


class StrictChatEndpoint(LoopbackChatServer):
    """``with StrictChatEndpoint(answer) as endpoint:`` serves ``endpoint.base_url`` until the block ends."""

    def __init__(self, answer: Answer) -> None:
        super().__init__()
        self.answer = answer
        self.answered = 0
        #: Each refused request's problems: (server whose rule it broke, what that server says).
        self.refusals: list[list[tuple[str, str]]] = []
        self._serving = threading.Lock()

    def respond(self, path: str, raw: bytes) -> tuple[int, bytes]:
        if path not in CHAT_PATHS:
            return 404, json.dumps({"error": {"message": f"no route for {path}", "type": "not_found"}}).encode()
        try:
            body = json.loads(raw or b"null")
        except ValueError:
            body = None
        problems = request_problems(body)
        with self._serving:
            if problems:
                self.refusals.append(problems)
                status, answer = refusal(problems)
                return status, json.dumps(answer).encode()
            self.answered += 1
            return 200, json.dumps(self.answer(body)).encode()
