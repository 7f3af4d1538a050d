"""An item's title, authors and date read from its page, so that report fields are read, not generated.

Every source a page offers is read (`metadata_sources`: Highwire, bepress, EPrints, PRISM, Dublin Core, JSON-LD,
microdata, page-state JSON, Open Graph, ``<title>``; `page_shows`: its headings, labelled fields, byline and
dates), and one rule decides: **a tag is believed when the page shows it; where the page's tags say what the page
does not show and the page shows something else, what the page shows wins** — and the item records which source
each field came from (`sources`) and which tag it overruled (`notes`). Without tags, what the page shows is read.
Where neither the tags nor what the page shows name an author, one independent reader votes (`second_reader`:
trafilatura's metadata extraction), and its names are kept only where the page shows every one of them and shows
its item's title (a listing's first entry has authors too).
"""

from __future__ import annotations

import logging
import re
from typing import Any

from pydantic import BaseModel, Field
from tld import get_fld

from research_crawler.pages.announced_work import take_announced_work, take_credited_authors
from research_crawler.pages.byline_labels import labelled_credit, role_credits
from research_crawler.pages.byline_runs import item_byline_run
from research_crawler.pages.bylines import (
    byline_above,
    credit_over_date,
    dateline_near,
    owner_of_site,
    shortened,
    signed_after,
)
from research_crawler.pages.closing_signatures import closing_signature
from research_crawler.pages.declared_kind import declared_kind
from research_crawler.pages.desk_credits import desk_credit_near, desk_sign_off, names_a_desk
from research_crawler.pages.html_tree import base_url, parse_html
from research_crawler.pages.item_dates import dates_in_text, normalise_date, without_dates
from research_crawler.pages.item_titles import (
    TITLE_SEPARATORS,
    byline_past,
    decide_title,
    without_container,
)
from research_crawler.pages.marked_in_byline import whole_byline
from research_crawler.pages.metadata_sources import (
    WEB_VOCABULARIES,
    MetadataSource,
    Reading,
    container_names,
    normalise_doi,
    read_tag_sources,
)
from research_crawler.pages.page_shows import VisiblePage, read_visible_page, words_of
from research_crawler.pages.person_names import (
    as_the_page_turns_them,
    begins_with_by,
    is_person_name,
    name_key,
    same_person,
    split_people,
    without_by,
)
from research_crawler.pages.post_signatures import authored_line, post_signature, site_header_byline
from research_crawler.pages.publisher_names import publisher_names
from research_crawler.pages.record_headings import without_record_id, without_trailing_date
from research_crawler.pages.reporter_credits import reporter_credit
from research_crawler.pages.reporting_lines import (
    by_glued_to_link,
    by_line_past_the_photo,
    writer_over_date_line,
    writer_over_reporting_line,
)
from research_crawler.pages.screen_works import describes_a_screen_work
from research_crawler.pages.second_reader import authors_by_trafilatura
from research_crawler.pages.shown_dates import DATE_REACH_AFTER, DATE_REACH_BEFORE, decide_date
from research_crawler.pages.uploader_credits import credit_in_title, uploader_credit
from research_crawler.text.untrusted import UntrustedText

__all__ = ["ItemMetadata", "MetadataSource", "normalise_date", "normalise_doi", "read_item_metadata"]

logger = logging.getLogger(__name__)

_A_LIST = re.compile(r"[,;&]|\s(?:and|und|et|y)\s")  # "A, B and C, CNN": several credits, not one
_DATED_REACH = 5  # lines under a title where its writer's name and date stand (a comments link between)
_CREDIT_REACH = 3  # lines under a title where its credit stands (a standfirst between)
_SIGNED_LINE_WORDS = 12  # "By Example Foundation • 15 January 2020"
_PEN_NAME = re.compile(r"^[^\W\d_][\w.'’-]{2,30}$")  # "SanFranciscoGal", "jdoe": one word, as a writer signs


class ItemMetadata(BaseModel):
    """What a page says about its item; absent fields are None/[] and missing from `sources`."""

    title: UntrustedText | None = None
    authors: list[UntrustedText] = Field(
        default_factory=list, description="In the page's order, as the page writes them."
    )
    date: UntrustedText | None = Field(
        default=None, description="YYYY-MM-DD, YYYY-MM or YYYY when parseable, else the raw value."
    )
    abstract: UntrustedText | None = None
    doi: UntrustedText | None = Field(default=None, description="Bare '10.xxxx/...' form.")
    pdf_url: str | None = Field(default=None, description="Absolute canonical URL of the PDF.")
    sources: dict[str, MetadataSource] = Field(
        default_factory=dict, description="Field name -> where it was read: a tag vocabulary or what the page shows."
    )
    notes: dict[str, UntrustedText] = Field(
        default_factory=dict, description="Field name -> a tag the page contradicts, which the rule did not believe."
    )

    @property
    def is_empty(self) -> bool:
        """True when the page carried none of the fields."""
        return not self.sources


def read_item_metadata(html: str, *, url: str) -> ItemMetadata:
    """Title, authors, date, abstract, DOI and PDF link of the page's item (the rule of the module docstring).

    Nothing is guessed: a page without tags or visible title gives an empty result, and garbage input (empty,
    binary, broken JSON-LD) never raises.
    """
    tree = parse_html(html)
    if tree is None:
        return ItemMetadata()
    readings = read_tag_sources(tree, html, base=base_url(tree, url))
    page = read_visible_page(tree)
    values: dict[str, Any] = {}
    sources: dict[str, MetadataSource] = {}
    notes: dict[str, str] = {}
    publishers, containers = publisher_names(tree), container_names(tree)
    site = _site_names(url, page, [*containers, *publishers])
    declared = _site_names(url, page, [*containers, *publishers], with_title=False)
    title, title_index = decide_title(readings, page, values, sources, notes, site=declared)
    if title:
        values["title"] = without_record_id(without_trailing_date(without_container(title, containers)), url)
    _decide_authors(readings, page, title_index, (html, url, publishers, site), values, sources, notes)
    if sources.get("authors") == "page_field" and describes_a_screen_work(tree):
        notes["authors"] = "the page is a film's or a series' record: its credits name the work's makers, no writer"
        del values["authors"], sources["authors"]
    date, date_source, date_note = decide_date(
        readings, page, title_index, html=html, url=url, title=values.get("title"), tree=tree
    )
    if date and date_source:
        values["date"], sources["date"] = date, date_source
    if date_note:
        notes["date"] = date_note
    take_announced_work(tree, readings, values, sources, notes)
    take_credited_authors(page, declared_kind(tree), values, sources, notes)
    for field in ("abstract", "doi", "pdf_url"):
        reading = next((r for r in readings if getattr(r, field)), None)
        if reading is not None:
            values[field], sources[field] = getattr(reading, field), reading.source
    return ItemMetadata(**values, sources=sources, notes=notes)


# --- authors ----------------------------------------------------------------------------------------------


def _decide_authors(
    readings: list[Reading],
    page: VisiblePage,
    title_index: int | None,
    document: tuple[str, str, frozenset[str], frozenset[str]],
    values: dict[str, Any],
    sources: dict[str, Any],
    notes: dict[str, str],
) -> None:
    """The authors by the rule of the module docstring. The publisher's name (`document`'s last part: what the page
    declares it, `publisher_names`) is an author only where the page shows it as the item's byline; a tag, a
    second reader or the <title> that gives it alone names no writer; `site` holds the site's own names."""
    html, url, publishers, site = document

    def signed(names: list[str]) -> bool:  # a byline of the page's: a short line "By <name> …"
        return any(
            begins_with_by(block.text)
            and len(block.text.split()) <= _SIGNED_LINE_WORDS
            and any(f" {words_of(name)} " in f" {block.words} " for name in names)
            for block in page.blocks
        )

    def not_publishers(names: list[str]) -> list[str]:
        """`names`, or none where each is the publisher's and the page never writes "By <name>" before it."""
        return [] if not signed(names) and all(words_of(name) in publishers for name in names) else names

    tagged = next((r for r in readings if r.authors), None)
    visible, where = _visible_authors(page, title_index, site, values.get("title") or "")
    credited, not_writers = role_credits(page.blocks)
    if visible and all(name in not_writers and name not in credited for name in visible):
        visible = []  # names the page sets over an editor's role, not a writer's
    if credited and not visible:
        visible, where = credited, "page_field"  # the names a box of credits sets over a writer's role
    if tagged is not None and all(name in not_writers and name not in credited for name in tagged.authors):
        # a tag's author that the page shows only over another role ("Editor") wrote nothing
        notes["authors"] = f"the page shows its {tagged.source} author {tagged.authors[0]!r} only as an editor"
        tagged = None
    if tagged is None:
        if visible:
            values["authors"], sources["authors"] = visible, where
        elif title_index is not None and (
            voted := not_publishers(
                [
                    name
                    for name in page.writers(authors_by_trafilatura(html, url=url, shows=page.shows))
                    if not _is_the_site(name, site, url) and (name not in not_writers or name in credited)
                ]
            )
        ):
            # (only on a page that shows its item's title: a listing's first entry has authors too)
            values["authors"], sources["authors"] = voted, "trafilatura"
        elif title_index is not None and (owner := not_publishers(owner_of_site(page.title_element, page.shows))):
            values["authors"], sources["authors"] = owner, "page_byline"  # a one-person site's owner
        return
    # the publisher beside people in a tag's author list (a JSON-LD Person, then the site's Organization) is no
    # co-writer: the people are kept
    tag_names = [name for name in tagged.authors if not_publishers([name])] or list(tagged.authors)
    # (tags that write each name surname first with no comma, "Rahman Laura", are read as the page shows them)
    if (turned := as_the_page_turns_them(tag_names, page.shows)) != tag_names:
        notes["authors"] = f"the page's {tagged.source} tags write its authors' names surname first"
        tag_names = turned
    dated = title_index is not None and _dated_under_title(page, title_index, tag_names)
    if dated and not visible and all(_in_site_names(name, site) for name in tag_names):
        # the site's own name by the date under the headline is its masthead's, though a tag calls it the author
        notes["authors"] = f"the page's {tagged.source} author is the site's name, shown by the date only"
        return
    if title_index is not None and (_credited_under_title(page, title_index, tag_names, site) or dated):
        values["authors"], sources["authors"] = tag_names, tagged.source  # the tag's credit, shown as the byline
        return
    tag_keys = [name_key(name) for name in tag_names]
    seen_keys = [name_key(name) for name in visible]
    shown = sum(1 for key in tag_keys if page.shows(key))
    by_publisher = not not_publishers(tag_names)
    names_the_site = by_publisher or _names_the_site(tag_names, page)
    site_only = names_the_site and not signed(tag_names)
    if not visible and (by_publisher or (site_only and not any(is_person_name(name) for name in tag_names))):
        notes["authors"] = f"the page's {tagged.source} author is the site's name, and the page names no writer"
        return
    if not visible and shown == 0 and title_index is not None and tagged.source in WEB_VOCABULARIES:
        # a general web vocabulary's author (a CMS's account in JSON-LD or Dublin Core) on a page that shows its
        # item and never names them: no byline a reader sees (a scholarly publisher's citation tags, written for
        # indexers and often shown only by a script, are believed unshown)
        notes["authors"] = f"the page never shows its {tagged.source} author {tag_names[0]!r} and names no writer"
        return
    # a tag's one author that is no person's name (the magazine's, "Makronom") against the people a byline shows
    organisation = len(tag_names) == 1 and not is_person_name(tag_names[0]) and not set(tag_keys) & set(seen_keys)
    # a desk's or agency's credit the page shows by the item's date, against a tag's people (a live blog's JSON-LD
    # roster of its editors): the credit a reader sees is the byline
    desk = bool(visible) and visible == _desk_credit(page, title_index, site)
    # (a tag's author that is one of the site's own names, "Der Postillon" on der-postillon.com, is no writer
    # beside the byline the page shows; alone, on a blog named after its owner, it may be the owner)
    the_site = all(_in_site_names(name, site) for name in tag_names)
    if visible and (shown == 0 or names_the_site or the_site or shortened(tag_names, visible) or organisation or desk):
        notes["authors"] = f"the page's {tagged.source} authors are not the names it shows"
        values["authors"], sources["authors"] = visible, where
    elif (
        visible
        and set(tag_keys) <= set(seen_keys)
        and (
            (len(visible) > len(tag_names) and len(tag_names) <= 2)
            or (len(visible) == len(tag_names) and seen_keys != tag_keys)
        )
    ):
        if seen_keys[: len(tag_keys)] != tag_keys:
            notes["authors"] = f"the page shows its authors in another order than its {tagged.source} tags"
        values["authors"], sources["authors"] = visible, where
    else:
        values["authors"], sources["authors"] = tag_names, tagged.source


def _site_names(url: str, page: VisiblePage, declared: list[str], *, with_title: bool = True) -> frozenset[str]:
    """The names the site goes by, each reduced to its words without a leading "the": those its tags declare (site
    name, publisher, journal), the part of its <title> after the last separator (unless not `with_title`), and its
    domain's name."""
    segments = TITLE_SEPARATORS.split(page.title_element) if with_title else []
    domain = get_fld(url, fail_silently=True, fix_protocol=True) or ""
    names = [words_of(name).removeprefix("the ") for name in [*declared, *segments[1:][-1:], domain.partition(".")[0]]]
    return frozenset(name for name in names if len(name.replace(" ", "")) >= 3)


def _names_site(credit: str, site: frozenset[str]) -> bool:
    """Whether a credit line names the site itself and more ("Example News wire services", "Example Post Staff"):
    it begins with one of the site's names (spacing aside: "Detroit News" is the site "detroitnews")."""
    compact = words_of(credit).removeprefix("the ").replace(" ", "")
    return any(compact.startswith(name.replace(" ", "")) and compact != name.replace(" ", "") for name in site)


def _is_the_site(name: str, site: frozenset[str], url: str) -> bool:
    """Whether a name is the site's own, spacing aside ("Elmundo Es" on elmundo.es): no writer."""
    compact = words_of(name).removeprefix("the ").replace(" ", "")
    domain = (get_fld(url, fail_silently=True, fix_protocol=True) or "").replace(".", "")
    return compact == domain or compact in {known.replace(" ", "") for known in site}


def _desk_credit(page: VisiblePage, title_index: int | None, site: frozenset[str]) -> list[str]:
    """The desk's or agency's credit by the date under the item's title, or, where the item's title was read from a
    tag the page does not show as such (a live blog's standing name), under the page's first heading."""
    if title_index is None:
        title_index = next((block.index for block in page.blocks if block.heading and not block.chrome), None)
    return desk_credit_near(page.blocks, title_index, site) if title_index is not None else []


def _only_the_site(names: list[str], page: VisiblePage, site: frozenset[str]) -> bool:
    """Whether every name is the site's own and the page never writes "By <name>" (which makes it a byline); a
    team's or a desk's credit ("Example Team", "Example Staff") is a byline, never the masthead, though it bears the
    site's name."""
    return all(_in_site_names(name, site) and not names_a_desk(name) for name in names) and not any(
        begins_with_by(block.text) and words_of(name) in block.words for block in page.blocks for name in names
    )


def _in_site_names(name: str, site: frozenset[str]) -> bool:
    """Whether a name is one of the site's own names, spacing aside."""
    compact = words_of(name).removeprefix("the ").replace(" ", "")
    return compact in {known.replace(" ", "") for known in site}


def _header_byline(page: VisiblePage, title_index: int, site: frozenset[str]) -> list[str]:
    """The byline in the item's header: under the title, past what may come between, above it, in a dateline
    near it, or the credit line over its date — none of them a navigation link."""
    above = page.writers(byline_above(page.blocks, title_index))
    return (
        page.writers(page.byline_after(title_index))
        or page.writers(by_glued_to_link(page.blocks, title_index))
        or page.writers(byline_past(page, title_index, heading=True))
        or ([] if _names_the_site(above, page) else above)  # the site's banner above the title is no byline
        or page.writers(dateline_near(page.blocks, title_index, before=DATE_REACH_BEFORE, after=DATE_REACH_AFTER))
        or page.writers(credit_over_date(page.blocks, title_index, names_site=lambda text: _names_site(text, site)))
        or page.writers(by_line_past_the_photo(page.blocks, title_index))
    )


def _shown_byline(page: VisiblePage, title_index: int, site: frozenset[str]) -> list[str]:
    """The byline under the item's title, wherever the page shows that title: under its headline where the page
    sets the title as a heading (a copy of it in a bar above, over the weather, "CAI Moderate 80", is no headline),
    else under any of its showings (a box of the story's pages, "Page 1 … Printer-Friendly Version", before the
    story, then the story under the title again)."""
    title = page.blocks[title_index]
    copies = [block for block in page.blocks if block.words == title.words and not block.chrome]
    headlines = sorted((block.index for block in copies if block.heading), key=lambda index: index != title_index)
    others = [block.index for block in copies if block.index != title_index]
    showings = headlines or [title_index, *others]
    return next((found for index in showings if (found := _header_byline(page, index, site))), [])


def _named_in_headline(names: list[str], page: VisiblePage, title_index: int) -> bool:
    """Whether every name is written whole in the item's headline and the page never writes "By <name>": the
    person the story is about, no writer ("Kate Example is looking stunning in new photos" over a caption "Kate
    Example"); "With Jane Doe" over "By JANE DOE" is the writer's own column."""
    headline = f" {page.blocks[title_index].words} "
    return all(f" {words_of(name)} " in headline for name in names) and not any(
        begins_with_by(block.text) and words_of(name) in block.words for block in page.blocks for name in names
    )


def _holds_site_name(name: str, site: frozenset[str]) -> bool:
    """Whether a name of several words opens with one of the site's one-word names ("GalTime Entertainment Diva"),
    or holds one of its names of several words ("South Florida Sun-Sentinel" on sun-sentinel.com): the outlet under
    the writer's name, no co-writer."""
    words = words_of(name).split()
    spaced = f" {' '.join(words)} "
    holds = any(" " in known and f" {known} " in spaced and spaced != f" {known} " for known in site)
    return len(words) > 1 and (words[0] in site or holds)


def _linked_people(page: VisiblePage, index: int, value: str) -> list[str]:
    """The names an author field links, one person a link, where its value holds more than names ("Author: Jane
    Roe jroe@example.org Info & Affiliations"): the other links beside them, an e-mail or a panel, name no one; or
    the one word the field gives, linked as a writer's page is, where the writer signs with a pen name."""
    links = page.blocks[index].links if 0 <= index < len(page.blocks) else ()
    if value in links and _PEN_NAME.match(value):
        return [value]  # "Author: SanFranciscoGal": the field's whole value one linked word, the writer's pen name
    people = [split_people(link) for link in links if link in value]
    return [named[0] for named in people if len(named) == 1]


def _names_the_site(names: list[str], page: VisiblePage) -> bool:
    """Whether a tag's authors are the site's name ("Helmholtz Klima" on "… | Helmholtz-Klima-Initiative"): every
    one is in the part of the <title> element after its last separator."""
    segments = [words_of(part) for part in TITLE_SEPARATORS.split(page.title_element)]
    site = f" {segments[-1]} " if len(segments) > 1 else ""
    return bool(site.strip()) and all(f" {words_of(name)} " in site for name in names)


def _credited_under_title(page: VisiblePage, title_index: int, names: list[str], site: frozenset[str]) -> bool:
    """Whether the page shows a tag's one credit as a line of its own right under the item's title (past a
    standfirst): "MIT Example Insights" over the date, a pen name "jdoe" — the byline a reader sees, whether or not
    it reads as a person's name. The site's own name there is its masthead's, never a writer."""
    if len(names) != 1 or _A_LIST.search(names[0]) or _in_site_names(names[0], site):
        return False  # (a tag's one string that lists several people is read as the byline it is)
    credit = words_of(names[0])
    under = page.blocks[title_index + 1 : title_index + 1 + _CREDIT_REACH]
    return bool(credit) and any(
        not block.chrome and not block.heading and words_of(without_by(block.text)) == credit for block in under
    )


def _dated_under_title(page: VisiblePage, title_index: int, names: list[str]) -> bool:
    """Whether the page shows a tag's one author by the item's date on a short line under its title, the name and
    the date and nothing else ("Yordan 22 July 2020"): the byline a reader sees, whatever lines follow it."""
    if len(names) != 1:
        return False
    credit = words_of(names[0])
    under = page.blocks[title_index + 1 : title_index + 1 + _DATED_REACH]
    return bool(credit) and any(
        not block.chrome
        and dates_in_text(block.text)
        and words_of(without_dates(block.text, mark=" ")) == credit
        and words_of(block.text).startswith(credit)
        for block in under
    )


def _title(page: VisiblePage, title_index: int) -> str:
    return page.blocks[title_index].text if 0 <= title_index < len(page.blocks) else ""


def _visible_authors(
    page: VisiblePage, title_index: int | None, site: frozenset[str] = frozenset(), title: str = ""
) -> tuple[list[str], MetadataSource]:
    """The names the page shows as the item's authors: a labelled field's ("Author(s): …", an "Authors:" label over
    one name a line), else the byline under the title, else the names its markup calls authors. A labelled field in
    the page's chrome ("By" over a name in a sidebar of other stories) gives way to a byline under the title."""
    if page.lists_items():
        return [], "page_field"
    byline = _shown_byline(page, title_index, site) if title_index is not None else []
    if byline and _only_the_site(byline, page, site):
        byline = []  # the site's name over the date or above the title is its masthead's, no byline
    if byline and title_index is not None and _named_in_headline(byline, page, title_index):
        byline = []  # a name line under the headline that names that person (a photo's caption) is whom it is about
    # (a writer's title at the site after their name, "By Jane Doe, Example Entertainment Diva", is no co-writer)
    byline = [name for name in byline if not _holds_site_name(name, site)] or byline
    under_labels: list[str] = []
    for label in page.author_labels:
        under_labels += [name for name in page.byline_after(label, reach=60) if name not in under_labels]
    in_fields: list[str] = []
    for index, value in item_byline_run(page.fields.get("authors", []), title_index):  # not the teasers' "By …"
        if byline and (index, value) in page.chrome_fields:
            continue
        people = split_people(value) or ([value] if is_person_name(value) else []) or _linked_people(page, index, value)
        in_fields += [name for name in people if not any(same_person(name, seen) for seen in in_fields)]
    # the longer list whole (a field's author list over an "Authors" section of one bio), then the names the other
    # adds: a person it names already, written another way, is left out ("Izadpanah, H." / "Hossein Izadpanah")
    whole, other = (under_labels, in_fields) if len(under_labels) >= len(in_fields) else (in_fields, under_labels)
    named = whole + [name for name in other if not any(same_person(name, seen) for seen in whole)]
    if named:
        return named, "page_field"
    named = page.role_marked_authors()
    if named:
        return named, "page_field"
    if byline:
        return byline, "page_byline"
    if title_index is not None and (
        signed := page.writers(post_signature(page.blocks, title_index, _title(page, title_index)))
    ):
        return signed, "page_byline"  # a blog's or a forum's signature by the date: "Licat on June 5, 2023"
    if title_index is not None and (uploader := page.writers(uploader_credit(page.blocks, title_index, title))):
        return uploader, "page_byline"  # a media page's uploader under the title: "by nvanderklippe"
    # (from the top where no title was found: a reporter's credit says what it is wherever it stands)
    start = -1 if title_index is None else title_index
    if credited := reporter_credit(page.blocks, start) or labelled_credit(page.blocks, start):
        return credited, "page_byline"
    if title_index is not None and (
        reporting := writer_over_reporting_line(page.blocks, title_index)
        or page.writers(writer_over_date_line(page.blocks, title_index))
    ):
        return reporting, "page_byline"
    if desk := _desk_credit(page, title_index, site):
        return desk, "page_byline"  # an agency's, a desk's or initials' credit by the date: the one writer
    marked = whole_byline(page.blocks, page.writers(page.marked_authors()))  # "By A, B and <marked>C"
    if title_index is not None:  # the name the item is titled by is its subject (a biography's card), no writer
        marked = [name for name in marked if words_of(name) != words_of(_title(page, title_index))]
    # (where the element marked "author" holds only the site's own name, a blog platform's profile, the story's
    # signature names its writer, if it has one)
    if title_index is not None and all(_in_site_names(name, site) for name in marked):
        signed = page.writers(signed_after(page.blocks, title_index) or closing_signature(page.blocks, title_index))
        marked = signed or desk_sign_off(page.blocks, title_index) or marked
    if not marked and title_index is not None:  # a one-writer site's "By <name>" in its header, where nothing else
        marked = page.writers(site_header_byline(page.blocks, title_index))  # names one
    if not marked:  # the <title>'s "<item> by <name>", the name shown on a line of its own
        marked = page.writers(credit_in_title(page.title_element, page.blocks))
    if not marked:  # a code host's commit: "<linked handle> authored <date>"
        marked = page.writers(authored_line(page.blocks))
    return marked, "page_byline"
