"""The library section of `Settings`: where what every run found is kept across runs (a SQLite file).

`watch` compares a run with it to say what is new; `ask` records into it too when `record_runs` is on.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from research_crawler.config.settings_section import SettingsSection

__all__ = ["LibrarySettings"]


class LibrarySettings(SettingsSection):
    """The library of items found across runs."""

    path: Path | None = Field(
        None,
        description="The library's SQLite file (created when missing). None: library.sqlite3 in the user data "
        "directory (platformdirs; ~/.local/share/research-crawler on Linux). `--library PATH` sets it per command.",
    )
    record_runs: bool = Field(
        True,
        description="`ask` records what its run found (reported and collected items, with each sighting) in the "
        "library; `watch` always does.",
    )
    feed_entries: int = Field(
        200, ge=1, description="Entries an Atom feed written by `watch --feed` keeps (the newest; older ones drop off)."
    )
