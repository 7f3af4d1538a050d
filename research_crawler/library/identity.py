"""What makes an item the same work across runs: the report's own keys (DOI, arXiv identifier without version,
normalised title with first author's surname), best first, and the canonical URL for an item that has none of them.
"""

from __future__ import annotations

from research_crawler.context.urls import try_canonicalize_url
from research_crawler.report.identity import work_keys
from research_crawler.report.models import ReportItem

__all__ = ["identity_keys", "key_rank", "primary_key"]

#: The kinds of key, most telling first: an item is filed under the first it has.
_ORDER = ("doi:", "arxiv:", "title:", "url:")


def key_rank(key: str) -> int:
    """How telling a key is: 0 for a DOI, then arXiv, title and author, URL (an unknown kind last)."""
    return next((rank for rank, prefix in enumerate(_ORDER) if key.startswith(prefix)), len(_ORDER))


def identity_keys(item: ReportItem) -> list[str]:
    """Every identity of `item`, most telling first. The item's canonical URL is always one of them, so a
    collected item without authors still meets the reported item it became in a later run."""
    keys = set(work_keys(item))
    url = try_canonicalize_url(item.url) or item.url
    keys.add(f"url:{url}")
    return sorted(keys, key=lambda key: (key_rank(key), key))


def primary_key(item: ReportItem) -> str:
    """The key `item` is filed under: its DOI, else its arXiv identifier, else title and first author, else URL."""
    return identity_keys(item)[0]
