"""The command line: parse arguments → Settings → the library call; rendering only, no logic of its own.

Exit codes: 0 when the command did its job (a report written, even one that found nothing), 1 for an error
(one red line saying how to fix it, never a traceback), 2 for bad arguments, 130 when the user left with Ctrl-C.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, NoReturn, ParamSpec, TypeVar, get_args

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

from research_crawler.api import Backend, ResearchCrawler, require_model_endpoint
from research_crawler.cli.live_view import LiveView, choose_view_mode
from research_crawler.cli.report_view import show_report
from research_crawler.config.overrides import apply_overrides, parse_assignment
from research_crawler.config.settings import CONFIG_FILE_NAME, RenderMode, Settings, find_config_file, preset_names
from research_crawler.errors import ConfigError, ResearchCrawlerError
from research_crawler.report.models import Report

if TYPE_CHECKING:
    from research_crawler.cli.page_inspection import PageInspection

app = typer.Typer(
    name="research-crawler",
    help="Answer research requests by exploring websites the way a careful person does.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)
config_app = typer.Typer(help="The settings in force and where each comes from.", no_args_is_help=True)
models_app = typer.Typer(help="Model weights used offline (the reranker).", no_args_is_help=True)
app.add_typer(config_app, name="config")
app.add_typer(models_app, name="models")

console = Console()
err_console = Console(stderr=True)

P = ParamSpec("P")
R = TypeVar("R")


class Reranker(StrEnum):
    bge = "bge"
    minilm = "minilm"
    bm25 = "bm25"


@dataclass
class _Options:
    """What the root options say, for every command."""

    config_file: Path | None = None
    preset: str | None = None
    assignments: dict[str, Any] = field(default_factory=dict)


# --- shared plumbing -------------------------------------------------------------------------------------


def _fail(message: str, code: int = 2) -> NoReturn:
    err_console.print(f"[red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def _friendly_errors(command: Callable[P, R]) -> Callable[P, R]:
    """Every ResearchCrawlerError becomes one red line and exit code 1; Ctrl-C leaves with 130."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except ResearchCrawlerError as exc:
            _fail(str(exc), code=1)
        except KeyboardInterrupt:
            err_console.print("Interrupted.")
            raise typer.Exit(130) from None

    return wrapper


def _options(ctx: typer.Context) -> _Options:
    return ctx.obj if isinstance(ctx.obj, _Options) else _Options()


def _settings(ctx: typer.Context, flags: dict[str, Any] | None = None) -> Settings:
    """Settings from the file and environment, then ``--set`` and the command's own flags (a bad flag value
    is a usage error: exit 2)."""
    options = _options(ctx)
    settings = Settings.load(options.config_file, preset=options.preset)
    given = {**options.assignments, **{name: value for name, value in (flags or {}).items() if value is not None}}
    try:
        return apply_overrides(settings, given)
    except ConfigError as exc:
        _fail(str(exc), code=2)


def _model_flags(model: str | None) -> tuple[Backend, dict[str, Any]]:
    if model is None:
        return "openai", {}
    if not model.strip():
        _fail("--model needs a model name, or 'simulated'")
    if model == "simulated":
        return "simulated", {}
    return "openai", {"models.strong_model": model, "models.cheap_model": model}


def _view(*, quiet: bool, settings: Settings, title: str = "research-crawler") -> LiveView:
    mode = choose_view_mode(quiet=quiet, stdout_is_terminal=console.is_terminal)
    return LiveView(console=err_console, mode=mode, subpage_limit=settings.explore.max_subpages, title=title)


def _print_report(report: Report, *, as_json: bool) -> None:
    """The report on stdout; then exit 1 if the search stopped on an error (the report is written all the same)."""
    if as_json:
        path = Path(report.run_dir or "") / "report.json"
        sys.stdout.write(path.read_text(encoding="utf-8") if path.exists() else report.model_dump_json(indent=2))
        sys.stdout.write("\n")
    else:
        show_report(console, report)
    if report.stop_reason == "error":
        _fail(f"the search stopped on an error: {report.stop_detail} (the report holds what was collected)", code=1)


def _fresh_run_dir(out: Path | None, settings: Settings, query: str) -> Path:
    from research_crawler.run.session import new_run_dir

    if out is None:
        return new_run_dir(settings.runs_dir, query)
    if (out / "run.json").exists():
        raise ConfigError(
            f"{out} already holds a run: continue it with `research-crawler resume {out}` or choose another --out"
        )
    out.mkdir(parents=True, exist_ok=True)
    return out


def _run(crawler: ResearchCrawler, work: Callable[..., Any], view: LiveView, run_dir: Path) -> Report:
    """Run in the foreground; leaving with a second Ctrl-C says how to continue (exit 130)."""
    from research_crawler.cli.foreground_run import run_in_foreground

    try:
        return run_in_foreground(crawler, work, view=view)
    except KeyboardInterrupt:
        err_console.print(f"Left. Continue this run with: research-crawler resume {escape(str(run_dir))}")
        raise typer.Exit(130) from None


# --- the root --------------------------------------------------------------------------------------------


@app.callback()
def _root(
    ctx: typer.Context,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Log what happens.")] = False,
    config: Annotated[
        Path | None,
        typer.Option(
            "--config",
            help=f"Settings file to use instead of ./{CONFIG_FILE_NAME} or the one in the user config directory.",
            dir_okay=False,
        ),
    ] = None,
    preset: Annotated[
        str | None,
        typer.Option("--preset", help=f"A named configuration: {', '.join(preset_names())}.", metavar="NAME"),
    ] = None,
    assignments: Annotated[
        list[str] | None,
        typer.Option("--set", metavar="NAME=VALUE", help="Override one setting, e.g. --set fetch.per_host_delay_s=2."),
    ] = None,
) -> None:
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING, format="%(levelname)s %(name)s: %(message)s"
    )
    parsed: dict[str, Any] = {}
    for text in assignments or []:
        try:
            name, value = parse_assignment(text)
        except ConfigError as exc:
            _fail(f"--set: {exc}")
        parsed[name] = value
    if preset is not None and preset not in preset_names():
        _fail(f"unknown preset {preset!r}; known presets: {', '.join(preset_names())}")
    ctx.obj = _Options(config_file=config, preset=preset, assignments=parsed)


# --- ask ---------------------------------------------------------------------------------------------------

SiteOption = Annotated[
    list[str] | None,
    typer.Option("--site", "-s", help="A site to explore (URL); repeat for several. Default: the Web Selector picks."),
]
ModelOption = Annotated[
    str | None,
    typer.Option("--model", "-m", help="Model for every agent, or 'simulated' (an offline test double, not an LLM)."),
]
QuietOption = Annotated[bool, typer.Option("--quiet", "-q", help="No progress display.")]
MaxSubpagesOption = Annotated[int | None, typer.Option("--max-subpages", min=1, help="Pages read per site.")]
OutOption = Annotated[Path | None, typer.Option("--out", "-o", help="Run directory (default: a new one in runs_dir).")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print report.json instead of the rendered report.")]


@app.command()
@_friendly_errors
def ask(
    ctx: typer.Context,
    query: Annotated[str, typer.Argument(help='The research request, e.g. "five recent papers on GNNs".')],
    site: SiteOption = None,
    item_kind: Annotated[
        str | None, typer.Option("--item-kind", help="What to collect: paper (default), dataset, product…")
    ] = None,
    model: ModelOption = None,
    reranker: Annotated[Reranker | None, typer.Option("--reranker", help="How items are ranked.")] = None,
    max_subpages: MaxSubpagesOption = None,
    parallel_sites: Annotated[int | None, typer.Option("--parallel-sites", min=1, help="Sites at once.")] = None,
    out: OutOption = None,
    replay: Annotated[
        Path | None,
        typer.Option("--replay", help="Answer only from the pages an earlier run recorded (its run directory).",
                     file_okay=False),
    ] = None,
    as_json: JsonOption = False,
    quiet: QuietOption = False,
) -> None:
    """Answer one research request: live progress, then the report (also written to the run directory)."""
    if not query.strip():
        _fail("the query is empty: say what to look for")
    backend, flags = _model_flags(model)
    flags.update(
        {
            "explore.item_kind": item_kind,
            "rerank.kind": reranker.value if reranker is not None else None,
            "explore.max_subpages": max_subpages,
            "explore.parallel_sites": parallel_sites,
        }
    )
    settings = _settings(ctx, flags)
    crawler = ResearchCrawler(settings, backend=backend, replay_from=replay)
    if backend == "openai":
        require_model_endpoint(settings)
    _check_reranker(settings)
    run_dir = _fresh_run_dir(out, settings, query)
    sites = list(site or [])
    report = _run(
        crawler,
        lambda on_event: crawler.arun(query, sites=sites, run_dir=run_dir, on_event=on_event),
        _view(quiet=quiet or (as_json and not console.is_terminal), settings=settings),
        run_dir,
    )
    _print_report(report, as_json=as_json)


# --- chat --------------------------------------------------------------------------------------------------


@app.command()
@_friendly_errors
def chat(
    ctx: typer.Context,
    site: SiteOption = None,
    model: ModelOption = None,
    item_kind: Annotated[str | None, typer.Option("--item-kind", help="What to collect (default: paper).")] = None,
    max_subpages: MaxSubpagesOption = None,
    quiet: QuietOption = False,
) -> None:
    """An interactive session: a request, the report, then follow-ups that reuse what was already found."""
    from research_crawler.cli.chat_repl import ChatRepl, prompt_toolkit_reader

    backend, flags = _model_flags(model)
    flags.update({"explore.item_kind": item_kind, "explore.max_subpages": max_subpages})
    settings = _settings(ctx, flags)
    if backend == "openai":
        require_model_endpoint(settings)
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


@app.command()
@_friendly_errors
def batch(
    ctx: typer.Context,
    file: Annotated[
        Path, typer.Argument(help="Queries: .yaml/.yml or .jsonl (query, sites, settings, name).", dir_okay=False)
    ],
    out: Annotated[Path, typer.Option("--out", "-o", help="Directory for the run directories and summary.csv.")],
    concurrency: Annotated[int, typer.Option("--concurrency", "-c", min=1, help="Queries run at once.")] = 1,
    model: ModelOption = None,
    quiet: QuietOption = False,
) -> None:
    """Run the queries of a file, one run directory each, with summary.csv; re-running skips finished ones."""
    from research_crawler.cli.batch import SUMMARY_FILE, BatchRow, BatchRunner, load_batch
    from research_crawler.cli.foreground_run import stop_on_ctrl_c

    backend, flags = _model_flags(model)
    settings = _settings(ctx, flags)
    entries = load_batch(file)

    def progress(row: BatchRow) -> None:
        if quiet:
            return
        detail = f"{row.items} item(s), {row.stop_reason}" if row.items is not None else row.error
        err_console.print(
            f"[{row.index}/{len(entries)}] {row.status:<8} {escape(row.query[:70])}"
            + (f" — {escape(detail)}" if detail and row.status != "running" else ""),
            highlight=False,
        )

    runner = BatchRunner(
        entries, settings=settings, out_dir=out, backend=backend, concurrency=concurrency, on_row=progress
    )
    with stop_on_ctrl_c(runner.cancel, note=lambda message: err_console.print(message, markup=False)):
        rows = asyncio.run(runner.arun())
    table = Table(title=f"{out / SUMMARY_FILE}")
    for column in ("#", "status", "items", "stop", "query"):
        table.add_column(column, overflow="fold")
    for row in rows:
        style = "red" if row.status == "failed" else ""
        table.add_row(
            str(row.index), f"[{style}]{row.status}[/]" if style else row.status,
            "" if row.items is None else str(row.items), row.stop_reason, escape(row.query),
        )
    console.print(table)
    failed = [row for row in rows if row.status == "failed"]
    if failed:
        for row in failed:
            err_console.print(f"[red]error:[/] query {row.index}: {escape(row.error)}", highlight=False)
        raise typer.Exit(1)


# --- demo --------------------------------------------------------------------------------------------------


@app.command()
@_friendly_errors
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

    settings = _settings(ctx)
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
        run_dir = _fresh_run_dir(out, crawler.settings, run.query.text)
        report = _run(
            crawler,
            lambda on_event: crawler.arun(run.query.text, sites=run.site_urls, run_dir=run_dir, on_event=on_event),
            _view(quiet=quiet, settings=crawler.settings, title="demo (simulated model)"),
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


@app.command()
@_friendly_errors
def resume(
    ctx: typer.Context,
    run_dir: Annotated[Path, typer.Argument(help="A run directory (holds run.json).", file_okay=False)],
    model: ModelOption = None,
    as_json: JsonOption = False,
    quiet: QuietOption = False,
) -> None:
    """Continue a run that was killed or stopped: collected items are kept, no page is fetched twice."""
    from research_crawler.run.session import RunMeta

    meta = RunMeta.read(run_dir)
    backend, flags = _model_flags(model)
    if model is None:
        backend = meta.backend
    settings = _settings(ctx, flags)
    crawler = ResearchCrawler(settings, backend=backend)
    if backend == "openai":
        require_model_endpoint(settings)
    report = _run(
        crawler,
        lambda on_event: crawler.aresume(run_dir, on_event=on_event),
        _view(quiet=quiet or (as_json and not console.is_terminal), settings=settings),
        run_dir,
    )
    _print_report(report, as_json=as_json)


# --- eval --------------------------------------------------------------------------------------------------


@app.command("eval")
@_friendly_errors
def evaluate(
    ctx: typer.Context,
    dataset: Annotated[str, typer.Argument(help="testbed, preprints, or a dataset YAML file.")],
    model: ModelOption = None,
    judge_model: Annotated[
        str | None,
        typer.Option("--judge-model", help="The LLM judge's model, or 'simulated' for the offline judge double."),
    ] = None,
    sites: Annotated[
        list[str] | None, typer.Option("--sites", help="Evaluate only these sites of the dataset (repeatable).")
    ] = None,
    concurrency: Annotated[int, typer.Option("--concurrency", min=1, help="Queries at once.")] = 1,
    out: Annotated[Path | None, typer.Option("--out", help="A new directory for the results.", file_okay=False)] = None,
    replay: Annotated[
        Path | None,
        typer.Option("--replay", help="Answer only from an earlier evaluation's recorded pages.", file_okay=False),
    ] = None,
    reranker: Annotated[Reranker | None, typer.Option("--reranker", help="How items are ranked.")] = None,
) -> None:
    """Evaluate the agents on a dataset: the RAG triad (LLM judge, through LangSmith) and, on the testbed,
    ground-truth metrics; writes results.json, results.csv and the per-site Table I (table.md)."""
    from research_crawler.eval.dataset import resolve_dataset
    from research_crawler.eval.runner import run_evaluation
    from research_crawler.eval.table import tables_markdown

    backend, flags = _model_flags(model)
    judge: Literal["llm", "simulated"] = "simulated" if judge_model == "simulated" else "llm"
    if judge_model and judge == "llm":
        flags["models.agent_models"] = {"judge": judge_model}
    flags["rerank.kind"] = reranker.value if reranker is not None else None
    settings = _settings(ctx, flags)
    if backend == "openai" or judge == "llm":
        require_model_endpoint(settings)
    _check_reranker(settings)
    target = out or settings.runs_dir / f"eval-{datetime.now(UTC).strftime('%Y%m%dT%H%M%S')}"
    result = run_evaluation(
        resolve_dataset(dataset),
        settings=settings,
        backend=backend,
        judge=judge,
        sites=sites or None,
        concurrency=concurrency,
        out=target,
        replay=replay,
    )
    console.print(Markdown(tables_markdown(result)) if console.is_terminal else tables_markdown(result))
    if result.simulated_model or judge == "simulated":
        console.print("[yellow]Simulated model or judge: these figures test the machinery, not an LLM.[/]")
    console.print(f"Results: {target} (results.json, results.csv, table.md)")
    if result.experiment_url:
        console.print(f"LangSmith experiment: {result.experiment_url}")


def _check_reranker(settings: Settings) -> None:
    """Fail before any work (and before a run directory exists) when the chosen reranker cannot load."""
    from research_crawler.rank.rerank import load_reranker

    load_reranker(settings.rerank)


# --- page --------------------------------------------------------------------------------------------------


@app.command()
@_friendly_errors
def page(
    ctx: typer.Context,
    target: Annotated[str | None, typer.Argument(help="An http(s) URL or a saved HTML file.")] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object instead of the rich view.")
    ] = False,
    render: Annotated[
        str | None,
        typer.Option("--render", help="http, browser, or auto (the browser only for a page that needs JavaScript)."),
    ] = None,
    testbed: Annotated[
        str | None,
        typer.Option("--testbed", help="Serve the local testbed web and show a page of this testbed site."),
    ] = None,
) -> None:
    """Show what the agents will see on a page: numbered links, search form, metadata, determination, tokens."""
    from research_crawler.cli.page_inspection import inspect_page

    if render is not None and render not in get_args(RenderMode):
        _fail(f"--render must be one of {', '.join(get_args(RenderMode))}, not {render!r}")
    mode: RenderMode | None = render  # type: ignore[assignment]
    settings = _settings(ctx)
    if testbed is not None:
        inspection = _inspect_testbed_page(testbed, target or "/", settings, mode)
    elif target is None:
        _fail("give a URL or a file (or --testbed SITE)")
    else:
        inspection = asyncio.run(inspect_page(target, settings, render=mode))
    if as_json:
        sys.stdout.write(inspection.model_dump_json(indent=2) + "\n")
    else:
        _show_inspection(inspection)


def _inspect_testbed_page(
    site: str, path: str, settings: Settings, render: RenderMode | None
) -> PageInspection:
    from research_crawler.cli.page_inspection import inspect_page
    from research_crawler.eval.testbed import TestbedServer, generate_testbed

    with TestbedServer(generate_testbed()) as server:
        names = server.site_names()
        if site not in names:
            _fail(f"unknown testbed site {site!r}; the testbed has: {', '.join(names)}")
        url = server.base_url(site).rstrip("/") + "/" + path.lstrip("/")
        # The URL guard refuses loopback addresses unless named: name exactly the testbed's own ports.
        allowed = [*settings.fetch.allowed_hosts, *server.allowed_hosts()]
        settings = apply_overrides(settings, {"fetch.allowed_hosts": allowed})
        return asyncio.run(inspect_page(url, settings, render=render))


def _show_inspection(info: PageInspection) -> None:
    style = "green" if info.determination == "ok" else "red"
    header = Table.grid(padding=(0, 2))
    header.add_row("URL", info.url)
    if info.final_url != info.url:
        header.add_row("Final URL", info.final_url)
    header.add_row("Determination", f"[{style}]{info.determination}[/] {info.reason}".strip())
    header.add_row("Status", str(info.status))
    header.add_row("Title", info.title or "—")
    ratio = info.tokens.markdown / info.tokens.html if info.tokens.html else 0.0
    header.add_row("Tokens", f"{info.tokens.markdown} Markdown vs {info.tokens.html} HTML ({ratio:.0%})")
    if info.search is None:
        header.add_row("Site search", "none found")
    else:
        usable = "usable" if info.search.usable else f"not usable: {info.search.note}"
        header.add_row(
            "Site search", f"{info.search.kind} {info.search.method} {info.search.url_template} ({usable})"
        )
    console.print(Panel(header, title="research-crawler page", expand=False))
    meta = info.metadata
    table = Table(title="Item metadata (from the page's own tags)", show_lines=False)
    table.add_column("field")
    table.add_column("value", overflow="fold")
    table.add_column("source")
    for field_name in ("title", "authors", "date", "abstract", "doi", "pdf_url"):
        value = getattr(meta, field_name)
        shown = ", ".join(value) if isinstance(value, list) else value
        if shown and field_name == "abstract" and len(shown) > 300:
            shown = shown[:300] + "…"
        table.add_row(field_name, shown or "[dim]absent[/]", meta.sources.get(field_name, ""))
    console.print(table)
    console.rule(f"What an agent reads ({len(info.links)} numbered links)")
    console.print(Markdown(info.markdown) if console.is_terminal else info.markdown)


# --- config ------------------------------------------------------------------------------------------------


@config_app.command("show")
@_friendly_errors
def config_show(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list instead of the table.")] = False,
) -> None:
    """The settings in force, each with its source (flag, env, preset, file, default); secrets masked."""
    import json

    from research_crawler.config.provenance import effective_settings

    options = _options(ctx)
    settings = _settings(ctx)
    config_file = options.config_file or find_config_file()
    rows = effective_settings(settings, config_file=config_file, preset=options.preset, flags=options.assignments)
    if as_json:
        sys.stdout.write(json.dumps([row.model_dump() for row in rows], indent=2, default=str) + "\n")
        return
    where = str(config_file) if config_file else (
        f"none (looked for ./{CONFIG_FILE_NAME} and {Path(typer.get_app_dir('research-crawler')) / CONFIG_FILE_NAME})"
    )
    console.print(f"Settings file: {escape(where)}", highlight=False, soft_wrap=True)
    table = Table(show_lines=False)
    table.add_column("setting", no_wrap=True)
    table.add_column("value", overflow="fold")
    table.add_column("source")
    colours = {"flag": "magenta", "env": "cyan", "preset": "yellow", "file": "green", "default": "dim"}
    for row in rows:
        value = row.value if isinstance(row.value, str) else json.dumps(row.value, default=str)
        table.add_row(row.name, escape(value), f"[{colours[row.source]}]{row.source}[/]")
    console.print(table)


# --- models ------------------------------------------------------------------------------------------------


@models_app.command("download")
@_friendly_errors
def models_download(ctx: typer.Context) -> None:
    """Download the reranker's weights now, so later runs work offline."""
    settings = _settings(ctx)
    try:
        from research_crawler.rank.rerank import download_reranker_weights
    except ImportError as exc:
        raise ConfigError(f"this installation has no reranker downloads ({exc})") from exc
    where = download_reranker_weights(settings.rerank)
    console.print(f"Reranker weights ready{f': {escape(str(where))}' if where else ''}.", highlight=False)


def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":
    main()
