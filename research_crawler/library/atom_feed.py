"""An Atom feed (RFC 4287) of what a watch found new, written or updated in place, that any feed reader can follow.

Updating keeps the entries already in the file (ours: the feed's id says so) and puts the new ones first, up to a
limit. Text from pages is cleaned of control characters (XML 1.0 cannot carry them) and escaped by the XML writer;
the file is replaced atomically, so a reader never sees half of it.

Written with the standard library's ElementTree, not feedgen: feedgen 1.0.0 (its latest) drops the rel and type of
every entry link (lkiesow/python-feedgen#135, open), which would make the PDF link a second alternate link.
"""

from __future__ import annotations

import hashlib
import os
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from research_crawler.context.durable_files import atomic_write_text
from research_crawler.errors import ConfigError
from research_crawler.library.records import LibraryItem, Watch
from research_crawler.text.untrusted import untrusted

__all__ = ["ATOM_NS", "check_feed", "write_feed"]

ATOM_NS = "http://www.w3.org/2005/Atom"
_A = f"{{{ATOM_NS}}}"
ET.register_namespace("", ATOM_NS)


def _text(value: str | None) -> str:
    return untrusted(value or "")


def _entry_id(item: LibraryItem) -> str:
    return "urn:research-crawler:item:" + hashlib.sha256(item.key.encode("utf-8")).hexdigest()[:32]


def _feed_id(watch: Watch) -> str:
    return f"urn:research-crawler:watch:{watch.key}"


def write_feed(
    path: Path, watch: Watch, new_items: Sequence[LibraryItem], *, max_entries: int, now: datetime | None = None
) -> int:
    """Write `new_items` as the newest entries of the Atom feed at `path` (created when missing); entries already
    there stay, after them, up to `max_entries` in all. Returns the number of entries written.

    Raises ConfigError for a file that is not a feed of this watch (it is left as it was).
    """
    stamp = (now or datetime.now(UTC)).isoformat(timespec="seconds")
    old_entries = _existing_entries(path, watch)
    feed = ET.Element(f"{_A}feed")
    ET.SubElement(feed, f"{_A}id").text = _feed_id(watch)
    ET.SubElement(feed, f"{_A}title").text = _text(f"research-crawler watch: {watch.request}")
    ET.SubElement(feed, f"{_A}subtitle").text = _text(
        "New items found for this request" + (f" on {', '.join(watch.sites)}" if watch.sites else "")
    )
    ET.SubElement(feed, f"{_A}updated").text = stamp
    author = ET.SubElement(feed, f"{_A}author")
    ET.SubElement(author, f"{_A}name").text = "research-crawler"
    ET.SubElement(feed, f"{_A}generator").text = "research-crawler"
    fresh = [_entry(item, stamp) for item in new_items]
    fresh_ids = {entry.findtext(f"{_A}id") for entry in fresh}
    kept = [entry for entry in old_entries if entry.findtext(f"{_A}id") not in fresh_ids]
    entries = (fresh + kept)[:max_entries]
    feed.extend(entries)
    ET.indent(feed)
    text = ET.tostring(feed, encoding="unicode", xml_declaration=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, '<?xml version="1.0" encoding="utf-8"?>\n' + text + "\n")
    return len(entries)


def check_feed(path: Path, watch: Watch) -> None:
    """Raise ConfigError, before any work, when `write_feed` could not write `watch`'s feed at `path`: a file that is
    another watch's feed or no feed, a directory, or a place that cannot be written."""
    if path.is_dir():
        raise ConfigError(f"--feed {path} is a directory: give a file, e.g. --feed {path / 'watch.xml'}")
    _existing_entries(path, watch)
    folder = next((parent for parent in [path.parent, *path.parent.parents] if parent.exists()), None)
    if folder is None or not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
        raise ConfigError(f"--feed {path}: {folder or path.parent} cannot be written to; give a file elsewhere")


def _existing_entries(path: Path, watch: Watch) -> list[ET.Element]:
    if not path.exists():
        return []
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, OSError) as exc:
        raise ConfigError(f"--feed {path}: not an Atom feed this watch can update ({exc}); give a new file") from None
    if root.tag != f"{_A}feed" or root.findtext(f"{_A}id") != _feed_id(watch):
        raise ConfigError(f"--feed {path}: a feed of something else (not this watch); give a new file")
    return root.findall(f"{_A}entry")


def _entry(item: LibraryItem, stamp: str) -> ET.Element:
    entry = ET.Element(f"{_A}entry")
    ET.SubElement(entry, f"{_A}id").text = _entry_id(item)
    ET.SubElement(entry, f"{_A}title").text = _text(item.title) or item.url
    ET.SubElement(entry, f"{_A}updated").text = stamp
    ET.SubElement(entry, f"{_A}published").text = stamp
    ET.SubElement(entry, f"{_A}link", {"rel": "alternate", "href": item.url})
    if item.pdf_url:
        ET.SubElement(entry, f"{_A}link", {"rel": "related", "type": "application/pdf", "href": item.pdf_url})
    for name in item.authors:
        author = ET.SubElement(entry, f"{_A}author")
        ET.SubElement(author, f"{_A}name").text = _text(name)
    summary = [f"Date: {item.date}" if item.date else "", f"DOI: {item.doi}" if item.doi else "", item.abstract or ""]
    seen = item.sightings[0] if item.sightings else None
    if seen is not None:
        summary.append(f"Found on {seen.found_on} ({seen.site})")
    ET.SubElement(entry, f"{_A}summary", {"type": "text"}).text = _text("\n".join(part for part in summary if part))
    return entry
