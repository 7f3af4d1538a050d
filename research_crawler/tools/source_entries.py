"""The entries a source's link heads on an aggregator's page, and which of them a model meant.

An aggregator (a Planet of blogs, a feed reader's river, a category page) heads each entry with its source's link,
then the entry's own title link: "[1] Crust Notes — [3] Nitrogen Deposition and Epiphytic Lichen Loss". The source's
link heads several entries' titles, so it is no one work; a model that names it with one entry's teaser means that
entry, whose own page is the work. Read off the page's Markdown lines (links written ``[n] text``), not the listing's
result titles: a link that sits in several results is none's title (`pages/listing_results.py`).
"""

from __future__ import annotations

import re

from research_crawler.pages.page import Link, Page
from research_crawler.report.index_pages import names_no_work
from research_crawler.report.title_match import normalise_title

__all__ = ["TITLE_WORDS", "entry_title_beside", "heads_several_titles", "reads_as_a_title"]

#: A link's text this long names an item by itself ("Deep Learning" could be a section; four words are a title).
TITLE_WORDS = 4


def _titles_it_heads(page: Page, link: Link) -> list[Link]:
    """The links that follow `link` on a line of `page` that shows it and whose own texts read as works' titles
    (four words or more, not a link's action): what a source's, a category's or an author's link heads on an
    aggregator's page ("Crust Notes — Nitrogen Deposition and Lichen Loss", "Crust Notes — Notes from the Spring
    Meeting"). Read off the lines, not the listing's result titles: a link in several results is none's title."""
    by_id = {other.id: other for other in page.links}
    marker = f"[{link.id}]"
    heads = []
    for line in page.markdown.splitlines():
        if marker not in line:
            continue
        after = line.split(marker, 1)[1]
        for number in re.findall(r"\[(\d+)\]", after):
            other = by_id.get(int(number))
            if other is not None and other.url != link.url and reads_as_a_title(other.text):
                heads.append(other)
    return heads


def heads_several_titles(page: Page, link: Link) -> bool:
    """Whether `link` heads two or more links to other pages that read as works' titles: a source, a category or an
    author shared by several entries (a Planet's blog name before each of its posts), never one result's title."""
    return len({other.url for other in _titles_it_heads(page, link)}) >= 2


def reads_as_a_title(text: str) -> bool:
    """Whether a link's `text` reads as a work's title: four words or more, not a link's action ("Download PDF")."""
    return len(normalise_title(text).split()) >= TITLE_WORDS and not names_no_work(text)


def entry_title_beside(page: Page, link: Link, named: str) -> Link | None:
    """The title link of the entry described by `named`, the words a model named `link` by, when `link` heads several
    entries (a blog's name before each of its posts on an aggregator) and `named` is a passage of one (its teaser): the
    link to that entry's own page, the last headed title on the nearest line above the passage that shows `link`.
    None when `link` heads no such entries, the model gives its own text, or the passage is not found."""
    if normalise_title(named) == normalise_title(link.text) or not heads_several_titles(page, link):
        return None
    headed = {other.id: other for other in _titles_it_heads(page, link)}
    passage = normalise_title(named.rstrip(" .…"))
    lines = page.markdown.splitlines()
    for at, line in enumerate(lines):
        words = normalise_title(re.sub(r"\[\d+\]", " ", line))
        if not passage or not words or not (words in passage or passage in words):
            continue
        for above in reversed(lines[: at + 1]):
            if f"[{link.id}]" not in above:
                continue
            ids = [int(n) for n in re.findall(r"\[(\d+)\]", above) if int(n) in headed]
            return headed[ids[-1]] if ids else None
    return None
