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

from research_crawler.pages.announced_work import take_announced_work
from research_crawler.pages.bylines import (
    byline_above,
    credit_over_date,
    dated_people,
    dateline_near,
    owner_of_site,
    shortened,
    signed_after,
)
from research_crawler.pages.closing_signatures import closing_signature
from research_crawler.pages.field_labels import GENERIC_HEADING_WORDS, label_kind
from research_crawler.pages.html_tree import base_url, parse_html
from research_crawler.pages.item_dates import dates_in_text, normalise_date
from research_crawler.pages.metadata_sources import (
    WEB_VOCABULARIES,
    MetadataSource,
    Reading,
    container_names,
    normalise_doi,
    read_tag_sources,
)
from research_crawler.pages.page_shows import Block, VisiblePage, read_visible_page, words_of
from research_crawler.pages.person_names import begins_with_by, is_person_name, name_key, same_person, split_people
from research_crawler.pages.publisher_names import publisher_names
from research_crawler.pages.second_reader import authors_by_trafilatura
from research_crawler.pages.shown_dates import DATE_REACH_AFTER, DATE_REACH_BEFORE, decide_date
from research_crawler.text.untrusted import UntrustedText

__all__ = ["ItemMetadata", "MetadataSource", "normalise_date", "normalise_doi", "read_item_metadata"]

logger = logging.getLogger(__name__)

_HEADING_SCORE = {1: 3.0, 2: 2.0, 3: 1.5, 4: 1.0, 5: 0.5, 6: 0.5}
_IN_TITLE_ELEMENT = 3.0
_FOLLOWED_BY_BYLINE = 3.0
_TITLE_FIELD = 5.0
_PER_WORD = 0.1
# A heading alone, or a block the page's <title> repeats; under a <title> that names no item ("Publication
# details"), a long heading will do.
_MIN_SCORE_UNDER_GENERIC_TITLE = 2.5
_OVERRULE_SCORE = 4.0  # what it takes to overrule a tag the page does not show
_TITLE_SEPARATORS = re.compile(r"\s+[|\-–—:·»]\s+|:\s+|\s+::\s+")
_SUBTITLE_SEPARATORS = (": ", " - ", " – ", " — ", ". ")
_SITE_SEPARATORS = (" - ", " | ", " – ", " — ", " :: ", " · ", " » ")
# "Title(Article)(Open Access)": the kind of document written after a heading is not part of its title.
_DOCUMENT_TYPE = re.compile(
    r"(?:\s*\((?:article|review|open access|conference paper|letter|note|erratum|editorial|book|chapter|thesis)\))+$",
    re.I,
)
_REFERENCE_LINE = re.compile(
    r"\b(?:vol(?:ume)?\.?|issue|no\.|pages?|pp\.)\s*\d"
    # a citation line: "Appl. Phys. Lett. 84, 657 (2004);", or one that gives the work's address or DOI
    r"|\b\d+\s*,\s*\w*\d+\s*\((?:1[5-9]|20)\d\d\)|https?://|\bdoi:|\b10\.\d{4,9}/",
    re.I,
)
_BETWEEN_TITLE_AND_BYLINE = 8  # citation, date and sharing lines, a standfirst, between a title and its byline
_SHARING_WORDS = 3
_SHARING_BAR_WORDS = 8  # "Compartir en Facebook Compartir en Twitter"
_VARIANT_SHARE = 0.6  # the share of a tag title's words a heading must hold to say the same title
_SENTENCE_END = re.compile(r"\w[.!?](?:\s+|$)")  # "… systems. This chapter …": the end of a sentence
_SIGNED_LINE_WORDS = 12  # "By Example Foundation • 15 January 2020"
_RESPONSIBILITY = re.compile(r"\s+/\s+[^/]*$")  # a catalogue's "Title / J. K. Rowling"


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
    title, title_index = _decide_title(readings, page, values, sources, notes)
    if title:
        values["title"] = _without_container(title, container_names(tree))
    publishers = publisher_names(tree)
    site = _site_names(url, page, [*container_names(tree), *publishers])
    _decide_authors(readings, page, title_index, (html, url, publishers, site), values, sources, notes)
    date, date_source, date_note = decide_date(
        readings, page, title_index, html=html, url=url, title=values.get("title")
    )
    if date and date_source:
        values["date"], sources["date"] = date, date_source
    if date_note:
        notes["date"] = date_note
    take_announced_work(tree, readings, values, sources, notes)
    for field in ("abstract", "doi", "pdf_url"):
        reading = next((r for r in readings if getattr(r, field)), None)
        if reading is not None:
            values[field], sources[field] = getattr(reading, field), reading.source
    return ItemMetadata(**values, sources=sources, notes=notes)


# --- title ------------------------------------------------------------------------------------------------


def _decide_title(
    readings: list[Reading], page: VisiblePage, values: dict[str, Any], sources: dict[str, Any], notes: dict[str, str]
) -> tuple[str | None, int | None]:
    """The title, and the block the page shows it in (None when it is not shown)."""
    tags = [r for r in readings if r.title and r.source != "html_title"]
    in_title = f" {words_of(page.title_element)} "
    # the browser shows the <title> too (in its tab): a script-rendered page shows its title nowhere else
    shown = [r for r in tags if page.shows(r.title) or f" {words_of(r.title or '')} " in in_title]
    visible = _visible_title(page)
    only_in_tab = shown and not any(page.shows(_shown_part(r.title or "", page)) for r in shown)
    if only_in_tab and (variant := _heading_variant(page, shown[0].title)):
        # a tag title only the <title> element writes, and a heading that says it in other words: the heading
        values["title"], sources["title"] = variant.text, "page_heading"
        notes["title"] = f"the page's {shown[0].source} title {shown[0].title!r} is shown only as {variant.text!r}"
        return variant.text, variant.index
    if shown:
        chosen = shown[0]
        title = _with_subtitle(_shown_part(chosen.title or "", page), page)
        values["title"], sources["title"] = title, chosen.source
        return title, _block_of(page, title)
    if visible is not None and (not tags or visible[2] >= _OVERRULE_SCORE):
        text, index, _ = visible
        text = _with_subtitle(text, page) if index >= 0 else text
        values["title"], sources["title"] = text, ("page_field" if index < 0 else "page_heading")
        if tags:
            notes["title"] = f"the page's {tags[0].source} title {tags[0].title!r} is not what the page shows"
        return text, (index if index >= 0 else _block_of(page, text))
    if tags:
        values["title"], sources["title"] = tags[0].title, tags[0].source
        if page.blocks:
            notes["title"] = f"the {tags[0].source} title is not shown on the page"
        return tags[0].title, None
    title_element = next((r.title for r in readings if r.source == "html_title"), None)
    if (not title_element or _generic(title_element)) and visible is None:
        visible = _visible_title(page, min_score=_MIN_SCORE_UNDER_GENERIC_TITLE)
        if visible is not None:
            values["title"], sources["title"] = visible[0], "page_heading"
            return visible[0], visible[1]
    if title_element:
        values["title"], sources["title"] = title_element, "html_title"
    return title_element, None


def _heading_variant(page: VisiblePage, title: str | None) -> Block | None:
    """The heading that shows `title` in other words ("Die Ablehnung von “Gendersprache” – medial produziert" for
    "Die Ablehnung der Gendersprache » SciLogs"): one outside the chrome that holds most of the words of the title's
    main part (its longest part between the site's separators), two at least."""
    parts = [words_of(part) for part in _TITLE_SEPARATORS.split(title or "")]
    main = set(max(parts, key=lambda part: len(part.split()), default="").split())
    best: tuple[float, Block] | None = None
    for block in page.blocks:
        if not 1 <= block.heading <= 3 or block.chrome or _generic(block.text):
            continue
        shared = main & set(block.words.split())
        share = len(shared) / len(main) if main else 0.0
        if len(shared) >= 2 and share >= _VARIANT_SHARE and (best is None or share > best[0]):
            best = (share, block)
    return best[1] if best else None


def _visible_title(page: VisiblePage, *, min_score: float = 3.0) -> tuple[str, int, float] | None:
    """The title the page shows, with its block (-1 for a labelled field) and how sure the rule is."""
    fields = [_RESPONSIBILITY.sub("", value).strip(" :;/") for value in page.field_values("title")]
    fields = [value for value in fields if value and not _generic(value)]
    if fields and not page.lists_items():
        return fields[0], -1, _TITLE_FIELD
    in_title = words_of(page.title_element)
    segments = [words_of(part) for part in _TITLE_SEPARATORS.split(page.title_element)]
    segments = [segment for segment in segments if segment and not _generic(segment)]
    best: tuple[str, int, float] | None = None
    parts: dict[str, tuple[str, int, float]] = {}  # the headings that are each a whole part of the <title>
    for block in page.blocks:
        if block.chrome or not block.words or len(block.words) > 600:
            continue
        text = _DOCUMENT_TYPE.sub("", block.text).strip(" :;/|")
        words = words_of(text)
        if not words or not 1 <= len(words.split()) <= 60 or _generic(text) or _REFERENCE_LINE.search(text):
            continue  # a journal reference ("Biomaterials, Volume 27, Issue 19, …") is no title
        titled = bool(block.heading) and _in_title_element(words, in_title, segments)
        if label_kind(text) or (len(words.split()) < 8 and dates_in_text(text) and not titled):
            continue  # a label ("Authors:") or a date line, not a heading the <title> repeats ("Report 14-20 May")
        if not block.heading and split_people(text) and not _in_title_element(words, in_title, segments):
            continue  # a byline (a short heading in title case reads as names too, and stays a candidate)
        if not block.heading and len(_SENTENCE_END.findall(text)) >= 2:
            continue  # a paragraph of sentences (a standfirst, an abstract) is running text, no title
        count = len(words.split())
        score = _HEADING_SCORE.get(block.heading, 0.0)
        if _in_title_element(words, in_title, segments):
            score += _IN_TITLE_ELEMENT
        if _byline_past(page, block.index, heading=bool(block.heading)):
            score += _FOLLOWED_BY_BYLINE
        # Item titles are longer than site names and section headings ("The STAR experiment", "School").
        score += min(count, 15) * _PER_WORD - block.index / 100_000
        if score >= min_score and (best is None or score > best[2]):
            best = (text, block.index, score)
        if block.heading and words in segments and score >= min_score:
            parts.setdefault(words, (text, block.index, score))
    # the site's name and the item's title, each a heading and each a part of the <title> ("Internet-Law » Verstößt
    # der Ausschluss …"): the longer is the item's (a blog's name heads every page; its post's title is longer)
    # — unless the two are a title and its subtitle, the <title> joining them ("Vom Boden aus gedacht - Ann Cotten …")
    longest = max(parts.items(), key=lambda part: len(part[0].split()), default=None)
    if best is None or longest is None or len(parts) < 2 or words_of(best[0]) not in parts:
        return best
    longer = len(longest[0].split()) > len(words_of(best[0]).split())
    return longest[1] if longer and _with_subtitle(best[0], page) == best[0] else best


def _byline_past(page: VisiblePage, index: int, *, heading: bool) -> list[str]:
    """The byline right after what a page may put between a title (block `index`) and its byline."""
    index, dated = _past_citation_lines(page, index, heading=heading)
    # strictly, unless after a date line or over one ("Nuño Domínguez" / "Twitter" / "19 FEB 2020 - 18:37 CET")
    return page.byline_after(index, reach=1, strict=not (dated or _dated_below(page, index + 1)))


def _dated_below(page: VisiblePage, index: int) -> bool:
    """Whether a short date line follows block `index` (a name) within two blocks."""
    below = page.blocks[index + 1 : index + 3]
    return any(len(block.text.split()) <= 8 and dates_in_text(block.text, bare_years=False) for block in below)


def _past_citation_lines(page: VisiblePage, index: int, *, heading: bool) -> tuple[int, bool]:
    """`index`, moved past what a page may put between a title and its byline — citation and date lines
    ("J. Chem. Phys. 138, 054312 (2013);", "https://doi.org/…", "Published 4 June 2008"), sharing links of a word
    or two ("Facebook", "Print Article") and, under a heading, one standfirst (the sentence that sums the article
    up) — and whether a date line was among them (a name right after a date is a dateline's byline)."""
    dated = False
    standfirst = heading
    for _ in range(_BETWEEN_TITLE_AND_BYLINE):
        following = page.blocks[index + 1] if index + 1 < len(page.blocks) else None
        if following is None or len(following.text.split()) > 40:
            break
        if split_people(following.text) or dated_people(following.text):
            break  # the byline itself
        words = len(following.text.split())
        if following.heading or following.chrome:
            # a subtitle set as a heading (the standfirst) and a bar of sharing buttons may come before the byline
            if following.heading and standfirst and words > _SHARING_WORDS and not following.chrome:
                standfirst = False
            elif not (following.chrome and not following.heading and words <= _SHARING_BAR_WORDS):
                break
            index += 1
            continue
        if _REFERENCE_LINE.search(following.text) or (words <= 15 and dates_in_text(following.text)):
            dated = dated or bool(dates_in_text(following.text))
        elif words <= _SHARING_WORDS and not label_kind(following.text) and not following.text.rstrip().endswith(":"):
            pass
        elif standfirst and words > _SHARING_WORDS:
            standfirst = False
        else:
            break
        index += 1
    return index, dated


def _in_title_element(words: str, in_title: str, segments: list[str]) -> bool:
    """Whether the page's <title> repeats a block: the block is in it (more than one word, or all of it), or the
    block begins with a whole part of it ("Brand : Roman" under <title>Brand - smartBib</title>)."""
    count = len(words.split())
    if f" {words} " in f" {in_title} " and (count > 1 or words == in_title):
        return True
    return any(f"{words} ".startswith(f"{segment} ") for segment in segments)


def _without_container(title: str, containers: list[str]) -> str:
    """`title` without the journal's, publisher's or site's name that a tag or <title> joins to it
    ("Many-Body Localization…: Annual Review of Condensed Matter Physics")."""
    words = words_of(title)
    for container in containers:
        name = words_of(container)
        if not name or name == words:
            continue
        for separator in (*_SUBTITLE_SEPARATORS, " | ", " · ", " :: "):
            if title.endswith(f"{separator.rstrip()} {container}") or title.endswith(f"{separator}{container}"):
                return title[: len(title) - len(container)].rstrip().rstrip(separator.strip()).rstrip()
            if title.startswith(f"{container}{separator}"):
                return title[len(container) + len(separator) :].lstrip()
    return title


def _shown_part(title: str, page: VisiblePage) -> str:
    """`title` as the page shows it: a tag title that only the <title> element writes whole, with the site's name
    after a separator ("Forschungsprojekt legt Grundstein … - BMBF"), is the part before it that the page shows."""
    if page.shows(title):
        return title
    for separator in _SITE_SEPARATORS:
        head, found, _ = title.rpartition(separator)
        if found and len(words_of(head).split()) >= 2 and page.shows(head):
            return _shown_part(head, page)
    return title


def _with_subtitle(title: str, page: VisiblePage) -> str:
    """`title` with the subtitle the page shows right under it, when the page's <title> joins the two."""
    index = _block_of(page, title)
    if index is None or index + 1 >= len(page.blocks):
        return title
    subtitle = page.blocks[index + 1].text
    if len(subtitle.split()) > 25 or (len(subtitle.split()) == 1 and subtitle.isupper()):
        return title  # a rubric in capitals under the heading ("AVOCAT") is the section's name, no subtitle
    title_element = " ".join(page.title_element.split()).casefold()
    for separator in _SUBTITLE_SEPARATORS:
        joined = f"{title}{separator}{subtitle}"
        if " ".join(joined.split()).casefold() in title_element:  # written so, separator and all
            return joined
    return title


def _generic(text: str) -> bool:
    words = words_of(text).split()
    return not words or all(word in GENERIC_HEADING_WORDS or word.isdigit() for word in words)


def _block_of(page: VisiblePage, text: str) -> int | None:
    """The block that shows `text`: a heading that is it, else a block that is it, else a block that holds it."""
    target = words_of(text)
    if not target:
        return None
    exact = [block for block in page.blocks if block.words == target]
    holding = [block for block in page.blocks if f" {target} " in f" {block.words} "]
    for block in [b for b in exact if b.heading] + exact + [b for b in holding if b.heading] + holding:
        return block.index
    return None


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
    visible, where = _visible_authors(page, title_index, site)
    if tagged is None:
        if visible:
            values["authors"], sources["authors"] = visible, where
        elif title_index is not None and (
            voted := not_publishers(page.writers(authors_by_trafilatura(html, url=url, shows=page.shows)))
        ):
            # (only on a page that shows its item's title: a listing's first entry has authors too)
            values["authors"], sources["authors"] = voted, "trafilatura"
        elif title_index is not None and (owner := not_publishers(owner_of_site(page.title_element, page.shows))):
            values["authors"], sources["authors"] = owner, "page_byline"  # a one-person site's owner
        return
    # the publisher beside people in a tag's author list (a JSON-LD Person, then the site's Organization) is no
    # co-writer: the people are kept
    tag_names = [name for name in tagged.authors if not_publishers([name])] or list(tagged.authors)
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
    if visible and (shown == 0 or names_the_site or shortened(tag_names, visible) or organisation):
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


def _site_names(url: str, page: VisiblePage, declared: list[str]) -> frozenset[str]:
    """The names the site goes by, each reduced to its words without a leading "the": those its tags declare (site
    name, publisher, journal), the part of its <title> after the last separator, and its domain's name."""
    segments = _TITLE_SEPARATORS.split(page.title_element)
    domain = get_fld(url, fail_silently=True, fix_protocol=True) or ""
    names = [words_of(name).removeprefix("the ") for name in [*declared, *segments[1:][-1:], domain.partition(".")[0]]]
    return frozenset(name for name in names if len(name.replace(" ", "")) >= 3)


def _names_site(credit: str, site: frozenset[str]) -> bool:
    """Whether a credit line names the site itself and more ("Example News wire services", "Example Post Staff"):
    it begins with one of the site's names (spacing aside: "Detroit News" is the site "detroitnews")."""
    compact = words_of(credit).removeprefix("the ").replace(" ", "")
    return any(compact.startswith(name.replace(" ", "")) and compact != name.replace(" ", "") for name in site)


def _header_byline(page: VisiblePage, title_index: int, site: frozenset[str]) -> list[str]:
    """The byline in the item's header: under the title, past what may come between, above it, in a dateline
    near it, or the credit line over its date — none of them a navigation link."""
    above = page.writers(byline_above(page.blocks, title_index))
    return (
        page.writers(page.byline_after(title_index))
        or page.writers(_byline_past(page, title_index, heading=True))
        or ([] if _names_the_site(above, page) else above)  # the site's banner above the title is no byline
        or page.writers(dateline_near(page.blocks, title_index, before=DATE_REACH_BEFORE, after=DATE_REACH_AFTER))
        or page.writers(credit_over_date(page.blocks, title_index, names_site=lambda text: _names_site(text, site)))
    )


def _linked_people(page: VisiblePage, index: int, value: str) -> list[str]:
    """The names an author field links, one person a link, where its value holds more than names ("Author: Jane
    Roe jroe@example.org Info & Affiliations"): the other links beside them, an e-mail or a panel, name no one."""
    links = page.blocks[index].links if 0 <= index < len(page.blocks) else ()
    people = [split_people(link) for link in links if link in value]
    return [named[0] for named in people if len(named) == 1]


def _names_the_site(names: list[str], page: VisiblePage) -> bool:
    """Whether a tag's authors are the site's name ("Helmholtz Klima" on "… | Helmholtz-Klima-Initiative"): every
    one is in the part of the <title> element after its last separator."""
    segments = [words_of(part) for part in _TITLE_SEPARATORS.split(page.title_element)]
    site = f" {segments[-1]} " if len(segments) > 1 else ""
    return bool(site.strip()) and all(f" {words_of(name)} " in site for name in names)


def _visible_authors(
    page: VisiblePage, title_index: int | None, site: frozenset[str] = frozenset()
) -> tuple[list[str], MetadataSource]:
    """The names the page shows as the item's authors: a labelled field's ("Author(s): …", an "Authors:" label over
    one name a line), else the byline under the title, else the names its markup calls authors. A labelled field in
    the page's chrome ("By" over a name in a sidebar of other stories) gives way to a byline under the title."""
    if page.lists_items():
        return [], "page_field"
    byline = _header_byline(page, title_index, site) if title_index is not None else []
    under_labels: list[str] = []
    for label in page.author_labels:
        under_labels += [name for name in page.byline_after(label, reach=60) if name not in under_labels]
    in_fields: list[str] = []
    for index, value in page.fields.get("authors", []):
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
    marked = page.writers(page.marked_authors())
    if not marked and title_index is not None:
        marked = page.writers(signed_after(page.blocks, title_index) or closing_signature(page.blocks, title_index))
    return marked, "page_byline"
