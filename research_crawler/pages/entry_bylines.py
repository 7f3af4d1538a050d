"""The people a listing's entry names beside one of its links, as a reader scanning a list for one author's works
reads it: the byline under a title ("### [12] Twopenny Seats" / "Ticket Prices in Buenos Aires" / "Chen Suzuki,
Amélie Fischer, et al.") or before it on its line, as a reference list writes it ("Hussain, A., Sato, L., & Brown,
S. (2024). [10] Title. _Journal_").

An entry is read from the page's Markdown (links written ``[n] text``): the line where the link's text follows its
number and, when the link is alone on that line (a title), the lines under it up to the next line that holds a link —
at most `_ENTRY_LINES` lines; a menu's line of several links has no lines of its own. Of a link shown more than once
(a menu's entry, then the reference), the first showing with a byline counts. The link's
own words are left out (a title is no byline), and so is a year in brackets; each remaining part is read as a byline
by `person_names.split_people`. Nothing here says the names are the work's authors for sure: the work's own page says
that; this only says whom the listing shows beside it.
"""

from __future__ import annotations

import re

from research_crawler.pages.page import Link
from research_crawler.pages.person_names import split_people

__all__ = ["entry_people", "entry_showings"]

#: How many lines an entry may run after its title's line (a subtitle, a byline, a format and date).
_ENTRY_LINES = 3
_MARKER = re.compile(r"\[(\d+)\]")
#: A year or date in brackets after a reference's names ("(2024).", "(2024, March 3)."), and what follows it.
_YEAR_AND_AFTER = re.compile(r"\(\s*(?:19|20)\d\d[^)]{0,20}\)\.?.*$")
_HEADING_OR_ITEM = re.compile(r"^\s*(?:#{1,6}\s+|[-*+]\s+|\d{1,3}[.)]\s+)")


def entry_people(markdown: str, link: Link) -> list[str]:
    """The names the entry of `link` shows beside it on the page whose Markdown is `markdown` (the module's rule);
    empty when the link's text is not found after its number or no byline is shown."""
    for parts in entry_showings(markdown, link):
        if people := [name for part in parts for name in _byline(part)]:
            return people
    return []


def entry_showings(markdown: str, link: Link) -> list[list[str]]:
    """Each showing of `link`'s entry on the page whose Markdown is `markdown`, in page order, as the parts of its
    lines beside the link's own words (the module's rule: what precedes and follows the link on its line, and when
    the link is alone on it, the lines under it); none when the link's text is not found after its number."""
    lines = markdown.splitlines()
    text = " ".join(link.text.split())
    if not text:
        return []
    marker = f"[{link.id}]"
    showings = []
    for index, line in enumerate(lines):
        at = line.find(f"{marker} {text}")
        if at < 0:
            continue
        before, after = line[:at], line[at + len(marker) + 1 + len(text) :]
        parts = [before, after]
        if len(_MARKER.findall(line)) == 1 and not after.strip(" .:"):  # a title alone on its line: the lines under it
            for below in lines[index + 1 : index + 1 + _ENTRY_LINES]:
                if _MARKER.search(below):
                    break
                parts.append(below)
        showings.append(parts)
    return showings


def _byline(part: str) -> list[str]:
    """The names `part` of an entry shows, read as a byline: its year in brackets and what follows cut off."""
    plain = _YEAR_AND_AFTER.sub("", _HEADING_OR_ITEM.sub("", part)).strip(" ;:·|—-")
    if not plain or _MARKER.search(plain):
        return []
    return split_people(plain)
