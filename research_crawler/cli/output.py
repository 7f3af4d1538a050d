"""Where the commands write (results on stdout, progress and errors on stderr) and how they leave: exit 0 done
(a report written, even an empty one), 1 an error (one red line, no traceback), 2 bad arguments, 130 Ctrl-C.
"""

from __future__ import annotations

import functools
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn, ParamSpec, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from research_crawler.errors import ResearchCrawlerError

console = Console()
err_console = Console(stderr=True)

P = ParamSpec("P")
R = TypeVar("R")


def this_command(fallback: str) -> str:
    """The command line this process was started with, as a shell takes it again (``research-crawler batch
    'q.jsonl' --out runs``); `fallback` when it was not started as research-crawler (a test runner, a notebook)."""
    program = Path(sys.argv[0]).name if sys.argv else ""
    if program not in ("research-crawler", "__main__.py"):
        return fallback
    return shlex.join(["research-crawler", *sys.argv[1:]])


def print_error(message: str) -> None:
    """One red line on stderr: ``error: MESSAGE``."""
    err_console.print(f"[red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)


def fail(message: str, code: int = 2) -> NoReturn:
    """One red line on stderr, then leave with `code` (2, bad arguments, unless told)."""
    print_error(message)
    raise typer.Exit(code)


def _path_fix(exc: OSError) -> str:
    """What to do about a path the command could not use, when the error names one: "" otherwise."""
    if not exc.filename:
        return ""
    parent = shlex.quote(str(Path(str(exc.filename)).parent))
    if isinstance(exc, FileNotFoundError | NotADirectoryError):
        return f"; check the path (ls {parent})"
    if isinstance(exc, PermissionError):
        return f"; choose a path you may use (ls -ld {parent})"
    return ""


def friendly_errors(command: Callable[P, R]) -> Callable[P, R]:
    """Every ResearchCrawlerError, and any file the command cannot use (OSError), becomes one red line and exit
    code 1; Ctrl-C leaves with 130."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except ResearchCrawlerError as exc:
            fail(str(exc), code=1)
        except OSError as exc:  # a file or directory the command could not use (full disk, permissions…)
            where = f"{exc.filename}: " if exc.filename else ""
            fail(f"{where}{(exc.strerror or str(exc) or type(exc).__name__).lower()}{_path_fix(exc)}", code=1)
        except KeyboardInterrupt:
            err_console.print("Interrupted.")
            raise typer.Exit(130) from None

    return wrapper
