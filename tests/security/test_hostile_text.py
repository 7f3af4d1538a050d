"""A hostile site on loopback, through the installed command as a user runs it on a colour terminal: its control
sequences, bidi overrides, zero-width characters and console markup reach no output raw — not the terminal (stdout
or the live view on stderr), report.md, items.bib, report.json, the graph files, state.json or the trace — and an
item whose link redirects to a refused address is left out of the report."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from research_crawler.eval.reliability.fault_web import FaultServer, Reply
from research_crawler.eval.reliability.hostile_site import (
    HOSTILE,
    QUERY,
    REFUSED_ITEM_PATH,
    hostile_site,
    leftovers,
    terminal_links,
)
from research_crawler.report.models import Report
from research_crawler.run.trace import read_trace

REPO = Path(__file__).resolve().parents[2]
FILES = (
    "report.md", "items.bib", "report.json", "graph.json", "graph.graphml", "state.json", "trace.jsonl", "run.json"
)


@pytest.fixture(scope="module")
def site() -> Iterator[FaultServer]:
    pages = hostile_site()
    with FaultServer() as server:
        for path, html in pages.pages.items():
            server.page(path, html)
        server.route(REFUSED_ITEM_PATH, Reply(302, headers={"Location": pages.refused_target}))
        yield server


def _on_a_terminal(tmp_path: Path, site: FaultServer, *arguments: str) -> subprocess.CompletedProcess[str]:
    """`research-crawler ARGUMENTS` with Rich writing as to a colour terminal (hyperlinks, live view and all)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RESEARCH_CRAWLER_", "OPENAI_", "NO_COLOR"))}
    env.update(
        {
            "FORCE_COLOR": "1",
            "TTY_COMPATIBLE": "1",
            "COLUMNS": "100",
            "PYTHONPATH": str(REPO),
            "HOME": str(tmp_path / "home"),
            "XDG_CONFIG_HOME": str(tmp_path / "config"),
            "RESEARCH_CRAWLER_RUNS_DIR": str(tmp_path / "runs"),
            "RESEARCH_CRAWLER_FETCH__ALLOWED_HOSTS": site.host_port,
            "RESEARCH_CRAWLER_FETCH__PER_HOST_DELAY_S": "0",
            "RESEARCH_CRAWLER_RERANK__KIND": "bm25",
        }
    )
    return subprocess.run(
        [sys.executable, "-m", "research_crawler", *arguments],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        stdin=subprocess.DEVNULL,
    )


def _ask(tmp_path: Path, site: FaultServer, out: Path) -> subprocess.CompletedProcess[str]:
    arguments = ["ask", QUERY, "--site", site.url("/"), "--model", "simulated", "--out", str(out)]
    return _on_a_terminal(tmp_path, site, *arguments)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _decoded(path: Path) -> str:
    """A file's text, JSON decoded first (an escaped ``\\u001b`` is still the character once read)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".json":
        return "\n".join(_strings(json.loads(text)))
    if path.suffix == ".jsonl":
        return "\n".join(s for line in text.splitlines() if line.strip() for s in _strings(json.loads(line)))
    return text


def test_a_hostile_site_reaches_no_output_raw(tmp_path: Path, site: FaultServer) -> None:
    out = tmp_path / "run"
    done = _ask(tmp_path, site, out)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "\x1b[" in done.stdout and "\x1b[" in done.stderr, "not written as to a terminal: the test proves nothing"
    assert leftovers(done.stdout, terminal=True) == [], "stdout"
    assert leftovers(done.stderr, terminal=True) == [], "stderr (the live view)"
    report = Report.model_validate_json((out / "report.json").read_text(encoding="utf-8"))
    assert len(report.items) >= 3
    assert terminal_links(done.stdout) <= {item.url for item in report.items}, "a hyperlink to a page's choosing"
    for name in FILES:
        assert leftovers(_decoded(out / name)) == [], name
    # The payloads' visible remains are data, shown as text: "[/red]" literally, and no link to evil.example.
    assert "[/red]" in done.stdout
    markdown = (out / "report.md").read_text(encoding="utf-8")
    assert "](http://evil.example" not in markdown and "http://evil.example" not in terminal_links(done.stdout)
    assert "Hostile Preprints" in markdown and "\\[/red\\]" in markdown, "the site's name is escaped Markdown"


def test_an_item_whose_link_redirects_to_a_refused_address_is_left_out(tmp_path: Path, site: FaultServer) -> None:
    out = tmp_path / "run"
    done = _ask(tmp_path, site, out)
    assert done.returncode == 0, done.stderr[-3000:]
    report = Report.model_validate_json((out / "report.json").read_text(encoding="utf-8"))
    refused = site.url(REFUSED_ITEM_PATH)
    assert refused not in {item.url for item in report.items}
    assert refused not in (out / "report.md").read_text(encoding="utf-8")
    assert refused not in (out / "items.bib").read_text(encoding="utf-8")
    events = [e for e in read_trace(out / "trace.jsonl") if e["event"] == "item_refused"]
    assert [e["url"] for e in events] == [refused] and "10.0.0.7" in events[0]["final_url"]


@pytest.mark.parametrize("path", ["/", "/abs/1", "/abs/3"])
def test_page_shows_hostile_text_as_text(tmp_path: Path, site: FaultServer, path: str) -> None:
    done = _on_a_terminal(tmp_path, site, "page", site.url(path))
    assert done.returncode == 0, done.stderr[-3000:]
    assert "MarkupError" not in done.stderr and done.stderr == ""
    assert leftovers(done.stdout, terminal=True) == []
    assert terminal_links(done.stdout) == set(), "page text made a hyperlink"
    assert HOSTILE["markup_close"] in done.stdout, "console markup is shown literally"
