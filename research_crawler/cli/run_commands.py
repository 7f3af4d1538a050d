"""The commands that run the agents on a request: ask (one request), chat (a request and its follow-ups),
batch (the queries of a file), demo (offline, on the testbed) and resume (a run that was cut short).
"""

from __future__ import annotations

import asyncio
import shlex
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.panel import Panel

from research_crawler.cli.options import (
    NO_RUN_OPTIONS,
    JsonOption,
    OutOption,
    QuietOption,
    RayAddressOption,
    Reranker,
    RunOptions,
    ScaleBackendOption,
    SiteOption,
    explicit_overrides,
    load_settings,
    with_run_options,
)
from research_crawler.cli.output import console, err_console, fail, friendly_errors, this_command

# --- ask ---------------------------------------------------------------------------------------------------


@friendly_errors
@with_run_options
def ask(
    ctx: typer.Context,
    query: Annotated[str, typer.Argument(help='The research request, e.g. "five recent papers on GNNs".')],
    site: SiteOption = None,
    run: RunOptions = NO_RUN_OPTIONS,
    out: OutOption = None,
    replay: Annotated[
        Path | None,
        typer.Option(
            "--replay", help="Answer only from the pages an earlier run recorded (its run directory).", file_okay=False
        ),
    ] = None,
    as_json: JsonOption = False,
    quiet: QuietOption = False,
) -> None:
    """Answer one research request: live progress, then the report (also written to the run directory)."""
    from research_crawler.api import ResearchCrawler
    from research_crawler.cli.library_commands import record_in_library
    from research_crawler.cli.run_helpers import (
        check_can_run,
        check_sites,
        fresh_run_dir,
        print_report,
        progress_view,
        query_argument,
        run_with_view,
    )

    query = query_argument(query, command="ask")
    backend, flags = run.backend_and_flags()
    settings = load_settings(ctx, flags, preset=run.preset)
    crawler = ResearchCrawler(settings, backend=backend, replay_from=replay)
    check_sites(site)
    check_can_run(settings, needs_model=backend == "openai")
    run_dir = fresh_run_dir(out, settings, query)
    sites = list(site or [])
    report = run_with_view(
        crawler,
        lambda on_event: crawler.arun(query, sites=sites, run_dir=run_dir, on_event=on_event),
        progress_view(quiet=quiet or (as_json and not console.is_terminal), settings=settings),
        run_dir,
    )
    record_in_library(settings, report)
    print_report(report, as_json=as_json)


# --- chat --------------------------------------------------------------------------------------------------


@friendly_errors
@with_run_options
def chat(
    ctx: typer.Context,
    site: SiteOption = None,
    run: RunOptions = NO_RUN_OPTIONS,
    quiet: QuietOption = False,
) -> None:
    """An interactive session: a request, the report, then follow-ups that reuse what was already found."""
    from research_crawler.api import ResearchCrawler
    from research_crawler.cli.chat_repl import ChatRepl, prompt_toolkit_reader
    from research_crawler.cli.live_view import choose_view_mode
    from research_crawler.cli.run_helpers import check_can_run

    backend, flags = run.backend_and_flags()
    settings = load_settings(ctx, flags, preset=run.preset)
    check_can_run(settings, needs_model=backend == "openai")
    history = Path(typer.get_app_dir("research-crawler")) / "chat_history"
    repl = ChatRepl(
        ResearchCrawler(settings, backend=backend),
        sites=list(site or []),
        console=console,
        progress_console=err_console,
        view_mode=choose_view_mode(quiet=quiet, stdout_is_terminal=console.is_terminal),
        read_line=prompt_toolkit_reader(history),
    )
    code = repl.run()
    if code:
        raise typer.Exit(code)


# --- batch -------------------------------------------------------------------------------------------------


@friendly_errors
@with_run_options
def batch(
    ctx: typer.Context,
    file: Annotated[
        Path, typer.Argument(help="Queries: .yaml/.yml or .jsonl (query, sites, settings, name).", dir_okay=False)
    ],
    out: Annotated[Path, typer.Option("--out", "-o", help="Directory for the run directories and summary.csv.")],
    concurrency: Annotated[int, typer.Option("--concurrency", "-c", min=1, help="Queries run at once.")] = 1,
    retry_empty: Annotated[
        bool, typer.Option("--retry-empty", help="Run again the queries whose finished run found no item.")
    ] = False,
    scale: ScaleBackendOption = "local",
    ray_address: RayAddressOption = None,
    run: RunOptions = NO_RUN_OPTIONS,
    quiet: QuietOption = False,
) -> None:
    """Run the queries of a file, one run directory each, with summary.csv; re-running skips finished ones."""
    from research_crawler.cli.batch import SUMMARY_FILE, BatchRow, BatchRunner
    from research_crawler.cli.batch_file import load_batch
    from research_crawler.cli.foreground_run import stop_on_ctrl_c
    from research_crawler.cli.run_helpers import check_can_run

    backend, flags = run.backend_and_flags()
    settings = load_settings(ctx, flags, preset=run.preset)
    check_can_run(settings, needs_model=False)  # each entry's model endpoint: checked by the runner
    entries = load_batch(file)

    def progress(row: BatchRow) -> None:
        if quiet:
            return
        detail = f"{row.items} item(s), {row.stop_reason}" if row.items is not None else row.error
        err_console.print(
            f"[{row.index}/{len(entries)}] {row.status:<8} {escape(row.query[:70])}"
            + (f" — {escape(detail)}" if detail and row.status != "running" else ""),
            highlight=False,
            no_wrap=True,
            overflow="ellipsis",  # one line per update, never a query wrapped in the middle
        )

    runner = BatchRunner(
        entries,
        settings=settings,
        out_dir=out,
        backend=backend,
        concurrency=concurrency,
        on_row=progress,
        retry_empty=retry_empty,
        scale=scale,
        ray_address=ray_address,
    )
    with stop_on_ctrl_c(runner.cancel, note=lambda message: err_console.print(message, markup=False)):
        tally = asyncio.run(runner.arun())
    counts = ", ".join(f"{number} {status}" for status, number in sorted(tally.statuses.items()))
    console.print(
        f"{out / SUMMARY_FILE}: {tally.ended} of {tally.total} queries ended ({counts or 'none'})",
        highlight=False,
        markup=False,
    )
    for row in tally.failures:
        err_console.print(f"[red]error:[/] query {row.index}: {escape(row.error)}", highlight=False)
    if tally.failed > len(tally.failures):
        more = tally.failed - len(tally.failures)
        err_console.print(f"… and {more} more failed: see {escape(str(out / SUMMARY_FILE))}", highlight=False)
    if tally.unfinished:
        again = this_command(f"research-crawler batch {shlex.quote(str(file))} --out {shlex.quote(str(out))} …")
        err_console.print(
            f"Stopped with {tally.unfinished} of {tally.total} queries not run or cut short; continue (finished ones "
            f"are skipped) with: {escape(again)}",
            highlight=False,
            soft_wrap=True,
        )
        raise typer.Exit(130)
    if tally.failed:
        raise typer.Exit(1)


# --- demo --------------------------------------------------------------------------------------------------


@friendly_errors
def demo(
    ctx: typer.Context,
    site: Annotated[
        list[str] | None,
        typer.Option("--site", "-s", help="Testbed site(s) to explore (default: arxiv-like, journal-like)."),
    ] = None,
    query: Annotated[str | None, typer.Option("--query", help="Another request than the demo's own.")] = None,
    reranker: Annotated[
        Reranker, typer.Option("--reranker", help="How items are ranked (bm25 needs no model download).")
    ] = Reranker.bm25,
    out: OutOption = None,
    quiet: QuietOption = False,
) -> None:
    """Offline, no API key: the local testbed web, one request, the agents played by the simulated model."""
    from research_crawler.cli.demo import DEFAULT_DEMO_SITES, SIMULATED_BANNER, demo_run
    from research_crawler.cli.report_view import show_report
    from research_crawler.cli.run_helpers import fresh_run_dir, progress_view, run_with_view

    settings = load_settings(ctx)
    with demo_run(settings, sites=tuple(site or DEFAULT_DEMO_SITES), query=query, reranker=reranker.value) as run:
        console.print(
            Panel(
                f"Request: [bold]{escape(run.query.text)}[/]\n"
                f"Sites: {escape(', '.join(f'{name} ({run.server.base_url(name)})' for name in run.sites))}\n"
                f"Reranker: {reranker.value}\n\n"
                f"[yellow]{escape(SIMULATED_BANNER)}[/]",
                title="research-crawler demo",
                expand=False,
            )
        )
        crawler = run.crawler
        run_dir = fresh_run_dir(out, crawler.settings, run.query.text)
        report = run_with_view(
            crawler,
            lambda on_event: crawler.arun(run.query.text, sites=run.site_urls, run_dir=run_dir, on_event=on_event),
            progress_view(quiet=quiet, settings=crawler.settings, title="demo (simulated model)"),
            run_dir,
        )
        known = run.known_answers(report)
    show_report(console, report)
    if known is not None:
        console.print(
            f"{known[0]} of the {len(report.items)} reported item(s) are among the testbed's {known[1]} known "
            "answers on these sites.",
            highlight=False,
        )
    console.print(
        "[yellow]The model was simulated[/] (a deterministic test double, not an LLM). For real answers set "
        'OPENAI_API_KEY (or OPENAI_BASE_URL) and run: research-crawler ask "your request" --site https://arxiv.org/',
        highlight=False,
    )


# --- resume ------------------------------------------------------------------------------------------------


@friendly_errors
@with_run_options
def resume(
    ctx: typer.Context,
    run_dir: Annotated[Path, typer.Argument(help="A run directory (holds run.json).", file_okay=False)],
    run: RunOptions = NO_RUN_OPTIONS,
    as_json: JsonOption = False,
    quiet: QuietOption = False,
) -> None:
    """Continue a run that was killed or stopped: collected items are kept, no page is fetched twice. It runs with
    your settings plus what the run directory recorded of its scope, views, flow and models by name (never a
    program, an endpoint, the URL guard or a looser limit from it); options and --set given here win."""
    from research_crawler.api import ResearchCrawler
    from research_crawler.cli.run_helpers import check_can_run, print_report, progress_view, run_with_view
    from research_crawler.context.store import STATE_FILE
    from research_crawler.errors import CorruptStateError
    from research_crawler.run.run_dir import RunMeta
    from research_crawler.text.untrusted import untrusted

    meta = RunMeta.read(run_dir)
    backend, flags = run.backend_and_flags()
    if run.model is None:
        backend = meta.backend
    overrides = explicit_overrides(ctx, flags, preset=run.preset)
    crawler = ResearchCrawler(load_settings(ctx), backend=backend)
    resumed = crawler.settings_to_resume(run_dir, overrides=overrides)
    settings = resumed.settings
    check_can_run(settings, needs_model=backend == "openai")
    no_view = quiet or (as_json and not console.is_terminal)
    # the view says it otherwise; quiet or not, the user is told
    if no_view and (note := resumed.note(shlex.quote(str(run_dir)))):
        err_console.print(untrusted(note), markup=False, highlight=False, soft_wrap=True)
    try:
        report = run_with_view(
            crawler,
            lambda on_event: crawler.aresume(run_dir, on_event=on_event, overrides=overrides),
            progress_view(quiet=no_view, settings=settings),
            run_dir,
        )
    except CorruptStateError as exc:  # a state file cut short or damaged: resume can only begin the run again
        state = shlex.quote(str(run_dir / STATE_FILE))
        fail(
            f"{exc}; to run it again from its start page (the pages it fetched are read from its archive, not "
            f"fetched again): mv {state} {state}.damaged && research-crawler resume {shlex.quote(str(run_dir))}",
            code=1,
        )
    print_report(report, as_json=as_json)
