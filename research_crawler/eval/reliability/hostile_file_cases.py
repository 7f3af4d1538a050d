"""Catalogue cases of hostile and careless files: a YAML alias bomb, files that are not UTF-8, too large, a
directory or a device, numbers no setting can mean, ``--out`` where a run must not be written, two processes on one
run directory, and parallel sites saving state while they change it. Each ends in one line, or holds, with nothing
lost or half-written."""

from __future__ import annotations

import hashlib
import os
import resource
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path

from research_crawler.config.overrides import apply_overrides
from research_crawler.config.settings import Settings
from research_crawler.config.user_files import MAX_USER_FILE_BYTES, load_yaml, read_user_file
from research_crawler.context import store as store_module
from research_crawler.context.store import STATE_FILE, RunStore
from research_crawler.errors import ResearchCrawlerError, RunDirectoryInUseError
from research_crawler.eval.dataset import load_dataset
from research_crawler.eval.reliability.catalogue import Outcome, case
from research_crawler.eval.reliability.run_cases import testbed_settings, testbed_web
from research_crawler.run.run_dir import new_run_dir, usable_out_dir
from research_crawler.run.run_lock import holding_run_dir

__all__ = ["ALIAS_BOMB"]

_GROUP = "hostile text and files"

#: Nine nested anchors, nine copies each: 9**9 (387 million) strings once expanded, from a file under 700 bytes.
ALIAS_BOMB = "\n".join(
    [
        "queries:",
        "- query: graph neural networks",
        "  settings:",
        '    a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
        *[f"    {n}: &{n} [{','.join([f'*{p}'] * 9)}]" for p, n in zip("abcdefgh", "bcdefghi", strict=True)],
    ]
)
_GROWTH_LIMIT_KIB = 50 * 1024
_HOLDER = """
import sys, time
from pathlib import Path
from research_crawler.run.run_lock import holding_run_dir
with holding_run_dir(Path(sys.argv[1])):
    print("held", flush=True)
    time.sleep(120)
"""


def _one_line_refusal(attempt: Callable[[], object]) -> str | None:
    """The one-line error `attempt` ends with; None when it raised nothing (or a message over several lines)."""
    try:
        attempt()
    except ResearchCrawlerError as exc:
        message = str(exc)
        return message if message and "\n" not in message else None
    return None


def _digest(root: Path) -> str:
    """One hash of every file under `root` with its path and bytes: anything written, changed or removed shows."""
    hashed = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        hashed.update(str(path.relative_to(root)).encode())
        if path.is_file():
            hashed.update(path.read_bytes())
    return hashed.hexdigest()


@case(_GROUP, "a YAML alias bomb in a dataset or batch file is one line before anything expands")
def _alias_bomb() -> Outcome:
    with tempfile.TemporaryDirectory(prefix="bomb-") as scratch:
        path = Path(scratch) / "bomb.yaml"
        path.write_text(ALIAS_BOMB, encoding="utf-8")
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        as_dataset = _one_line_refusal(lambda: load_dataset(path))
        as_batch = _one_line_refusal(
            lambda: load_yaml(read_user_file(path, what="the batch file"), path=path, what="the batch file")
        )
        grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    refused = [m for m in (as_dataset, as_batch) if m is not None and "aliases (*a) are not accepted" in m]
    held = len(refused) == 2 and grown_kib < _GROWTH_LIMIT_KIB
    detail = (
        f"a {len(ALIAS_BOMB)}-byte bomb: {len(refused)}/2 readers refused it in one line "
        f"({refused[0] if refused else as_dataset or as_batch}); the process grew {grown_kib / 1024:.1f} MiB"
    )
    return Outcome(held, detail)


@case(_GROUP, "a file that is not UTF-8, too large, a directory or a device is one line naming it")
def _careless_files() -> Outcome:
    with tempfile.TemporaryDirectory(prefix="files-") as scratch:
        root = Path(scratch)
        latin1 = root / "queries.yaml"
        latin1.write_bytes(b"- query: caf\xe9 graph networks\n")
        settings_file = root / "research-crawler.toml"
        settings_file.write_bytes(b"[explore]\n# r\xe9glages\nmax_subpages = 3\n")
        huge = root / "huge.yaml"
        with huge.open("wb") as handle:
            handle.truncate(MAX_USER_FILE_BYTES + 1)
        folder = root / "folder.yaml"
        folder.mkdir()
        expected = {
            "a batch file in Latin-1": (
                lambda: read_user_file(latin1, what="the batch file"),
                "byte 0xe9 at offset 12 (line 1)",
            ),
            "a settings file in Latin-1": (lambda: Settings.load(settings_file), "byte 0xe9 at offset 13 (line 2)"),
            "a file over the size limit": (lambda: read_user_file(huge, what="the batch file"), "larger than 8 MiB"),
            "a directory": (lambda: read_user_file(folder, what="the dataset"), "is a directory"),
            "a device as the settings file": (lambda: Settings.load(Path("/dev/zero")), "not a regular file"),
        }
        failed = []
        for name, (attempt, words) in expected.items():
            message = _one_line_refusal(attempt)
            if message is None or words not in message:
                failed.append(f"{name}: {message!r}")
    detail = "; ".join(failed) or f"{len(expected)} files refused, each in one line naming it"
    return Outcome(not failed, detail)


@case(_GROUP, "inf, nan and numbers no setting can mean are refused when the settings load, not mid-run")
def _impossible_numbers() -> Outcome:
    overrides = {
        "fetch.page_deadline_s": float("inf"),
        "run.max_cost_usd": float("nan"),
        "models.request_timeout_s": 1e300,
        "explore.max_subpages": 10**15,
    }
    failed = [
        f"--set {name}={value}"
        for name, value in overrides.items()
        if _one_line_refusal(partial(apply_overrides, Settings(), {name: value})) is None
    ]
    with tempfile.TemporaryDirectory(prefix="settings-") as scratch:
        path = Path(scratch) / "research-crawler.toml"
        path.write_text("[fetch]\npage_deadline_s = inf\n", encoding="utf-8")
        if _one_line_refusal(lambda: Settings.load(path)) is None:
            failed.append("page_deadline_s = inf in the settings file")
    detail = ("accepted: " + ", ".join(failed)) if failed else f"{len(overrides) + 1} impossible values refused"
    return Outcome(not failed, detail)


@case(_GROUP, "--out at a file, a directory holding files or under a file is one line, nothing touched")
def _out_refusals() -> Outcome:
    with tempfile.TemporaryDirectory(prefix="out-") as scratch:
        root = Path(scratch)
        (root / "notes.txt").write_text("a user's file\n", encoding="utf-8")
        (root / "papers").mkdir()
        (root / "papers" / "report.md").write_text("the user's own report\n", encoding="utf-8")
        attempts = {
            "--out at a file": lambda: usable_out_dir(root / "notes.txt"),
            "--out at a directory holding files": lambda: usable_out_dir(root / "papers"),
            "--out under a file": lambda: usable_out_dir(root / "notes.txt" / "run"),
            "--out at the filesystem root": lambda: usable_out_dir(Path("/")),
            "runs_dir under a file": lambda: new_run_dir(root / "notes.txt" / "runs", "graph networks"),
        }
        before = _digest(root)
        refused = {name: _one_line_refusal(attempt) for name, attempt in attempts.items()}
        touched = _digest(root) != before
        fresh = usable_out_dir(root / "new" / "run")  # what is allowed still works
    accepted = [name for name, message in refused.items() if message is None]
    held = not accepted and not touched and fresh.name == "run"
    detail = (f"accepted: {accepted}" if accepted else f"{len(attempts)} refused in one line") + (
        "; files were changed" if touched else "; nothing written or changed"
    )
    return Outcome(held, detail)


@case(_GROUP, "a second process on a run directory is refused naming the holder; a killed holder frees it")
def _one_writer() -> Outcome:
    with tempfile.TemporaryDirectory(prefix="lock-") as scratch:
        run_dir = Path(scratch)
        holder = subprocess.Popen(
            [sys.executable, "-c", _HOLDER, str(run_dir)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        try:
            ready = holder.stdout.readline().strip() if holder.stdout else ""
            if ready != "held":
                return Outcome(
                    False, f"the holder did not start: {holder.stderr.read()[-300:] if holder.stderr else ''}"
                )
            try:
                with holding_run_dir(run_dir):
                    refusal = None
            except RunDirectoryInUseError as exc:
                refusal = str(exc)
            names_holder = (
                refusal is not None and f"process {holder.pid}" in refusal and f"kill {holder.pid}" in refusal
            )
        finally:
            os.kill(holder.pid, signal.SIGKILL)
            holder.wait(timeout=30)
            for stream in (holder.stdout, holder.stderr):
                if stream is not None:
                    stream.close()
        freed = _one_line_refusal(lambda: _hold_once(run_dir)) is None
    detail = (
        f"second writer: {refusal!r}" if not names_holder else f"second writer refused ({(refusal or '')[:90]}…)"
    ) + ("; the killed holder's lock was broken" if freed else "; the killed holder's lock still blocks")
    return Outcome(names_holder and freed, detail)


def _hold_once(run_dir: Path) -> None:
    with holding_run_dir(run_dir):
        pass


@case(_GROUP, "parallel sites saving after every change write only state files that load back")
def _consistent_snapshots() -> Outcome:
    from research_crawler.run.session import ResearchSession

    sites = ["arxiv-like", "biorxiv-like", "journal-like", "repo-like"]
    saved: list[int] = []
    failures: list[str] = []
    checking = threading.Lock()
    real_write = store_module.atomic_write_text

    def write_and_check(path: Path, text: str) -> None:
        real_write(path, text)
        if path.name != STATE_FILE:
            return
        with checking:
            saved.append(len(text))
            try:
                for web in RunStore(path.parent).load().web_contexts.values():
                    web.check_invariants()
            except Exception as exc:  # every way a save can fail to load counts
                failures.append(f"save {len(saved)}: {type(exc).__name__}: {str(exc)[:120]}")

    interval = sys.getswitchinterval()
    with testbed_web() as server, tempfile.TemporaryDirectory(prefix="snapshots-") as scratch:
        settings = testbed_settings(server, Path(scratch) / "runs")
        settings.explore.parallel_sites = len(sites)
        settings.explore.max_subpages = 12
        store_module.atomic_write_text = write_and_check
        # Threads switch every microsecond instead of every 5 ms: a save that can meet a half-made change meets one.
        sys.setswitchinterval(1e-6)
        try:
            items = 0
            for round_number in range(2):
                report = ResearchSession(settings, backend="simulated").run(
                    "find papers on graph neural networks",
                    sites=[server.base_url(site) for site in sites],
                    run_dir=Path(scratch) / f"run-{round_number}",
                )
                items += len(report.items)
        finally:
            sys.setswitchinterval(interval)
            store_module.atomic_write_text = real_write
    held = not failures and len(saved) > 50 and items > 0
    detail = f"{len(saved)} saves of {len(sites)} parallel sites, {len(saved) - len(failures)} loaded back" + (
        f"; {failures[:2]}" if failures else ""
    )
    return Outcome(held, detail, items_lost=0)
