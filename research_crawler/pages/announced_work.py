"""The work a page announces: a news post or a blog entry whose heading names the news ("New paper out",
"Congratulations to our team on a new paper") and whose text shows the work itself as a reference does, its title
set in bold and its authors' names on the line below. A reader takes that title and those names for the work's, not
the heading and the post's signature (a communications office, an editor).

Read from the page's structure, never from its words: one emphasised line of four words or more, alone at the start
of its paragraph, with a line of people's names right after it (after a line break in the same paragraph, or as the
next paragraph), outside the page's frame; a page showing two such blocks lists works and announces none.
"""

from __future__ import annotations

import re
from typing import Any

from research_crawler.pages.declared_kind import declares_a_post
from research_crawler.pages.html_tree import in_page_frame
from research_crawler.pages.metadata_sources import Reading
from research_crawler.pages.page_shows import VisiblePage, words_of
from research_crawler.pages.person_names import is_person_name, split_people

__all__ = [
    "AnnouncedWork",
    "announced_work",
    "credited_authors",
    "take_announced_work",
    "take_credited_authors",
    "text_reference",
]

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


def text_reference(tree: Any, heading: str) -> AnnouncedWork | None:
    """(title, authors) of the work a plain-text message shows as a reference ("New paper: <title>" over a body
    that sets the title on a line of its own and its authors on the next, as an e-mail archived as preformatted
    text does): a line of four words or more that the `heading` holds with words around it, right above a line of
    people's names, outside the page's frame; None when no line or two different lines do."""
    heading_words = f" {words_of(heading)} "
    found: list[AnnouncedWork] = []
    for block in tree.iter("pre"):
        if in_page_frame(block):
            continue
        lines = [" ".join(line.split()) for line in block.text_content().splitlines()]
        for at, line in enumerate(lines[:-1]):
            words = words_of(line)
            if not _MIN_TITLE_WORDS <= len(line.split()) <= _MAX_TITLE_WORDS or f" {words} " not in heading_words:
                continue
            if words == heading_words.strip():
                continue  # the heading is the line itself: nothing around it announces
            names = split_people(lines[at + 1])
            if names and all(is_person_name(name) for name in names) and (line, names) not in found:
                found.append((line, names))
    return found[0] if len(found) == 1 else None


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
    work = announced_work(tree) or text_reference(tree, values.get("title") or "")
    if work is None or words_of(work[0]) == words_of(values.get("title") or ""):
        return
    title, authors = work
    if values.get("title"):
        notes["title"] = f"the page's heading {values['title']!r} announces the work it shows as {title!r}"
    values["title"], sources["title"] = title, "page_text"
    values["authors"], sources["authors"] = authors, "page_text"


#: A post's sentence that credits the work it announces: "our paper by A, B and C has just come out", "a new study
#: by A and B". The names run to the first word that is no part of a name list, or to the sentence's end.
_CREDIT = re.compile(
    r"\b(?:paper|article|study|preprint|report|chapter|book|thesis|dissertation|monograph)\s+by\s+(?P<names>.+?)"
    r"(?=\s+(?:has|have|is|was|were|appears?|appeared|came|comes|just|in|on|at|published|now|out|about|which|that)\b"
    r"|[.;:()]|$)"
)


def credited_authors(page: VisiblePage) -> list[str]:
    """The people the page's text credits with the work it announces, in one phrase (`_CREDIT`), outside its frame;
    [] when no phrase does, when a name is no person's, or when two phrases credit different people (a roundup)."""
    found: list[list[str]] = []
    for block in page.blocks:
        if block.chrome or block.heading:
            continue
        for match in _CREDIT.finditer(block.text):
            names = split_people(match.group("names"))
            if names and all(is_person_name(name) for name in names) and names not in found:
                found.append(names)
    return found[0] if len(found) == 1 else []


def take_credited_authors(
    page: VisiblePage, kind: str | None, values: dict[str, Any], sources: dict[str, Any], notes: dict[str, str]
) -> None:
    """A post (its tags declare a blog posting or a news article: `kind`) whose text credits the work it announces
    to people ("our paper by A, B and C has just come out") gives them as the work's authors: the post's byline
    names who wrote the post, not the work. Only where the byline is none of them."""
    if not declares_a_post(kind):
        return
    names = credited_authors(page)
    byline = [words_of(name) for name in values.get("authors") or []]
    if not names or any(words_of(name) in byline for name in names):
        return
    if byline:
        notes["authors"] = f"the post's byline {values['authors']!r} wrote the post; its text credits the work"
    values["authors"], sources["authors"] = names, "page_text"
