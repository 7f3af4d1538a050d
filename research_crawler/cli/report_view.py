"""How a finished report is shown on the terminal: report.md rendered, the run directory and its files, an
item's provenance — shared by ``ask``, ``chat``, ``demo``, ``resume`` and ``batch``.
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.table import Table

from research_crawler.report.models import Report, ReportItem
from research_crawler.report.writers import render_markdown

__all__ = ["RUN_FILES", "run_files", "show_item_sources", "show_items", "show_report"]

#: The files a run directory may hold, in the order worth reading them.
RUN_FILES = (
    "report.md",
    "report.json",
    "items.bib",
    "trace.jsonl",
    "graph.json",
    "graph.graphml",
    "state.json",
    "run.json",
    "pages",
)


def run_files(run_dir: Path) -> list[str]:
    """The run files present in `run_dir`."""
    return [name for name in RUN_FILES if (run_dir / name).exists()]


def show_report(console: Console, report: Report) -> None:
    """report.md (rendered on a terminal, plain text otherwise), then where the run's files are."""
    text = _report_text(report)
    if console.is_terminal:
        console.print(Markdown(text))
    else:
        console.print(text, markup=False, highlight=False, soft_wrap=True)
    if report.run_dir:
        run_dir = Path(report.run_dir)
        console.print(
            f"[dim]Run directory:[/] {escape(str(run_dir))}  [dim]({', '.join(run_files(run_dir))})[/]",
            highlight=False,
            soft_wrap=True,
        )


def _report_text(report: Report) -> str:
    if report.run_dir and (path := Path(report.run_dir) / "report.md").exists():
        return path.read_text(encoding="utf-8")
    return render_markdown(report)


def show_items(console: Console, report: Report) -> None:
    """The report's items as a table: rank, title, date, site."""
    if not report.items:
        console.print("No items in the last report.")
        return
    table = Table(show_lines=False)
    table.add_column("#", justify="right")
    table.add_column("title", overflow="fold")
    table.add_column("date")
    table.add_column("site", overflow="fold")
    for item in report.items:
        table.add_row(str(item.rank), escape(item.title), item.date or "", escape(item.site))
    console.print(table)


def show_item_sources(console: Console, item: ReportItem) -> None:
    """Where an item came from: its page, the site, the page that revealed it, the path from the site's root,
    and which page tags its fields were read from."""
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold cyan", no_wrap=True)
    table.add_column(overflow="fold")
    table.add_row("Item", f"#{item.rank} {escape(item.title)}")
    table.add_row("URL", escape(item.url))
    table.add_row("Site", escape(item.site))
    table.add_row("Found on", escape(item.found_on))
    path = item.path or [item.found_on]
    table.add_row("Path", " → ".join(escape(step) for step in path))
    if item.metadata_sources:
        sources = ", ".join(f"{field}: {source}" for field, source in sorted(item.metadata_sources.items()))
        table.add_row("Fields from", escape(sources))
    table.add_row("Score", f"collector {item.collector_score:g}" + (
        f", rerank {item.rerank_score:.3f}" if item.rerank_score is not None else ""
    ))
    console.print(table)
