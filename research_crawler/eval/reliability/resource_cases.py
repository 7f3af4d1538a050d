"""Catalogue cases of resource bounds: every bound counts what arrives, not what is announced — the web app's body
limit against a chunked body behind a small Content-Length, the browser's memory bound, a batch file of a million
lines, a query of megabytes."""

from __future__ import annotations

import contextlib
import json
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
#: The batch file of the issue: a million short queries.
_BATCH_LINES = 1_000_000
#: What checking that file may add to the process (it used to hold every entry and its settings: 4.2 GB).
_CHECK_GROWTH_LIMIT_MB = 30.0
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


@case(_GROUP, "a batch file of a million lines is streamed: checked and run in flat memory, its summary appended")
def _million_line_batch() -> Outcome:
    from research_crawler.cli.batch import SUMMARY_FILE, BatchRow, BatchRunner
    from research_crawler.cli.batch_file import load_batch
    from research_crawler.eval.reliability.run_cases import testbed_settings, testbed_web

    with testbed_web() as server, tempfile.TemporaryDirectory(prefix="batch-") as scratch:
        path = Path(scratch) / "queries.jsonl"
        site = json.dumps([server.base_url("arxiv-like")])
        with path.open("w", encoding="utf-8") as handle:
            for number in range(_BATCH_LINES):
                handle.write(f'{{"query": "papers on graph neural networks {number}", "sites": {site}}}\n')
        process = psutil.Process()
        before = process.memory_info().rss / _MIB
        started = time.monotonic()
        batch = load_batch(path)
        out = Path(scratch) / "out"
        summary = out / SUMMARY_FILE
        seen: list[tuple[int, int]] = []

        def on_row(row: BatchRow) -> None:  # as each query starts: the summary's inode and rows
            if row.status == "running":
                seen.append((summary.stat().st_ino, len(summary.read_text(encoding="utf-8").splitlines()) - 1))
                if row.index == 3:
                    runner.cancel()

        runner = BatchRunner(batch, settings=testbed_settings(server, Path(scratch) / "runs"), out_dir=out,
                             backend="simulated", on_row=on_row)  # fmt: skip
        checked_s = time.monotonic() - started
        after_check = process.memory_info().rss / _MIB
        tally = runner.run()
        rows = len(summary.read_text(encoding="utf-8").splitlines()) - 1
        appended = [count for _, count in seen] == [0, 1, 2] and len({inode for inode, _ in seen}) == 1
        appended = appended and summary.stat().st_ino == seen[0][0]
    grown = after_check - before
    held = len(batch) == _BATCH_LINES and grown < _CHECK_GROWTH_LIMIT_MB and appended and rows == 3
    held = held and tally.unfinished == _BATCH_LINES - 3 + tally.cut_short
    detail = (
        f"{len(batch):,} lines checked (file and settings) in {checked_s:.0f} s, "
        f"RSS {before:.0f} -> {after_check:.0f} MB; 3 queries run then stopped: summary.csv "
        f"{'appended row by row, one file' if appended else f'not appended: {seen}'}, {rows} rows, "
        f"{tally.unfinished:,} left for the next run"
    )
    return Outcome(held, detail)


@case(_GROUP, "a query of megabytes is refused in one line by ask's API, a batch file and the web app")
def _query_of_megabytes() -> Outcome:
    from fastapi.testclient import TestClient

    from research_crawler.api import ResearchCrawler
    from research_crawler.cli.batch_file import load_batch
    from research_crawler.config.settings import Settings
    from research_crawler.errors import ConfigError
    from research_crawler.serve.app import create_app

    query = "graph neural networks " * 330_000  # 7 MB
    answers: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="query-") as scratch:
        settings = Settings(runs_dir=Path(scratch) / "runs")
        try:
            ResearchCrawler(settings, backend="simulated").run(query)
        except ConfigError as exc:
            answers["API"] = str(exc)
        for name, line in (("batch line", json.dumps({"query": query})), ("batch entry", json.dumps(query[:5000]))):
            path = Path(scratch) / "q.jsonl"
            path.write_text(line + "\n", encoding="utf-8")
            try:
                load_batch(path)
            except ConfigError as exc:
                answers[name] = str(exc)
        with TestClient(create_app(settings, backend="simulated"), base_url="http://127.0.0.1:8765") as client:
            body = json.dumps({"query": query}).encode()
            response = client.post("/api/runs", content=body, headers={"content-type": "application/json"})
            answers["web app"] = f"{response.status_code} {response.json()['detail']}"
        started = (Path(scratch) / "runs").exists()
    one_line = {name: answer for name, answer in answers.items() if "\n" not in answer and len(answer) < 600}
    held = len(one_line) == 4 and not started and answers["web app"].startswith("413")
    detail = "; ".join(f"{name}: {answer[:110]}" for name, answer in answers.items()) + (
        "; a run was started" if started else ""
    )
    return Outcome(held, detail)
