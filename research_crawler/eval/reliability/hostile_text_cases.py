"""Catalogue cases of hostile text: a site whose titles, tags, anchors and abstracts carry terminal control
sequences, bidi overrides, zero-width characters and console markup (`hostile_site.py`), run through the installed
command as a user on a colour terminal runs it, and in process. Nothing may reach an output raw."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from research_crawler.config.settings import Settings
from research_crawler.eval.reliability.catalogue import Outcome, case
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
from research_crawler.text.untrusted import untrusted

__all__ = ["RUN_FILES", "decoded_text", "on_a_terminal"]

#: Every file of a run directory that holds text from the site.
RUN_FILES = (
    "report.md",
    "items.bib",
    "report.json",
    "graph.json",
    "graph.graphml",
    "state.json",
    "trace.jsonl",
    "run.json",
)
_COMMAND_TIMEOUT_S = 300
_SANITISER_SAMPLES = 20_000
#: What random strings are drawn from: every payload's characters, the rest of C0 and C1, and ordinary text.
_ALPHABET = sorted(set("".join(HOSTILE.values())) | {chr(c) for c in (*range(0x20), *range(0x7F, 0xA0))}) + list(
    "Graph neural networks, protein design — é ü 中文 [1] (x) *_`#"
)


@contextmanager
def _served_hostile_site() -> Iterator[FaultServer]:
    pages = hostile_site()
    with FaultServer() as server:
        for path, html in pages.pages.items():
            server.page(path, html)
        server.route(REFUSED_ITEM_PATH, Reply(302, headers={"Location": pages.refused_target}))
        yield server


def on_a_terminal(home: Path, allowed_host: str, *arguments: str) -> subprocess.CompletedProcess[str]:
    """`research-crawler ARGUMENTS` run from `home`, with Rich writing as to a colour terminal (hyperlinks, the live
    view and all), allowed to fetch from `allowed_host` (host:port) only."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RESEARCH_CRAWLER_", "OPENAI_", "NO_COLOR"))}
    env.update(
        {
            "FORCE_COLOR": "1",
            "TTY_COMPATIBLE": "1",
            "COLUMNS": "100",
            "HOME": str(home / "home"),
            "XDG_CONFIG_HOME": str(home / "config"),
            "RESEARCH_CRAWLER_RUNS_DIR": str(home / "runs"),
            "RESEARCH_CRAWLER_FETCH__ALLOWED_HOSTS": allowed_host,
            "RESEARCH_CRAWLER_FETCH__PER_HOST_DELAY_S": "0",
            "RESEARCH_CRAWLER_RERANK__KIND": "bm25",
        }
    )
    return subprocess.run(
        [sys.executable, "-m", "research_crawler", *arguments],
        cwd=home,
        env=env,
        capture_output=True,
        text=True,
        timeout=_COMMAND_TIMEOUT_S,
        stdin=subprocess.DEVNULL,
    )


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


def decoded_text(path: Path) -> str:
    """A file's text, JSON decoded first (an escaped ``\\u001b`` is the character again once read)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".json":
        return "\n".join(_strings(json.loads(text)))
    if path.suffix == ".jsonl":
        return "\n".join(s for line in text.splitlines() if line.strip() for s in _strings(json.loads(line)))
    return text


@case("hostile text and files", "the sanitiser leaves no control, bidi or zero-width character in any string")
def _sanitiser() -> Outcome:
    draw = random.Random(13)
    left: list[str] = []
    lost_text = 0
    for _ in range(_SANITISER_SAMPLES):
        text = "".join(draw.choices(_ALPHABET, k=draw.randint(0, 40)))
        cleaned = untrusted(text)
        if found := leftovers(cleaned):
            left.append(f"{text!r} -> {found}")
        visible = [char for char in text if not leftovers(char)]
        lost_text += list(cleaned) != visible
    payloads = {name: leftovers(untrusted(f"a{payload}b")) for name, payload in HOSTILE.items()}
    dirty = {name: found for name, found in payloads.items() if found}
    held = not left and not dirty and lost_text == 0
    detail = (
        f"{_SANITISER_SAMPLES} random strings and {len(HOSTILE)} payloads: "
        + (f"left {left[:1]} {dirty}" if left or dirty else "nothing left")
        + (f"; visible text lost in {lost_text}" if lost_text else "; visible text kept")
    )
    return Outcome(held, detail)


@case("hostile text and files", "control sequences, bidi and zero-width characters from a site reach no output raw")
def _no_output_raw() -> Outcome:
    with _served_hostile_site() as site, tempfile.TemporaryDirectory(prefix="hostile-") as scratch:
        home = Path(scratch)
        out = home / "run"
        done = on_a_terminal(home, site.host_port, "ask", QUERY, "--site", site.url("/"), "--model", "simulated",
                             "--out", str(out))  # fmt: skip
        if done.returncode != 0:
            return Outcome(False, f"ask exited {done.returncode}: {done.stderr.strip()[-300:]}")
        if "\x1b[" not in done.stdout or "\x1b[" not in done.stderr:
            return Outcome(False, "the command did not write as to a terminal: nothing was shown to check")
        raw = {"stdout": leftovers(done.stdout, terminal=True), "the live view": leftovers(done.stderr, terminal=True)}
        raw |= {name: leftovers(decoded_text(out / name)) for name in RUN_FILES if (out / name).is_file()}
        missing = [name for name in RUN_FILES if not (out / name).is_file()]
        report = Report.model_validate_json((out / "report.json").read_text(encoding="utf-8"))
        foreign_links = terminal_links(done.stdout) - {item.url for item in report.items}
    dirty = {where: found for where, found in raw.items() if found}
    held = not dirty and not missing and not foreign_links and len(report.items) >= 3
    detail = (
        f"{len(report.items)} hostile items through {len(raw)} outputs (terminal and {len(raw) - 2} files): "
        + (f"raw characters in {dirty}" if dirty else "none raw")
        + (f"; files missing: {missing}" if missing else "")
        + (f"; hyperlinks to uncollected pages: {sorted(foreign_links)}" if foreign_links else "")
    )
    return Outcome(held, detail)


@case("hostile text and files", "console markup and hyperlinks in page text are shown literally by `page`")
def _page_shows_text() -> Outcome:
    problems: list[str] = []
    paths = ["/", "/abs/1", "/abs/3", "/abs/4"]
    with _served_hostile_site() as site, tempfile.TemporaryDirectory(prefix="hostile-page-") as scratch:
        for path in paths:
            done = on_a_terminal(Path(scratch), site.host_port, "page", site.url(path))
            if done.returncode != 0 or done.stderr.strip():
                problems.append(f"{path}: exit {done.returncode}, {done.stderr.strip()[-200:]}")
                continue
            if found := leftovers(done.stdout, terminal=True):
                problems.append(f"{path}: raw {found}")
            if links := terminal_links(done.stdout):
                problems.append(f"{path}: page text made hyperlinks {sorted(links)}")
            if path != "/abs/4" and HOSTILE["markup_close"] not in done.stdout:
                problems.append(f"{path}: {HOSTILE['markup_close']} not shown literally")
    detail = "; ".join(problems) or f"{len(paths)} pages shown as text: no markup parsed, no link, nothing raw"
    return Outcome(not problems, detail)


@case("hostile text and files", "an item whose link redirects to a refused address is left out of the report")
def _refused_item_left_out() -> Outcome:
    from research_crawler.run.session import ResearchSession

    with _served_hostile_site() as site, tempfile.TemporaryDirectory(prefix="hostile-refused-") as scratch:
        settings = Settings(runs_dir=Path(scratch) / "runs")
        settings.fetch.allowed_hosts = [site.host_port]
        settings.fetch.per_host_delay_s = 0.0
        settings.rerank.kind = "bm25"
        run_dir = Path(scratch) / "run"
        report = ResearchSession(settings, backend="simulated").run(QUERY, sites=[site.url("/")], run_dir=run_dir)
        refused = site.url(REFUSED_ITEM_PATH)
        outputs = {name: (run_dir / name).read_text(encoding="utf-8") for name in ("report.md", "items.bib")}
        events = [event for event in read_trace(run_dir / "trace.jsonl") if event["event"] == "item_refused"]
    shown_in = [name for name, text in outputs.items() if refused in text]
    listed = refused in {item.url for item in report.items}
    traced = [event["url"] for event in events] == [refused]
    held = bool(report.items) and not listed and not shown_in and traced
    detail = (
        f"{len(report.items)} items reported; the redirecting one "
        + ("listed in report.json" if listed else "left out")
        + (f", but named in {shown_in}" if shown_in else "")
        + ("; item_refused traced" if traced else f"; item_refused events: {[e.get('url') for e in events]}")
    )
    return Outcome(held, detail)
