"""`chat`: a request, follow-ups in the same run directory, questions answered from the report, commands, Ctrl-C —
driven through a pseudo-terminal as a user would, and through the REPL object for the details."""

from __future__ import annotations

import io
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest
from cli_helpers import PYTHON, allow, subprocess_env
from rich.console import Console

from research_crawler.api import ResearchCrawler
from research_crawler.cli.chat_repl import PROMPT, ChatRepl
from research_crawler.config.settings import Settings
from research_crawler.eval.testbed import TestbedServer
from research_crawler.eval.testbed.models import Testbed
from research_crawler.run.trace import read_trace

#: prompt-toolkit draws the prompt's trailing space as a cursor move, so a terminal shows "research>".
SHOWN_PROMPT = PROMPT.rstrip()
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")


def _spawn(tmp_path: Path, server: TestbedServer, *arguments: str, **env: str) -> pexpect.spawn:
    child = pexpect.spawn(
        PYTHON,
        ["-m", "research_crawler", "chat", "--model", "simulated", *arguments],
        cwd=str(tmp_path),
        env=subprocess_env(tmp_path, PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm", **allow(server), **env),
        encoding="utf-8",
        timeout=180,  # a safety net, not a measure: a loaded machine runs a search slowly
        dimensions=(50, 160),
    )
    child.logfile_read = io.StringIO()
    return child


def _screen(child: pexpect.spawn) -> str:
    return ANSI.sub("", child.logfile_read.getvalue())


def _run_dirs(tmp_path: Path) -> list[Path]:
    runs = tmp_path / "runs"
    return sorted(runs.iterdir()) if runs.exists() else []


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_a_chat_with_two_follow_ups_through_a_terminal(
    tmp_path: Path, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    site = testbed_server.base_url("arxiv-like")
    child = _spawn(tmp_path, testbed_server, "--site", site)
    try:
        child.expect_exact(SHOWN_PROMPT)
        child.sendline(testbed.queries_for("arxiv-like")[0].text)
        child.expect("Run directory:")
        child.expect_exact(SHOWN_PROMPT)
        run_dir = _run_dirs(tmp_path)[0]
        first = json.loads((run_dir / "report.json").read_text())
        assert first["items"], "the first request found nothing"
        assert first["items"][0]["title"][:30] in _screen(child)

        child.sendline("only 2025")
        child.expect("Run directory:")
        child.expect_exact(SHOWN_PROMPT)
        narrowed = json.loads((run_dir / "report.json").read_text())
        assert narrowed["items"] and all(item["date"].startswith("2025") for item in narrowed["items"])
        assert narrowed["request_summary"].endswith("2025 only"), narrowed["request_summary"]
        child.sendline("more like item 2")
        child.expect("Run directory:")
        child.expect_exact(SHOWN_PROMPT)
        child.sendline("show the sources for item 1")
        child.expect("Found on")
        child.expect_exact(SHOWN_PROMPT)
        child.sendline("/save " + str(tmp_path / "saved.md"))
        child.expect("Saved report.md")
        child.expect_exact(SHOWN_PROMPT)
        child.sendline("/quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0, _screen(child)[-3000:]

    assert _run_dirs(tmp_path) == [run_dir], "follow-ups must stay in the same run directory"
    events = read_trace(run_dir / "trace.jsonl")
    runs = [e for e in events if e["event"] == "run"]
    assert [e["action"] for e in runs] == ["start", "follow_up", "follow_up"], "the sources question started a run"
    assert "only 2025" in runs[1]["query"]
    assert len(narrowed["items"]) >= 2, "the narrowed report has no item 2: the follow-up proves nothing"
    assert "more like item 2" in runs[2]["query"] and narrowed["items"][1]["title"] in runs[2]["query"]
    fetched = [e["url"] for e in events if e["event"] == "fetch" and e.get("source", "web") == "web"]
    assert len(fetched) == len(set(fetched)), "a follow-up fetched a page again"
    screen = _screen(child)
    assert first["items"][0]["found_on"] in screen
    assert (tmp_path / "saved.md").read_text() == (run_dir / "report.md").read_text()


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_ctrl_c_stops_the_search_then_a_second_ctrl_c_leaves(
    tmp_path: Path, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    child = _spawn(
        tmp_path,
        testbed_server,
        "--site",
        testbed_server.base_url("repo-like"),
        RESEARCH_CRAWLER_SIMULATED__LATENCY_S="0.2",
    )
    try:
        child.expect_exact(SHOWN_PROMPT)
        child.sendline(testbed.queries_for("repo-like")[0].text)
        child.expect("Subpages")  # the live view is up: the search runs
        child.sendintr()
        child.expect("Stopping")
        child.expect("Run directory:")
        child.expect_exact(SHOWN_PROMPT)
        child.sendintr()  # the second Ctrl-C, now at the prompt: it leaves
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 130, _screen(child)[-3000:]
    report = json.loads((_run_dirs(tmp_path)[0] / "report.json").read_text())
    assert report["stop_reason"] == "interrupted"
    assert "The search was stopped" in _screen(child)
    said = " ".join(_screen(child).split())
    assert "or later: research-crawler resume" in said
    assert "The stopped search goes on with: research-crawler resume" in said


# --- the REPL object, with scripted lines --------------------------------------------------------------


@pytest.fixture
def scripted(settings: Settings, testbed_server: TestbedServer) -> Iterator[tuple[ChatRepl, list[str], io.StringIO]]:
    lines: list[str] = []
    out = io.StringIO()

    def read_line(prompt: str) -> str:
        if not lines:
            raise EOFError
        return lines.pop(0)

    repl = ChatRepl(
        ResearchCrawler(settings, backend="simulated"),
        sites=[testbed_server.base_url("biorxiv-like")],
        console=Console(file=out, width=200),
        progress_console=Console(file=io.StringIO()),
        view_mode="off",
        read_line=read_line,
    )
    yield repl, lines, out


def test_questions_and_commands_before_any_search(scripted: tuple[ChatRepl, list[str], io.StringIO]) -> None:
    repl, lines, out = scripted
    lines += ["/help", "/items", "show the sources for item 1", "/save x.md", "/sites", "/bogus", "", "/new"]
    assert repl.run() == 0
    text = out.getvalue()
    assert "/save PATH" in text and "No report yet" in text and "no report to save yet" in text
    assert "Sites named for this session" in text
    assert "unknown command /bogus" in text and "/new needs a request" in text
    assert repl.run_dir is None


def test_sources_and_items_come_from_the_last_report(
    scripted: tuple[ChatRepl, list[str], io.StringIO], testbed: Testbed, tmp_path: Path
) -> None:
    repl, lines, out = scripted
    lines += [testbed.queries_for("biorxiv-like")[0].text, "/items", "where was item 1 found?",
              "show the sources for item 99", f"/save {tmp_path}", f"/save {tmp_path / 'r.json'}",
              f"/save {tmp_path / 'r.json' / 'x.md'}", "/sites", "/quit"]
    assert repl.run() == 0
    assert repl.report is not None and repl.report.items
    item = repl.report.items[0]
    text = out.getvalue()
    assert item.found_on in text and " → ".join(item.path or [item.found_on]) in text
    assert "has no item 99" in text
    assert f"{tmp_path} is a directory: name the file, e.g. /save {tmp_path / 'report.md'}" in " ".join(text.split())
    assert json.loads((tmp_path / "r.json").read_text())["query"] == repl.report.query
    under_a_file = f"error: cannot save to {tmp_path / 'r.json' / 'x.md'}: "  # one line, then how to go on
    assert under_a_file in text and "Errno" not in text and "e.g. /save x.md" in " ".join(text.split()), text
    assert "page(s) visited" in text
    runs = [e for e in read_trace(Path(repl.report.run_dir or "") / "trace.jsonl") if e["event"] == "run"]
    assert len(runs) == 1


def test_also_search_names_a_site_of_the_pool_or_a_url(
    scripted: tuple[ChatRepl, list[str], io.StringIO], testbed: Testbed, testbed_server: TestbedServer
) -> None:
    repl, lines, out = scripted
    lines += [testbed.queries_for("biorxiv-like")[0].text, "also search NoSuchArchive",
              f"also search {testbed_server.base_url('repo-like')}"]
    assert repl.run() == 0
    text = out.getvalue()
    assert "no site called 'NoSuchArchive'" in text and "bioRxiv" in text
    assert repl.report is not None
    assert {site.url for site in repl.report.sites} >= {testbed_server.base_url("repo-like")}
    # the items of the earlier site keep the metadata read from their own pages (issue 15, point 5)
    earlier = [item for item in repl.report.items if item.site == testbed_server.base_url("biorxiv-like")]
    assert earlier, [item.site for item in repl.report.items]
    assert all(item.authors and item.date for item in earlier), [(i.title, i.authors, i.date) for i in earlier]
    assert repl._resolve_sites("bioRxiv and arxiv") == ["https://www.biorxiv.org/", "https://arxiv.org/"]


def test_the_chat_refuses_to_start_without_a_model_endpoint(tmp_path: Path) -> None:
    import subprocess

    done = subprocess.run(
        [PYTHON, "-m", "research_crawler", "chat"], cwd=tmp_path, env=subprocess_env(tmp_path),
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 1
    assert "OPENAI_API_KEY" in done.stderr and "Traceback" not in done.stderr


def test_ctrl_c_at_the_prompt_asks_once_before_leaving_unless_a_search_was_just_stopped(
    settings: Settings, testbed_server: TestbedServer
) -> None:
    def repl_reading(answers: list[str | BaseException]) -> tuple[ChatRepl, io.StringIO]:
        def read_line(prompt: str) -> str:
            answer = answers.pop(0) if answers else EOFError()
            if isinstance(answer, BaseException):
                raise answer
            return answer

        out = io.StringIO()
        repl = ChatRepl(
            ResearchCrawler(settings, backend="simulated"),
            sites=[testbed_server.base_url("biorxiv-like")],
            console=Console(file=out, width=200),
            progress_console=Console(file=io.StringIO()),
            view_mode="off",
            read_line=read_line,
        )
        return repl, out

    repl, out = repl_reading([KeyboardInterrupt(), "/help", KeyboardInterrupt(), KeyboardInterrupt()])
    assert repl.run() == 130
    assert out.getvalue().count("Ctrl-C again") == 2  # the first Ctrl-C was forgotten once a line was read
    repl, out = repl_reading([KeyboardInterrupt()])
    repl._search_stopped = True  # as after a search stopped with Ctrl-C
    assert repl.run() == 130 and "Ctrl-C again" not in out.getvalue()
