"""The navigation tools: the Planner's view of the queue and the Crawler's link scoring.

Each tool takes the Web Context it changes as an argument, validates every input, and returns a
result whose `message` (ending with a hint) is what the LLM reads. Only links that the page really
has can enter the queue: an LLM names links by their number, never by a URL it might invent.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence, Set
from typing import Annotated
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field

from research_crawler.context.graph import NavigationGraph
from research_crawler.context.pagination import adds_parameters, narrows_listing, next_listing_page, reorders_listing
from research_crawler.context.urls import other_version, shown_on_site
from research_crawler.context.web_context import PendingURL, WebContext
from research_crawler.context.web_entries import PROMISING_SCORE, CollectedItem
from research_crawler.errors import ToolInputError
from research_crawler.pages.cleanup import shorten
from research_crawler.pages.current_view import current_view_links
from research_crawler.pages.declared_kind import link_names_another_kind
from research_crawler.pages.empty_links import shown_empty
from research_crawler.pages.language_links import switches_language
from research_crawler.pages.navigation_pages import is_navigation_page
from research_crawler.pages.page import Link, Page
from research_crawler.pages.person_links import names_one_of, opens_a_persons_page
from research_crawler.pages.site_chrome import names_site_chrome
from research_crawler.report.index_pages import is_file_address, names_a_venue_or_slot, names_no_work
from research_crawler.tools.hints import HintState, hint, with_hint
from research_crawler.tools.link_kinds import link_rank
from research_crawler.web.url_traps import DEFAULT_MAX_PATH_REPETITION, path_repetition_refusal

__all__ = [
    "MENU_PENALTY",
    "LinkScore",
    "SaveLinksResult",
    "TopURLs",
    "entry_anchor",
    "get_top_urls",
    "lists_nothing_new",
    "save_links",
]


class TopURLs(BaseModel):
    """The best pending URLs of a site, without their scores (the Planner judges them afresh)."""

    urls: list[PendingURL]
    message: str


def get_top_urls(
    web_context: WebContext, k: int, *, state: HintState, page_titles: Callable[[str], str] | None = None
) -> TopURLs:
    """List the most promising URLs of this site that have not been visited yet.

    Scores are hidden on purpose: choose from the anchor texts and the query.

    Args:
        k: how many URLs to list (1 to 50).

    Returns:
        Numbered lines "URL — anchor text", best first (a URL on the site's own origin as its path; the page of
        an item already collected is marked "(collected)" and listed after the pages that may hold something new, and
        so is a part of such an item found on its page: its PDF, its "Download", a page below its address ("…/claims");
        opening it finds no new item — unless no author was read beside it and its title names a container of works
        (a numbered volume, issue or session, proceedings), or its link names it in a few words and neither an author
        nor a date was read beside it: then it keeps its place, marked "(collected, may list works inside)", as
        opening it may reach the works it holds; a link named only by another kind of record than asked for
        ("Guidance only", "Datasets" when papers are) comes after them too, as does one named only by
        a part of a book around its works ("Front Matter", "Back Matter") or by the site's own chrome ("About the
        Journal", "FAQs", "Mirrors"), as does a person's page (an author's profile under a byline, an author facet
        of a listing: `person_links.opens_a_persons_page`) unless it names an author the request asks for; a short
        anchor such as "2024" or "March" found below the start page says on which page it was, "(on: Physics)", so
        the same year under two subjects is told apart and the Planner can go back up a level), and a hint.
    """
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= 50:
        raise ToolInputError(f"k must be a whole number from 1 to 50, got {k!r}")
    top = _new_before_collected(web_context, k, state.item_kind, authors=state.authors_asked)
    case = "no_budget" if state.subpages_left == 0 else ("some" if top else "none")
    if top:
        lines = [
            f"{n}. {shown_on_site(p.url, web_context.site_url)} — {p.anchor_text or '(no anchor text)'}"
            + _where_found(p, web_context.site_url, page_titles)
            + _collected_mark(web_context, p)
            for n, p in enumerate(top, 1)
        ]
        text = f"Pending URLs on {web_context.site_url} ({web_context.pending_count} in all):\n" + "\n".join(lines)
    else:
        text = f"No pending URLs on {web_context.site_url}."
    advice = hint("get_top_urls", case, state)
    if case != "no_budget" and state.search_unused and state.items_collected < state.items_wanted:
        advice += " " + hint("get_top_urls", "search_unused", state)
    return TopURLs(urls=top, message=with_hint(text, advice))


def _new_before_collected(
    web_context: WebContext, k: int, item_kind: str = "paper", *, authors: Sequence[str] = ()
) -> list[PendingURL]:
    """The best `k` pending URLs in C's order, except that the pages of items collected already come after the pages
    that may hold something new: they would fill the Planner's short view with pages that add nothing. So do the parts
    of an item whose own page was read (`_part_of_a_work_read`: its PDF, its claims, its citation export). A collected
    entry whose page may list works (`_may_list_works`: a container, or an entry named by a few words and stored with
    no author and no date) keeps its place: its page may list the works it holds. So do the links named only
    by another kind of record than `item_kind` ("Guidance only", "Datasets" when papers are asked for:
    `link_names_another_kind`): a type filter or section where none of the works asked for is; and so do the links
    named only by a part of a book or an issue around its works (`_PART_AROUND_WORKS`: "Front Matter", "Preface",
    "Back Matter"), which holds none of them, and the links named only by the site's chrome (`names_site_chrome`:
    "About the Journal", "FAQs", "Mirrors", "Privacy Statement"), which hold none of the works a site publishes; and
    so do the pages of people (`opens_a_persons_page`: the authors' profiles an item's byline links, a listing's
    author facets), which list their works on every subject, unless the link names one of the request's `authors`:
    read first, they filled the Planner's short view after every item page read, and a Planner that found nothing
    there to open left the site with its listings unread."""
    in_order = web_context.top_urls(web_context.pending_count)
    collected = web_context.collected

    def comes_later(pending: PendingURL) -> bool:
        if pending.url in collected:
            return not _may_list_works(collected[pending.url], pending.anchor_text)
        if _part_of_a_work_read(pending, collected):
            return True
        if _PART_AROUND_WORKS.match(pending.anchor_text) or names_site_chrome(pending.anchor_text):
            return True
        if opens_a_persons_page(pending.url, pending.anchor_text):
            return not names_one_of(pending.anchor_text, authors)
        return link_names_another_kind(pending.anchor_text, item_kind)

    return sorted(in_order, key=comes_later)[:k]  # a stable sort


#: A link named only by a part of a book or an issue that surrounds its works and is none ("Front Matter — Pages
#: i–xiv", "Back matter", "Preface", "Subject index", "List of contributors"), as publishers' tables of contents list
#: them around the chapters (never "Contents" or "Index" alone: a journal's or a site's may list its works).
_PART_AROUND_WORKS = re.compile(
    r"^\W*(?:(?:front|back|end)\s*matter|preface|foreword|subject index|author index|copyright(?: page)?|"
    r"title pages?|list of (?:contributors|figures|tables|abbreviations)|about the (?:editors?|authors?))\b"
    r"(?:\W*pages?\b[^\w]*[\w–-]*)?\W*$",
    re.IGNORECASE,
)
#: How a title names a container of works rather than one work: "<Series>, Volume 15", "Vol. 3", "Issue 2",
#: "Session 4B", "Proceedings of …" (a numbered volume, issue or session; never a bare "series", which papers on
#: time series name too), or a link that ends by counting what it holds ("Edge Learning Seminars 21 events",
#: "Oceanography (35 papers)", a subject facet's bare count "Education and Literacy (15)", never a year "(2024)"): a
#: category's or a collection's link, as a work's title never ends.
_CONTAINER = re.compile(
    r"\b(?:vol(?:ume)?\.?|issue|session|no\.)\s*(?:\d+[a-z]?|[ivxlc]+)\b|\bproceedings\b|\btable of contents\b"
    r"|\((?!(?:19|20)\d\d\))\d[\d,]*\)\W*$"
    r"|(?<![\w.,])\d[\d,]*\s+(?:events?|papers?|articles?|items?|talks?|works?|publications?|records?|entries|"
    r"results?|documents?|preprints?|datasets?|posts?|seminars?|contributions?|abstracts?)\W*$",
    re.IGNORECASE,
)


def _is_container(item: CollectedItem) -> bool:
    """Whether a collected item is more likely a container of works (a volume, an issue, a session, a venue: "Workshop
    on …", "Journal of …") than one work: its title names one and no author was read beside it (a work's page names
    its authors; a volume's link does not)."""
    return not item.authors and bool(_CONTAINER.search(item.title) or names_a_venue_or_slot(item.title))


def _may_list_works(item: CollectedItem, anchor: str) -> bool:
    """Whether the page of a collected item, still unread, may list works rather than be one: a container
    (`_is_container`), or an entry its link names by a short name (`_PLACE_NAME_WORDS` words at most) that was stored
    with nothing beside it that a work's entry shows — no author, no date. A listing's link to a series, a
    collection or a department ("Special Collections", "Department of Psychiatry", "Discussion series" above
    the line that says what it holds) reads so when it is taken for a work; opening it shows which it is, and a
    work's page so opened gives the date and authors its entry did not."""
    if _is_container(item):
        return True
    return not item.authors and item.date is None and 0 < len(anchor.split()) <= _PLACE_NAME_WORDS


#: A series', a collection's or a department's name is a word or a few; a work's title is mostly longer.
_PLACE_NAME_WORDS = 3


def _part_of_a_work_read(pending: PendingURL, collected: Mapping[str, CollectedItem]) -> bool:
    """Whether `pending` opens a part of a work whose own page was read and collected: found on that page, a file
    (its PDF), a link named only by its action or format ("Download", "Full text", "PDF": `names_no_work`) or a page
    below the item's own address named by a word or two ("Claims" at "…/EP4229651A1/claims"; never a title, nor a
    number: a listing taken for an item lists its works and its next pages below it). It is the same work: opening
    it finds no new item."""
    if pending.found_on is None or pending.found_on not in collected or _is_container(collected[pending.found_on]):
        return False
    if is_file_address(pending.url) or names_no_work(pending.anchor_text):
        return True
    named = pending.anchor_text.split()
    return (
        0 < len(named) <= _PART_NAME_WORDS
        and not any(ch.isdigit() for ch in pending.anchor_text)
        and _below(pending.url, pending.found_on)
    )


#: A part of an item's page is named by a word or a few ("Claims", "Cited by", "Original document"); a work's title
#: is longer.
_PART_NAME_WORDS = 3


def _below(url: str, page: str) -> bool:
    """Whether `url` is a page under `page`'s address on its host ("/publication/X/claims" under "/publication/X")."""
    there, here = urlsplit(url), urlsplit(page)
    inside = [part for part in here.path.split("/") if part]
    below = [part for part in there.path.split("/") if part]
    return there.netloc == here.netloc and bool(inside) and len(below) > len(inside) and below[: len(inside)] == inside


def _collected_mark(web_context: WebContext, pending: PendingURL) -> str:
    item = web_context.collected.get(pending.url)
    if item is None:
        return " (collected)" if _part_of_a_work_read(pending, web_context.collected) else ""
    return " (collected, may list works inside)" if _may_list_works(item, pending.anchor_text) else " (collected)"


#: An anchor this short ("2024", "March", "Next page") says little without the page it was on.
_SHORT_ANCHOR_WORDS = 2
_PAGE_TITLE_CHARS = 50


def _where_found(pending: PendingURL, site_url: str, page_titles: Callable[[str], str] | None) -> str:
    """' (on: <title>)' for a short anchor found below the start page, else ''."""
    if page_titles is None or not pending.found_on or pending.found_on == site_url:
        return ""
    if len(pending.anchor_text.split()) > _SHORT_ANCHOR_WORDS:
        return ""
    title = " ".join(page_titles(pending.found_on).split())
    if not title:
        return ""
    return f" (on: {title[:_PAGE_TITLE_CHARS]}{'…' if len(title) > _PAGE_TITLE_CHARS else ''})"


class LinkScore(BaseModel):
    """A link of the current page, by its number, with its relevance to the query."""

    model_config = ConfigDict(extra="forbid")

    id: Annotated[int, Field(description="The link's [n] number.")]
    score: Annotated[float, Field(description="Relevance, 0 (none) to 10 (certainly leads to relevant items).")]


class SaveLinksResult(BaseModel):
    """What `save_links` did with each link it was given."""

    queued: list[str] = Field(default_factory=list)
    raised: list[str] = Field(
        default_factory=list, description="Links waiting already, raised to the higher score given here."
    )
    already_known: list[str] = Field(default_factory=list)
    off_site: list[str] = Field(default_factory=list)
    rejected: list[str] = Field(default_factory=list, description="Why each rejected entry was refused.")
    menu: int = Field(0, description="Links of the site's menu, queued below the score given.")
    message: str = ""


#: How far below its given score a link of the site's menu is queued: below the page's own links judged alike.
MENU_PENALTY = 1.0


def save_links(
    web_context: WebContext,
    page: Page,
    links: list[LinkScore] | list[dict[str, object]],
    *,
    state: HintState,
    allow_offsite: bool = False,
    graph: NavigationGraph | None = None,
    max_path_repetition: int = DEFAULT_MAX_PATH_REPETITION,
    menu: Set[str] = frozenset(),
    robots_refusal: Callable[[str], str | None] | None = None,
) -> SaveLinksResult:
    """Store the links of this page that may lead to relevant items, each with a relevance score.

    Give only links worth visiting later (category pages, listings, search results, item pages);
    leave out navigation boilerplate such as login, help or social links.

    Args:
        links: a list of {"id": link number on this page, "score": 0-10 relevance to the query}.

    Returns:
        Which links were queued, which were already known, and which were rejected and why (a link whose
        path repeats a segment more than `max_path_repetition` times in a row, like /a/a/a/, is a crawler
        trap and is never queued; so is a link that switches the site's language: the same pages in another
        language). A link of `menu` (the page shows it only in its header, navigation or
        footer: the site's "About", "Venue", "For authors") is queued `MENU_PENALTY` below the score given, so that
        among links judged alike the page's own (its editions, issues, listings) are opened first; among links given
        the same score, those whose words name works ("Publications") are queued before those that name news, events
        or people ("News"), the page's order kept otherwise (`link_kinds.link_rank`). A link waiting already that is
        scored here more than `MENU_PENALTY` above its place (first seen in a menu, judged higher now among a page's
        own links) is raised to that score and this page's place (`WebContext.raise_pending`): a reader who sees it
        anew judges it anew; one judged alike stays where it waits, a second sighting alone undoes no menu's step. The
        links of a page that offers no promising way on (none scored `PROMISING_SCORE` or more but pages read or
        known: a unit's works on other subjects) wait behind the equally scored links of the page read before it
        (`WebContext.add_url`'s `dead_end`): a person who found nothing down a branch goes back up a step. A link to
        another version of the page's own record ("v1" at ``…/v1``) is the same work and never queued; nor is the file
        (a PDF) of a work whose own page is queued, read, or scored with it (a listed work's page, or this page when the
        file is at its address). A link the
        site's robots.txt forbids (`robots_refusal` says why) is never queued: no page of the budget is spent
        on a fetch that would be refused. A link the page shows only with a count of zero beside it ("Philosophy
        of Mind (0)": `empty_links.shown_empty`) is never queued: the page says it holds nothing.
    """
    if not isinstance(links, list):
        raise ToolInputError('links must be a list of {"id": n, "score": s} objects')
    result = SaveLinksResult()
    best: dict[int, float] = {}
    for raw in links:
        entry = _parse_link_score(raw, page, result)
        if entry is not None:
            best[entry.id] = max(entry.score, best.get(entry.id, -1.0))
    narrowed = lists_nothing_new(page)
    scored = {link.url for link_id in best if (link := page.link(link_id)) is not None}
    dead_end = not any(  # a promising way on is a link still to read: waiting in C, or new
        score >= PROMISING_SCORE and (web_context.is_pending(link.url) or not web_context.is_discovered(link.url))
        for link_id, score in best.items()
        if (link := page.link(link_id)) is not None
    )
    for link_id, score in sorted(best.items(), key=lambda entry: (-entry[1], _rank_of(page, entry[0]))):
        link = page.link(link_id)
        assert link is not None  # checked by _parse_link_score
        if narrowed(link.url):
            result.rejected.append(
                f"link {link_id} ({link.url[:200]}): narrows or re-orders this page's list, which it shows whole "
                "(no next page), or is the tab it shows now: it lists nothing this page does not; not queued"
            )
            continue
        if shown_empty(page, link_id):
            result.rejected.append(
                f"link {link_id} ({link.url[:200]}): this page shows it with a count of 0 beside it (an empty "
                "category or listing): it holds no entries; not queued"
            )
            continue
        if not link.same_site and not allow_offsite:
            result.off_site.append(link.url)
            continue
        trap = path_repetition_refusal(link.url, max_repetition=max_path_repetition)
        if trap is not None:
            result.rejected.append(f"link {link_id} ({link.url[:200]}): {trap}")
            continue
        if switches_language(link.url, link.text, in_menu=link.url in menu):
            result.rejected.append(
                f"link {link_id} ({link.url[:200]}): switches the site's language (the same pages in another "
                "language); not queued"
            )
            continue
        if robots_refusal is not None and (refusal := robots_refusal(link.url)) is not None:
            result.rejected.append(f"link {link_id} ({link.url[:200]}): {refusal}; not queued")
            continue
        if other_version(page.final_url, link.url, link.text):
            result.rejected.append(
                f"link {link_id} ({link.url[:200]}): another version of this page's record, the same work; not queued"
            )
            continue
        if (landing := _works_own_page(page, link, menu)) is not None and (
            landing in (scored | {page.final_url}) or web_context.is_discovered(landing)
        ):
            result.rejected.append(
                f"link {link_id} ({link.url[:200]}): the file of a work whose own page ({landing[:200]}) is "
                "queued or read: that page is opened, not its file; not queued"
            )
            continue
        if link.url in menu:
            score = max(0.0, score - MENU_PENALTY)
            result.menu += 1
        if graph is not None:
            graph.add_link(page.final_url, link.url, anchor_text=link.text, score=score)
        anchor = entry_anchor(link) if link.names_entry else link.text
        if web_context.add_url(link.url, score, anchor_text=anchor, found_on=page.final_url, dead_end=dead_end):
            result.queued.append(link.url)
        elif web_context.raise_pending(
            link.url, score, anchor_text=anchor, found_on=page.final_url, margin=MENU_PENALTY
        ):
            result.raised.append(link.url)
        else:
            result.already_known.append(link.url)
    result.message = with_hint(_describe(result), hint("save_links", "default", state))
    return result


#: A link's text this short that names a PDF opens a file ("PDF", "Download PDF", "Texto: es PDF"), not a page.
_FILE_LINK_WORDS = 4


def _works_own_page(page: Page, link: Link, menu: Set[str]) -> str | None:
    """The URL of the work's own page when `link` opens a work's file (a PDF): the page whose title link the file sits
    beside in a listing of `page` (`Link.result_title`), or `page` itself when the file is at its own address with a
    part or a parameter added (``/a/7/`` and ``/a/7/pdf``, ``/a/7?format=pdf``) and is no navigation page (`menu`:
    its frame's links); None otherwise. A reader opens the work's page, which names the work and links its file,
    rather than the file."""
    words = re.findall(r"[^\W_]+", link.text.casefold())
    if not (is_file_address(link.url) or ("pdf" in words and len(words) <= _FILE_LINK_WORDS)):
        return None
    if link.result_title is not None and (title := page.link(link.result_title)) is not None:
        return title.url if title.url != link.url else None
    here, there = urlsplit(page.final_url), urlsplit(link.url)
    base = here.path.rstrip("/")
    own = (
        bool(base)
        and there.netloc == here.netloc
        and (there.path.rstrip("/") == base or there.path.startswith(base + "/"))
    )
    if not own or link.url == page.final_url or is_navigation_page(page, menu=menu):
        return None  # a listing's files under its address are its works', not its own
    return page.final_url


def _rank_of(page: Page, link_id: int) -> int:
    """Where link `link_id` of `page` stands among the links scored alike (`link_kinds.link_rank`)."""
    link = page.link(link_id)
    return link_rank(link.text) if link is not None else 1


def lists_nothing_new(page: Page) -> Callable[[str], bool]:
    """Whether a link of `page` lists nothing the page does not: the tab the page marks as the one it shows now
    (`current_view_links`: the page's address with a parameter added, its own list), or a link that only narrows
    the list the page shows whole (a facet, a filter or a sort of a result list with no next page:
    `narrows_listing`; a tab beside the one shown shows another list and narrows nothing), or the same page in
    another order ("order by publication year": `reorders_listing`), which shows the entries the page shows, where
    it has no next page: an empty category sorted by year is still empty."""
    views = current_view_links(page.html, url=page.final_url) if page.html else frozenset()
    shown = {view for view in views if adds_parameters(page.final_url, view)}
    if next_listing_page(page.final_url, page.links) is not None:
        return lambda url: url in shown
    return lambda url: (
        url in shown or narrows_listing(page.final_url, url, views=views) or reorders_listing(page.final_url, url)
    )


#: How much of its entry a link named only by what it opens ("Abstract") carries into the Planner's list.
_ENTRY_ANCHOR_CHARS = 160


def entry_anchor(link: Link) -> str:
    """What the Planner's list of pending URLs calls a link that only names what it opens of the entry before it
    ("[Abstract]" after a citation): its text and that entry ("Abstract: Novak, S. and Haddad, J.. Road Salt and …"),
    since a list of "Abstract" links says nothing of which work each opens."""
    return f"{link.text}: {shorten(link.context, _ENTRY_ANCHOR_CHARS)}"


def _parse_link_score(raw: object, page: Page, result: SaveLinksResult) -> LinkScore | None:
    try:
        entry = raw if isinstance(raw, LinkScore) else LinkScore.model_validate(raw)
    except Exception:
        result.rejected.append(f'{raw!r}: each entry must be {{"id": <link number>, "score": <0-10>}}')
        return None
    if page.link(entry.id) is None:
        valid = f"1–{len(page.links)}" if page.links else "none: this page has no links"
        result.rejected.append(f"link {entry.id} is not on this page (valid numbers: {valid})")
        return None
    if math.isnan(entry.score) or not 0 <= entry.score <= 10:
        result.rejected.append(f"link {entry.id}: score must be between 0 and 10, got {entry.score}")
        return None
    return entry


def _describe(result: SaveLinksResult) -> str:
    summary = [f"Queued {len(result.queued)} new link(s)."]
    if result.raised:
        summary.append(f"{len(result.raised)} waiting already were raised to the higher score given here.")
    if result.already_known:
        summary.append(f"{len(result.already_known)} were already known (not queued again).")
    if result.off_site:
        summary.append(f"{len(result.off_site)} lead off this site and were not queued.")
    if result.menu:
        summary.append(f"{result.menu} of the site's menu were queued {MENU_PENALTY:g} lower, after the page's links.")
    text = " ".join(summary)
    if result.rejected:
        text += "\nRejected:\n" + "\n".join(f"- {reason}" for reason in result.rejected)
    return text
