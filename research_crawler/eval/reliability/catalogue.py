"""The reliability catalogue as runnable cases: each case sets up its faults, runs the crawler and says whether
the promise held, with the figures the report sums per group.

Cases register themselves with `@case(group, name)`; a case is a plain or async function taking no
arguments and returning an `Outcome`. They are the report's, not the test suite's: the tests under
``tests/`` assert the same promises (RELIABILITY.md lists where), the report measures them in one run.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import time
import traceback
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field

from research_crawler.pages.page import Page

__all__ = ["GROUPS", "CaseResult", "Outcome", "case", "no_chromium", "registered_cases", "run_case"]

logger = logging.getLogger(__name__)

#: The catalogue's groups, in RELIABILITY.md's order.
GROUPS = (
    "network faults",
    "bad content",
    "crawler traps",
    "politeness",
    "crash and resume",
    "model faults",
    "model misbehaviour",
    "prompt injection",
    "ssrf",
    "secrets",
    "hostile text and files",
    "resource bounds",
    "answers that agree with themselves",
    "run directories from elsewhere",
)


@dataclass
class Outcome:
    """What one case found. `pages` are the fetches it made (their times are compared with `deadline_s`)."""

    held: bool
    detail: str = ""
    pages: list[Page] = field(default_factory=list)
    deadline_s: float = 0.0
    items_lost: int = 0
    refetched: int = 0
    canary_hits: int = 0
    skipped: str = ""


@dataclass
class CaseResult:
    """One case's result as the report shows it."""

    group: str
    name: str
    held: bool
    detail: str
    items_lost: int
    refetched: int
    canary_hits: int
    longest_fetch_s: float
    deadline_s: float
    seconds: float
    skipped: str = ""


def no_chromium() -> Outcome | None:
    """The skipped outcome of a case that needs the browser when no Chromium can be found, else None."""
    from research_crawler.web.browser import find_chromium  # the browser's module only for the cases that need it

    try:
        find_chromium(None)
    except Exception as exc:
        return Outcome(False, skipped=f"no Chromium: {exc}")
    return None


CaseFunction = Callable[[], "Outcome | Awaitable[Outcome]"]
_REGISTRY: list[tuple[str, str, CaseFunction]] = []


def case(group: str, name: str) -> Callable[[CaseFunction], CaseFunction]:
    """Register a case of the catalogue under `group`."""
    if group not in GROUPS:
        raise ValueError(f"unknown group {group!r}; groups: {', '.join(GROUPS)}")

    def register(function: CaseFunction) -> CaseFunction:
        _REGISTRY.append((group, name, function))
        return function

    return register


def registered_cases(groups: Iterable[str] | None = None) -> list[tuple[str, str, CaseFunction]]:
    """The registered cases (of `groups` when given), in the catalogue's group order."""
    wanted = set(groups) if groups is not None else set(GROUPS)
    ordered = sorted(_REGISTRY, key=lambda entry: GROUPS.index(entry[0]))
    return [entry for entry in ordered if entry[0] in wanted]


def run_case(group: str, name: str, function: CaseFunction) -> CaseResult:
    """Run one case; an exception is a case that did not hold (with the error as its detail), never a crash."""
    started = time.monotonic()
    try:
        result = function()
        outcome = asyncio.run(result) if inspect.isawaitable(result) else result  # type: ignore[arg-type]
    except Exception as exc:
        logger.debug("case %s / %s raised:\n%s", group, name, traceback.format_exc())
        outcome = Outcome(held=False, detail=f"raised {type(exc).__name__}: {str(exc)[:300]}")
    assert isinstance(outcome, Outcome)
    longest = max((page.elapsed_s for page in outcome.pages), default=0.0)
    return CaseResult(
        group=group,
        name=name,
        held=outcome.held and not outcome.skipped,
        detail=outcome.detail,
        items_lost=outcome.items_lost,
        refetched=outcome.refetched,
        canary_hits=outcome.canary_hits,
        longest_fetch_s=round(longest, 3),
        deadline_s=outcome.deadline_s,
        seconds=round(time.monotonic() - started, 3),
        skipped=outcome.skipped,
    )
