"""The command line: parse arguments → Settings → the library call; rendering only, no logic of its own."""

from __future__ import annotations

import asyncio
import logging
import sys
from typing import Annotated, Literal, NoReturn

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.panel import Panel
from rich.table import Table

from research_crawler.errors import ResearchCrawlerError
from research_crawler.settings import Settings
from research_crawler.tools.inspection import PageInspection, inspect_page

app = typer.Typer(
    name="research-crawler",
    help="Answer research requests by exploring websites the way a careful person does.",
    no_args_is_help=True,
    add_completion=False,
)
console = Console()
err_console = Console(stderr=True)


@app.callback()
def _root(
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Log what happens.")] = False,
) -> None:
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING, format="%(levelname)s %(name)s: %(message)s"
    )


@app.command()
def page(
    target: Annotated[str | None, typer.Argument(help="An http(s) URL or a saved HTML file.")] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object instead of the rich view.")
    ] = False,
    render: Annotated[
        str | None, typer.Option("--render", help="http or browser (JavaScript-rendered pages).")
    ] = None,
    testbed: Annotated[
        str | None,
        typer.Option("--testbed", help="Serve the local testbed web and show a page of this testbed site."),
    ] = None,
) -> None:
    """Show what the agents will see on a page: numbered links, search form, metadata, determination, tokens."""
    if render not in (None, "http", "browser"):
        _fail(f"--render must be 'http' or 'browser', not {render!r}")
    mode: Literal["http", "browser"] | None = render  # type: ignore[assignment]
    settings = Settings()
    try:
        if testbed is not None:
            inspection = _inspect_testbed_page(testbed, target or "/", settings, mode)
        elif target is None:
            _fail("give a URL or a file (or --testbed SITE)")
        else:
            inspection = asyncio.run(inspect_page(target, settings, render=mode))
    except ResearchCrawlerError as exc:
        _fail(str(exc))
    if as_json:
        sys.stdout.write(inspection.model_dump_json(indent=2) + "\n")
    else:
        _show_inspection(inspection)


def _inspect_testbed_page(
    site: str, path: str, settings: Settings, render: Literal["http", "browser"] | None
) -> PageInspection:
    from research_crawler.eval.testbed import TestbedServer, generate_testbed

    with TestbedServer(generate_testbed()) as server:
        names = server.site_names()
        if site not in names:
            _fail(f"unknown testbed site {site!r}; the testbed has: {', '.join(names)}")
        url = server.base_url(site).rstrip("/") + "/" + path.lstrip("/")
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
    for field in ("title", "authors", "date", "abstract", "doi", "pdf_url"):
        value = getattr(meta, field)
        shown = ", ".join(value) if isinstance(value, list) else value
        if shown and field == "abstract" and len(shown) > 300:
            shown = shown[:300] + "…"
        table.add_row(field, shown or "[dim]absent[/]", meta.sources.get(field, ""))
    console.print(table)
    console.rule(f"What an agent reads ({len(info.links)} numbered links)")
    console.print(Markdown(info.markdown) if console.is_terminal else info.markdown)


def _fail(message: str, code: int = 2) -> NoReturn:
    err_console.print(f"[red]error:[/] {message}")
    raise typer.Exit(code)


def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":
    main()
