"""The interactive chat: a request, live progress and the report, then follow-ups in the same run directory
("only 2025", "more like item 3", "also search bioRxiv") that reuse every page fetched and item collected.

Questions about the last report ("show the sources for item 2") are answered locally, without a new run.
"""

from __future__ import annotations

import re
import shutil
import sys
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from research_crawler.api import EventCallback, ResearchCrawler
from research_crawler.cli.foreground_run import run_in_foreground
from research_crawler.cli.live_view import LiveView, ViewMode
from research_crawler.cli.report_view import show_item_sources, show_items, show_report
from research_crawler.cli.run_helpers import resume_command
from research_crawler.config.site_pool import SitePool, load_site_pool
from research_crawler.context.request_rules import FOLLOW_UP
from research_crawler.context.urls import canonicalize_url
from research_crawler.errors import ConfigError, InvalidURLError, ResearchCrawlerError
from research_crawler.report.models import Report, ReportItem

__all__ = ["HELP", "PROMPT", "ChatRepl", "LineReader", "prompt_toolkit_reader"]

PROMPT = "research> "
HELP = """\
Type a research request, e.g. "find five recent papers on diffusion models for protein design".
After the report, type follow-ups; they reuse what was already fetched and collected:
  only 2025                      narrow the request
  more like item 3               search again around an item of the report
  also search bioRxiv            explore another site (a pool site's name or id, or a URL)
  show the sources for item 2    where an item was found (answered from the report, no new search)
Commands:
  /help          this help
  /sites         the sites of this session
  /items         the items of the last report
  /save PATH     save the last report (.md, .json, or .bib when there is one)
  /new REQUEST   start a new search in a fresh run directory
  /quit          leave (Ctrl-D too)
Ctrl-C stops a running search gracefully (the report is written from what was collected); a second Ctrl-C leaves.
"""

#: Reads one line (raises EOFError at the end of input, KeyboardInterrupt on Ctrl-C).
LineReader = Callable[[str], str]

_SOURCES = re.compile(r"\b(?:sources?|provenance|where\s+(?:was|did|is|does|do))\b", re.IGNORECASE)
_ITEM_REF = re.compile(r"(?:\bitem\s*#?|#)(\d+)\b", re.IGNORECASE)
#: "also search bioRxiv", and "continue on arXiv" (a new budget there, from the pages its last visit left out).
_ALSO_SITE = re.compile(
    r"^\s*(?:(?:also|now)\s+(?:search|look\s+at|explore|try|check|visit)|continue\s+(?:on|at))"
    r"\s+(.+?)\s*[.!]?\s*$",
    re.I,
)


def prompt_toolkit_reader(history_file: Path | None) -> LineReader:
    """A line reader with editing and history (prompt-toolkit) on a terminal; plain `input` otherwise."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return input
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import FileHistory, History, InMemoryHistory

    history: History = InMemoryHistory()
    if history_file is not None:
        try:
            history_file.parent.mkdir(parents=True, exist_ok=True)
            history = FileHistory(str(history_file))
        except OSError:
            pass
    session: PromptSession[str] = PromptSession(history=history)
    return lambda prompt: session.prompt(prompt)


class ChatRepl:
    """One interactive session. `read_line` supplies the user's lines; output goes to `console`, progress to
    `progress_console`."""

    def __init__(
        self,
        crawler: ResearchCrawler,
        *,
        sites: Sequence[str] = (),
        console: Console,
        progress_console: Console,
        view_mode: ViewMode,
        read_line: LineReader,
        site_pool: SitePool | None = None,
    ) -> None:
        self.crawler = crawler
        self.named_sites = list(sites)
        self.console = console
        self.progress_console = progress_console
        self.view_mode: ViewMode = view_mode
        self.read_line = read_line
        self.site_pool = site_pool
        self.run_dir: Path | None = None
        self.request: str | None = None
        self.report: Report | None = None
        self._search_stopped = False  # the last search was stopped with Ctrl-C
        self._searching: Path | None = None  # the run directory of the search under way

    # --- the loop -------------------------------------------------------------------------------

    def run(self) -> int:
        """Read and answer lines until /quit, end of input or a second Ctrl-C; the exit code."""
        self.console.print(
            "research-crawler chat: type a research request, /help for help, /quit to leave.", highlight=False
        )
        interrupted = False
        while True:
            try:
                line = self.read_line(PROMPT)
            except EOFError:
                return 0
            except KeyboardInterrupt:
                # A Ctrl-C that already stopped a search counts: the next one, at the prompt, leaves.
                if interrupted or self._search_stopped:
                    if self._search_stopped and self.run_dir is not None:
                        self.console.print(f"The stopped search goes on with: {escape(resume_command(self.run_dir))}")
                    return 130
                interrupted = True
                self.console.print("(Ctrl-C again or /quit to leave)")
                continue
            self._search_stopped = False
            interrupted = False
            try:
                if not self.handle(line):
                    return 0
            except KeyboardInterrupt:  # the second Ctrl-C during a search
                where = self._searching or self.run_dir
                again = resume_command(where) if where is not None else "research-crawler resume RUN_DIR"
                self.console.print(f"Left during a search; continue it with: {escape(again)}")
                return 130

    def handle(self, line: str) -> bool:
        """Answer one line; False when the user leaves."""
        text = line.strip()
        if not text:
            return True
        if text.startswith("/"):
            return self._command(text)
        if _SOURCES.search(text) and (match := _ITEM_REF.search(text)) is not None:
            self._show_sources(int(match.group(1)))
            return True
        self._search(text)
        return True

    # --- commands -------------------------------------------------------------------------------

    def _command(self, text: str) -> bool:
        name, _, argument = text.partition(" ")
        argument = argument.strip()
        if name in ("/quit", "/exit", "/q"):
            return False
        if name == "/help":
            self.console.print(HELP, markup=False, highlight=False)
        elif name == "/sites":
            self._show_sites()
        elif name == "/items":
            if self.report is None:
                self.console.print("No report yet: type a research request first.")
            else:
                show_items(self.console, self.report)
        elif name == "/save":
            self._save(argument)
        elif name == "/new":
            if not argument:
                self._error("/new needs a request, e.g. /new find papers on CRISPR base editing")
            else:
                self.run_dir = self.request = self.report = None
                self._search(argument)
        else:
            self._error(f"unknown command {name}; /help lists the commands")
        return True

    def _show_sites(self) -> None:
        if self.report is not None and self.report.sites:
            for site in self.report.sites:
                self.console.print(
                    f"- {escape(site.name)} ({escape(site.url)}): {site.pages_visited} page(s) visited, "
                    f"{site.items_collected} item(s), {site.reason.replace('_', ' ')}",
                    highlight=False,
                )
        elif self.named_sites:
            self.console.print("Sites named for this session: " + ", ".join(map(escape, self.named_sites)))
        else:
            pool = self._pool()
            names = ", ".join(f"{site.name} ({site.id})" for site in pool.sites)
            self.console.print(f"No search yet; the Web Selector will choose among: {escape(names)}")

    def _save(self, argument: str) -> None:
        if self.report is None or not self.report.run_dir:
            self._error("no report to save yet")
            return
        if not argument:
            self._error("/save needs a path, e.g. /save gnn-papers.md")
            return
        target = Path(argument).expanduser()
        source_name = {".json": "report.json", ".bib": "items.bib"}.get(target.suffix.lower(), "report.md")
        source = Path(self.report.run_dir) / source_name
        if target.is_dir():
            self._error(f"{target} is a directory: name the file, e.g. /save {target / 'report.md'}")
            return
        if not source.exists():
            self._error(f"this run has no {source_name}")
            return
        try:
            if target.parent != Path():
                target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
        except OSError as exc:
            why = (exc.strerror or type(exc).__name__).lower()
            where = f" ({exc.filename})" if exc.filename and str(exc.filename) != str(target) else ""
            self._error(f"cannot save to {target}: {why}{where}; name a file in a directory you can write, e.g. /save "
                        f"{target.name}")
            return
        self.console.print(f"Saved {source_name} to {escape(str(target))}")

    def _show_sources(self, rank: int) -> None:
        item = self._item(rank)
        if item is not None:
            show_item_sources(self.console, item)

    def _item(self, rank: int) -> ReportItem | None:
        if self.report is None:
            self._error("no report yet: type a research request first")
            return None
        item = next((candidate for candidate in self.report.items if candidate.rank == rank), None)
        if item is None:
            count = len(self.report.items)
            self._error(f"the last report has no item {rank} (it has {count} item{'s' if count != 1 else ''})")
        return item

    # --- searching ------------------------------------------------------------------------------

    def _search(self, text: str) -> None:
        try:
            if self.run_dir is None:
                self._first_search(text)
            else:
                self._follow_up(text)
        except ResearchCrawlerError as exc:
            self._error(str(exc))

    def _first_search(self, text: str) -> None:
        from research_crawler.run.run_dir import new_run_dir

        run_dir = new_run_dir(self.crawler.settings.runs_dir, text)
        self.request = text
        self._searching = run_dir
        report = self._run(
            lambda on_event: self.crawler.arun(text, sites=self.named_sites, run_dir=run_dir, on_event=on_event)
        )
        self.run_dir = run_dir
        self._show(report)

    def _follow_up(self, text: str) -> None:
        assert self.run_dir is not None and self.request is not None
        extra_sites: list[str] = []
        if (match := _ALSO_SITE.match(text)) is not None:
            extra_sites = self._resolve_sites(match.group(1))
        query = f"{self.request}{FOLLOW_UP}{self._with_item_titles(text)}"
        run_dir = self.run_dir
        report = self._run(
            lambda on_event: self.crawler.afollow_up(run_dir, query, sites=extra_sites, on_event=on_event)
        )
        self._show(report)

    def _with_item_titles(self, text: str) -> str:
        """`text` with each "item N" of the last report followed by its title, so the agents know what it is."""
        if self.report is None:
            return text
        titles = {item.rank: item.title for item in self.report.items}

        def named(match: re.Match[str]) -> str:
            rank = int(match.group(1))
            return f'{match.group(0)} ("{titles[rank]}")' if rank in titles else match.group(0)

        return _ITEM_REF.sub(named, text)

    def _resolve_sites(self, words: str) -> list[str]:
        """Sites meant by "bioRxiv", "arxiv and medrxiv" or a URL; ConfigError for a name nobody knows."""
        found: list[str] = []
        for part in re.split(r"\s*(?:,|\band\b|&)\s*", words):
            part = part.strip()
            if not part:
                continue
            if "/" in part or re.search(r"\.[a-z]{2,}$", part, re.I) or part.startswith("127.0.0.1"):
                try:
                    found.append(canonicalize_url(part if "://" in part else f"https://{part}"))
                except InvalidURLError as exc:
                    raise ConfigError(f"{part!r} is not a usable site address: {exc}") from exc
                continue
            key = _key(part)
            match = next((s for s in self._pool().sites if key in (_key(s.id), _key(s.name))), None)
            if match is None:
                known = ", ".join(site.name for site in self._pool().sites)
                raise ConfigError(f"no site called {part!r} in the site pool ({known}); give its URL instead")
            found.append(match.url)
        return found

    def _pool(self) -> SitePool:
        if self.site_pool is None:
            self.site_pool = load_site_pool()
        return self.site_pool

    def _run(self, work: Callable[[EventCallback], Coroutine[Any, Any, Report]]) -> Report:
        view = LiveView(
            console=self.progress_console,
            mode=self.view_mode,
            subpage_limit=self.crawler.settings.explore.max_subpages,
        )
        return run_in_foreground(self.crawler, work, view=view)

    def _show(self, report: Report) -> None:
        self.report = report
        show_report(self.console, report)
        self._search_stopped = report.stop_reason == "interrupted"
        if self._search_stopped:
            later = f"; or later: {escape(resume_command(Path(report.run_dir)))}" if report.run_dir else ""
            self.console.print(
                "The search was stopped; this report holds what was collected until then. A follow-up goes on from "
                f"here{later}",
                highlight=False,
            )

    def _error(self, message: str) -> None:
        self.console.print(f"[red]error:[/] {escape(message)}", highlight=False)


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())
