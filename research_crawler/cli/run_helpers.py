"""What the commands that run the agents share: the progress view, a fresh run directory, the run in the
foreground (a second Ctrl-C says how to continue), the report printed, the reranker checked first.
"""

from __future__ import annotations

import re
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn
from urllib.parse import urlsplit

import typer
from rich.markup import escape

from research_crawler.api import ResearchCrawler
from research_crawler.cli.live_view import LiveView, choose_view_mode
from research_crawler.cli.output import console, err_console, fail
from research_crawler.cli.report_view import show_report
from research_crawler.config.settings import Settings
from research_crawler.context.request import checked_query
from research_crawler.errors import ConfigError
from research_crawler.llm.run_limits import STOPPED_BY_USER
from research_crawler.report.models import Report
from research_crawler.run.call_table import call_rows, call_table
from research_crawler.run.run_dir import unwritable
from research_crawler.run.trace import read_trace
from research_crawler.text.untrusted import untrusted
from research_crawler.web.url_guard import without_a_sites_allow_hint


def query_argument(query: str, *, command: str) -> str:
    """The request given to `command` (ask, watch), checked before anything starts: a bad one is one line with
    the command written as it should be (exit 2)."""
    try:
        return checked_query(query, example=f'research-crawler {command} "papers on graph neural networks"')
    except ConfigError as exc:
        fail(str(exc))


def progress_view(*, quiet: bool, settings: Settings, title: str = "research-crawler") -> LiveView:
    """The live progress on stderr: a panel on a terminal, log lines otherwise, nothing when quiet."""
    mode = choose_view_mode(quiet=quiet, stdout_is_terminal=console.is_terminal)
    return LiveView(console=err_console, mode=mode, subpage_limit=settings.explore.max_subpages, title=title)


def print_report(report: Report, *, as_json: bool) -> None:
    """The report on stdout; then exit 1 if the search stopped on an error (the report is written all the same)."""
    if as_json:
        path = Path(report.run_dir or "") / "report.json"
        sys.stdout.write(path.read_text(encoding="utf-8") if path.exists() else report.model_dump_json(indent=2))
        sys.stdout.write("\n")
    else:
        show_report(console, report)
        show_model_calls(report)
    if report.stop_reason == "error":  # the one line on stderr that says why (the progress left it to this one)
        fail(f"the search stopped on an error: {report.stop_detail} (the report holds what was collected)", code=1)
    if report.stop_reason == "interrupted":
        stopped_before_its_end(report)
    if (why := unreachable_everywhere(report)) is not None:
        fail(why, code=1)


def stopped_before_its_end(report: Report, *, again: str | None = None) -> NoReturn:
    """A search stopped before its end — by Ctrl-C (exit 130) or by the machine (a full disk: exit 1) — says how it
    goes on: `again`, or ``research-crawler resume RUN_DIR``."""
    command = again or resume_command(Path(report.run_dir or "."))
    if report.stop_detail.startswith(STOPPED_BY_USER):
        err_console.print(
            f"Stopped before its end (the report holds what was collected); continue with: {escape(command)}",
            highlight=False,
            soft_wrap=True,
        )
        raise typer.Exit(130)
    fail(f"the search stopped before its end: {report.stop_detail}, then continue with: {command}", code=1)


def show_model_calls(report: Report) -> None:
    """The closing note of a run with a real model: each of its calls, whether the reply was usable and what was done
    with it (stderr: the report on stdout stays the report)."""
    path = Path(report.run_dir or "") / "trace.jsonl"
    if report.simulated_model or not report.run_dir or not path.exists():
        return
    lines = call_table(call_rows(read_trace(path)))
    if lines:
        err_console.print("Model calls (agent, reply valid or not, what the project did):", markup=False)
        for line in lines:
            err_console.print(untrusted(line), markup=False, highlight=False, soft_wrap=True)


def unreachable_everywhere(report: Report) -> str | None:
    """When no site of the run could be opened at all: what went wrong, and the command that fixes it."""
    if not report.sites or report.items or any(site.reason != "unreachable" for site in report.sites):
        return None
    first = report.sites[0]
    detail = without_a_sites_allow_hint(first.url, first.detail)
    redirected, first = detail != first.detail, first.model_copy(update={"detail": detail})
    fix = ""
    if redirected:
        pass  # the line says where the site redirected and what to do
    elif "refused by the URL guard" in first.detail and "--set fetch.allowed_hosts=" not in first.detail:
        fix = f"; allow it with: --set fetch.allowed_hosts={host_port(first.url)}"
    elif "blocked_by_robots" in first.detail:
        fix = unread_robots_fix(first.detail) or "; the site's robots.txt forbids it: try another site"
    elif "network_error" in first.detail:
        fix = "; check the URL and that the host is up"
    elif (deadline := _DEADLINE.search(first.detail)) is not None:
        fix = f"; the site did not answer in time: {longer_deadline(float(deadline.group(1)))}"
    else:
        fix = _fix_for_refusal(first.detail)
    others = f" (and {len(report.sites) - 1} other site(s) likewise)" if len(report.sites) > 1 else ""
    return f"no site could be opened: {first.url}: {first.detail}{others}{fix}"


#: What to do when a site's start page answered with an HTTP status, by status (the fetch's detail names it).
_HTTP_FIXES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"HTTP 40[13]\b"), "the site refuses automated visitors there: try another site or another page"),
    (re.compile(r"HTTP 40[45]\b|HTTP 410\b"), "no such page: check the URL (open it in a browser)"),
    (re.compile(r"HTTP 5\d\d\b"), "the site is failing: try again later"),
)
_DEADLINE = re.compile(r"^its start page .* could not be opened: timeout \(the page deadline of ([0-9.]+) s")
_ROBOTS_DEADLINE = re.compile(r"robots\.txt of \S+ could not be read \(the deadline of ([0-9.]+) s passed")
_RETRY_AFTER = re.compile(r"HTTP 429; the server asked to retry after (\d+) s")


def _fix_for_refusal(detail: str) -> str:
    """The fix for a start page refused with an HTTP status or read as a wall; "" when there is nothing to say."""
    if (wait := _RETRY_AFTER.search(detail)) is not None:
        seconds = int(wait.group(1))
        return (
            f"; the site asks us to wait {seconds} s: try again then, or let a run wait that long with "
            f"--set fetch.max_retry_after_s={seconds}"
        )
    if "HTTP 429" in detail:
        return "; the site asks us to slow down: try again later, or with --set fetch.per_host_delay_s=5"
    for pattern, fix in _HTTP_FIXES:
        if pattern.search(detail):
            return f"; {fix}"
    if re.search(r": blocked(?: \(|$)", detail):
        return "; its start page is a sign-in wall, a paywall or a robot check, which are not passed: try another site"
    return ""


def longer_deadline(seconds: float) -> str:
    """What to do about a page that did not answer within `seconds`: the command that gives it twice as long."""
    return f"check that it is up, or give a page longer with --set fetch.page_deadline_s={2 * seconds:g}"


def unread_robots_fix(detail: str) -> str:
    """What to do when a site's robots.txt could not be read (so nothing there is fetched for now), by why; "" when
    `detail` says it was read (and forbids the page)."""
    if (deadline := _ROBOTS_DEADLINE.search(detail)) is not None:
        return f"; its robots.txt did not answer in time: {longer_deadline(float(deadline.group(1)))}"
    if re.search(r"robots\.txt of \S+ could not be read", detail):
        return "; its robots.txt could not be read (the site is failing): try again later"
    return ""


def host_port(url: str) -> str:
    """The host:port of `url` as `fetch.allowed_hosts` takes it: always with the port (the scheme's default when
    the URL gives none), so the fix allows that one service, not every port of the host."""
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    host = str(parts.hostname)
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def fresh_run_dir(out: Path | None, settings: Settings, query: str) -> Path:
    """A new run directory in runs_dir, or `out`: a directory that does not exist yet or is empty (a run
    directory is continued with `resume`, never written over; nothing else is ever written into)."""
    from research_crawler.run.run_dir import new_run_dir, usable_out_dir

    if out is None:
        return new_run_dir(settings.runs_dir, query)
    return usable_out_dir(out)


def run_with_view(crawler: ResearchCrawler, work: Callable[..., Any], view: LiveView, run_dir: Path) -> Report:
    """Run in the foreground; leaving with a second Ctrl-C says how to continue (exit 130)."""
    from research_crawler.cli.foreground_run import run_in_foreground

    try:
        return run_in_foreground(crawler, work, view=view)
    except KeyboardInterrupt:
        err_console.print(f"Left. Continue this run with: research-crawler resume {escape(str(run_dir))}")
        raise typer.Exit(130) from None
    except OSError as exc:  # the run directory could not be written (a full disk): what was saved before is kept
        where = f"{exc.filename}: " if exc.filename else ""
        fail(f"{where}{unwritable(exc)}, then continue with: {resume_command(run_dir)}", code=1)


def resume_command(run_dir: Path) -> str:
    """The command that continues the run in `run_dir`, as a shell takes it."""
    return f"research-crawler resume {shlex.quote(str(run_dir))}"


def check_sites(sites: list[str] | None) -> None:
    """Fail at once on a `--site` that is no usable http(s) URL, before anything slower is checked or loaded."""
    from research_crawler.config.site_pool import SitePool

    SitePool(sites=[]).with_named_sites(list(sites or []))


def check_can_run(settings: Settings, *, needs_model: bool) -> None:
    """Fail before any work (and before a run directory exists) when a real model is needed and has no endpoint,
    or when the chosen reranker, or the model that pre-ranks the Crawler's links, cannot load."""
    from research_crawler.api import require_model_endpoint
    from research_crawler.rank.link_prerank import check_link_ranker
    from research_crawler.rank.rerank import load_reranker

    if needs_model:
        require_model_endpoint(settings)

    load_reranker(settings.rerank)
    if settings.page_view.crawler_top_links and settings.page_view.crawler_view == "links":
        check_link_ranker(settings.rerank)
