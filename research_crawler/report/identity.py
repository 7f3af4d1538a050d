"""One work, one item: what makes two items the same work (a DOI, an arXiv identifier, or the same title
and first author), and merging them into one item that keeps every link.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from research_crawler.report.models import ReportItem

__all__ = ["merge_same_works", "work_keys"]

_ARXIV = re.compile(r"(?:arxiv\.org/(?:abs|pdf)/|arxiv:\s*)(\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})", re.I)
_DOI_IN_URL = re.compile(r"(?:doi\.org/|/doi/(?:abs/|full/|pdf/)?)(10\.\d{4,9}/[^\s?#]+)", re.I)
_VERSION = re.compile(r"v\d+$")


def _normal_title(title: str) -> str:
    text = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode().lower()
    return " ".join(re.findall(r"[a-z0-9]+", text))


def _surname(author: str) -> str:
    name = author.strip()  # "Surname, Given" or "Given Surname"
    surname = name.split(",", 1)[0] if "," in name else (name.split() or [""])[-1]
    return _normal_title(surname)


def work_keys(item: ReportItem) -> set[str]:
    """The identities of `item`'s work: its DOI, its arXiv identifier (without version), its normalised
    title with its first author's surname. Two items sharing any of them are one work."""
    keys: set[str] = set()
    doi = item.doi or next((m.group(1) for url in (item.url, *item.also_at) if (m := _DOI_IN_URL.search(url))), None)
    if doi:
        keys.add("doi:" + doi.lower().rstrip("."))
    for text in (item.url, *item.also_at, item.pdf_url or ""):
        if m := _ARXIV.search(text):
            keys.add("arxiv:" + _VERSION.sub("", m.group(1).lower()))
    title = _normal_title(item.title)
    if item.authors and len(title.split()) >= 3:
        keys.add(f"title:{title}|{_surname(item.authors[0])}")
    return keys


def merge_same_works(items: Sequence[ReportItem]) -> list[ReportItem]:
    """`items` (best first) with each work once: the first item of a work keeps its place and gains the other
    items' links in `also_at`, and the fields it lacks from them."""
    merged: list[ReportItem] = []
    owners: dict[str, int] = {}
    for item in items:
        keys = work_keys(item)
        owner = next((owners[key] for key in keys if key in owners), None)
        if owner is None:
            owners.update(dict.fromkeys(keys, len(merged)))
            merged.append(item)
            continue
        first = merged[owner]
        links = [url for url in (item.url, *item.also_at) if url != first.url and url not in first.also_at]
        filled = {
            name: getattr(item, name)
            for name in ("date", "abstract", "doi", "pdf_url")
            if getattr(first, name) is None and getattr(item, name) is not None
        }
        if not first.authors and item.authors:
            filled["authors"] = item.authors
        merged[owner] = first.model_copy(update={"also_at": [*first.also_at, *links], **filled})
        owners.update(dict.fromkeys(keys, owner))
    return [item.model_copy(update={"rank": rank}) for rank, item in enumerate(merged, 1)]
