"""Which text of an item's page is its title: a tag the page shows, or what the page shows as its title (a heading, a
labelled field, the block its <title> repeats) where the tags say what the page does not show — with its subtitle,
without the site's or the container's name and the kind of document written after it. `metadata.read_item_metadata`
decides the other fields around it.
"""

from __future__ import annotations

import re
from typing import Any

from research_crawler.pages.breadcrumbs import is_trail_line
from research_crawler.pages.bylines import dated_people
from research_crawler.pages.field_labels import GENERIC_HEADING_WORDS, label_kind
from research_crawler.pages.item_dates import dates_in_text
from research_crawler.pages.metadata_sources import WEB_VOCABULARIES, MetadataSource, Reading
from research_crawler.pages.page_shows import Block, VisiblePage, words_of
from research_crawler.pages.person_names import begins_with_by, split_people
from research_crawler.pages.record_headings import is_record_heading
from research_crawler.pages.title_tails import SITE_SEPARATORS, shown_head, shown_part, site_name_parts
from research_crawler.pages.title_variants import heading_in_tag, heading_within_tag, split_heading
from research_crawler.pages.written_length import word_length

__all__ = [
    "TITLE_SEPARATORS",
    "byline_past",
    "decide_title",
    "without_container",
]

_HEADING_SCORE = {1: 3.0, 2: 2.0, 3: 1.5, 4: 1.0, 5: 0.5, 6: 0.5}
_IN_TITLE_ELEMENT = 3.0
_FOLLOWED_BY_BYLINE = 3.0
_TITLE_FIELD = 5.0
_PER_WORD = 0.1
# A heading alone, or a block the page's <title> repeats; under a <title> that names no item ("Publication
# details"), a long heading will do.
_MIN_SCORE_UNDER_GENERIC_TITLE = 2.5
_OVERRULE_SCORE = 4.0  # what it takes to overrule a tag the page does not show
_HEADLINE_PART_WORDS = 3
TITLE_SEPARATORS = re.compile(r"\s+[|\-–—:·•»]\s+|:\s+|\s+::\s+")
_SUBTITLE_SEPARATORS = (": ", " - ", " – ", " — ", ". ")
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
_RUNNING_WORDS = 25  # a block of as many words is running text
_SHARING_WORDS = 3
_SHARING_BAR_WORDS = 8  # "Compartir en Facebook Compartir en Twitter"
_VARIANT_SHARE = 0.6  # the share of a tag title's words a heading must hold to say the same title
_SENTENCE_END = re.compile(r"\w[.!?](?:\s+|$)")  # "… systems. This chapter …": the end of a sentence
# The vocabularies a site fills for search engines and social cards, which news sites reword (not Dublin Core:
# repositories fill it as a record's catalogue entry).
_SOCIAL_VOCABULARIES: frozenset[MetadataSource] = WEB_VOCABULARIES - {"dublin_core"}
_RESPONSIBILITY = re.compile(r"\s+/\s+[^/]*$")  # a catalogue's "Title / J. K. Rowling"


def decide_title(
    readings: list[Reading],
    page: VisiblePage,
    values: dict[str, Any],
    sources: dict[str, Any],
    notes: dict[str, str],
    *,
    site: frozenset[str] = frozenset(),
) -> tuple[str | None, int | None]:
    """The title, and the block the page shows it in (None when it is not shown). A tag that titles the item with
    the site's own name (`site`: its domain's name and the names its tags give it), where another tag titles it
    otherwise, names the site, not the item (a Dublin Core title "Example" over og:title's headline)."""
    tags = [r for r in readings if r.title and r.source != "html_title"]
    if any(not _site_name(r.title or "", site) for r in tags):
        tags = [r for r in tags if not _site_name(r.title or "", site)]
    for tag in tags:
        if (heading := _heading_before_where_it_stands(tag.title or "", page)) is not None:
            values["title"], sources["title"] = page.blocks[heading].text, "page_heading"
            notes["title"] = f"the page's {tag.source} title {tag.title!r} names where the item stands"
            return page.blocks[heading].text, heading
    in_title = f" {words_of(page.title_element)} "
    # the browser shows the <title> too (in its tab): a script-rendered page shows its title nowhere else
    shown = [r for r in tags if page.shows(r.title) or f" {words_of(r.title or '')} " in in_title]
    visible = _visible_title(page)
    tag_parts = [TITLE_SEPARATORS.split(r.title or "") for r in tags]
    only_in_tab = shown and not any(page.shows(shown_part(r.title or "", page)) for r in shown)
    if shown and visible is not None and _heading_outweighs(page, visible, shown[0], only_in_tab=bool(only_in_tab)):
        text, index = _as_tags_agree(_with_subtitle(visible[0], page), tag_parts), visible[1]
        values["title"], sources["title"] = text, "page_heading"
        notes["title"] = f"the page's {shown[0].source} title {shown[0].title!r} is not the heading it shows"
        return text, index
    if only_in_tab and (variant := _heading_variant(page, shown[0].title)):
        # a tag title only the <title> element writes, and a heading that says it in other words: the heading
        text = _as_tags_agree(variant.text, tag_parts)
        values["title"], sources["title"] = text, "page_heading"
        notes["title"] = f"the page's {shown[0].source} title {shown[0].title!r} is shown only as {variant.text!r}"
        return text, variant.index
    if shown:
        chosen = shown[0]
        title = _with_subtitle(shown_part(chosen.title or "", page), page)
        values["title"], sources["title"] = title, chosen.source
        return title, _block_of(page, title)
    if visible is not None and not shown and visible[1] >= 0 and any(heading_in_tag(visible[0], p) for p in tag_parts):
        visible = (visible[0], visible[1], _OVERRULE_SCORE)  # the tag is the heading with words added: the heading
    variant = _heading_variant(page, page.title_element) if not tags and visible and visible[1] >= 0 else None
    if visible is not None and variant is not None:
        # no tag: a heading that says the <title>'s headline in other words beats one that says no word of the
        # <title> (a labelled "Title" field stands)
        shared = set(words_of(page.title_element).split()) & set(words_of(visible[0]).split())
        visible = visible if shared else (variant.text, variant.index, 0.0)
    if visible is not None and (not tags or visible[2] >= _OVERRULE_SCORE):
        text, index, _ = visible
        text = _as_tags_agree(text, tag_parts) if index >= 0 else text
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
        title_element = shown_head(title_element, page)
        values["title"], sources["title"] = title_element, "html_title"
    elif not tags and visible is None and (opening := _opening_lines(page)) is not None:
        # a page with no <title>, no tag and no heading (a word processor's notice saved as HTML): its title is the
        # lines it opens with, set apart before its running text ("NOTICE OF CANCELLATION" / "OF CITY COUNCIL …")
        values["title"], sources["title"] = opening[0], "page_text"
        return opening
    return title_element, None


def _as_tags_agree(heading: str, tag_parts: list[list[str]]) -> str:
    """The heading as far as a tag's title agrees with it, where it runs on past it (`heading_within_tag`)."""
    return next((part for parts in tag_parts if (part := heading_within_tag(heading, parts))), heading)


_OPENING_LINES = 3
_OPENING_WORDS = 20


def _opening_lines(page: VisiblePage) -> tuple[str, int] | None:
    """The lines a page without headings opens with before its first line of running text (`_PARAGRAPH_WORDS`
    words or a sentence), joined, and the first one's block: at most three short lines; None where the page opens
    with running text or with more."""
    opening: list[Block] = []
    for block in page.blocks:
        if block.chrome or block.heading:
            return None
        if len(block.text.split()) >= _OPENING_WORDS or _SENTENCE_END.search(block.text) or dates_in_text(block.text):
            break
        opening.append(block)
    if not 1 <= len(opening) <= _OPENING_LINES or len(opening) == len(page.blocks):
        return None
    text = " ".join(block.text for block in opening)
    return (text, opening[0].index) if len(text.split()) <= _OPENING_WORDS else None


def _site_name(title: str, site: frozenset[str]) -> bool:
    """Whether a title is one of the site's names, spacing and a leading "the" aside ("JPNN" on jpnn.com)."""
    compact = words_of(title).removeprefix("the ").replace(" ", "")
    return bool(compact) and compact in {name.replace(" ", "") for name in site}


def _heading_before_where_it_stands(title: str, page: VisiblePage) -> int | None:
    """The main heading the page shows outside its chrome that is the <title>'s first part, of a headline's words,
    where a tag's title is a later part of the <title> — the group's or section's name written after the item's
    ("February Meet-up - Toronto Ember.js Meetup (Toronto, ON) | Meetup"): the tag names where the item stands,
    the heading names the item. None otherwise."""
    parts = [words_of(part) for part in TITLE_SEPARATORS.split(page.title_element)]
    words = words_of(title)
    if len(parts) < 2 or not words or len(parts[0].split()) < _HEADLINE_PART_WORDS or words == parts[0]:
        return None
    if not any(part == words or part.startswith(f"{words} ") for part in parts[1:]):
        return None
    main = (block for block in page.blocks if block.heading == 1 and not block.chrome and block.words == parts[0])
    heading = next((block.index for block in main), None)  # (a blog's name over its post: the tag is the post's)
    return heading if heading and any(b.heading and b.words == words for b in page.blocks[:heading]) else None


def _heading_outweighs(page: VisiblePage, visible: tuple[str, int, float], tag: Reading, *, only_in_tab: bool) -> bool:
    """Whether the heading the page shows as its title beats a web vocabulary's title that says something else (a
    social-media rewording, a subtitle, a headline with the site's name): when the <title> element's main part (its
    longest part between separators) is that heading — the two things a reader sees against one they do not — or when
    the tag is written only in the <title> element and the heading is the page's one main heading (its only <h1>
    outside the site's chrome). A publisher's scholarly tags and Dublin Core are not weighed so: they are written for
    indexers and catalogues; nor is a tag whose title the page shows in a labelled field."""
    text, index, _ = visible
    if index < 0 or tag.source not in _SOCIAL_VOCABULARIES or not tag.title:
        return False
    if words_of(tag.title) in {words_of(value) for value in page.field_values("title")}:
        return False  # the page shows the tag's title as its labelled title
    heading = words_of(text)
    if heading in (words_of(tag.title), words_of(shown_part(tag.title, page))):
        return False
    segments = [words_of(part) for part in TITLE_SEPARATORS.split(page.title_element)]
    main = max(segments, key=lambda part: len(part.split()), default="")
    if heading in {main, *_without_site_part(page.title_element)} and words_of(tag.title) != heading:
        return True
    main_headings = [block for block in page.blocks if block.heading == 1 and not block.chrome]
    one = len(main_headings) == 1 and main_headings[0].index == index
    long_enough = len(heading.split()) >= 4 or len(heading) >= (16 if " " in heading else 8)  # 8: unspaced scripts
    return only_in_tab and one and long_enough


def _without_site_part(title: str) -> set[str]:
    """The words of a <title> without the site's name its first or last part gives, as sites write it ("BBC News -
    Submarine escape: A WWII survival tale", "Post title | Site"): the part cut is shorter than the rest."""
    found: set[str] = set()
    for separator in SITE_SEPARATORS:
        parts = title.split(separator)
        for kept, cut in ((parts[1:], parts[0]), (parts[:-1], parts[-1])):
            kept_words = words_of(separator.join(kept))
            if len(parts) > 1 and len(kept_words.split()) > len(words_of(cut).split()):
                found.add(kept_words)  # the site's name is the shorter part
    return found


def _heading_variant(page: VisiblePage, title: str | None) -> Block | None:
    """The heading that shows `title` in other words ("Die Ablehnung von “Gendersprache” – medial produziert" for
    "Die Ablehnung der Gendersprache » SciLogs"): the first outside the chrome that holds most of the words of the
    title's main part (its longest part between the site's separators), two at least."""
    parts = [words_of(part) for part in TITLE_SEPARATORS.split(title or "")]
    main = set(max(parts, key=lambda part: len(part.split()), default="").split())
    for block in page.blocks:
        if not 1 <= block.heading <= 3 or block.chrome or _generic(block.text):
            continue
        shared = main & set(block.words.split())
        if len(shared) >= 2 and len(shared) / len(main) >= _VARIANT_SHARE:
            # the first: the title heads its text; a heading further down that says the same words heads a part
            # of it (an FAQ's "1. What are the current trends in video production?")
            return block
    return None


def _visible_title(page: VisiblePage, *, min_score: float = 3.0) -> tuple[str, int, float] | None:
    """The title the page shows, with its block (-1 for a labelled field) and how sure the rule is: a heading that
    is only a link to the site's home page (the site's name in its masthead) only where nothing else will do."""
    return _shown_title(page, min_score, home=False) or _shown_title(page, min_score, home=True)


def _shown_title(page: VisiblePage, min_score: float, *, home: bool) -> tuple[str, int, float] | None:
    """`_visible_title`'s rule, headings that link home among the candidates where `home`."""
    fields = [_RESPONSIBILITY.sub("", value).strip(" :;/") for value in page.field_values("title")]
    fields = [value for value in fields if value and not _generic(value)]
    if fields and not page.lists_items():
        return fields[0], -1, _TITLE_FIELD
    in_title = words_of(page.title_element)
    segments = [words_of(part) for part in TITLE_SEPARATORS.split(page.title_element)]
    segments = [segment for segment in segments if segment and not _generic(segment)]
    # a heading that begins with the site's name and runs on is one of its sections ("Site Top News"), no item's
    headed = [segment for segment in segments if segment not in site_name_parts(page.title_element)]
    best: tuple[str, int, float] | None = None
    parts: dict[str, tuple[str, int, float]] = {}  # the headings that are each a whole part of the <title>
    headings: dict[str, tuple[str, int, float]] = {}
    record: tuple[int, int] | None = None  # a record's heading: its block and its level
    for block in page.blocks:
        above, record = record, None
        if block.chrome or (block.home and not home) or not block.words or len(block.words) > 600:
            continue
        text = _DOCUMENT_TYPE.sub("", block.text).strip(" :;/|")
        words = words_of(text)
        if not words or not 1 <= len(words.split()) <= 60 or _generic(text) or _REFERENCE_LINE.search(text):
            continue  # a journal reference ("Biomaterials, Volume 27, Issue 19, …") is no title
        if is_trail_line(text):
            continue  # a breadcrumb trail ("Stories > Fables"): where the item stands, which the <title> may name
        if block.heading and is_record_heading(text):
            # a register's "Bibliographic data: EP4300922 (A1) ― 2023-06-14": the heading right under it is the
            # work's title, standing where the record's heading stands and named by it as the <title> would name it
            record = (block.index, block.heading)
            continue
        titled = bool(block.heading) and _in_title_element(words, in_title, segments)
        if label_kind(text) or (len(words.split()) < 8 and dates_in_text(text) and not titled):
            continue  # a label ("Authors:") or a date line, not a heading the <title> repeats ("Report 14-20 May")
        if not block.heading and split_people(text) and not _in_title_element(words, in_title, segments):
            continue  # a byline (a short heading in title case reads as names too, and stays a candidate)
        if not block.heading and len(_SENTENCE_END.findall(text)) >= 2:
            continue  # a paragraph of sentences (a standfirst, an abstract) is running text, no title
        count = len(words.split())
        score = _HEADING_SCORE.get(block.heading, 0.0)
        if above is not None and block.heading and above[0] == block.index - 1:
            score = _HEADING_SCORE.get(min(block.heading, above[1]), 0.0) + _IN_TITLE_ELEMENT
        begun = segments if words in segments else headed
        if _in_title_element(words, in_title, begun) or (block.heading and _shortened(words, segments)):
            score += _IN_TITLE_ELEMENT
            if f" {words} " not in f" {in_title} ":
                # a block that begins with a part of the <title> and runs on (a teaser of the post in a list of
                # posts): only the words the <title> says count toward its length
                count = max((len(s.split()) for s in segments if f"{words} ".startswith(f"{s} ")), default=count)
        if byline_past(page, block.index, heading=bool(block.heading)):
            score += _FOLLOWED_BY_BYLINE
        # Item titles are longer than site names and section headings ("The STAR experiment", "School").
        score += min(count, 15) * _PER_WORD - block.index / 100_000
        if score >= min_score and (best is None or score > best[2]):
            best = (text, block.index, score)
        if block.heading and words in segments and score >= min_score:
            parts.setdefault(words, (text, block.index, score))
        if block.heading and score >= min_score:
            headings.setdefault(words, (text, block.index, score))
    if (split := split_heading(page, TITLE_SEPARATORS.split(page.title_element))) is not None:
        level = page.blocks[split[1]].heading  # (a masthead's "WEEKEND" / "CODING" / "AGENT": one heading)
        score = _HEADING_SCORE.get(level, 0.0) + _IN_TITLE_ELEMENT + min(len(split[0].split()), 15) * _PER_WORD
        best = (*split, score) if best is None or score > best[2] else best
    # the site's name and the item's title, each a heading and each a part of the <title> ("Internet-Law » Verstößt
    # der Ausschluss …"): the longer is the item's (a blog's name heads every page; its post's title is longer)
    # — unless the two are a title and its subtitle, the <title> joining them ("Vom Boden aus gedacht - Ann Cotten …")
    if best is not None and (pair := _heading_pair(page, headings, in_title, words_of(best[0]))) is not None:
        return pair
    if best is not None and (whole := _whole_part_over_prefix(parts, segments, in_title, words_of(best[0]))):
        return whole
    longest = max(parts.items(), key=lambda part: word_length(part[0]), default=None)
    if best is None or longest is None or len(parts) < 2 or words_of(best[0]) not in parts:
        return best
    longer = word_length(longest[0]) > word_length(words_of(best[0]))
    return longest[1] if longer and _with_subtitle(best[0], page) == best[0] else best


def _whole_part_over_prefix(
    parts: dict[str, tuple[str, int, float]], segments: list[str], in_title: str, best: str
) -> tuple[str, int, float] | None:
    """A heading that is a whole part of the <title>, where `best` only begins with a shorter part and runs on past
    it (a blog's name and its motto, "The Huddle: The latest word on NFL news", under <title>Post - The Huddle:
    Football News - Site</title>): the part said whole is the item's title. None where there is none."""
    if f" {best} " in f" {in_title} ":
        return None
    begun = max((len(s.split()) for s in segments if f"{best} ".startswith(f"{s} ")), default=0)
    if not begun:
        return None  # `best` begins with no part of the <title>
    longer = [part for words, part in parts.items() if len(words.split()) > max(begun, 2)]
    return max(longer, key=lambda part: part[2], default=None)


def _heading_pair(
    page: VisiblePage, headings: dict[str, tuple[str, int, float]], in_title: str, best: str
) -> tuple[str, int, float] | None:
    """Where the page's <title> is two of its headings joined, whatever the separator ("Find Time for the
    Karussell" and "Twitter API and Me" under <title>Twitter API and Me « Find Time for the Karussell</title>,
    "Factor: a practical stack language" and "Factor's bootstrap process explained" under a blog's "Blog: Post"),
    and `best` is one of them: the heading further down the page — a site's name heads every page of it, the
    item's title comes under it. None where the two are not so (or are a title and its subtitle, one right under
    the other; or where running text stands between: the one below heads another box, a widget under the item)."""
    if best not in headings:
        return None
    for other, found in headings.items():
        if other != best and in_title in (f"{best} {other}", f"{other} {best}"):
            first, second = sorted((headings[best], found), key=lambda heading: heading[1])
            between = page.blocks[first[1] + 1 : second[1]]
            running = any(not b.chrome and not b.heading and len(b.text.split()) >= _RUNNING_WORDS for b in between)
            return None if second[1] == first[1] + 1 or running else second
    return None


def byline_past(page: VisiblePage, index: int, *, heading: bool) -> list[str]:
    """The byline right after what a page may put between a title (block `index`) and its byline."""
    title = page.blocks[index]
    index, dated = _past_citation_lines(page, index, heading=heading)
    if index + 1 < len(page.blocks) and page.blocks[index + 1].chrome and not title.chrome:
        return []  # the site's footer or menu past the title's last lines: no byline of the item's
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
        if split_people(following.text) or dated_people(following.text) or begins_with_by(following.text):
            break  # the byline itself ("By James Roe, The Daily Example": a name and its paper)
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


_SHORTENED_WORDS = 4


def _shortened(words: str, segments: list[str]) -> bool:
    """Whether a heading is the <title>'s headline shortened: four words or more, every one of them in one part of
    the <title> ("Eagles' Michael Vick misses practice" under "Michael Vick of Philadelphia Eagles misses practice,
    unlikely to play vs. Dallas Cowboys - Site")."""
    own = words.split()
    return len(own) >= _SHORTENED_WORDS and any(set(own) <= set(segment.split()) for segment in segments)


def _in_title_element(words: str, in_title: str, segments: list[str]) -> bool:
    """Whether the page's <title> repeats a block: the block is in it (more than one word, or all of it), or the
    block begins with a whole part of it ("Brand : Roman" under <title>Brand - smartBib</title>)."""
    count = len(words.split())
    if f" {words} " in f" {in_title} " and (count > 1 or words == in_title):
        return True
    return any(f"{words} ".startswith(f"{segment} ") for segment in segments)


def without_container(title: str, containers: list[str]) -> str:
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


def _with_subtitle(title: str, page: VisiblePage) -> str:
    """`title` with the subtitle the page shows right under it, when the page's <title> joins the two."""
    index = _block_of(page, title)
    if index is None or index + 1 >= len(page.blocks):
        return title
    subtitle = (under := page.blocks[index + 1]).text
    if (
        len(subtitle.split()) > 25
        or (len(subtitle.split()) == 1 and subtitle.isupper())
        or under.chrome
        or (under.links and words_of(" ".join(under.links)) == under.words)
    ):
        return title  # a rubric in capitals ("AVOCAT"), a line of the site's header or navigation (a blog's name in
        # its masthead), or only links (a thread's category, "Support"), says where the item stands: no subtitle
    title_element = " ".join(page.title_element.split()).casefold()
    for separator in _SUBTITLE_SEPARATORS:
        joined = f"{title}{separator}{subtitle}"
        # written so, separator and all, and ending where a part of the <title> ends: a line under the heading
        # that only begins the site's name after it ("Peoples Daily" of "… - Peoples Daily Newspaper") is none
        at = title_element.find(" ".join(joined.split()).casefold())
        if at >= 0 and _PART_END.match(title_element, at + len(" ".join(joined.split()))):
            return joined
    return title


_PART_END = re.compile(r"\s*$|\s*[|\-–—:·»]\s|\s+::\s")


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
