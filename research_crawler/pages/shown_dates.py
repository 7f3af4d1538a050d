"""The date of a page's item: the publication date the page shows (beside a label that says so, or written near
its title, a dateline first), against the date its tags give — a tag's date is believed when the page shows its
year; where it does not and the page shows another, what the page shows wins (the rule of `metadata`)."""

from __future__ import annotations

import re

from research_crawler.pages.cited_years import cited_year, source_line_date
from research_crawler.pages.datelines import (
    NOT_PUBLICATION,
    POSTED,
    has_date_part,
    is_dateline,
    nothing_but_a_date,
    publication_part,
    short_year_part,
)
from research_crawler.pages.field_labels import label_kind
from research_crawler.pages.item_dates import (
    dates_in_text,
    htmldate_date,
    short_year_dates,
    year_of,
)
from research_crawler.pages.metadata_sources import WEB_VOCABULARIES, MetadataSource, Reading
from research_crawler.pages.page_shows import Block, VisiblePage
from research_crawler.pages.teaser_dates import (
    another_fields_value,
    in_a_list_of_teasers,
    under_a_link_to_another_item,
)
from research_crawler.pages.written_dates import (
    hidden_text,
    marked_published_text,
    next_day,
    page_writes,
    tag_the_page_writes,
    writes_day,
)

__all__ = ["DATE_REACH_AFTER", "DATE_REACH_BEFORE", "DateDecision", "decide_date"]

DATE_REACH_BEFORE, DATE_REACH_AFTER = 4, 10
_YEAR_REACH = (4, 3)
_BESIDE_TITLE = 2  # blocks from the title within which a dateline in the page's chrome still counts
_YEAR_LINE_WORDS = 30  # a year alone counts in a short line (a citation line), never in a paragraph
_HEADER_REACH = 25  # blocks after a title that may still be its article's header (tags, sharing buttons)
_PARAGRAPH_WORDS = 25  # a block of as many words is running text: the header has ended
_BUTTON_WORDS = 3  # "Share this page"
_BAR_BUTTONS = 3  # a bar of sharing buttons has several
_LEADING_LABEL = re.compile(r"^\s*(?P<label>[^\W\d][^:|]{0,30}):\s")
# a line that dates the item's last change ("Updated: August 13, 2010, 5:02 PM ET"), not another event
# ("Last modified: …" is a page's stamp, which a static site's footer prints under every page, not the item's)
_UPDATED = re.compile(
    r"\b(?:last\s+)?(?:updated?|aktualisiert|mis\s+à\s+jour|actualizado|aggiornato|bijgewerkt)\b:?", re.I
)


_STAMPING = WEB_VOCABULARIES - {"dublin_core"}  # a CMS's for search engines and cards; not a catalogue's entry
#: A date decided: its value, where it was read, and the tag it overruled (None: none).
DateDecision = tuple[str | None, MetadataSource | None, str | None]


def decide_date(
    readings: list[Reading],
    page: VisiblePage,
    title_index: int | None,
    *,
    html: str,
    url: str,
    title: str | None = None,
    tree: object = None,
) -> DateDecision:
    """The item's date by the rule of the module docstring, where it was read, and the note on a tag it overruled
    (`title`: the item's title, whose own words date nothing: "… Video in 2020"; `tree`: the parsed `html`)."""
    tagged = next((r for r in readings if r.date and year_of(r.date)), None)
    if tagged is not None and tagged.date and len(tagged.date) == len("YYYY-MM-DD"):
        tagged = tag_the_page_writes(readings, page) or tagged
    if title_index is None:  # a title the page does not show (a live page's standing name): its one main heading
        title_index = _main_heading(page)
    shown = _shown_date(page, title_index, title)
    if tagged is not None:
        year = year_of(tagged.date)
        if shown is not None and year is not None and not page.shows(year):
            return *shown, f"the page's {tagged.source} date {tagged.date} is not shown; the page shows {shown[0]}"
        if shown is not None and len(shown[0]) > len(tagged.date or "") and shown[0].startswith(tagged.date or "?"):
            return *shown, None  # the page shows the same date more precisely
        if shown is not None and tagged.source in WEB_VOCABULARIES and next_day(shown[0], tagged.date or ""):
            # a timestamp the tag gives in another time zone (UTC) than the day the page shows its readers
            return *shown, f"the page's {tagged.source} date {tagged.date} is a day from the {shown[0]} it shows"
        if (
            shown is not None
            and tagged.source in WEB_VOCABULARIES
            and _another_day_presented(page, shown[0], tagged, title_index)
        ):
            return *shown, f"the page's {tagged.source} date {tagged.date} is presented nowhere; it shows {shown[0]}"
        if shown is None and (later := _later_update_shown(page, title_index, tagged)) is not None:
            return later, "page_text", f"the page's {tagged.source} date {tagged.date} is not shown; it shows {later}"
        if (labelled := _labelled_day_instead(page, tagged.date or "")) is not None:
            return (
                labelled,
                "page_field",
                f"the page's {tagged.source} date {tagged.date} is not shown; the page says {labelled}",
            )
        reach = (title_index, DATE_REACH_BEFORE, DATE_REACH_AFTER)
        if (
            shown is None
            and page.blocks
            and tagged.source in _STAMPING
            and not page_writes(page, html if tree is None else tree, tagged.date or "", reach, _presents)
            and not _says_published_on(page, tagged.date or "")
            and not writes_day(marked_published_text(html if tree is None else tree), tagged.date or "")
        ):
            # a CMS's stamp on a page that shows no date (a recipe's datePublished): what the page shows decides
            date, source, _ = _untagged_date(page, title_index, html=html, url=url, stamp=tagged.date)
            return date, source, f"the page's {tagged.source} date {tagged.date} is written nowhere on the page"
        if (only := _only_day_shown(page, tagged, html if tree is None else tree)) is not None:
            return only, "page_text", f"the page's {tagged.source} date {tagged.date} is not shown; it shows {only}"
        return tagged.date, tagged.source, None
    if shown is not None:
        return *_finer_day(page, shown, html=html, url=url), None
    return _untagged_date(page, title_index, html=html, url=url)


def _finer_day(
    page: VisiblePage, shown: tuple[str, MetadataSource], *, html: str, url: str
) -> tuple[str, MetadataSource]:
    """A month the page shows near an untagged item's title ("Los Angeles; July 2011"), made the day htmldate takes
    for the page where a dateline of the page writes that day of the month ("Taken on July 27, 2011")."""
    if len(shown[0]) != len("YYYY-MM"):
        return shown
    found = htmldate_date(html, url=url if url.startswith("http") else None)
    if found and found.startswith(shown[0]):
        lines = (block.text for block in page.blocks if not NOT_PUBLICATION.search(block.text))
        if any(found in dates_in_text(text) for text in lines if is_dateline(text)):
            return found, "htmldate"
    return shown


def _says_published_on(page: VisiblePage, day: str) -> bool:
    """Whether a dateline anywhere on the page, its chrome too, says the item was published on `day` ("Published
    on 2021-01-18T19:55" in an aside after the article): a tag's day the page labels as its publication is shown."""
    return any(
        POSTED.search(own := publication_part(block.text)) and is_dateline(own) and day in dates_in_text(own)
        for block in page.blocks
    )


def _main_heading(page: VisiblePage) -> int | None:
    """The block of the page's one main heading (its only ``<h1>`` outside the chrome), if it has one."""
    main = [block.index for block in page.blocks if block.heading == 1 and not block.chrome]
    return main[0] if len(main) == 1 else None


def _presents(text: str) -> bool:  # a line that presents a date, no copyright line, address or sentence
    return "/" not in text and not NOT_PUBLICATION.search(text) and is_dateline(text)


def _untagged_date(
    page: VisiblePage, title_index: int | None, *, html: str, url: str, stamp: str | None = None
) -> DateDecision:
    """The date of a page whose tags give none it shows: htmldate's, where the page presents it as a date; a
    "Created:" line; the last update near the title; the day the page's own address carries. Where a tag's `stamp`
    is written nowhere on the page, htmldate's reading of the same stamp and the address count for nothing."""
    found = htmldate_date(html, url=url if url.startswith("http") else None)
    found = None if stamp and found and stamp.startswith(found) else found
    updated = _updated_near_title(page, title_index) if title_index is not None else None
    if found and _history_date_only(page, found):
        # "(Received December 10 2015)": when the work was received, not published; a last update still dates it
        return (updated, "page_text", None) if updated else (None, None, None)
    # believed where the page presents it as a date — a line about it, not a sentence that tells of it, another
    # field's value ("Founded | February 28, 1998") or a link to another page ("Projects established in 1998")
    presented = [
        block
        for block in page.blocks
        if not NOT_PUBLICATION.search(block.text)
        and is_dateline(block.text)
        and not another_fields_value(page, block.index)
    ]
    year = year_of(found)
    if found and any(found in (*dates_in_text(block.text), *short_year_dates(block.text)) for block in presented):
        # its day, where the page writes that day (in a dateline its theme sets apart; "on 11/15/13" too)
        return found, "htmldate", None
    if not found and not stamp and (searched := _searched_day(html, url, presented)):
        return searched, "htmldate", None
    if found and any(found in dates_in_text(publication_part(block.text)) for block in _published_lines(page)):
        # its day, written in a dateline before a label of a later event ("Posted: Jul 30, 2019 | Last Updated: …")
        return found, "htmldate", None
    # (a year in the item's own title is what it is about, "… Festival 2013", not its date, in a line that repeats
    # the title too: a sharing button's "Share <title>")
    title = page.blocks[title_index].words if title_index is not None else None
    if year and any(
        f" {year} " in f" {block.words} ".replace(f" {title} " if title else "\0", " ")
        and not block.chrome
        and block.text.strip() not in block.links
        for block in presented
    ):
        return year, "htmldate", None
    if created := _created_date(page):
        return created, "page_field", None  # "Created: 4th March 2026": its first version's day, where no other
    if updated:
        return updated, "page_text", None  # the only date the page gives its item is its last update's
    day = htmldate_date(_EMPTY_PAGE, url=url) if not stamp and url.startswith("http") else None
    if day:
        return day, "page_text", None  # the day the page's own address carries (/2010/08/13/)
    return None, None, None


_EMPTY_PAGE = "<html><body><p></p></body></html>"


def _searched_day(html: str, url: str, presented: list[Block]) -> str | None:
    """The day htmldate's extensive search finds in the text of a page whose tags, time elements and address give
    none, where a line of the page presents that day and nothing else as its date ("5/24/2016" over the byline, far
    above the title past a box of related links), outside the chrome: a day found only in prose, in another field or
    in the site's menus (its offers' "from Monday, 28.10.2024") is none."""
    found = htmldate_date(html, url=url if url.startswith("http") else None, extensive=True)
    lines = [dates_in_text(block.text) for block in presented if not block.chrome and nothing_but_a_date(block.text)]
    return found if found and any(dates == [found] for dates in lines) else None


_CREATED = re.compile(r"^\s*(?:created|erstellt|créé|creado|creato)\s*(?:on|am|le|el|il)?\s*:?\s+(?P<date>.+)$", re.I)


def _created_date(page: VisiblePage) -> str | None:
    """The day a line outside the chrome says the item was created ("Created: 4th March 2026", as a guide's or a
    wiki's page stamps its first version), where the page gives no day of publication: a line of that label and
    a date alone."""
    for block in page.blocks:
        created = _CREATED.match(block.text)
        if (
            created
            and not block.chrome
            and len(found := dates_in_text(created["date"])) == 1
            and nothing_but_a_date(created["date"])
        ):
            return found[0]
    return None


def _published_lines(page: VisiblePage) -> list[Block]:
    """The datelines that say their first date is the item's publication and go on to date a later event: "Posted:
    Jul 30, 2019 1:05 PM ET | Last Updated: July 30, 2019" (not another field's value)."""
    return [
        block
        for block in page.blocks
        if POSTED.search(publication_part(block.text))
        and is_dateline(block.text)
        and not another_fields_value(page, block.index)
    ]


def _another_day_presented(page: VisiblePage, shown: str, tagged: Reading, title_index: int | None) -> bool:
    """Whether the page presents another day than a web vocabulary's tag gives (a dateline near its title) and
    presents the tag's day nowhere as a date — only inside a sentence or as a teaser's in a list of other items, if
    at all: the tag is a CMS's timestamp of something else (a live page's first entry, an import, a copy of the
    story), the page's dateline dates it."""
    day = tagged.date or ""
    if len(shown) != len(day) or len(day) != len("YYYY-MM-DD") or shown == day:
        return False
    presented = [block.text for block in page.blocks if is_dateline(block.text)]
    # the page's day on a line of its own label: "Sendung: hr-INFO, 25.04.2024" dates a broadcast, not the item
    own = any(shown in dates_in_text(text) and not _labelled_otherwise(text) for text in presented)
    return own and not any(
        day in dates_in_text(block.text) and not in_a_list_of_teasers(page, block.index, title_index)
        for block in page.blocks
        if is_dateline(block.text)
    )


def _only_day_shown(page: VisiblePage, tagged: Reading, document: object) -> str | None:
    """The one day the page writes, on a line that is nothing but that date (a dateline in its header), where a
    Dublin Core day is written nowhere on it, hidden datelines too: a catalogue stamp the page does not show gives way
    to the date a reader sees. None where the page writes no day, several, or the tag's."""
    day = tagged.date or ""
    if tagged.source != "dublin_core" or len(day) != len("YYYY-MM-DD") or writes_day(hidden_text(document), day):
        return None
    if any(writes_day(block.text, day) for block in page.blocks):
        return None
    days = {found for block in page.blocks for found in dates_in_text(block.text) if len(found) == len(day)}
    lines = [block for block in page.blocks if nothing_but_a_date(block.text) and days & set(dates_in_text(block.text))]
    return days.pop() if len(days) == 1 and lines else None


def _labelled_otherwise(text: str) -> bool:
    """Whether a line opens with a label ("Sendung:", "Event:") that names no date of publication."""
    label = _LEADING_LABEL.match(text)
    return label is not None and label_kind(label["label"]) != "date"


def _later_update_shown(page: VisiblePage, title_index: int | None, tagged: Reading) -> str | None:
    """The last update's day a dateline near the title shows, where a web vocabulary's earlier day is written
    nowhere on the page and the page shows no other date for its item ("Updated on Jul 21, 2022" over a JSON-LD
    "2022-03-01"): the one date a reader is given. None otherwise."""
    day = tagged.date or ""
    if title_index is None or tagged.source not in WEB_VOCABULARIES or len(day) != len("YYYY-MM-DD"):
        return None
    if any(day in dates_in_text(block.text) for block in page.blocks):
        return None
    updated = _updated_near_title(page, title_index)
    return updated if updated and len(updated) == len(day) and updated > day else None


def _updated_near_title(page: VisiblePage, title_index: int) -> str | None:
    """The day of a dateline near the title that dates the item's last update ("Updated: August 13, 2010"), where
    the page shows no other: as late as the item can be, which dates it for a reader as well as any."""
    for block in page.blocks[max(0, title_index - DATE_REACH_BEFORE) : title_index + DATE_REACH_AFTER + 1]:
        rest = _UPDATED.sub(" ", block.text)
        # (the chrome's lines are the site's, unless the title itself stands in what reads as chrome: a theme that
        # wraps the whole article in its layout's containers; or the line stands right beside the title, as a theme
        # may set its dateline apart)
        beside = abs(block.index - title_index) <= _BESIDE_TITLE
        chrome = block.chrome and not page.blocks[title_index].chrome and not beside
        if rest == block.text or chrome or NOT_PUBLICATION.search(rest) or not is_dateline(block.text):
            continue
        if dates := dates_in_text(rest):
            return dates[0]
    return None


def _history_date_only(page: VisiblePage, day: str) -> bool:
    """Whether the page writes `day` only in lines that date another event than publication (received, revised,
    accepted, updated): the date htmldate took from the text is then none of the work's publication."""
    lines = [block.text for block in page.blocks if day in dates_in_text(block.text)]
    # (a line that writes the day before such a label, "Posted: Jul 30, 2019 | Last Updated: …", dates publication)
    return bool(lines) and all(day not in dates_in_text(publication_part(line)) for line in lines)


def _labelled_day_instead(page: VisiblePage, tagged: str) -> str | None:
    """The day the page labels as the work's publication ("First published: 10 November 2015") where a tag gives
    a day the page never shows — an issue's cover date made the 1st of its month, a record's date of entry — or
    only the issue's year ("2012" for "First published on 10th November 2011"), in the same year or the next: None
    when the page shows the tag's day or labels no day."""
    year = year_of(tagged)
    days = [value for _, value in page.labelled_dates() if len(value) == 10]
    if not days or year is None or len(tagged) not in (4, 10) or tagged in days:
        # a tag's month ("2021/08", an issue's) is kept as the tag gives it, a day the page labels notwithstanding
        # ("Published: 15 July 2021"): the month is how the work is cited, as reference managers read the tag
        return None
    if not 0 <= int(year) - int(days[0][:4]) <= 1:
        return None
    shown_days = {found for block in page.blocks if not block.chrome for found in dates_in_text(block.text)}
    return None if tagged in shown_days else days[0]


def _shown_date(
    page: VisiblePage, title_index: int | None, title_text: str | None
) -> tuple[str, MetadataSource] | None:
    """The publication date the page shows: beside a label that says so, else written near the title (where the
    page shows the title more than once, near any of them): a date with a month first, nearest the title first;
    then a year alone just around it, as in "Vol. 37 (2008)" or "68 (4), 2023: 709". Only a line that presents
    its date counts (a dateline, `is_dateline`) — never a sentence that tells of one, another field's value or the
    title's own year; and past the usual reach, within the article's header, a line that is nothing but a date."""
    labelled = page.labelled_dates()
    if labelled:
        return labelled[0][1], "page_field"
    if title_index is None:
        return _opening_dateline(page)
    return _near_title(page, title_index, title_text)


def _opening_dateline(page: VisiblePage) -> tuple[str, MetadataSource] | None:
    """On a page that shows its title nowhere as text (an essay headed by an image of its title), the line that is
    nothing but a date above its running text ("July 2009" over the essay's first paragraph); None where there is
    none or several."""
    found: list[str] = []
    for block in page.blocks:
        if not block.chrome and not block.heading and len(block.text.split()) >= _PARAGRAPH_WORDS:
            break
        if not block.chrome and nothing_but_a_date(block.text):
            found += dates_in_text(block.text)
    return (found[0], "page_text") if len(found) == 1 else None


def _near_title(page: VisiblePage, title_index: int, title_text: str | None) -> tuple[str, MetadataSource] | None:
    """The date written near the title (`_shown_date`'s rule after the labels); a date in the title's own words
    ("September 2018 open thread") gives way to a finer one of the header that says the same month."""
    coarse: str | None = None
    title = page.blocks[title_index].words
    # the title shown again (above its byline, in a second heading), not a link to the page (a category, a menu)
    anchors = [
        b.index
        for b in page.blocks
        if b.index == title_index or (b.words == title and not b.chrome and b.text.strip() not in b.links)
    ]
    for bare_years, (before, after) in ((False, (DATE_REACH_BEFORE, DATE_REACH_AFTER)), (True, _YEAR_REACH)):
        if bare_years and not coarse and (issue := source_line_date(page, title_index)):
            return issue, "page_text"  # no dateline: the issue date of a journal source line by the title
        near: dict[int, int] = {}
        for anchor in anchors:
            # the article's header — title to running text — holds its dateline, however many tags come between
            reach = after if bare_years else max(after, _header_length(page, anchor))
            # above it, a bar of sharing buttons may stand between the dateline and the title: counted as none
            buttons = 0 if bare_years else _buttons_above(page, anchor)
            for block in page.blocks[max(0, anchor - before - buttons) : anchor + reach + 1]:
                distance = block.index - anchor if block.index > anchor else max(0, anchor - block.index - buttons)
                near[block.index] = min(near.get(block.index, 1_000), distance)
        # a date on a line of its own (a dateline, a byline) is the page's; one in a paragraph is what it tells of;
        # as near above the title as below it, the one below is its byline's (above, a masthead shows today's)
        for index in sorted(near, key=lambda i: (not is_dateline(page.blocks[i].text), near[i], i < title_index, i)):
            block = page.blocks[index]
            # chrome's dates are the site's, unless right beside the title (a theme may set its dateline apart)
            beside = near[index] <= _BESIDE_TITLE and is_dateline(block.text)
            own = publication_part(block.text)
            if (block.chrome and not page.blocks[title_index].chrome and not beside) or (
                own != block.text and not dates_in_text(own, bare_years=bare_years)
            ):
                continue  # the site's date, or no date before a label of another event ("Last updated on …")
            if near[index] > after and not has_date_part(block.text) and not POSTED.search(own):
                continue  # past the usual reach, in the header, only a line that is nothing but a date or says
                # it is the day of publication ("Published on Tuesday, Mar. 09, 2010")
            if bare_years and len(block.text.split()) > _YEAR_LINE_WORDS:
                continue  # a year in a paragraph
            if not is_dateline(own):
                continue  # a date a sentence tells of ("since March 1, 2020", "Founded in 2009, …")
            if another_fields_value(page, index) or under_a_link_to_another_item(page, index, anchors):
                continue  # "Founded | February 28, 1998": a table's row names what its date is the date of
            text = own
            if bare_years and index in anchors:
                # a year in the title's own words is its subject ("… with Video in 2020"); one the heading adds
                # to it dates it ("Title (1988)"), as a full date in a title does ("Report 14. - 20. Januar 2022")
                text = block.text.replace(title_text, " ") if title_text else ""
            elif bare_years and title_text and len(title_text) > len(block.text) / 2 and title_text in block.text:
                # the title repeated in the page's chrome (a breadcrumb's last step, a sticky header): its year is
                # still the title's subject ("… to Book for 2026"), not the item's date
                text = block.text.replace(title_text, " ")
            dates = dates_in_text(text, bare_years=bare_years)
            short = None if bare_years or dates else short_year_part(text)
            found = dates[0] if dates else (str(short) if short else None)
            if found and coarse and found.startswith(coarse):
                return found, "page_text"
            if found and index in anchors and not bare_years and len(found) < len("YYYY-MM-DD"):
                coarse = coarse or found  # the title's own month: a finer date of the header may follow
            elif found:
                return (coarse if coarse and not found.startswith(coarse) else found), "page_text"
    if coarse:
        return coarse, "page_text"
    cited = cited_year(page, title_index)
    return (cited, "page_text") if cited else None


def _buttons_above(page: VisiblePage, anchor: int) -> int:
    """How many blocks right above the title (block `anchor`) are sharing buttons and the like: lines of a few
    words with no date ("Share this page", "Facebook", "Print"), three or more under a heading of their own."""
    count, titled = 0, False
    for block in reversed(page.blocks[:anchor]):
        if len(block.text.split()) > _BUTTON_WORDS or dates_in_text(block.text, bare_years=True):
            break
        count, titled = count + 1, titled or bool(block.heading)
    # a bar under its own heading ("Share this page"): one short line is a kicker, a run of them may be a menu
    return count if count >= _BAR_BUTTONS and titled else 0


def _header_length(page: VisiblePage, anchor: int) -> int:
    """How many blocks after the title (block `anchor`) come before the article's running text: its first
    paragraph of many words outside the chrome (at most `_HEADER_REACH`)."""
    for block in page.blocks[anchor + 1 : anchor + _HEADER_REACH + 1]:
        if not block.chrome and not block.heading and len(block.text.split()) >= _PARAGRAPH_WORDS:
            return block.index - anchor - 1
    return 0
