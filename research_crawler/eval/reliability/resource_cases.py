"""Catalogue cases of resource bounds: every bound counts what arrives, not what is announced — the web app's body
limit against a chunked body behind a small Content-Length, the browser's memory bound, a batch file of a million
lines, a query of megabytes."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

from research_crawler.eval.reliability.catalogue import Outcome, case

__all__ = ["GROWING_PAGE"]

_GROUP = "resource bounds"
_MIB = 1024 * 1024
_CHUNK = 64 * 1024
#: What the attack streams at the web app when nothing stops it (the issue's 500 MB).
_ATTACK_BYTES = 500 * _MIB
#: The web app's memory may grow this much while it refuses the body (its own start-up settles first).
_SERVE_GROWTH_LIMIT_MB = 40.0
#: The batch file of the issue: a million short queries.
_BATCH_LINES = 1_000_000
#: The command's memory while it checks that file (it used to hold every entry and its settings: 4.2 GB).
_CHECK_PEAK_LIMIT_MB = 400.0
#: How long the case waits for the file's check and three queries.
_BATCH_DEADLINE_S = 600.0
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


def _command(*arguments: str) -> list[str]:
    return [sys.executable, "-m", "research_crawler", *arguments]


def _tree_rss_mb(process: psutil.Process) -> float:
    total = 0
    for member in [process, *process.children(recursive=True)]:
        with contextlib.suppress(psutil.Error):
            total += member.memory_info().rss
    return total / _MIB


@case(_GROUP, "a batch file of a million lines is streamed: checked and run in flat memory, its summary appended")
def _million_line_batch() -> Outcome:
    from research_crawler.eval.reliability.run_cases import testbed_web

    with testbed_web() as server, tempfile.TemporaryDirectory(prefix="batch-") as scratch:
        path = Path(scratch) / "queries.jsonl"
        site = json.dumps([server.base_url("arxiv-like")])
        with path.open("w", encoding="utf-8") as handle:
            for number in range(_BATCH_LINES):
                handle.write(f'{{"query": "papers on graph neural networks {number}", "sites": {site}}}\n')
        out = Path(scratch) / "out"
        summary = out / "summary.csv"
        env = {
            **os.environ,
            "RESEARCH_CRAWLER_FETCH__ALLOWED_HOSTS": json.dumps(server.allowed_hosts()),
            "RESEARCH_CRAWLER_FETCH__PER_HOST_DELAY_S": "0",
            "RESEARCH_CRAWLER_LIBRARY__RECORD_RUNS": "false",
            "RESEARCH_CRAWLER_RUNS_DIR": str(Path(scratch) / "runs"),
        }
        command = _command(
            "batch", str(path), "--out", str(out), "--model", "simulated", "--reranker", "bm25", "--quiet"
        )
        started = time.monotonic()
        child = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        process = psutil.Process(child.pid)
        checking_peak, checked_s = 0.0, None
        seen: list[tuple[int, int]] = []  # (inode, rows) of summary.csv as it changes
        while child.poll() is None and time.monotonic() - started < _BATCH_DEADLINE_S:
            rss = _tree_rss_mb(process)
            if checked_s is None:
                if any(out.glob("*/run.json")):
                    checked_s = time.monotonic() - started
                else:
                    checking_peak = max(checking_peak, rss)
            with contextlib.suppress(OSError):
                state = (summary.stat().st_ino, len(summary.read_text(encoding="utf-8").splitlines()) - 1)
                if not seen or seen[-1] != state:
                    seen.append(state)
            if seen and seen[-1][1] >= 3:
                break
            time.sleep(0.2)
        child.send_signal(signal.SIGINT)  # Ctrl-C: the running query stops, no new one starts
        try:
            _, errors = child.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            child.kill()
            _, errors = child.communicate()
        last = errors.strip().splitlines()[-1] if errors.strip() else ""
    rows = [count for _, count in seen]
    appended = len({inode for inode, _ in seen}) == 1 and rows == sorted(rows) and rows[-1:] >= [3]
    continued = child.returncode == 130 and f"research-crawler batch {path} --out {out}" in last
    held = checking_peak < _CHECK_PEAK_LIMIT_MB and appended and continued
    detail = (
        f"{_BATCH_LINES:,} lines checked in {checked_s or 0:.0f} s, RSS at most {checking_peak:.0f} MB meanwhile; "
        f"summary.csv {'appended, one file' if appended else f'not appended: {seen}'} (rows {rows}); "
        f"Ctrl-C: exit {child.returncode}, {last[:160]!r}"
    )
    return Outcome(held, detail)


def _post_json(port: int, body: bytes) -> str:
    """POST `body` to the web app's /api/runs; its status line."""
    head = (
        f"POST /api/runs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
        with contextlib.suppress(OSError):  # refused early, the rest of the body finds the door shut
            connection.sendall(head + body)
        return connection.recv(4096).split(b"\r\n", 1)[0].decode("latin-1")


@case(_GROUP, "a query of megabytes is refused in one line by the API, `ask`, a batch file and the web app")
def _query_of_megabytes() -> Outcome:
    from research_crawler.api import ResearchCrawler
    from research_crawler.config.settings import Settings
    from research_crawler.errors import ConfigError

    query = "graph neural networks " * 330_000  # 7 MB
    answers: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="query-") as scratch:
        runs = Path(scratch) / "runs"
        try:
            ResearchCrawler(Settings(runs_dir=runs), backend="simulated").run(query)
        except ConfigError as exc:
            answers["API"] = str(exc)
        env = {**os.environ, "RESEARCH_CRAWLER_RUNS_DIR": str(runs)}
        path = Path(scratch) / "q.jsonl"
        path.write_text(json.dumps({"query": query[:5000]}) + "\n", encoding="utf-8")
        for name, arguments in (
            ("ask", ["ask", query[:100_000], "--model", "simulated"]),
            ("batch", ["batch", str(path), "--out", str(Path(scratch) / "out"), "--model", "simulated", "--reranker",
                       "bm25"]),
        ):
            done = subprocess.run(_command(*arguments), env=env, capture_output=True, text=True, timeout=300)
            answers[name] = f"exit {done.returncode}: {done.stderr.strip()}"
        server = subprocess.Popen([sys.executable, "-c", _SERVE, str(runs)], stdout=subprocess.PIPE, text=True)
        try:
            assert server.stdout is not None
            port = int(server.stdout.readline())
            answers["web app"] = _post_json(port, json.dumps({"query": query}).encode())
            answers["web app, 3 000 characters"] = _post_json(port, json.dumps({"query": query[:3000]}).encode())
        finally:
            server.terminate()
            server.wait(timeout=30)
        started = runs.exists() and any(runs.iterdir())
    one_line = [answer for answer in answers.values() if "\n" not in answer and len(answer) < 600]
    held = (
        len(one_line) == len(answers) == 5
        and not started
        and answers["web app"].endswith("413 Request Entity Too Large")
        and answers["web app, 3 000 characters"].endswith("422 Unprocessable Entity")
        and all(answers[name].startswith(("exit 1", "exit 2")) for name in ("ask", "batch"))
        and all("a request is at most 2,000" in answers[name] for name in ("API", "ask", "batch"))
    )
    detail = "; ".join(f"{name}: {answer[:120]}" for name, answer in answers.items()) + (
        "; a run was started" if started else ""
    )
    return Outcome(held, detail)


#: A page whose script fills array buffers (outside V8's heap) before it has loaded: it used to take Chromium's tree
#: to 5.2 GB.
GROWING_PAGE = """<html><head><title>grows</title><script>
var kept = [];
for (var i = 0; ; i++) { var b = new Uint8Array(8000000); b.fill(i % 250); kept.push(b); }
</script></head><body><p>loading</p></body></html>"""


@case(_GROUP, "a page that grows in Chromium, or a gzip bomb rendered there, is stopped at its bound and too_large")
async def _browser_memory() -> Outcome:
    from research_crawler.eval.reliability.fault_web import FaultServer, Reply, gzip_bomb
    from research_crawler.eval.reliability.fetch_cases import fast_settings
    from research_crawler.pages.page import Determination
    from research_crawler.web.browser import find_chromium
    from research_crawler.web.fetcher import Fetcher

    try:
        find_chromium(None)
    except Exception as exc:
        return Outcome(False, skipped=f"no Chromium: {exc}")
    bound_mb = 384
    with FaultServer() as server:
        server.page("/grows", GROWING_PAGE)
        server.route("/bomb", Reply(200, gzip_bomb(600 * _MIB), headers={"Content-Encoding": "gzip"}))
        server.page("/after", "<html><body><p>The page after the pages too large.</p></body></html>")
        settings = fast_settings(server, page_deadline_s=30.0, browser_wait_s=0.5, browser_max_memory_mb=bound_mb)
        async with Fetcher(settings) as fetcher:
            pages = [await fetcher.fetch(server.url(path), render="browser") for path in ("/grows", "/bomb")]
            after = await fetcher.fetch(server.url("/after"), render="browser")
    held = after.ok and all(p.determination is Determination.TOO_LARGE and p.attempts == 1 for p in pages)
    detail = "; ".join(f"{p.url.rsplit('/', 1)[-1]}: {p.determination} after {p.elapsed_s:.1f} s" for p in pages)
    return Outcome(held, f"{detail} ({pages[0].reason}); the next page {after.determination}", pages, 30.0)
