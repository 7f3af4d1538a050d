"""A `<title>` element's tails cut to what the page shows: the site's name and section written after a separator
("Forschungsprojekt legt Grundstein … - BMBF", "Models | Django documentation"), and the work's kind and years a tag
adds in brackets ("Game of Thrones (TV Series 2011– )"). `item_titles.decide_title` uses them.
"""

from __future__ import annotations

import re

from research_crawler.pages.page_shows import VisiblePage, words_of

__all__ = ["SITE_SEPARATORS", "shown_head", "shown_part", "site_name_parts"]

#: What sites write between an item's title and their own name or section in a `<title>`.
# (a full-width colon after a space too, as Japanese sites set their name after a title: "… ：日本経済新聞")
SITE_SEPARATORS = (" - ", " | ", " – ", " — ", " :: ", " · ", " • ", " » ", " ：")


def shown_part(title: str, page: VisiblePage) -> str:
    """`title` as the page shows it: a tag title that only the <title> element writes whole, with the site's name
    after a separator ("Forschungsprojekt legt Grundstein … - BMBF"), is the part before it that the page shows."""
    # (a main heading that says the name alone is the title, though the line after it runs on into the bracket's
    # words: a portal's heading over its "CNET Japan 3/9(木) 18:45配信")
    if (head := _bracketed_head(title, page)) is not None:
        return head
    if page.shows(title):
        return title
    for separator in SITE_SEPARATORS:
        head, found, _ = title.rpartition(separator)
        # (a head of one word is the item's title where the page's main heading says just that word: "Models" of a
        # documentation page's "Models | Django documentation")
        # (or a head the page shows without a bracketed tail: "… （CNET Japan） - Yahoo!ニュース")
        shown = page.shows(head) or _bracketed_head(head, page) is not None
        if found and (len(words_of(head).split()) >= 2 or _main_heading_says(head, page)) and shown:
            return shown_part(head, page)
    return title


# a tail in round brackets, ASCII after a space or full-width ("（写真＝ロイター）", "（CNET Japan）")
_BRACKETED_TAIL = re.compile(r"^(?P<head>\S.*?)(?:\s+\([^()]+\)|\s*（[^（）]+）)$")


def _bracketed_head(title: str, page: VisiblePage) -> str | None:
    """The name the page's main heading shows alone, where a tag adds a tail to it in brackets: the work's kind and
    years ("Game of Thrones (TV Series 2011– )" over the heading "Game of Thrones"), the outlet a portal credits or a
    photo's credit ("… （CNET Japan）"). None otherwise."""
    bracketed = _BRACKETED_TAIL.match(title)
    return bracketed["head"] if bracketed and _main_heading_says(bracketed["head"], page) else None


def _main_heading_says(text: str, page: VisiblePage) -> bool:
    """Whether a top-level heading of the page says `text`, word for word."""
    words = words_of(text)
    return bool(words) and any(block.heading == 1 and block.words == words for block in page.blocks)


def shown_head(title: str, page: VisiblePage) -> str:
    """A <title> element as the page shows it: its first parts, before the site's name and section written after
    separators ("港特首梁振英就住宅违建事件道歉 - BBC中文网 - 两岸三地"), where the page shows them (in a heading of
    its chrome, say) and they are more than a word; else the whole."""
    for separator in SITE_SEPARATORS:
        parts = title.split(separator)
        for count in range(len(parts) - 1, 0, -1):
            head = separator.join(parts[:count]).strip()
            if (len(head.split()) >= 2 or len(head) >= 8) and page.shows(head):
                return head
    return title


def site_name_parts(title: str) -> frozenset[str]:
    """The words of the site's name a <title> writes before or after its item's title, as sites write it ("Post
    title | Site", "BBC News - Submarine escape: A WWII survival tale"): its first or last part between the site's
    separators, where that part is shorter than the rest."""
    found: set[str] = set()
    for separator in SITE_SEPARATORS:
        parts = title.split(separator)
        for kept, cut in ((parts[1:], parts[0]), (parts[:-1], parts[-1])):
            if len(parts) > 1 and len(words_of(separator.join(kept)).split()) > len(words_of(cut).split()):
                found.add(words_of(cut))
    return frozenset(found - {""})
