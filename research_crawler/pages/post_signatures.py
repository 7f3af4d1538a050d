"""Who a post's own short lines say wrote it, where no "By" line does: a blog's or a forum's way of signing a post
with its writer's name or handle beside its date.

- a name on a line of its own, over a line that is only the date, right over the title ("David Heinemeier Hansson"
  / "February 5, 2026" / <title>);
- a name or a linked handle, then the date, on one line under the title: "Licat on June 5, 2023", "Martin Fowler:
  25 Feb 2026", "Posted on October 28, 2020 by apgoucher" (the handle a link to the writer's posts);
- a linked handle over the line that says what they did and when, or over the line that is only the date, right
  under the title: "jmorrell" / "opened on May 25, 2025", "wecsam" / "Jul 5th, 2013";
- a closing line that names the item by its title and its writer: "This is <title> by Simon Willison, posted on
  4th March 2026.";
- the one "By <name>" line of a one-writer site's header, above the title ("By John Gruber").

A handle (one word, "apgoucher") counts only where the page links it, as a writer's name is linked to their posts,
and only where it holds a letter: a number under the date ("235") is a count of views, never a writer.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

from research_crawler.pages.item_dates import dates_in_text, without_dates
from research_crawler.pages.person_names import begins_with_by, split_people, without_by

__all__ = ["authored_line", "post_signature", "site_header_byline"]

_HANDLE = re.compile(r"^@?[^\W_][\w.'’-]{1,30}$")  # "apgoucher", "Licat", "j.doe"
# "<name> on <date>", "<name>: <date>" (the date after it and nothing else)
_NAME_THEN_DATE = re.compile(r"^(?P<name>[^\W\d_][^:;|,]{0,40}?)(?:\s+on\s+|\s*:\s+)(?P<date>.+)$", re.I)
# "Posted on <date> by <handle>", "Published <date> by <handle>": the line ends with its writer
_DATE_THEN_BY = re.compile(r"^(?:posted|published|written)\b.*?\bby\s+(?P<name>@?[^\W_][\w.'’-]{1,30})\s*\.?$", re.I)
# a forum's or a link aggregator's line for a thread, its starter linked, then when: "Started by Jo Roe, June 04,
# 2024, 11:23:55 AM", "89 points by jroe on Dec 26, 2023 | hide | past"
_STARTED_BY = re.compile(
    r"^(?:started|submitted|\d[\d,]*\s+points?)\s+by\s+(?P<name>[^,|]{1,40}?)(?:\s*,\s*|\s+on\s+)(?P<date>.+)$", re.I
)
# what a forum or code host says its writer did, then when: "opened on May 25, 2025", "posted this on …"
_DID_ON = re.compile(r"^(?:opened|posted|wrote|published|commented|asked|started|created)\b(?:\s+\w+)?\s+on\b")
# what a forum's or a Q&A site's user card says its poster did, then when, over the poster's name: "asked May 19 at
# 13:08" / "Lezzup" (an editor's card, "edited May 19 at 14:17", names no writer)
_ASKED = re.compile(r"^(?:asked|posted|answered|submitted|提问于|发表于|发布于|投稿日)\b", re.I)
# a blog's footer under its post: "posted @ 2024-05-09 14:45 <handle> 阅读(430) 评论(2)"
_POSTED_AT = re.compile(r"^posted\s*@\s*", re.I)
_TIME = re.compile(r"^\d{1,2}:\d{2}(?:\s*[ap]\.?m\.?)?$", re.I)
# a date in figures with a two-digit year, as a post's header writes it beside its writer: "4.12.22", "04/12/22"
_SHORT_DATE = re.compile(r"(?<!\d)\d{1,2}[./]\d{1,2}[./]\d{2}(?!\d)")
# a code host's line for a commit or a change: "SamSaffron authored August 01, 2013", "jdoe committed on 3 May 2020"
_AUTHORED = re.compile(r"^(?P<name>@?[^\W_][\w.'’-]{1,38})\s+(?:authored|committed)\s+(?:on\s+)?(?P<date>.+)$")
_POSTED_BY = re.compile(r"^(?:posted|uploaded|shared|submitted)\s+by\s*:?$", re.I)  # a label over its poster
_CARD_WORDS = 8
_STARTER_WORDS = 4
_NEAR = 7  # blocks under the title where the signature may stand
_HEADER = 12  # the page's first blocks, its header, where a one-writer site's "By" line stands


def post_signature(blocks: list[Any], index: int, title: str) -> list[str]:
    """The writer a post's signature names, for the title at block `index` (its text `title`): the first of the
    signatures of the module docstring found; [] where none."""
    return (
        _name_over_date(blocks, index)
        or _signed_line(blocks, index)
        or _handle_over_action(blocks, index)
        or _poster_under_date(blocks, index)
        or _closing_credit(blocks, index, title)
        or _user_card(blocks, index)
        or _posted_at(blocks, index)
        or _dated_link_line(blocks, index)
    )


def site_header_byline(blocks: list[Any], index: int) -> list[str]:
    """The one person a "By <name>" line names in the page's header above the title (block `index`), where the
    header holds no other such line: a one-writer site's credit for all it shows."""
    lines = [
        block.text.strip()
        for block in blocks[: min(index, _HEADER)]
        if begins_with_by(block.text) and not block.heading and len(block.text.split()) <= 5
    ]
    if len(lines) != 1:
        return []
    people = split_people(without_by(lines[0]))
    return people if len(people) == 1 and people[0] == without_by(lines[0]).strip() else []


def authored_line(blocks: list[Any]) -> list[str]:
    """The one author a code host's page shows for its commit, "<linked handle> authored <date>" alone on its line,
    or the one poster a snippet's or a post's box of details labels, "Posted By" over "<linked handle> on <date>",
    wherever the page sets it (such pages wrap the whole commit in their furniture, or set the box beside the item);
    [] where no line says so, or where several do (a list of commits credits each to its own author)."""
    found = [
        credit["name"]
        for block in blocks
        if (credit := _AUTHORED.match(" ".join(block.text.split())))
        and credit["name"] in block.links
        and _only_a_date(credit["date"])
    ]
    for label, block in itertools.pairwise(blocks):
        then = _NAME_THEN_DATE.match(" ".join(block.text.split()))
        if _POSTED_BY.match(label.text.strip()) and then and then["name"].strip() in block.links:
            found += [then["name"].strip()] if _only_a_date(then["date"]) else []
    return found if len(found) == 1 else []


def _only_a_date(text: str) -> bool:
    """Whether `text` is a date and nothing else ("August 01, 2013", "11/15/13")."""
    dated = bool(dates_in_text(text) or _SHORT_DATE.search(text))
    return dated and not _SHORT_DATE.sub(" ", without_dates(text, mark=" ")).strip(" ,.·|-–—")


def _name_over_date(blocks: list[Any], index: int) -> list[str]:
    """ "David Heinemeier Hansson" / "February 5, 2026" / <title>: one person's name alone on its line, the date
    alone on the next, the title right under them."""
    if index < 2:
        return []
    named, dated = blocks[index - 2], blocks[index - 1]
    if named.chrome or dated.chrome or named.heading or dated.heading:
        return []
    text = named.text.strip()
    people = split_people(text)
    bare_date = not without_dates(dated.text, mark=" ").strip(" ,.·|-–—")
    return people if len(people) == 1 and people[0] == text and bare_date and dates_in_text(dated.text) else []


def _signed_line(blocks: list[Any], index: int) -> list[str]:
    """A line under the title that is its writer and its date and nothing more: "Licat on June 5, 2023", "Martin
    Fowler: 25 Feb 2026", "Posted on October 28, 2020 by apgoucher"; or a thread's line naming its linked starter
    before the date: "Started by Jo Roe, June 04, 2024", "89 points by jroe on Dec 26, 2023 | hide"."""
    for block in blocks[index + 1 : index + 3]:
        if block.chrome or block.heading:
            continue
        text = block.text.strip()
        by = _DATE_THEN_BY.match(text)
        if by and dates_in_text(text) and _handle_or_name(by["name"], block.links):
            return [by["name"]]
        started = _STARTED_BY.match(text)
        starter = started["name"].strip() if started else ""
        if started and dates_in_text(started["date"].split("|")[0]) and _starter(starter, text, block.links):
            return [starter]
        then = _NAME_THEN_DATE.match(text)
        rest = then["date"] if then else ""
        if then and dates_in_text(rest) and not without_dates(rest, mark=" ").strip(" ,.·|-–—"):
            name = then["name"].strip()
            if _handle_or_name(name, block.links):
                return [name]
    return []


def _handle_over_action(blocks: list[Any], index: int) -> list[str]:
    """A linked name or handle alone on its line, over the line that says what its writer did and when:
    "jmorrell" / "opened on May 25, 2025 · edited by jmorrell"; or, as the first line under the title, over the line
    that is only the date: "wecsam" / "Jul 5th, 2013"."""
    for position in range(index + 1, min(len(blocks) - 1, index + 1 + _NEAR)):
        block, under = blocks[position], blocks[position + 1]
        text = block.text.strip()
        if block.chrome or block.heading or text not in block.links:
            continue
        action = _DID_ON.match(under.text.strip())
        bare_date = position == index + 1 and not without_dates(under.text, mark=" ").strip(" ,.·|-–—")
        if (action or bare_date) and dates_in_text(under.text) and _handle_or_name(text, block.links):
            return [text]
    return []


def _closing_credit(blocks: list[Any], index: int, title: str) -> list[str]:
    """A line below the item that names it by its title and then its writer: "This is <title> by Simon Willison,
    posted on 4th March 2026." (a citation of the post by the post itself)."""
    title = title.strip()
    if len(title.split()) < 2:
        return []
    for block in blocks[index + 1 :]:
        if block.chrome:
            continue
        _, found, after = block.text.partition(title)
        credit = re.match(r"^\W{0,2}\s*by\s+(?P<names>[^,.;:|()]{3,80})", after, re.I) if found else None
        if credit and (people := split_people(credit["names"].strip())):
            return people
    return []


def _dated_link_line(blocks: list[Any], index: int) -> list[str]:
    """The line right under the title that holds the post's date, one linked name or handle and nothing else but
    figures (its count of comments or its rating): "4.12.22 Оксана Рубко 19", "solate 4 2008-09-22 22:55:12"."""
    block = next((block for block in blocks[index + 1 : index + 3] if not block.heading), None)
    if block is None or block.chrome:
        return []
    text = block.text.strip()
    if not dates_in_text(text) and not _SHORT_DATE.search(text):
        return []
    rest = _SHORT_DATE.sub(" ", without_dates(text, mark=" "))
    named = [link.strip() for link in block.links if any(ch.isalpha() for ch in link)]
    # (a one-word link is a handle only as handles are written, in lower case or with digits: "Politics" beside the
    # date is the story's section)
    handle = bool(named) and _is_handle(named[0]) and (named[0].islower() or any(ch.isdigit() for ch in named[0]))
    if len(named) != 1 or not (handle or split_people(named[0]) == named):
        return []
    rest = rest.replace(named[0], " ")
    return named if not re.sub(r"[\d\s:.,/·|()\-–—]+", "", rest) else []


def _handle_or_name(text: str, links: tuple[str, ...]) -> bool:
    """Whether `text` is one person's name, or a handle the line links (as a writer's name links to their posts)."""
    people = split_people(text)
    return (len(people) == 1 and people[0] == text) or (text in links and _is_handle(text))


def _starter(name: str, line: str, links: tuple[str, ...]) -> bool:
    """Whether `name` names a thread's starter on its `line`: linked there, or, on a line that says "Started by",
    a short name as shown (a member's name in words, "Biology Forums")."""
    return name in links or (line.casefold().startswith("started") and len(name.split()) <= _STARTER_WORDS)


def _is_handle(text: str) -> bool:
    """Whether `text` reads as a user's handle: one word of letters and digits that holds a letter."""
    return bool(_HANDLE.match(text)) and any(ch.isalpha() for ch in text)


def _user_card(blocks: list[Any], index: int) -> list[str]:
    """A forum's or a Q&A site's user card below the title: the line that says the poster asked or posted and when,
    and nothing more, over the poster's name or linked handle ("asked May 19 at 13:08" / "Lezzup")."""
    for position in range(index + 1, len(blocks) - 1):
        block, under = blocks[position], blocks[position + 1]
        text = block.text.strip()
        # (the day may be written without its year, "May 19 at 13:08", as these cards write this year's days)
        if block.chrome or not _ASKED.match(text) or not re.search(r"\d", text) or len(text.split()) > _CARD_WORDS:
            continue
        name = under.text.strip()
        if not under.chrome and _handle_or_name(name, under.links):
            return [name]
    return []


def _poster_under_date(blocks: list[Any], index: int) -> list[str]:
    """A forum post's header under the thread's title: the date alone on its line (its time on the next, or not),
    over the poster's handle in lower case or digits, or name, alone on its own: "July 3, 2023" / "10:07 am" /
    "pdops"."""
    for position in range(index + 1, min(len(blocks) - 1, index + 1 + _NEAR)):
        block = blocks[position]
        text = block.text.strip()
        if block.chrome or not dates_in_text(text) or without_dates(text, mark=" ").strip(" ,.·|-–—"):
            continue
        after = position + 1 + (position + 2 < len(blocks) and bool(_TIME.match(blocks[position + 1].text.strip())))
        poster = blocks[after]
        name = poster.text.strip()
        handle = _is_handle(name) and (name.islower() or any(ch.isdigit() for ch in name))
        if not poster.chrome and not poster.heading and (handle or split_people(name) == [name]):
            return [name]
        return []
    return []


def _posted_at(blocks: list[Any], index: int) -> list[str]:
    """A blog's footer under its post, "posted @ <date> <handle> …", the handle the first link after the date."""
    for block in blocks[index + 1 :]:
        text = block.text.strip()
        if block.chrome or not _POSTED_AT.match(text) or not dates_in_text(text):
            continue
        rest = without_dates(_POSTED_AT.sub("", text), mark="\x00").partition("\x00")[2].split()
        rest = rest[1:] if rest and _TIME.match(rest[0]) else rest  # the time after the day
        first = rest[0] if rest else ""
        if first in block.links and _is_handle(first):
            return [first]
    return []
