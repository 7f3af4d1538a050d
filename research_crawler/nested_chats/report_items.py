"""The items a report is written from: every collected item across sites, reranked against the request,
dated and described from their own pages, merged when they are one work, and chosen under the request's contract.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import date

from research_crawler.context.search_context import SiteRef
from research_crawler.context.urls import is_same_site
from research_crawler.pages.citations import cited_fields, own_citation
from research_crawler.pages.declared_kind import declared_kind, declares_a_post, names_another_kind
from research_crawler.pages.draft_status import declares_an_unissued_draft
from research_crawler.pages.html_tree import parse_html
from research_crawler.pages.metadata import read_item_metadata
from research_crawler.pages.page import Determination, Link, Page
from research_crawler.pages.person_names import split_people
from research_crawler.rank.rerank import Reranker, item_text, rerank
from research_crawler.report.identity import merge_same_works, normal_title
from research_crawler.report.index_pages import (
    index_page_reason,
    is_file_address,
    links_up,
    names_a_numbered_issue,
    names_a_venue_or_slot,
    names_no_work,
    names_only_its_authors,
)
from research_crawler.report.listing_entry import entry_fields
from research_crawler.report.markdown_text import plain_text
from research_crawler.report.models import (
    CITATION_SOURCE,
    ENTRY_SOURCE,
    FOUND_ON_SOURCE,
    OWN_PAGE_SOURCE,
    ReportItem,
)
from research_crawler.report.selection import Selection, select_items
from research_crawler.tools.exploration import Exploration

logger = logging.getLogger(__name__)

#: Words a page's title needs before a file titled after it is taken for that page's work's document.
_TITLE_WORDS = 4

__all__ = ["choose_items", "collected_report_items", "rank_items", "read_or_keep", "with_metadata"]


def collected_report_items(exploration: Exploration) -> list[ReportItem]:
    """Every collected item across sites as a report item with its provenance, best collector score first."""
    x = exploration
    collected = []
    for site_url, web in x.web_contexts.items():
        for item in web.items():
            path = x.graph.path_from_root(item.found_on, site_url) if item.found_on in x.graph else []
            collected.append((item, site_url, path))
    collected.sort(key=lambda entry: (-entry[0].score, entry[0].seq))
    return [
        ReportItem(
            rank=rank,
            title=plain_text(item.title) or item.url,
            url=item.url,
            site=site_url,
            found_on=item.found_on,
            path=path,
            description=plain_text(item.description) or "",
            collector_score=item.score,
            authors=[name for name in (plain_text(a) for a in item.authors) if name],
            date=item.date,
            metadata_sources={
                field: OWN_PAGE_SOURCE if item.read_on_own_page else FOUND_ON_SOURCE
                for field in ("authors", "date")
                if getattr(item, field)
            },
        )
        for rank, (item, site_url, path) in enumerate(collected, 1)
    ]


def rank_items(query: str, items: list[ReportItem], reranker: Reranker) -> list[ReportItem]:
    """`items` reranked against `query` across all sites (the Collector's scores were given page by page)."""
    ranked = rerank(query, items, lambda item: item_text(item.title, item.abstract, item.description), reranker)
    return [
        item.model_copy(update={"rank": rank, "rerank_score": round(score, 6)})
        for rank, (item, score) in enumerate(ranked, 1)
    ]


def with_metadata(x: Exploration, item: ReportItem) -> ReportItem | None:
    """Fill authors, date, abstract, DOI and PDF link from the item page's own tags (cache first).

    An item whose own page cannot be read — not found, timed out, or ``blocked`` (a bot challenge or a
    soft 404 served with status 200) — is kept as the Collector read it on the ok page where it was
    found, but no metadata is ever taken from a page that is not ``ok``, so a challenge page's title or
    tags can never stand in for the item's. None for an item whose link the URL guard refuses (it leads, or
    redirects, to a private address or another scheme): the report never sends a reader there; None for a
    page that plainly lists other works rather than being one (`report/index_pages.py`), or that names a venue or a
    slot of a programme and no author or abstract ("Workshop on …", "Panel: …"); None for a page that
    declares itself another kind of record than the one asked for ("Dataset", "Guidance" when papers are asked
    for: `pages/declared_kind.py`), or calls itself a draft and carries no file (`pages/draft_status.py`: never
    issued); and None for an item whose
    page cannot be read and whose only title is a link's action ("Download (PDF)"): no title was ever read for it.
    """
    site = next((s for s in x.known_sites() if is_same_site(item.url, s.url)), None)
    if site is None and item.site in x.web_contexts:  # a site of an earlier query in this run directory
        web = x.web_contexts[item.site]
        site = SiteRef(name=web.name or item.site, url=item.site)
    if site is None:
        return item
    item = _work_of_its_file(x, item, site)
    page = x.pages.fetch_page(item.url, site)
    if page.determination is Determination.REFUSED and "URL guard" in page.reason:
        # Its link leads (or redirects) where the crawler may not go — a private address, another scheme: the
        # report never points a reader there.
        x.trace.emit("item_refused", url=item.url, final_url=page.final_url, reason=page.reason)
        return None
    if not page.ok:
        x.note_wall(site.url, page)  # said in the site's summary: the item's details are the listing's
        if names_no_work(item.title):  # "Download (PDF) - Accepted Version": a link's action, and nothing read it
            x.trace.emit("item_refused", url=item.url, final_url=page.final_url, reason="its only title is a link's "
                         "action words, and its own page could not be read for one")  # fmt: skip
            return None
        return item
    if (byline := _byline_link_reason(x, item, site)) is not None:
        x.trace.emit("item_refused", url=item.url, final_url=page.final_url, reason=byline)
        return None
    meta = read_item_metadata(page.html, url=page.final_url)
    listed_on = [  # an item page's own PDF, its byline's profiles and its links up, found on it, list nothing
        found.found_on
        for web in x.web_contexts.values()
        for found in web.items()
        if found.url != item.url
        and not is_file_address(found.url)
        and found.url != meta.pdf_url
        and not _byline_link(found.url, found.title, page.links, meta.authors)
        and not links_up(found.url, found.found_on)  # its section's or home's link: navigation, listed nowhere
    ]
    links = (link.url for link in page.links)
    index = index_page_reason(page.final_url, links, meta, listed_on=listed_on, html=page.html, page_title=page.title)
    if index is not None:  # a journal's volumes, a listing: no work, whatever the Collector took it for
        x.trace.emit("item_refused", url=item.url, final_url=page.final_url, reason=f"a listing, not an item: {index}")
        return None
    named = (plain_text(meta.title) or "", item.title)
    if not (meta.authors or meta.abstract or meta.doi) and any(names_a_venue_or_slot(title) for title in named):
        why = "it names a venue or a slot of a programme (a workshop, a journal, a panel, a break), no work's author"
        x.trace.emit("item_refused", url=item.url, final_url=page.final_url, reason=why)
        return None
    if not meta.doi and any(names_a_numbered_issue(title) for title in named):  # "Riverwatch links #7": a roundup
        why = "it names a numbered issue of a series ('… #7'), which points to works, not a work"
        x.trace.emit("item_refused", url=item.url, final_url=page.final_url, reason=why)
        return None
    wanted = (x.search.request.item_kind if x.search.request is not None else "") or x.settings.explore.item_kind
    tree = parse_html(page.html)  # (read once for the kind it declares and the draft it may call itself)
    kind = declared_kind(tree)
    own_file = bool(meta.pdf_url) or any(is_file_address(link.url) for link in page.links)
    # "Dataset", "Guidance": another kind of record; a post that carries a file announces the work it gives
    if kind is not None and names_another_kind(kind, wanted) and not (declares_a_post(kind) and own_file):
        x.trace.emit("item_refused", url=item.url, final_url=page.final_url,
                     reason=f"its page declares it a {kind!r}, not a {wanted}")  # fmt: skip
        return None
    if declares_an_unissued_draft(tree, title=plain_text(meta.title) or item.title, has_file=own_file):
        why = "its page calls it a draft and carries no file: work in progress, never issued"
        x.trace.emit("item_refused", url=item.url, final_url=page.final_url, reason=why)
        return None
    title = plain_text(meta.title)  # the publisher's title over the Collector's reading
    authors = [name for name in (plain_text(a) for a in meta.authors) if name]
    # a field the page's metadata lacks keeps what the Collector read where it found the item, and says so
    sources: dict[str, str] = dict(meta.sources)
    for field, note in meta.notes.items():  # a tag the page contradicts is not believed, and the item says so
        if field in sources:
            sources[field] = f"{sources[field]} ({plain_text(note)})"
    for field in ("authors", "date"):
        if field not in sources and field in item.metadata_sources:
            sources[field] = item.metadata_sources[field]
    if not title:  # the page's tags name no title: the Collector's, which the page where it was found shows
        sources["title"] = FOUND_ON_SOURCE
    authors, day = authors or item.authors, meta.date or item.date
    if not authors or not day:  # an abstract page naming neither: the citation that led there, or its own, may
        referrer = _referring_link(x, item, site)
        for cited in (
            cited_fields(referrer[1].context, title or item.title) if referrer and referrer[1].context else None,
            own_citation(page.markdown, title or item.title),
        ):
            if cited is None:
                continue
            if not authors and cited.authors:
                authors, sources["authors"] = cited.authors, CITATION_SOURCE
            if not day and cited.year:
                day, sources["date"] = cited.year, CITATION_SOURCE
        if (not authors or not day) and referrer is not None:  # or the lines of the listing's entry that led there
            entry = entry_fields(referrer[0].markdown, referrer[1])
            if not authors and entry.authors:
                authors, sources["authors"] = entry.authors, ENTRY_SOURCE
            if not day and entry.date:
                day, sources["date"] = entry.date, ENTRY_SOURCE
    return item.model_copy(
        update={
            "title": title or item.title,
            "authors": authors,
            "date": day,
            "abstract": plain_text(meta.abstract),
            "doi": meta.doi,
            "pdf_url": meta.pdf_url,
            "metadata_sources": sources,
        }
    )


def _work_of_its_file(x: Exploration, item: ReportItem, site: SiteRef) -> ReportItem:
    """`item`, or, when it is a file found on another page whose title its own title repeats ("<title>: easy read",
    "<title> (PDF)") and that page lists no works, that page: the work whose document (or a version of it) the file
    is. A model may store a work's attachment rather than its page; the report lists the work."""
    if not is_file_address(item.url) or not item.found_on or item.found_on == item.url:
        return item
    holder = x.pages.fetch_page(item.found_on, site)  # read before in this run: from the run's archive
    if not holder.ok or is_file_address(holder.final_url):
        return item
    meta = read_item_metadata(holder.html, url=holder.final_url)
    title = normal_title(plain_text(meta.title) or "")
    if len(title.split()) < _TITLE_WORDS or not normal_title(item.title).startswith(title):
        return item
    links = (link.url for link in holder.links)
    if index_page_reason(holder.final_url, links, meta, html=holder.html, page_title=holder.title) is not None:
        return item
    x.trace.emit("item_moved", url=item.url, to=holder.final_url, reason="a file of the work of the page it was on")
    return item.model_copy(update={"url": holder.final_url, "title": meta.title, "found_on": holder.final_url})


def _referring_link(x: Exploration, item: ReportItem, site: SiteRef) -> tuple[Page, Link] | None:
    """The page the Collector found `item` on and its link there, or, for an item collected on its own page, the page
    whose link led there and that link: where a citation or a listing's entry shows what its own page may not. None
    when no such page was read or it does not link the item."""
    referrer = item.found_on if item.found_on != item.url else (item.path[-2] if len(item.path) >= 2 else "")
    if not referrer or referrer == item.url:
        return None
    page = x.pages.fetch_page(referrer, site)  # read before in this run: from the run's archive
    link = page.link_for_url(item.url) if page.ok else None
    return (page, link) if link is not None else None


def _byline_link_reason(x: Exploration, item: ReportItem, site: SiteRef) -> str | None:
    """Why `item` is a byline's link rather than a work, or None: its title is only names of the authors of the
    item page it was found on, which links it on such a name (a link to an author's profile, taken for an item);
    or, whatever title it was stored under (a model may give it the line after the byline), every link to it on
    that page is one name of the page's authors alone: a profile the byline links, never a work."""
    if not item.found_on or item.found_on == item.url:
        return None
    where = x.pages.fetch_page(item.found_on, site)  # read already: from the run's archive
    if not where.ok:
        return None
    texts = [link.text for link in where.links if link.url == item.url]
    if not texts or not (split_people(item.title) or all(len(split_people(text)) == 1 for text in texts)):
        return None  # the page's metadata is read only for a title of names or a link named by one person
    authors = read_item_metadata(where.html, url=where.final_url).authors
    if _byline_link(item.url, item.title, where.links, authors):
        return "its title is only names of the authors of the page it was found on: a byline's link, not a work"
    if all(len(split_people(text)) == 1 and names_only_its_authors(text, authors) for text in texts):
        return "the page it was found on links it only by one of its authors' names: a byline's link, not a work"
    return None


def _byline_link(url: str, title: str, links: Sequence[Link], authors: Sequence[str]) -> bool:
    """Whether the item at `url`, titled `title`, is a link of a page's byline: its title is only names of the
    page's `authors`, and the page links it on one of those names alone, as a byline links a profile (a listing
    whose titles were misread as its authors, "Bee Exposure and Colony Survival" as two names, links each entry on
    its whole title)."""
    return names_only_its_authors(title, authors) and any(
        link.url == url and len(split_people(link.text)) == 1 and names_only_its_authors(link.text, authors)
        for link in links
    )


def read_or_keep(x: Exploration, item: ReportItem) -> ReportItem | None:
    """`with_metadata(x, item)`; when reading its page fails with an error of the code (a page no rule foresaw),
    the item as the Collector read it, the failure traced and logged: one odd page never ends the report."""
    try:
        return with_metadata(x, item)
    except Exception as exc:  # the run's other items and its report must survive any one page
        why = f"{type(exc).__name__}: {exc}"[:300]
        logger.warning("the page of %s could not be read for its details (%s); kept as collected", item.url, why)
        x.trace.emit("item_unread", url=item.url, reason=why)
        return item


def choose_items(x: Exploration, reranker: Reranker | None, *, today: date | None = None) -> Selection:
    """The report's items for `x`'s request. Items are reranked against the request's topic, then read in
    that order (their pages' metadata: dates above all) until the request can be met: `count` items that fit
    its dates in relevance order, or — for "newest first" — every relevant item within the read budget."""
    settings = x.settings.report
    request = x.search.request
    today = today or date.today()
    wanted = (request.count if request is not None and request.count else None) or settings.top_k
    items = collected_report_items(x)
    if reranker is not None and items:
        items = rank_items(request.search_words if request is not None else x.search.query, items, reranker)
        x.trace.emit("rerank", reranker=reranker.name, items=len(items))
    constrained = request is not None and (request.has_dates() or request.order == "newest")
    if constrained:
        relevant = [item for item in items if item.collector_score >= settings.relevance_floor]
        items = relevant or items
    read: list[ReportItem] = []
    consumed = 0  # items read or refused: those after them are unread
    for item in items:
        if len(read) >= settings.max_metadata_reads:
            break
        consumed += 1
        checked = read_or_keep(x, item)
        if checked is None:
            continue
        read.append(checked)
        chosen = select_items(
            merge_same_works(read),
            request=request,
            wanted=wanted,
            today=today,
            recent_days=settings.recent_days,
            item_kind=x.settings.explore.item_kind,
        )
        if len(chosen.items) >= wanted and (request is None or request.order != "newest"):
            return chosen
    unread = items[consumed:] if constrained else []  # dated from their listings only; a refused item never
    return select_items(
        merge_same_works([*read, *unread]),
        request=request,
        wanted=wanted,
        today=today,
        recent_days=settings.recent_days,
        item_kind=x.settings.explore.item_kind,
    )
