"""The Presenter's tool and the items listing it reads: the ranked items, every field it may use."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Annotated

from research_crawler.config.sections import MAX_SUMMARY_CHARS
from research_crawler.pages.cleanup import shorten
from research_crawler.report.models import ReportItem

__all__ = ["PresenterTools", "format_items_for_presenter", "summary_start"]


_SENTENCE_END = re.compile(r"[.!?](?=\s)")


def summary_start(text: str, max_chars: int) -> str:
    """The first sentences of `text` that fit in `max_chars` characters, "…" marking the cut; the first
    sentence cut at a word when even it does not fit."""
    if len(text) <= max_chars:
        return text
    ends = [match.end() for match in _SENTENCE_END.finditer(text, 0, max_chars)]
    if ends and ends[-1] >= max_chars // 3:
        return text[: ends[-1]] + " …"
    return shorten(text, max_chars)


def format_items_for_presenter(items: Sequence[ReportItem], *, summary_chars: int = MAX_SUMMARY_CHARS) -> str:
    """The items as the Presenter reads them: every field it may use, and nothing else; of each summary,
    the first sentences that fit in `summary_chars` characters (none when 0)."""
    if not items:
        return "No items were found."
    blocks = []
    for item in items:
        lines = [f"{item.rank}. {item.title}", f"   link: {item.url}"]
        if item.authors:
            lines.append(f"   authors: {'; '.join(item.authors)}")
        if item.date:
            lines.append(f"   date: {item.date}")
        if item.doi:
            lines.append(f"   doi: {item.doi}")
        summary = item.abstract or item.description
        if summary and summary_chars > 0:
            lines.append(f"   about: {summary_start(summary, summary_chars)}")
        blocks.append("\n".join(lines))
    return "\n".join(blocks)


class PresenterTools:
    """The Presenter's tool, over the ranked items prepared by the Presenter nested chat."""

    def __init__(self, *, summary_chars: int = MAX_SUMMARY_CHARS) -> None:
        self._summary_chars = summary_chars
        self._items: list[ReportItem] = []
        self._requested: int | None = None

    def load(self, items: Sequence[ReportItem], *, requested: int | None) -> None:
        """Give the tool the ranked items of this run (before the Presenter speaks)."""
        self._items = list(items)
        self._requested = requested

    def get_top_items(self, k: Annotated[int, "How many items to receive (at most 50)."] = 10) -> str:
        """Receive the best items found, ranked, with their title, link, authors, date and summary when
        known. Write the report from these items only."""
        return self.listing(max(1, min(int(k), 50)))

    def listing(self, k: int | None = None) -> str:
        """The best `k` items (all of them by default) as the Presenter reads them, with the shortfall noted."""
        shown = self._items[:k] if k is not None else self._items
        text = f"{len(self._items)} item(s) were found; the best {len(shown)}:\n" + format_items_for_presenter(
            shown, summary_chars=self._summary_chars
        )
        if self._requested is not None and len(self._items) < self._requested:
            text += f"\nOnly {len(self._items)} of the {self._requested} requested were found: say so."
        return text

    def tools(self) -> list[Callable[..., str]]:
        return [self.get_top_items]
