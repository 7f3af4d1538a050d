"""What makes an item the same work across runs: the report's own keys (DOI, arXiv identifier without version,
normalised title with first author's surname), best first, and the canonical URL for an item that has none of them.
"""

from __future__ import annotations

from research_crawler.context.urls import try_canonicalize_url
from research_crawler.report.identity import work_keys
from research_crawler.report.models import ReportItem

__all__ = ["identity_keys", "primary_key"]

#: The kinds of key, most telling first: an item is filed under the first it has.
_ORDER = ("doi:", "arxiv:", "title:", "url:")


def identity_keys(item: ReportItem) -> list[str]:
    """Every identity of `item`, most telling first. The item's canonical URL is always one of them, so a
    collected item without authors still meets the reported item it became in a later run."""
    keys = set(work_keys(item))
    url = try_canonicalize_url(item.url) or item.url
    keys.add(f"url:{url}")
    return sorted(keys, key=lambda key: (next(i for i, p in enumerate(_ORDER) if key.startswith(p)), key))


def primary_key(item: ReportItem) -> str:
    """The key `item` is filed under: its DOI, else its arXiv identifier, else title and first author, else URL."""
    return identity_keys(item)[0]
