"""The commands that show rather than run: ``page`` (what the agents see on a page), ``config show`` (the
settings in force and their sources) and ``models download`` (the reranker's weights, for offline runs).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, get_args

import typer
from rich.markdown import Markdown
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from research_crawler.cli.options import global_options, load_settings
from research_crawler.cli.output import console, fail, friendly_errors

if TYPE_CHECKING:
    from research_crawler.config.settings import RenderMode, Settings
from research_crawler.errors import ConfigError

if TYPE_CHECKING:
    from research_crawler.cli.page_inspection import PageInspection

# --- page --------------------------------------------------------------------------------------------------


@friendly_errors
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
    url: Annotated[
        str | None,
        typer.Option(
            "--url", help="For a saved file: the address it was saved from (its relative links resolve there)."
        ),
    ] = None,
) -> None:
    """Show what the agents will see on a page: numbered links, search form, metadata, determination, tokens."""
    from research_crawler.cli.page_inspection import inspect_page
    from research_crawler.config.settings import RenderMode

    if render is not None and render not in get_args(RenderMode):
        fail(f"--render must be one of {', '.join(get_args(RenderMode))}, not {render!r}")
    if url is not None and (testbed is not None or target is None or "://" in target):
        fail(f"--url is the address of a saved file: research-crawler page FILE --url {url}")
    mode: RenderMode | None = render  # type: ignore[assignment]
    settings = load_settings(ctx)
    if testbed is not None:
        inspection = _inspect_testbed_page(testbed, target or "/", settings, mode)
    elif target is None:
        fail("give a URL or a file (or --testbed SITE)")
    else:
        inspection = asyncio.run(inspect_page(target, settings, render=mode, url=url))
    if as_json:
        sys.stdout.write(inspection.model_dump_json(indent=2) + "\n")
    else:
        _show_inspection(inspection)
    fix = _NOTHING_CAME_BACK.get(inspection.determination)
    if inspection.determination in ("timeout", "blocked_by_robots"):
        from research_crawler.cli.run_helpers import longer_deadline, unread_robots_fix

        if inspection.determination == "timeout":
            fix = f"; {longer_deadline(settings.fetch.page_deadline_s)}"
        else:
            fix = unread_robots_fix(inspection.reason) or fix
    if fix is not None:  # no page to show: the one line says why and what to do (exit 1)
        from research_crawler.web.url_guard import without_a_sites_allow_hint

        reason = without_a_sites_allow_hint(inspection.url, inspection.reason)
        fail(f"{inspection.url} could not be read: {reason}{fix}", 1)


#: Determinations of a page of which nothing came back — the host does not resolve, does not answer or too slowly,
#: the URL guard or robots.txt refused it before any request — with what to do (the guard's reason names its --set).
_NOTHING_CAME_BACK = {
    "network_error": "; check the address and that the site is up",
    "refused": "",
    "blocked_by_robots": "; the site's robots.txt forbids it: read a page it allows, or a saved copy (page FILE)",
}


def _inspect_testbed_page(
    site: str, path: str, settings: Settings, render: RenderMode | None
) -> PageInspection:
    from research_crawler.cli.page_inspection import inspect_page
    from research_crawler.config.overrides import apply_overrides
    from research_crawler.eval.testbed import TestbedServer, generate_testbed

    with TestbedServer(generate_testbed()) as server:
        names = server.site_names()
        if site not in names:
            fail(f"unknown testbed site {site!r}; the testbed has: {', '.join(names)}")
        url = server.base_url(site).rstrip("/") + "/" + path.lstrip("/")
        # The URL guard refuses loopback addresses unless named: name exactly the testbed's own ports.
        allowed = [*settings.fetch.allowed_hosts, *server.allowed_hosts()]
        settings = apply_overrides(settings, {"fetch.allowed_hosts": allowed})
        return asyncio.run(inspect_page(url, settings, render=render))


def _show_inspection(info: PageInspection) -> None:
    style = "green" if info.determination == "ok" else "red"
    header = Table.grid(padding=(0, 2))
    # Everything below that came from the page is data: shown as plain Text, never parsed as Rich markup.
    header.add_row("URL", Text(info.url))
    if info.final_url != info.url:
        header.add_row("Final URL", Text(info.final_url))
    header.add_row("Determination", Text.assemble((info.determination, style), " ", info.reason))
    header.add_row("Status", str(info.status))
    header.add_row("Title", Text(info.title or "—"))
    if info.head_title and info.head_title != info.title:
        header.add_row("<title>", Text(info.head_title))
    ratio = info.tokens.markdown / info.tokens.html if info.tokens.html else 0.0
    header.add_row("Tokens", f"{info.tokens.markdown} Markdown vs {info.tokens.html} HTML ({ratio:.0%})")
    if info.search is None:
        header.add_row("Site search", "none found")
    else:
        usable = "usable" if info.search.usable else f"not usable: {info.search.note}"
        how = f"{info.search.kind} {info.search.method} {info.search.url_template}"
        if info.search.method == "TYPE":  # only the page's script sends it: typed into its box in the browser
            how = f"typed into {info.search.query_field} in the browser, on {info.search.url_template}"
        header.add_row("Site search", Text(f"{how} ({usable})"))
    console.print(Panel(header, title="research-crawler page", expand=False))
    meta = info.metadata
    table = Table(title="Item metadata (from the page's tags and what it shows)", show_lines=False)
    table.add_column("field")
    table.add_column("value", overflow="fold")
    table.add_column("source")
    for field_name in ("title", "authors", "date", "abstract", "doi", "pdf_url"):
        value = getattr(meta, field_name)
        shown = "; ".join(value) if isinstance(value, list) else value  # "Last, First; Last, First"
        if shown and field_name == "abstract" and len(shown) > 300:
            shown = shown[:300] + "…"
        value = Text(shown) if shown else Text("absent", style="dim")
        source = meta.sources.get(field_name, "")
        if field_name in meta.notes:  # a tag the page contradicts, which the page's reading did not believe
            source = f"{source} ({meta.notes[field_name]})"
        table.add_row(field_name, value, Text(source))
    console.print(table)
    console.rule(f"What an agent reads ({len(info.links)} numbered links)")
    if console.is_terminal:
        console.print(Markdown(info.markdown))
    else:
        console.print(info.markdown, markup=False, highlight=False, soft_wrap=True)


# --- config show -------------------------------------------------------------------------------------------


@friendly_errors
def config_show(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list instead of the table.")] = False,
) -> None:
    """The settings in force, each with its source (flag, env, preset, file, default); secrets masked."""
    import json

    from research_crawler.config.provenance import effective_settings
    from research_crawler.config.settings import CONFIG_FILE_NAME, find_config_file
    from research_crawler.text.untrusted import untrusted

    options = global_options(ctx)
    settings = load_settings(ctx)
    config_file = options.config_file or find_config_file()
    rows = effective_settings(settings, config_file=config_file, preset=options.preset, flags=options.assignments)
    if as_json:
        sys.stdout.write(json.dumps([row.model_dump() for row in rows], indent=2, default=str) + "\n")
        return
    where = str(config_file) if config_file else (
        f"none (looked for ./{CONFIG_FILE_NAME} and {Path(typer.get_app_dir('research-crawler')) / CONFIG_FILE_NAME})"
    )
    console.print(f"Settings file: {escape(untrusted(where))}", highlight=False, soft_wrap=True)
    table = Table(show_lines=False)
    table.add_column("setting", no_wrap=True)
    table.add_column("value", overflow="fold")
    table.add_column("source")
    colours = {"flag": "magenta", "env": "cyan", "preset": "yellow", "file": "green", "default": "dim"}
    for row in rows:
        value = row.value if isinstance(row.value, str) else json.dumps(row.value, default=str)
        # a value from a settings file or the environment is shown, never run by the terminal (ESC, OSC…)
        table.add_row(row.name, escape(untrusted(value)), f"[{colours[row.source]}]{row.source}[/]")
    console.print(table)


# --- models download ---------------------------------------------------------------------------------------


@friendly_errors
def models_download(ctx: typer.Context) -> None:
    """Download the reranker's weights now, so later runs work offline."""
    settings = load_settings(ctx)
    try:
        from research_crawler.rank.rerank import download_reranker_weights
    except ImportError as exc:
        raise ConfigError(f"this installation has no reranker downloads ({exc})") from exc
    where = download_reranker_weights(settings.rerank)
    console.print(f"Reranker weights ready{f': {escape(str(where))}' if where else ''}.", highlight=False)
