"""Stuck detection for one site: "the same element twice = stuck" (seed 001), made concrete.

A site's search is stuck when the Planner keeps choosing URLs it cannot open (visited or unknown),
when several scrapes in a row add neither links nor items, or when the same tool call is repeated.
The detector only counts; the speaker selection reads `is_stuck` and moves on to the next site.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

__all__ = ["StuckDetector"]


@dataclass
class StuckDetector:
    """Counters of one site's exploration; `reset()` when the site changes."""

    max_bad_choices: int = 2
    max_empty_scrapes: int = 3
    max_repeated_calls: int = 3
    max_idle_reviews: int = 2
    bad_choices: int = 0
    idle_reviews: int = 0
    empty_scrapes_in_a_row: int = 0
    repeated_calls: int = 0
    reasons: list[str] = field(default_factory=list)
    _last_call: str | None = None
    _last_review_progress: int | None = None

    def reset(self) -> None:
        """Start counting afresh for a new site."""
        self.bad_choices = self.empty_scrapes_in_a_row = self.repeated_calls = self.idle_reviews = 0
        self.reasons = []
        self._last_call = None
        self._last_review_progress = None

    def record_tool_call(self, name: str, arguments: object) -> None:
        """Note a tool call by an agent; the same call `max_repeated_calls` times in a row is stuck."""
        key = name + json.dumps(arguments, sort_keys=True, default=str)
        self.repeated_calls = self.repeated_calls + 1 if key == self._last_call else 1
        self._last_call = key
        if self.repeated_calls >= self.max_repeated_calls:
            self._stuck(f"the same call {name}({_short(arguments)}) was repeated {self.repeated_calls} times")

    def record_bad_choice(self, url: str, why: str) -> None:
        """The Planner chose a URL that cannot be opened (already visited, or never discovered)."""
        self.bad_choices += 1
        if self.bad_choices >= self.max_bad_choices:
            self._stuck(f"the Planner chose {self.bad_choices} URLs it could not open (last: {url}, {why})")

    def record_scrape(self, *, new_links: int, new_items: int) -> None:
        """A page was scraped; `max_empty_scrapes` in a row adding nothing is stuck."""
        if new_links or new_items:
            self.empty_scrapes_in_a_row = 0
            return
        self.empty_scrapes_in_a_row += 1
        if self.empty_scrapes_in_a_row >= self.max_empty_scrapes:
            self._stuck(f"{self.empty_scrapes_in_a_row} scrapes in a row added neither links nor items")

    def record_review(self, progress: int) -> None:
        """The Planner handed over to the Supervisor; `progress` counts pages visited plus items collected.
        Handing over again without any progress since the last review, `max_idle_reviews` times, is stuck."""
        if self._last_review_progress is not None and progress <= self._last_review_progress:
            self.idle_reviews += 1
            if self.idle_reviews >= self.max_idle_reviews:
                self._stuck(
                    f"the site was reviewed {self.idle_reviews + 1} times without any new page or item"
                )
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

    def _stuck(self, reason: str) -> None:
        if reason not in self.reasons:
            self.reasons.append(reason)


def _short(arguments: object) -> str:
    text = json.dumps(arguments, default=str)
    return text if len(text) <= 80 else text[:77] + "..."
