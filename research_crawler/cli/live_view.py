"""The live progress of a run on the terminal: a rich Live panel fed by trace events, plain log lines when
the output is not a terminal, nothing with ``--quiet``.
"""

from __future__ import annotations

import threading
from types import TracebackType
from typing import Any, Literal

from rich.console import Console, RenderableType
from rich.live import Live
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from research_crawler.run.progress import RunProgress

__all__ = ["LiveView", "ViewMode", "choose_view_mode"]

ViewMode = Literal["live", "plain", "off"]


def choose_view_mode(*, quiet: bool, stdout_is_terminal: bool) -> ViewMode:
    """Off with --quiet; the live panel on a terminal; plain log lines when the output goes to a file or pipe."""
    if quiet:
        return "off"
    return "live" if stdout_is_terminal else "plain"


class LiveView:
    """Shows a run's progress on `console` while it runs; `on_event` is its trace listener (any thread).

    with LiveView(console=err_console, mode="live", subpage_limit=5) as view:
        report = crawler.run(query, on_event=view.on_event)
    """

    def __init__(self, *, console: Console, mode: ViewMode, subpage_limit: int, title: str = "research-crawler"):
        self.console = console
        self.mode: ViewMode = mode
        self.title = title
        self.progress = RunProgress(subpage_limit=subpage_limit)
        self._lock = threading.Lock()
        self._live: Live | None = None

    def __enter__(self) -> LiveView:
        if self.mode == "live":
            self._live = Live(
                get_renderable=self._render,
                console=self.console,
                refresh_per_second=8,
                transient=True,
                redirect_stdout=False,
                redirect_stderr=False,
            )
            self._live.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._live is not None:
            self._live.stop()
            self._live = None
        if self.mode == "live":
            self.console.print(self.summary_line(), highlight=False)

    def on_event(self, event: dict[str, Any]) -> None:
        """Fold one trace event in; print its log line in plain mode."""
        with self._lock:
            line = self.progress.apply(event)
        if line is not None and self.mode == "plain":
            self.console.print(line, markup=False, highlight=False, soft_wrap=True)

    def note(self, message: str) -> None:
        """A message from the caller (e.g. "stopping…"), above the live panel or as a log line."""
        if self.mode != "off":
            self.console.print(message, markup=False, highlight=False)

    def summary_line(self) -> str:
        p = self.progress
        return (
            f"{p.pages_fetched} page(s) fetched, {p.items} item(s) collected, {p.model_calls} model call(s), "
            f"{p.input_tokens + p.output_tokens:,} tokens, {p.cost_text}, {p.elapsed_s:.1f}s"
        )

    def _render(self) -> RenderableType:
        with self._lock:
            p = self.progress
            grid = Table.grid(padding=(0, 2))
            grid.add_column(style="bold cyan", no_wrap=True)
            grid.add_column(overflow="fold")
            if p.parallel:  # the sites are explored at once: each with its subpages
                grid.add_row("Sites", escape(p.sites_text))
            else:
                place = p.site_position
                site = escape(p.current_site or "choosing sites…")
                grid.add_row("Site", f"{site}" + (f"  [dim]({place[0]} of {place[1]})[/]" if place else ""))
            grid.add_row("Reading", escape(p.page or "—"))
            if not p.parallel:
                grid.add_row("Subpages", f"{p.subpages_used} / {p.limit_of(p.current_site)}")
            pending = f"{p.links_pending} pending, " if p.links_pending is not None else ""
            grid.add_row("Links", f"{pending}{p.links_queued} queued in all")
            grid.add_row("Items", f"{p.items} collected")
            for title in p.latest_titles:
                grid.add_row("", Text(f"· {title}", style="green", overflow="ellipsis", no_wrap=True))
            grid.add_row("Agent", escape(p.agent or "—"))
            grid.add_row(
                "Tokens",
                f"{p.input_tokens:,} in ({p.cached_input_tokens:,} cached) · {p.output_tokens:,} out · "
                f"{p.cost_text} ({p.model_calls} model calls)",
            )
            grid.add_row("Elapsed", f"{p.elapsed_s:.1f}s")
            query = escape(p.query[:80]) if p.query else ""
            return Panel(grid, title=f"{self.title}: {query}" if query else self.title, expand=True)
