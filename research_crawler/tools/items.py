"""The item tools: the Item Collector stores items it found on a page; the Supervisor and Presenter read them.

An item can only be a URL the page really links to (named by its link number, by that URL, or by its title when the
title is a link's text on the page) or the page itself (an abstract page is its own item): a URL an LLM made up
cannot enter the collected items, nor a link that shows only its address (a sitemap's entry): it names no title,
nor a link the site's robots.txt forbids crawlers (a record's CSV download, an export): its page can never be read to
show what it is.
What the model says it read is checked against the page (`page_evidence.py`): a title the page does not show is
replaced by the page's (the link's text, or the page's title); a date or an author the page does not show is dropped.
No field is ever made up.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Annotated
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field

from research_crawler.context.urls import try_canonicalize_url
from research_crawler.context.web_context import CollectedItem, ItemUpdate, WebContext
from research_crawler.errors import ToolInputError
from research_crawler.pages.item_dates import iso_date_shown
from research_crawler.pages.metadata import normalise_doi, read_item_metadata
from research_crawler.pages.page import Link, Page
from research_crawler.pages.person_names import fuller_byline
from research_crawler.pages.sitemaps import address_words
from research_crawler.report.index_pages import is_file_address, names_no_work
from research_crawler.report.title_match import normalise_title
from research_crawler.tools.hints import HintState, hint, with_hint
from research_crawler.tools.named_places import carried_paper, names_a_place, title_names_a_place
from research_crawler.tools.page_evidence import PageEvidence
from research_crawler.tools.source_entries import (
    TITLE_WORDS,
    entry_title_beside,
    heads_several_titles,
    reads_as_a_title,
)

#: The tag vocabularies a scholarly publisher writes for one work's page (Highwire's citation_*, bepress, EPrints,
#: PRISM): a page they title shows that work. The general web's (Open Graph, JSON-LD) title any page.
_WORK_TAGS = frozenset({"citation", "bepress", "eprints", "prism"})

__all__ = [
    "CollectItemsResult",
    "CollectedItemsView",
    "ItemCandidate",
    "collect_items",
    "get_collected_items",
]


class ItemCandidate(BaseModel):
    """An item the Collector found on the current page."""

    model_config = ConfigDict(extra="forbid")

    id: Annotated[int | None, Field(description="The [n] number of the item's link.")] = None
    url: Annotated[str | None, Field(description="Instead of id: the item's URL as shown, or this page's own URL.")] = (
        None
    )
    title: Annotated[str, Field(description="The title exactly as shown (with no id or url: its link's text).")]
    score: Annotated[float, Field(description="Relevance, 0 (none) to 10 (exactly what was asked).")]
    description: Annotated[str, Field(description="One sentence on what it is about.")] = ""
    date: Annotated[str | None, Field(description="Its date as the page shows it, if it shows one.")] = None
    authors: Annotated[list[str] | None, Field(description="Its authors as the page shows them, if it shows them.")] = (
        None
    )


class CollectItemsResult(BaseModel):
    """What `collect_items` did with each candidate."""

    added: list[str] = Field(default_factory=list)
    updated: list[str] = Field(default_factory=list)
    unchanged: list[str] = Field(default_factory=list)
    rejected: list[str] = Field(default_factory=list, description="Why each rejected entry was refused.")
    retitled: list[str] = Field(default_factory=list, description="Titles not on the page, replaced by the page's own.")
    places: dict[int, float] = Field(
        default_factory=dict,
        description="The links refused as places that may hold works (a project, a folder), by number, with the "
        "relevance the model gave them: ways to works, for the Crawler's queue.",
    )
    message: str = ""


def collect_items(
    web_context: WebContext,
    page: Page,
    items: list[ItemCandidate] | list[dict[str, object]],
    *,
    state: HintState,
    allow_offsite: bool = False,
    robots_refusal: Callable[[str], str | None] | None = None,
) -> CollectItemsResult:
    """Store the relevant items found on this page, each with a relevance score and a short description.

    Store only items that match the query. Name each item by the number of its link on this page
    (id), or by its URL when the item is this page itself, or by its title alone when it is a link's text.

    Args:
        items: a list of {"id": link number, "title": ..., "score": 0-10, "description": ...};
            use "url" instead of "id" for this page itself; "date" and "authors" as the page shows them.

    Returns:
        Which items were added, updated or rejected and why.
    """
    if not isinstance(items, list):
        raise ToolInputError('items must be a list of {"id": n, "title": ..., "score": s, "description": ...}')
    result = CollectItemsResult()
    evidence = PageEvidence(page)
    for raw in items:
        candidate, url = _resolve(raw, page, evidence, result)
        if candidate is None or url is None:
            continue
        link = page.link_for_url(url)
        if (url in (page.url, page.final_url) or (link is not None and not link.same_site)) and (
            paper := carried_paper(page)
        ) is not None:  # a project's own work, or the DOI its README cites: the paper file it carries
            url, link = paper.url, paper
            result.retitled.append(f"{_name(candidate)}: stored as the paper this project carries, {paper.url}")
        if link is not None and not link.same_site and not allow_offsite:
            result.rejected.append(f"{url} leads off this site: only items of the site being explored are stored")
            continue
        if link is not None and url not in (page.url, page.final_url) and _names_only_its_address(link.text, url):
            result.rejected.append(
                f"{_name(candidate)} shows only its address ({link.text!r}), no title: what it is can only be read "
                "on its own page"
            )
            continue
        if (place := _place(page, link, url)) is not None:
            if link is not None and url not in (page.url, page.final_url):
                result.places[link.id] = max(candidate.score, result.places.get(link.id, 0.0))
            result.rejected.append(
                f"{_name(candidate)} ({place!r}) names a place by its handle (a project, a folder, a user's space: "
                "a code repository, a course, a meeting-notes project), not a work by its title: it is not an item. "
                "A paper it holds (its paper.md, the paper its README cites) is reached by opening it: it is queued "
                "with your score"
            )
            continue
        if link is not None and url not in (page.url, page.final_url) and (held := _counted_holding(page, link)):
            result.rejected.append(
                f"{_name(candidate)} ({link.text!r}) is followed by a count of what it holds ({held!r}): a collection "
                "of items (a series, a journal, a subject), not one of them; open it to find them"
            )
            continue
        if url not in (page.url, page.final_url) and robots_refusal is not None and (why := robots_refusal(url)):
            result.rejected.append(
                f"{_name(candidate)}: the site's robots.txt forbids crawlers its address ({why}), so its page can "
                "never be read to show what it is"
            )
            continue
        authors = [name for name in _names(candidate.authors) if evidence.shows(name)]
        stored = web_context.collected.get(try_canonicalize_url(url) or url)
        outcome = web_context.add_item(
            url,
            title=" ".join(candidate.title.split()),
            description=candidate.description.strip(),
            score=candidate.score,
            found_on=page.final_url,
            date=iso_date_shown(candidate.date) if candidate.date and evidence.shows(candidate.date) else None,
            authors=authors,
            fuller_byline=stored is not None and fuller_byline(authors, stored.authors),
        )
        {ItemUpdate.ADDED: result.added, ItemUpdate.UPDATED: result.updated}.get(outcome, result.unchanged).append(url)
    state = state.model_copy(update={"items_collected": web_context.item_count})
    result.message = with_hint(_describe(result), hint("collect_items", "default", state))
    return result


def _resolve(
    raw: object, page: Page, evidence: PageEvidence, result: CollectItemsResult
) -> tuple[ItemCandidate | None, str | None]:
    try:
        candidate = raw if isinstance(raw, ItemCandidate) else ItemCandidate.model_validate(raw)
    except Exception as exc:
        first = str(exc).splitlines()[-1] if str(exc) else "invalid entry"
        result.rejected.append(f"{raw!r}: {first}")
        return None, None
    if not candidate.title.strip():
        result.rejected.append(f"{_name(candidate)}: the title is empty")
        return None, None
    if math.isnan(candidate.score) or not 0 <= candidate.score <= 10:
        result.rejected.append(f"{_name(candidate)}: score must be between 0 and 10, got {candidate.score}")
        return None, None
    titled = evidence.link_titled(candidate.title)
    if candidate.id is None and not candidate.url:  # named by its title alone: the link that shows it
        if titled is None:
            result.rejected.append(
                f"{candidate.title!r}: no link on this page shows this title: name items by their link number (id)"
            )
            return None, None
        return candidate.model_copy(update={"title": titled.text}), titled.url
    if candidate.id is not None:
        link = page.link(candidate.id)
        if link is None:
            valid = f"1–{len(page.links)}" if page.links else "none: this page has no links"
            result.rejected.append(f"link {candidate.id} is not on this page (valid numbers: {valid})")
            return None, None
        if titled is not None and titled.url != link.url:  # the title is another link's text: that link is meant
            link = titled
        if not link.same_site and (own := _own_work(page, link)) is not None:  # its DOI: the work this page shows
            return _own_title(candidate, own, result), page.final_url
        if evidence.trail_step(link):
            result.rejected.append(_TRAIL_STEP.format(name=_name(candidate), text=link.text))
            return None, None
        return _named_link(candidate, link, page, evidence, result)
    url = try_canonicalize_url(candidate.url or "", page.final_url)
    if url is not None and url in (page.url, page.final_url):
        return _checked_title(candidate, page.title, evidence, result), url
    link = page.link_for_url(url) if url is not None else None
    if link is not None and evidence.trail_step(link):
        result.rejected.append(_TRAIL_STEP.format(name=_name(candidate), text=link.text))
        return None, None
    if link is not None:
        return _named_link(candidate, link, page, evidence, result)
    result.rejected.append(f"{candidate.url!r} does not appear on this page: name items by their link number")
    return None, None


def _named_link(
    candidate: ItemCandidate, link: Link, page: Page, evidence: PageEvidence, result: CollectItemsResult
) -> tuple[ItemCandidate, str]:
    """`candidate`, named by `link`, as the work it stands for, and that work's address. A link inside one result of
    a listing ("PDF", "Abstract", an e-print beside the result's title) is that result's work: stored under the
    result's title link, so that it is one item with the work's record, however the model titled it (the abstract
    the result shows, its citation line). A link to a file of the work the page itself shows (its PDF under its
    heading), in no result, is that page's work, stored as the page under the work's title, and so is a link the model
    titles by that work's title or by the page's abstract. A link the model names by its own text, a title, is that
    link."""
    if (titled := entry_title_beside(page, link, candidate.title)) is not None:
        why = f"{_name(candidate)} ({link.text!r}) heads several entries; the one it describes is titled"
        return _titled(candidate, titled.text, f"{why} {titled.text!r}", result), titled.url
    if not _named_by_its_own_title(candidate, link):
        owner = page.link(link.result_title) if link.result_title is not None else None
        if owner is not None and not (reads_as_a_title(link.text) and heads_several_titles(page, owner)):
            why = f"{_name(candidate)} ({link.text!r}) belongs to the listing's result titled {owner.text!r}"
            return _titled(candidate, owner.text, why, result), owner.url
        if (own := _own_file(page, link, candidate)) is not None:
            why = f"{_name(candidate)} ({link.text!r}) is the work this page shows"
            return _titled(candidate, own, why, result), page.final_url
    return _checked_title(candidate, link.text, evidence, result), link.url


def _named_by_its_own_title(candidate: ItemCandidate, link: Link) -> bool:
    """Whether `candidate` names `link` by the link's own text, long enough to be a title ("PDF" is none)."""
    text = normalise_title(link.text)
    return len(text.split()) >= TITLE_WORDS and (
        normalise_title(candidate.title) == text or _runs_past(candidate.title, link.text)
    )


def _own_file(page: Page, link: Link, candidate: ItemCandidate) -> str | None:
    """The title of the work `page` shows when `link`, in no result of a listing, stands for that work, else None:
    it opens a file of the work (the page's own PDF link, a file's address, a link named only by its action,
    "Download PDF"), or the model names it by the work's title or by a passage of the page (its abstract), which
    says which work it means. The page shows a work of its own when its scholarly tags title it or it gives the
    work's abstract or DOI; a listing that shows neither is no one work's page, whatever file it links to."""
    if link.result_title is not None or not page.html:
        return None
    meta = read_item_metadata(page.html, url=page.final_url)
    if not meta.title or not (meta.abstract or meta.doi or meta.sources.get("title") in _WORK_TAGS):
        return None
    title = " ".join(meta.title.split())
    opens_a_file = link.url == meta.pdf_url or is_file_address(link.url) or names_no_work(link.text)
    means_the_work = normalise_title(candidate.title) == normalise_title(title) or _reads_as_no_title(candidate.title)
    return title if opens_a_file or means_the_work else None


def _titled(candidate: ItemCandidate, title: str, why: str, result: CollectItemsResult) -> ItemCandidate:
    """`candidate` under `title`, the title of the work it was found to be (said in the result with `why`), unless
    it already gives that title."""
    if not title or normalise_title(candidate.title) == normalise_title(title):
        return candidate
    result.retitled.append(f"{why}: {candidate.title[:120]!r} stored as {title!r}")
    return candidate.model_copy(update={"title": title})


def _own_work(page: Page, link: Link) -> str | None:
    """The title of the work `page` shows when `link` is that work's own DOI (the DOI the page's metadata gives as
    its own: ``citation_doi``, Dublin Core's identifier), else None. A DOI names one work wherever it points:
    the work this page shows, which the page itself stands for on the site being explored."""
    linked = normalise_doi(link.url) or normalise_doi(link.text)
    if linked is None:
        return None
    meta = read_item_metadata(page.html, url=page.final_url) if page.html else None
    if meta is None or not meta.doi or meta.doi.casefold() != linked.casefold():
        return None
    return " ".join((meta.title or page.title).split())


def _own_title(candidate: ItemCandidate, title: str, result: CollectItemsResult) -> ItemCandidate:
    """`candidate` named by the DOI of the page's own work, under that work's title: a DOI names no title, and a
    sentence the model took from beside it (the abstract's start) is no title either."""
    if not title or normalise_title(candidate.title) == normalise_title(title):
        return candidate
    result.retitled.append(
        f"{candidate.title[:120]!r} is not the title of the work this page shows: stored as {title!r}"
    )
    return candidate.model_copy(update={"title": title})


def _checked_title(
    candidate: ItemCandidate, shown: str, evidence: PageEvidence, result: CollectItemsResult
) -> ItemCandidate:
    """`candidate` with a title the page shows: its own when the page shows it, else `shown` (the text of its link,
    or the page's title), said in the result. A title that runs on past its link's whole text (a page's text view
    puts what follows a link on the same line: "Title Subscribers only", "Title Costa, O.; Eze, M. (May 2, 2024)")
    is the link's text, when that text is long enough to be a title itself."""
    link_text = " ".join(shown.split())
    if link_text and _reads_as_no_title(candidate.title) and not _reads_as_no_title(link_text):
        result.retitled.append(
            f"{candidate.title[:120]!r} is a passage or a line of fields, not a title: stored as {shown!r}"
        )
        return candidate.model_copy(update={"title": shown})
    if link_text and evidence.trail_title(candidate.title):
        result.retitled.append(f"{candidate.title!r} is the page's breadcrumb trail: stored as {shown!r}")
        return candidate.model_copy(update={"title": shown})
    if _runs_past(candidate.title, link_text):
        result.retitled.append(f"{candidate.title!r} runs past its link's text: stored as {link_text!r}")
        return candidate.model_copy(update={"title": link_text})
    if evidence.shows(candidate.title) or not link_text:
        return candidate
    result.retitled.append(f"{candidate.title!r} is not on this page: stored as {shown!r}, as the page shows it")
    return candidate.model_copy(update={"title": shown})


_TRAIL_STEP = (
    "{name} ({text!r}) is a step of the page's breadcrumb trail: where the page sits in the site, not an item found "
    "on it"
)


def _runs_past(title: str, link_text: str) -> bool:
    """Whether `title` is `link_text` followed by more words (`link_text` long enough to be a title, and not
    shortened: "A Long Title That…" is cut by the site, and the model's fuller title may be right)."""
    if link_text.rstrip().endswith(("…", "...")):
        return False
    words, link_words = normalise_title(title).split(), normalise_title(link_text).split()
    return len(link_words) >= TITLE_WORDS and len(words) > len(link_words) and words[: len(link_words)] == link_words


#: A label opening a field of a record's line ("e-Print:", "Published in:", "DOI:", "Vol.:"): one or three words and
#: a colon, then a space.
_FIELD_LABEL = re.compile(r"(?:^|(?<=\s))[^\W\d][\w.-]*(?: [^\W\d][\w.-]*){0,2}:(?=\s)")
#: The end of a sentence and the start of the next ("… mass. We study …"), not an initial's stop ("A. Smith").
_SENTENCE_BREAK = re.compile(r"(?<=[^\W\d_]{2})[.!?]\s+(?=[A-Z])|(?<=\d)[.]\s+(?=[A-Z])")
#: A title this long is a passage of text (the longest titles of papers run to about thirty words).
_PASSAGE_WORDS = 35
#: A text of two sentences this long is a passage too: a title with a question and its answer is shorter.
_SENTENCES_WORDS = 20


def _reads_as_no_title(text: str) -> bool:
    """Whether `text` reads as something other than a title: a line of a record's fields (two labels or more:
    "e-Print: 2405.08169 [nucl-ex] Published in: Phys.Rev.C 109 (2024)"), or a passage of text (an abstract: three
    sentences or more, two and twenty words or more, or more words than any title has)."""
    words = len(text.split())
    breaks = len(_SENTENCE_BREAK.findall(text))
    return (
        len(_FIELD_LABEL.findall(text)) >= 2
        or words > _PASSAGE_WORDS
        or breaks >= 2
        or (breaks >= 1 and words >= _SENTENCES_WORDS)
    )


def _place(page: Page, link: Link | None, url: str) -> str | None:
    """The name under which the item at `url` is a place, not a work (`named_places.py`): its link's text, or, for
    the page itself, the page's title; None when it is named as a work."""
    if url in (page.url, page.final_url):
        return page.title if title_names_a_place(page.title, page.final_url) else None
    return link.text if link is not None and names_a_place(link.text, url) else None


def _names_only_its_address(text: str, url: str) -> bool:
    """Whether a link's text is nothing but the words of its own address (a sitemap's entries, a bare URL): it shows
    no title, so nothing can be stored under it (the page may be a listing, a subject, a month)."""
    shown = normalise_title(text)
    if not shown or shown == normalise_title(url):
        return bool(shown)
    parts = urlsplit(url)  # one segment's words ("/graph-neural-networks") may well be the title a page shows
    deep = len([part for part in parts.path.split("/") if part]) >= 2 or bool(parts.query)
    return deep and shown == normalise_title(address_words(url))


#: A count of items written right after a link's text: "(7 papers)", "— 12 articles", "[3 items]", "· 6 research
#: items", "| 4 published works": what the linked page holds (one word may say which kind). A count of what a work
#: has ("18 pages", "5 versions", "120 downloads") names no collection.
_HOLDING = re.compile(
    r"^\s*[(\[—–·|:-]?\s*(\d[\d,.]*\s+(?:[^\W\d]+\s+)?(?:papers|articles|items|works|publications|pubs|documents|"
    r"records|preprints|reports|theses|titles|entries|books|chapters|datasets|results))\b",
    re.IGNORECASE,
)


#: "All" before a count a link's text opens with ("All 12 articles").
_ALL = re.compile(r"^\s*all\s+(?=\d)", re.IGNORECASE)


def _counted_holding(page: Page, link: Link) -> str | None:
    """The count of items the page writes right after `link`'s text ("(7 papers)"), or that the link's text is
    ("4 papers", "All 12 articles"), or None: a link so written is a collection's (a series, an eJournal, a subject,
    an experiment's papers, with the number of papers it holds), never one work's."""
    text = " ".join(link.text.split())
    if not text:
        return None
    if (counted := _HOLDING.match(_ALL.sub("", text))) is not None:
        return counted.group(1)
    for line in page.markdown.splitlines():
        marker = line.find(f"[{link.id}]")
        if marker < 0:
            continue
        after = " ".join(line[marker + len(f"[{link.id}]") :].split())
        if after.startswith(text) and (held := _HOLDING.match(after[len(text) :])) is not None:
            return held.group(1)
    return None


def _names(authors: list[str] | None) -> list[str]:
    return [" ".join(name.split()) for name in authors or [] if isinstance(name, str) and name.strip()]


def _name(candidate: ItemCandidate) -> str:
    if candidate.id is not None:
        return f"link {candidate.id}"
    return repr(candidate.url) if candidate.url else repr(candidate.title)


def _describe(result: CollectItemsResult) -> str:
    text = f"Added {len(result.added)} item(s), updated {len(result.updated)}, unchanged {len(result.unchanged)}."
    if result.rejected:
        text += "\nRejected:\n" + "\n".join(f"- {reason}" for reason in result.rejected)
    if result.retitled:
        text += "\nTitles corrected:\n" + "\n".join(f"- {note}" for note in result.retitled)
    return text


class CollectedItemsView(BaseModel):
    """The items collected on a site, for the Supervisor and the Presenter."""

    items: list[CollectedItem]
    message: str


def get_collected_items(web_context: WebContext, *, query: str, state: HintState) -> CollectedItemsView:
    """Show the query and every item collected on this site so far, best first.

    Returns:
        The query, then one line per item: title, URL, relevance score and description.
    """
    items = web_context.items()
    lines = [f'Query: "{query}"', f"{len(items)} item(s) collected on {web_context.site_url}:"]
    for n, item in enumerate(items, 1):
        line = f"{n}. {item.title} — {item.url} (score {item.score:g}/10)"
        if item.description and item.description != item.title:
            line += f"\n   {item.description}"
        lines.append(line)
    state = state.model_copy(update={"items_collected": len(items)})
    return CollectedItemsView(
        items=items, message=with_hint("\n".join(lines), hint("get_collected_items", "default", state))
    )
