"""The library's commands — `library list|search|show|export` — and `watch`, which runs a request, reports only
what is new since the last watch of the same request, records it, and can keep an Atom feed of it.
"""

from __future__ import annotations

import json
import shlex
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from enum import StrEnum
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape

if TYPE_CHECKING:
    from research_crawler.config.settings import Settings
    from research_crawler.library.records import LibraryItem
    from research_crawler.report.models import Report
from research_crawler.cli.options import (
    NO_RUN_OPTIONS,
    OutOption,
    QuietOption,
    RunOptions,
    SiteOption,
    global_options,
    load_settings,
    with_run_options,
)
from research_crawler.cli.output import console, err_console, fail, friendly_errors, this_command
from research_crawler.errors import LibraryError

__all__ = ["library_app", "record_in_library", "watch"]

library_app = typer.Typer(
    help="What every run found, kept across runs: list, search, show, export.", no_args_is_help=True
)

LibraryOption = Annotated[
    Path | None,
    typer.Option(
        "--library",
        help="The library file (default: the library.path setting, else library.sqlite3 in the user data directory).",
        dir_okay=False,
    ),
]
LimitOption = Annotated[int, typer.Option("--limit", "-n", min=1, help="Items shown at most.")]
ListJsonOption = Annotated[bool, typer.Option("--json", help="Print a JSON list instead of the table.")]
FeedOption = Annotated[
    Path | None,
    typer.Option("--feed", help="Write or update an Atom feed of the new items at this path.", dir_okay=False),
]


class ExportFormat(StrEnum):
    json = "json"
    csv = "csv"
    bibtex = "bibtex"


@contextmanager
def _library(ctx: typer.Context, library: Path | None) -> Iterator[tuple[sqlite3.Connection, Path]]:
    """The library a command reads, open; whatever SQLite says of it on the way is one line naming the fix."""
    from research_crawler.library.database import library_errors, library_path, open_library

    path = library_path(load_settings(ctx), library)
    connection = open_library(path, create=False)
    try:
        with library_errors(path):
            yield connection, path
    finally:
        connection.close()


def _print_json(value: Any) -> None:
    sys.stdout.write(json.dumps(value, ensure_ascii=False, indent=2) + "\n")


def _print_items(items: list[LibraryItem], *, title: str, as_json: bool) -> None:
    """Items as one JSON list (--json) or as the library's table under `title`."""
    from research_crawler.cli.library_view import show_items

    if as_json:
        _print_json([item.model_dump(mode="json") for item in items])
    else:
        show_items(console, items, title=title)


# --- library list | search | show | export ---------------------------------------------------------------------


@library_app.command("list")
@friendly_errors
def list_command(
    ctx: typer.Context, library: LibraryOption = None, limit: LimitOption = 50, as_json: ListJsonOption = False
) -> None:
    """The items most recently seen, newest first."""
    from research_crawler.library.queries import list_items

    with _library(ctx, library) as (connection, path):
        items = list_items(connection, limit=limit)
    _print_items(items, title=f"{len(items)} item(s) in {path}", as_json=as_json)


@library_app.command("search")
@friendly_errors
def search_command(
    ctx: typer.Context,
    text: Annotated[str, typer.Argument(help="Words that must all appear: title, authors, abstract, DOI, identity.")],
    library: LibraryOption = None,
    limit: LimitOption = 50,
    as_json: ListJsonOption = False,
) -> None:
    """Items whose title, authors, abstract, DOI or identity hold every word."""
    from research_crawler.library.queries import search_items

    with _library(ctx, library) as (connection, _):
        items = search_items(connection, text, limit=limit)
    _print_items(items, title=f"{len(items)} item(s) matching {text!r}", as_json=as_json)


@library_app.command("show")
@friendly_errors
def show_command(
    ctx: typer.Context,
    reference: Annotated[str, typer.Argument(help="The item's id, a key (doi:…, arxiv:…), a DOI or a URL seen.")],
    library: LibraryOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """One item in full: its identities, every sighting, and the source of each metadata value."""
    from research_crawler.cli.library_view import show_item
    from research_crawler.library.queries import find_item

    with _library(ctx, library) as (connection, _):
        item = find_item(connection, reference)
    if item is None:
        fail(f"no item {reference!r} in the library: find its id with `research-crawler library search WORDS`", code=1)
    if as_json:
        _print_json(item.model_dump(mode="json"))
    else:
        show_item(console, item)


@library_app.command("export")
@friendly_errors
def export_command(
    ctx: typer.Context,
    library: LibraryOption = None,
    export_format: Annotated[ExportFormat, typer.Option("--format", "-f", help="json, csv or bibtex.")] = (
        ExportFormat.json
    ),
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write here instead of stdout.", dir_okay=False)
    ] = None,
) -> None:
    """Every item of the library as JSON (with sightings and sources), CSV or BibTeX."""
    from research_crawler.library.export import export_items
    from research_crawler.library.queries import list_items

    with _library(ctx, library) as (connection, _):
        text = export_items(list_items(connection), export_format.value)
    if out is None:
        sys.stdout.write(text)
    else:
        out.write_text(text, encoding="utf-8")


# --- watch -----------------------------------------------------------------------------------------------------


@friendly_errors
@with_run_options
def watch(
    ctx: typer.Context,
    query: Annotated[str, typer.Argument(help='The research request to follow, e.g. "new papers on GNNs".')],
    site: SiteOption = None,
    run: RunOptions = NO_RUN_OPTIONS,
    out: OutOption = None,
    as_json: Annotated[
        bool, typer.Option("--json", help='Print {"new": [...], "known": [...], "run_dir": ...} instead of tables.')
    ] = False,
    quiet: QuietOption = False,
    feed: FeedOption = None,
    library: LibraryOption = None,
) -> None:
    """Run a request and report only what is new since the last watch of it (all of it the first time), then
    record it in the library. Pages seen before are asked for conditionally (fetch.revisit_cache)."""
    from research_crawler.api import ResearchCrawler
    from research_crawler.cli.library_view import show_watch
    from research_crawler.cli.run_helpers import (
        check_can_run,
        check_sites,
        fresh_run_dir,
        progress_view,
        query_argument,
        run_with_view,
    )
    from research_crawler.library.atom_feed import check_feed, write_feed
    from research_crawler.library.database import check_library, library_errors, library_path, open_library
    from research_crawler.library.found_items import found_items
    from research_crawler.library.queries import items_by_id
    from research_crawler.library.recording import RecordedRun, record_run
    from research_crawler.library.records import Watch

    query = query_argument(query, command="watch")
    backend, flags = run.backend_and_flags()
    if "fetch.revisit_cache" not in global_options(ctx).assignments:
        flags["fetch.revisit_cache"] = True
    settings = load_settings(ctx, flags, preset=run.preset)
    path = library_path(settings, library)
    check_library(path)  # a library that cannot be used (damaged, another program's) fails before the run
    this_watch = Watch.of(query, list(site or []))
    if feed is not None:
        check_feed(feed, this_watch)  # and so does a feed that cannot be written (another watch's)
    crawler = ResearchCrawler(settings, backend=backend)
    check_sites(site)
    check_can_run(settings, needs_model=backend == "openai")
    run_dir = fresh_run_dir(out, settings, query)
    sites = list(site or [])
    report = run_with_view(
        crawler,
        lambda on_event: crawler.arun(query, sites=sites, run_dir=run_dir, on_event=on_event),
        progress_view(quiet=quiet or (as_json and not console.is_terminal), settings=settings, title="watch"),
        run_dir,
    )
    connection = open_library(path)
    listed = partial(
        RecordedRun.listed,
        floor=settings.report.relevance_floor,
        request=report.request,
        today=date.today(),
        recent_days=settings.report.recent_days,
    )
    new: list[LibraryItem] = []
    known: list[LibraryItem] = []

    def deliver(recorded: RecordedRun) -> None:
        """The new and known items, and the feed written, before the recording commits: a feed that cannot be
        written records nothing, and its items stay new for the next watch."""
        new.extend(items_by_id(connection, listed(recorded, recorded.new)))
        known.extend(items_by_id(connection, listed(recorded, recorded.known)))
        if feed is not None:
            write_feed(feed, this_watch, new, max_entries=settings.library.feed_entries)

    with library_errors(path):
        recorded = record_run(connection, report, found_items(report), watch=this_watch, deliver=deliver)
    if as_json:
        _print_json(
            {
                "new": [_watch_entry(item, recorded.reported) for item in new],
                "known": [_watch_entry(item, recorded.reported) for item in known],
                "run_dir": str(run_dir),
                "previous_watch": recorded.previous_watch,
                "library": str(path),
                "feed": str(feed) if feed is not None else None,
            }
        )
    else:
        show_watch(
            console,
            request=query,
            new=new,
            known=len(known),
            previous_watch=recorded.previous_watch,
            run_dir=str(run_dir),
            library=str(path),
            feed=str(feed) if feed is not None else None,
        )
    _fail_on_error(report, query=query)


def _watch_entry(item: LibraryItem, reported: set[int]) -> dict[str, Any]:
    return {**item.model_dump(mode="json", exclude={"metadata"}), "reported": item.id in reported}


def _fail_on_error(report: Report, *, query: str) -> None:
    from research_crawler.cli.run_helpers import stopped_before_its_end, unreachable_everywhere

    if report.stop_reason == "error":
        fail(f"the search stopped on an error: {report.stop_detail} (what it found is recorded)", code=1)
    if report.stop_reason == "interrupted":  # what it found is recorded; the next watch goes on from there
        stopped_before_its_end(report, again=this_command(f"research-crawler watch {shlex.quote(query)} …"))
    if (why := unreachable_everywhere(report)) is not None:
        fail(why, code=1)


def record_in_library(settings: Settings, report: Report) -> None:
    """Record a finished run (`ask`) in the library when ``library.record_runs`` is on. A library that cannot be
    used is one warning line: the report stands."""
    from research_crawler.library.database import library_error, library_path, open_library
    from research_crawler.library.found_items import found_items
    from research_crawler.library.recording import record_run

    if not settings.library.record_runs:
        return
    path = library_path(settings)
    try:
        connection = open_library(path)
        try:
            record_run(connection, report, found_items(report))
        finally:
            connection.close()
    except (LibraryError, sqlite3.Error, OSError) as exc:
        if isinstance(exc, sqlite3.DatabaseError):
            exc = library_error(path, exc)
        err_console.print(
            f"[yellow]warning:[/] the run is not recorded in the library {escape(str(path))}: {escape(str(exc))} "
            "(choose another with --set library.path=FILE, or stop recording with --set library.record_runs=false)",
            highlight=False,
            soft_wrap=True,
        )
