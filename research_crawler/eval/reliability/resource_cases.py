"""Catalogue cases of resource bounds: every bound counts what arrives, not what is announced — the web app's body
limit against a chunked body behind a small Content-Length, the browser's memory bound, a batch file of a million
lines, a query of megabytes."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

from research_crawler.eval.reliability.catalogue import Outcome, case

__all__: list[str] = []

_GROUP = "resource bounds"
_MIB = 1024 * 1024
_CHUNK = 64 * 1024
#: What the attack streams at the web app when nothing stops it (the issue's 500 MB).
_ATTACK_BYTES = 500 * _MIB
#: The web app's memory may grow this much while it refuses the body (its own start-up settles first).
_SERVE_GROWTH_LIMIT_MB = 40.0
_SERVE = """
import socket, sys
import uvicorn
from pathlib import Path
from research_crawler.config.settings import Settings
from research_crawler.serve.app import create_app
listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(16)
app = create_app(Settings(runs_dir=Path(sys.argv[1])), backend="simulated")
print(listener.getsockname()[1], flush=True)
uvicorn.Server(uvicorn.Config(app, log_level="error")).run(sockets=[listener])
"""


def _stream_chunked(port: int, *, total: int) -> tuple[str, int]:
    """POST a chunked body of up to `total` bytes announced as ``Content-Length: 10``; the status line the server
    answered with (empty when none) and the bytes it took before answering or closing."""
    head = (
        b"POST /api/runs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: 10\r\nTransfer-Encoding: chunked\r\n\r\n"
    )
    chunk = f"{_CHUNK:x}\r\n".encode() + b" " * _CHUNK + b"\r\n"
    sent = 0
    pending = memoryview(b"")
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(head)
        connection.setblocking(False)
        answer = b""
        while sent < total:
            try:
                answer += connection.recv(4096)
                break  # the server answered (or closed: b"")
            except BlockingIOError:
                pass
            if not pending:
                pending = memoryview(chunk)
            try:
                taken = connection.send(pending)
            except BlockingIOError:
                time.sleep(0.001)
                continue
            except OSError:  # the server closed the connection
                break
            sent, pending = sent + taken, pending[taken:]
        if not answer:  # the server stopped reading: its answer may follow
            connection.settimeout(5)
            with contextlib.suppress(OSError):
                answer = connection.recv(4096)
    return answer.split(b"\r\n", 1)[0].decode("latin-1"), sent


@case(_GROUP, "a chunked body behind Content-Length: 10 is cut at the web app's limit, its memory flat")
def _chunked_body_under_a_small_length() -> Outcome:
    with tempfile.TemporaryDirectory(prefix="serve-") as scratch:
        server = subprocess.Popen(
            [sys.executable, "-c", _SERVE, str(Path(scratch) / "runs")], stdout=subprocess.PIPE, text=True
        )
        try:
            assert server.stdout is not None
            port = int(server.stdout.readline())
            process = psutil.Process(server.pid)
            _stream_chunked(port, total=4 * _MIB)  # the first request: the app's own start-up settles
            before = process.memory_info().rss / _MIB
            status, sent = _stream_chunked(port, total=_ATTACK_BYTES)
            after = process.memory_info().rss / _MIB
        finally:
            server.terminate()
            server.wait(timeout=30)
    grown = after - before
    held = status.endswith("413 Request Entity Too Large") and grown < _SERVE_GROWTH_LIMIT_MB
    detail = (
        f"answered {status or 'nothing'!r} after taking {sent / _MIB:.0f} MiB of a {_ATTACK_BYTES / _MIB:.0f} MiB "
        f"body; the server's RSS {before:.0f} -> {after:.0f} MB"
    )
    return Outcome(held, detail)
