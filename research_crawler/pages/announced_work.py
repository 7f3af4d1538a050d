"""The work a page announces: a news post or a blog entry whose heading names the news ("New paper out",
"Congratulations to our team on a new paper") and whose text shows the work itself as a reference does, its title
set in bold and its authors' names on the line below. A reader takes that title and those names for the work's, not
the heading and the post's signature (a communications office, an editor).

Read from the page's structure, never from its words: one emphasised line of four words or more, alone at the start
of its paragraph, with a line of people's names right after it (after a line break in the same paragraph, or as the
next paragraph), outside the page's frame; a page showing two such blocks lists works and announces none.
"""

from __future__ import annotations

from typing import Any

from research_crawler.pages.html_tree import in_page_frame
from research_crawler.pages.metadata_sources import Reading
from research_crawler.pages.page_shows import words_of
from research_crawler.pages.person_names import is_person_name, split_people

__all__ = ["AnnouncedWork", "announced_work", "take_announced_work"]

_EMPHASIS = ("strong", "b")
_BLOCKS = frozenset({"p", "div", "li", "td", "dd", "blockquote"})
_MIN_TITLE_WORDS = 4
_MAX_TITLE_WORDS = 40

AnnouncedWork = tuple[str, list[str]]


def announced_work(tree: Any) -> AnnouncedWork | None:
    """(title, authors) of the one work the page shows as a reference (the rule of the module docstring), or None."""
    found: list[AnnouncedWork] = []
    for emphasis in tree.iter(*_EMPHASIS):
        work = _reference_at(emphasis)
        if work is not None and work not in found:
            found.append(work)
    return found[0] if len(found) == 1 else None


def _reference_at(emphasis: Any) -> AnnouncedWork | None:
    title = " ".join(emphasis.text_content().split())
    if not _MIN_TITLE_WORDS <= len(title.split()) <= _MAX_TITLE_WORDS or title.endswith(":"):
        return None
    block = emphasis.getparent()
    if block is None or not isinstance(block.tag, str) or block.tag.lower() not in _BLOCKS or in_page_frame(emphasis):
        return None
    if (block.text or "").strip() or emphasis.getprevious() is not None:  # not alone at its paragraph's start
        return None
    following = emphasis.getnext()
    if following is not None and following.tag == "br":
        line = following.tail or ""
        rest = following.getnext()
        while rest is not None and rest.tag != "br":  # the names line may hold links or spans
            line += rest.text_content() + (rest.tail or "")
            rest = rest.getnext()
    elif following is None and not (emphasis.tail or "").strip():
        after = block.getnext()
        line = after.text_content() if after is not None and isinstance(after.tag, str) else ""
    else:
        return None
    names = split_people(" ".join(line.split()))
    if not names or not all(is_person_name(name) for name in names):
        return None
    return title, names


#: Sources that name a scholarly work itself (a page announcing one has only its own page's tags).
_PAGE_ONLY_SOURCES = frozenset({"opengraph", "html_title", "page_heading", "page_byline", "page_text", "trafilatura"})


def take_announced_work(
    tree: Any, readings: list[Reading], values: dict[str, Any], sources: dict[str, Any], notes: dict[str, str]
) -> None:
    """A page whose heading names news about a work, and which shows the work as a reference does (its title in
    bold, its authors below: `announced_work`), gives that work's title and authors; never where tags of a work's
    own (citation, Dublin Core, JSON-LD…) name one."""
    if any(r.title and r.source not in _PAGE_ONLY_SOURCES for r in readings):
        return
    if sources.get("title", "html_title") not in _PAGE_ONLY_SOURCES:
        return
    work = announced_work(tree)
    if work is None or words_of(work[0]) == words_of(values.get("title") or ""):
        return
    title, authors = work
    if values.get("title"):
        notes["title"] = f"the page's heading {values['title']!r} announces the work it shows as {title!r}"
    values["title"], sources["title"] = title, "page_text"
    values["authors"], sources["authors"] = authors, "page_text"
