"""How the library is shown on the terminal: a table of items, one item in full, and a watch's outcome. Every
text from a page goes in as Rich Text (never parsed as markup), already cleaned of control characters."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.table import Table
from rich.text import Text

from research_crawler.library.records import LibraryItem

__all__ = ["show_item", "show_items", "show_watch"]


def show_items(console: Console, items: Sequence[LibraryItem], *, title: str) -> None:
    """A table of `items`: id, title, first author, date, URL, first seen."""
    table = Table(title=title, title_justify="left", show_lines=False)
    for column in ("id", "title", "first author", "date", "url", "first seen"):
        table.add_column(column, overflow="fold")
    for item in items:
        table.add_row(
            str(item.id),
            Text(item.title),
            Text(item.authors[0] if item.authors else ""),
            Text(item.date or ""),
            Text(item.url),
            item.first_seen[:10],
        )
    console.print(table)


def show_item(console: Console, item: LibraryItem) -> None:
    """One item: its fields, every identity, where it was seen, and the source of each metadata value."""
    console.print(Text(item.title, style="bold"))
    for label, value in (
        ("id", str(item.id)),
        ("key", item.key),
        ("kind", item.kind),
        ("url", item.url),
        ("authors", "; ".join(item.authors)),
        ("date", item.date or ""),
        ("doi", item.doi or ""),
        ("pdf", item.pdf_url or ""),
        ("first seen", item.first_seen),
        ("last seen", item.last_seen),
        ("known as", ", ".join(item.keys)),
    ):
        if value:
            console.print(Text.assemble((f"{label}: ", "dim"), value))
    if item.abstract:
        console.print(Text.assemble(("abstract: ", "dim"), item.abstract))
    seen = Table(title="Sightings", title_justify="left")
    for column in ("request", "site", "url", "found on", "first seen", "last seen", "times"):
        seen.add_column(column, overflow="fold")
    for s in item.sightings:
        seen.add_row(
            Text(s.request), Text(s.site), Text(s.url), Text(s.found_on), s.first_seen, s.last_seen, str(s.times_seen)
        )
    console.print(seen)
    if item.metadata:
        sources = Table(title="Metadata and where it was read", title_justify="left")
        for column in ("field", "value", "source"):
            sources.add_column(column, overflow="fold")
        for entry in item.metadata:
            sources.add_row(entry.field, Text(entry.value[:200]), Text(entry.source))
        console.print(sources)


def show_watch(
    console: Console,
    *,
    request: str,
    new: Sequence[LibraryItem],
    known: int,
    previous_watch: str | None,
    run_dir: str,
    library: str,
    feed: str | None,
) -> None:
    """What a watch found: the new items in a table, the known ones counted, where everything was written."""
    if previous_watch is None:
        heading = f"First watch of this request: {len(new)} item(s), all new."
    else:
        heading = f"{len(new)} new since the last watch ({previous_watch})."
    console.print(Text.assemble(("Watch: ", "bold"), request))
    console.print(heading)
    if new:
        show_items(console, new, title="New")
    if known:
        console.print(f"{known} item(s) found again, known from earlier watches (research-crawler library list).")
    console.print(Text.assemble(("Run: ", "dim"), run_dir))
    console.print(Text.assemble(("Library: ", "dim"), library))
    if feed is not None:
        console.print(Text.assemble(("Feed: ", "dim"), feed))
