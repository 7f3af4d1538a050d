"""A run's progress for the browser: the run's one progress fold (`run/progress.py`, the terminal's too), shown as
the small snapshot the page's panel reads (site, page, agent, items, tokens, cost) and its log lines.

Event text came from pages and models: it is cleaned by the one sanitiser and cut short here, and the page only
ever shows it as text (never as markup).
"""

from __future__ import annotations

from typing import Any

from research_crawler.run.progress import RunProgress
from research_crawler.text.untrusted import untrusted

__all__ = ["WebProgress"]

_MAX_TEXT = 300


def _text(value: Any, limit: int = _MAX_TEXT) -> str:
    text = " ".join(untrusted(str(value or "")).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class WebProgress:
    """What a run has done so far, as the page shows it. `apply(event)` folds a trace event in and returns the log
    line it is worth (None for most events), cleaned."""

    def __init__(self) -> None:
        self.fold = RunProgress()

    def apply(self, event: dict[str, Any]) -> str | None:
        line = self.fold.apply(event)
        return _text(line) if line is not None else None

    @property
    def items(self) -> int:
        return self.fold.items

    @property
    def latest_titles(self) -> list[str]:
        return [_text(title, 90) for title in self.fold.latest_titles]

    def snapshot(self) -> dict[str, Any]:
        """The numbers the page's progress panel shows."""
        fold = self.fold
        site = f"{len(fold.sites)} sites at once" if fold.parallel else fold.current_site
        return {
            "query": _text(fold.query),
            "site": _text(site),
            "sites": [_text(url) for url in fold.sites],
            "page": _text(fold.page),
            "agent": _text(fold.agent, 60),
            "pages_fetched": fold.pages_fetched,
            "pages_read": sum(fold.subpages.values()),
            "links_queued": fold.links_queued,
            "items": fold.items,
            "model_calls": fold.model_calls,
            "tokens": f"{fold.input_tokens:,} in · {fold.output_tokens:,} out",
            "cost": fold.cost_text,
            "faults": fold.faults,
            "finished": _text(fold.finished, 60),
            "latest": " · ".join(self.latest_titles),
        }
