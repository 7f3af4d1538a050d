"""Stuck detection for one site: "the same element twice = stuck" (seed 001), made concrete for real models.

A site's search is stuck when the Planner keeps choosing URLs it cannot open (visited or unknown), when
several scrapes in a row add neither links nor items on a site that has given no relevant item (a page whose own
links lead to pages still to read is no dead end, though it added none: `pages/navigation_pages.leads_still_open`),
when the same tool call is repeated or calls go round in a short cycle (A→B→A→B), when tool calls keep failing or
the model keeps giving unusable replies, or when the site has used its budget of model calls. The detector only counts;
the speaker selection reads `is_stuck` and moves on to the next site, and the report gives the reason.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

__all__ = ["StuckDetector"]

#: Cycles of this many distinct calls or fewer are detected (A→B→A→B, A→B→C→A→B→C).
_MAX_CYCLE = 3


@dataclass
class StuckDetector:
    """Counters of one site's exploration; `reset()` when the site changes."""

    max_bad_choices: int = 2
    max_empty_scrapes: int = 3
    max_repeated_calls: int = 3
    max_idle_reviews: int = 2
    max_failed_calls: int = 3
    max_unusable_replies: int = 3
    max_site_model_calls: int | None = None
    bad_choices: int = 0
    idle_reviews: int = 0
    empty_scrapes_in_a_row: int = 0
    repeated_calls: int = 0
    failed_calls_in_a_row: int = 0
    unusable_replies_in_a_row: int = 0
    site_model_calls: int = 0
    reasons: list[str] = field(default_factory=list)
    _calls: list[str] = field(default_factory=list)
    _last_review_progress: int | None = None

    def reset(self) -> None:
        """Start counting afresh for a new site."""
        self.bad_choices = self.empty_scrapes_in_a_row = self.repeated_calls = self.idle_reviews = 0
        self.failed_calls_in_a_row = self.unusable_replies_in_a_row = self.site_model_calls = 0
        self.reasons = []
        self._calls = []
        self._last_review_progress = None

    def record_tool_call(self, name: str, arguments: object) -> None:
        """Note a tool call by an agent; the same call `max_repeated_calls` times in a row is stuck, and so
        is a short cycle of calls (period 2 or 3) gone round `max_repeated_calls` times."""
        key = name + json.dumps(arguments, sort_keys=True, default=str)
        self.repeated_calls = self.repeated_calls + 1 if self._calls and key == self._calls[-1] else 1
        self._calls = [*self._calls, key][-_MAX_CYCLE * self.max_repeated_calls :]
        if self.repeated_calls >= self.max_repeated_calls:
            self._stuck(f"the same call {name}({_short(arguments)}) was repeated {self.repeated_calls} times")
            return
        period = self._cycle_period()
        if period is not None:
            names = " → ".join(call.split("{", 1)[0].split("[", 1)[0] for call in self._calls[-period:])
            self._stuck(f"the calls {names} went round in a cycle {self.max_repeated_calls} times")

    def record_tool_result(self, *, ok: bool, content: str) -> None:
        """A tool answered; `max_failed_calls` errors in a row ("Error: …") is stuck."""
        if ok:
            self.failed_calls_in_a_row = 0
            return
        self.failed_calls_in_a_row += 1
        if self.failed_calls_in_a_row >= self.max_failed_calls:
            self._stuck(f"{self.failed_calls_in_a_row} tool calls in a row failed (last: {_clip(content)})")

    def record_model_call(self) -> None:
        """A model call was made for this site; more than `max_site_model_calls` is stuck."""
        self.site_model_calls += 1
        if self.max_site_model_calls is not None and self.site_model_calls > self.max_site_model_calls:
            self._stuck(f"the site used its budget of {self.max_site_model_calls} model calls")

    def record_agent_reply(self, *, usable: bool, problem: str = "") -> None:
        """An agent's turn ended with a reply (its client's re-asks included); `max_unusable_replies`
        unusable ones in a row is stuck."""
        if usable:
            self.unusable_replies_in_a_row = 0
            return
        self.unusable_replies_in_a_row += 1
        if self.unusable_replies_in_a_row >= self.max_unusable_replies:
            self._stuck(f"the model gave {self.unusable_replies_in_a_row} unusable replies in a row ({_clip(problem)})")

    def record_bad_choice(self, url: str, why: str) -> None:
        """The Planner chose a URL that cannot be opened (already visited, or never discovered)."""
        self.bad_choices += 1
        if self.bad_choices >= self.max_bad_choices:
            self._stuck(f"the Planner chose {self.bad_choices} URLs it could not open (last: {url}, {why})")

    def record_scrape(
        self, *, new_links: int, new_items: int, site_gave_items: bool = False, open_leads: int = 0
    ) -> None:
        """A page was scraped; `max_empty_scrapes` in a row adding nothing is stuck — unless the site has given
        relevant items already (`site_gave_items`): a person reading a yielding site's candidates one by one, some
        of them not what was asked, goes on, and the pages that site earned bound it (tools/site_budget.py). A page
        whose own links lead to pages still to read (`open_leads`: an index of the site's sections that its menu
        showed first) added nothing new but is no dead end: the count starts again, and the site's pages bound it."""
        if new_links or new_items or open_leads:
            self.empty_scrapes_in_a_row = 0
            return
        self.empty_scrapes_in_a_row += 1
        if self.empty_scrapes_in_a_row >= self.max_empty_scrapes and not site_gave_items:
            self._stuck(f"{self.empty_scrapes_in_a_row} scrapes in a row added neither links nor items")

    def record_review(self, progress: int) -> None:
        """The Planner handed over to the Supervisor; `progress` counts pages visited plus items collected.
        Handing over again without any progress since the last review, `max_idle_reviews` times, is stuck."""
        if self._last_review_progress is not None and progress <= self._last_review_progress:
            self.idle_reviews += 1
            if self.idle_reviews >= self.max_idle_reviews:
                self._stuck(f"the site was reviewed {self.idle_reviews + 1} times without any new page or item")
        else:
            self.idle_reviews = 0
        self._last_review_progress = progress

    @property
    def is_stuck(self) -> bool:
        """Whether the current site should be abandoned."""
        return bool(self.reasons)

    @property
    def reason(self) -> str:
        """Why the site is stuck ("" when it is not)."""
        return self.reasons[0] if self.reasons else ""

    def _cycle_period(self) -> int | None:
        """The period (2 or 3) of a cycle the last calls went round `max_repeated_calls` times, or None."""
        for period in range(2, _MAX_CYCLE + 1):
            span = period * self.max_repeated_calls
            if len(self._calls) < span:
                continue
            tail = self._calls[-span:]
            block = tail[:period]
            if len(set(block)) > 1 and all(tail[i] == block[i % period] for i in range(span)):
                return period
        return None

    def _stuck(self, reason: str) -> None:
        if reason not in self.reasons:
            self.reasons.append(reason)


def _short(arguments: object) -> str:
    text = json.dumps(arguments, default=str)
    return text if len(text) <= 80 else text[:77] + "..."


def _clip(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= 120 else line[:117] + "..."
