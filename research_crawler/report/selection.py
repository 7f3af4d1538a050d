"""Choosing the report's items under the request's contract: dates filter, a byline naming other authors than those
asked for is left out, and so is one whose byline is not shown when others are shown to be by them (a careful
reader lists under "by X" only what they saw is by X, and names the rest as unchecked; only when none could be
seen are the unchecked listed, said so, rather than nothing), "newest first" orders by date, the count is met or
the shortfall said — never padded — and one line per constraint says how it was met.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

from research_crawler.context.request import ResearchRequest, date_span
from research_crawler.pages.person_names import same_person
from research_crawler.report.models import ReportItem

__all__ = ["Selection", "select_items"]


@dataclass
class Selection:
    """The items chosen, best first (or newest first), and the compliance lines of the report."""

    items: list[ReportItem]
    compliance: list[str] = field(default_factory=list)
    outside: list[ReportItem] = field(default_factory=list)
    undated: list[ReportItem] = field(default_factory=list)


def _newest_key(item: ReportItem) -> date:
    span = date_span(item.date)
    return span[1] if span is not None else date.min


def select_items(
    candidates: Sequence[ReportItem],
    *,
    request: ResearchRequest | None,
    wanted: int,
    today: date,
    recent_days: int,
    item_kind: str,
) -> Selection:
    """The report's items from `candidates` (ranked, dates read where they could be): those that meet the
    request's dates, newest first when asked, at most `wanted`; and the lines that say so."""
    if request is None:
        return Selection(list(candidates[:wanted]))
    inside: list[ReportItem] = []
    outside: list[ReportItem] = []
    undated: list[ReportItem] = []
    like = _words(request.like)
    for item in candidates:
        if like and _words(item.title) == like:
            continue  # "more like this": this one was shown already
        fit = request.date_fit(item.date, today=today, recent_days=recent_days)
        (inside if fit == "inside" else outside if fit == "outside" else undated).append(item)
    if request.order == "newest":
        inside.sort(key=_newest_key, reverse=True)  # a stable sort: equal dates keep their relevance order
    by_authors = [item for item in inside if _by(item, request.authors)]
    by_others = [item for item in inside if request.authors and item.authors and item not in by_authors]
    unsigned = [item for item in inside if request.authors and not item.authors]
    unlisted: list[ReportItem] = []
    if request.authors and by_authors:  # some shown to be by the authors: one whose byline is unseen is not listed
        inside, unlisted = by_authors, unsigned
    elif request.authors:  # none shown to be: those whose byline is unseen are listed, said unchecked
        inside = unsigned
    chosen = [item.model_copy(update={"rank": rank}) for rank, item in enumerate(inside[:wanted], 1)]
    lines = []
    kind = request.item_kind or item_kind
    dates = request.describe_dates(today=today, recent_days=recent_days, in_sentence=True)
    if dates:
        line = f"{len(chosen)} {kind}(s) {dates}"
        if request.count is not None and len(chosen) < request.count:
            line = f"only {len(chosen)} of the {request.count} requested are dated {dates}"
        elif request.count is not None:
            line = f"{len(chosen)} of the {request.count} requested, all dated {dates}"
        if outside:
            older = len([item for item in outside if _before_window(item, request, today, recent_days)])
            newer = len(outside) - older
            parts = [f"{older} older" if older else "", f"{newer} newer" if newer else ""]
            line += f"; {len(outside)} outside those dates left out ({', '.join(p for p in parts if p)})"
        lines.append(line)
        if undated:
            titles = _first_titles(undated)
            lines.append(
                f"{len(undated)} {kind}(s) with no date shown could not be checked and were left out: {titles}"
            )
    elif request.count is not None:
        if len(chosen) >= request.count:
            lines.append(f"{len(chosen)} of the {request.count} requested")
        else:
            lines.append(f"only {len(chosen)} of the {request.count} requested were found")
    if request.order == "newest":
        lines.append("newest first" + ("" if all(item.date for item in chosen) else " (by the dates the items show)"))
    if request.fields:
        names = ", ".join(request.fields)
        lines.append(f"fields asked for: {names}{' only' if request.fields_only else ''}")
    if request.authors:
        line = f"{len([item for item in chosen if item.authors])} by {', '.join(request.authors)}"
        if by_others:
            line += f"; {len(by_others)} by other authors left out"
        lines.append(line)
        unchecked = [item for item in chosen if not item.authors]
        if unchecked:
            titles = _first_titles(unchecked)
            lines.append(f"{len(unchecked)} {kind}(s) with no authors shown could not be checked: {titles}")
        if unlisted:
            titles = _first_titles(unlisted)
            lines.append(
                f"{len(unlisted)} {kind}(s) with no authors shown could not be checked and were left out: {titles}"
            )
    return Selection(chosen, lines, outside + by_others, undated + unlisted)


def _first_titles(items: list[ReportItem]) -> str:
    """The first three items' titles, quoted, for a line of the report ("“A”, “B”, “C” …")."""
    return ", ".join(f"“{item.title}”" for item in items[:3]) + (" …" if len(items) > 3 else "")


def _words(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


def _by(item: ReportItem, authors: Sequence[str]) -> bool:
    """Whether one of `authors` (as the request names them, often a surname alone) is among the item's authors:
    the same person (`pages.person_names.same_person`: "Petrova" and "Petrova R" name "Rosa Petrova")."""
    return any(same_person(named, author) for named in authors for author in item.authors)


def _before_window(item: ReportItem, request: ResearchRequest, today: date, recent_days: int) -> bool:
    start, _ = request.window(today=today, recent_days=recent_days)
    span = date_span(item.date)
    return start is not None and span is not None and span[1] < start
