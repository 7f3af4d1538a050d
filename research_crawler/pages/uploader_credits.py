"""The uploader a media page shows as its item's author, right under the item's title: "by nvanderklippe", "by
Bubble", "by vinothkannans 16h", "by IDIDTHAT.co published on 2015-02-19", or an "Uploaded by" label over the name
on the next line. A video's, a track's, an album's, a photo's or a shared document's page credits who put it up
this way, and a reader takes that credit for the item's writer (a handle, an artist's or an organisation's name as
shown), whatever words it is in — where no other byline names one.

What is no uploader: a line that says more than the credit and its date or age; a credit whose first word is an
ordinary word of page furniture or an institution ("by category", "by the editors"); a name of no letters; words
that make a sentence rather than a name ("By clicking Subscribe, you agree")."""

from __future__ import annotations

import re
from typing import Any

from research_crawler.pages.item_dates import dates_in_text, without_dates
from research_crawler.pages.item_titles import TITLE_SEPARATORS
from research_crawler.pages.not_name_words import NOT_NAME_WORDS

__all__ = ["credit_in_title", "uploader_credit"]

_LABEL = re.compile(r"^(?:(?:uploaded|posted|shared|published)\s+)?by\s*:?\s*", re.I)
_LABEL_ALONE = re.compile(r"^(?:uploaded|posted|shared|published)\s+by\s*:?$", re.I)
# what may follow the name on its line: "published on", an age ("16h", "3 days ago")
_TAIL = re.compile(
    r"(?:\s+(?:\d+\s*(?:s|m|h|d|w|y|mo|min|mins|hrs?)|\d+\s+\w+\s+ago)|\s+(?:published|uploaded|posted)?\s*(?:on)?)+$",
    re.I,
)
_SENTENCE_MARKS = re.compile(r"[,;:!?]")
_PARTICLES = frozenset({"of", "de", "la", "le", "du", "da", "van", "von", "der", "den", "and", "&", "the"})
_IN_TITLE = re.compile(r"^\S.*?\s+by\s+(?P<name>[^\s|,;:].*)$", re.I)
_REACH = 3  # lines under the title where the credit stands
_NAME_WORDS = 5


def uploader_credit(blocks: list[Any], index: int, title: str = "") -> list[str]:
    """The one uploader credited under the title at block `index`, as shown, or after the title in its own line
    ("<title> by <linked name>", the item's `title` first); [] where none."""
    if credit := _credit_after_title(blocks[index], title):
        return credit
    under = [block for block in blocks[index + 1 : index + 1 + _REACH] if block.words != blocks[index].words]
    for position, block in enumerate(under):
        if block.chrome:
            continue
        text = " ".join(block.text.split())
        if _LABEL_ALONE.match(text) and position + 1 < len(under):
            name = _name(" ".join(under[position + 1].text.split()))
            return [name] if name else []
        if _LABEL.match(text) and (name := _name(_LABEL.sub("", text, count=1))):
            return [name]
    return []


def credit_in_title(title_element: str, blocks: list[Any]) -> list[str]:
    """The one name the page's <title> credits its item to, "<item> by <name>" (a part of it between the site's
    separators), where the page shows that name on a line of its own outside its chrome, as a slide deck shows its
    speaker under its first slide; [] where none."""
    for part in TITLE_SEPARATORS.split(title_element):
        credit = _IN_TITLE.match(" ".join(part.split()))
        name = _name(credit["name"]) if credit else ""
        if name and any(not block.chrome and " ".join(block.text.split()) == name for block in blocks):
            return [name]
    return []


def _credit_after_title(block: Any, title: str) -> list[str]:
    """The name a title's line credits after the title itself, "Lost You by Zeds Dead", where the name is the
    line's last link (to the uploader's page) and what comes before "by" is the item's `title` or the line's first
    link (to the item's own page); [] where the line says anything else."""
    if len(block.links) < 2:
        return []
    text, name = " ".join(block.text.split()), block.links[-1].strip()
    heads = {" ".join(title.split()), block.links[0].strip()} - {""}
    credited = any(text.casefold() == f"{head} by {name}".casefold() for head in heads)
    return [name] if credited and _name(name) == name else []


def _name(text: str) -> str:
    """The credit's name, its date and age cut off; "" where what is left reads as no one's name."""
    if dates_in_text(text):
        text = without_dates(text, mark="\x00").partition("\x00")[0]
    name = _TAIL.sub("", text).strip(" ,;·|-–—")
    words = name.split()
    if not 1 <= len(words) <= _NAME_WORDS or not any(ch.isalpha() for ch in name):
        return ""
    if words[0].casefold().strip(".,") in NOT_NAME_WORDS or not all(any(ch.isalpha() for ch in w) for w in words):
        return ""
    # (one handle as it is written, or a name's capitalised words: "clicking Subscribe, you agree" is a sentence)
    if len(words) > 1 and (_SENTENCE_MARKS.search(name) or not all(_capitalised(word) for word in words)):
        return ""
    return name


def _capitalised(word: str) -> bool:
    return word in _PARTICLES or not word[:1].isalpha() or word[:1].isupper()
