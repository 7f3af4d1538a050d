"""The item tools: the Item Collector stores items it found on a page; the Supervisor and Presenter read them.

An item can only be a URL the page really links to (named by its link number or by that URL) or the
page itself (an abstract page is its own item): a URL an LLM made up cannot enter the collected items.
"""

from __future__ import annotations

import math
import re
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, model_validator

from research_crawler.context.urls import try_canonicalize_url
from research_crawler.context.web_context import CollectedItem, ItemUpdate, WebContext
from research_crawler.errors import ToolInputError
from research_crawler.pages.metadata import normalise_date
from research_crawler.pages.page import Page
from research_crawler.tools.hints import HintState, hint, with_hint

_ISO_DATE = re.compile(r"^\d{4}(-\d{2}(-\d{2})?)?$")

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
    title: Annotated[str, Field(description="The title exactly as shown.")]
    score: Annotated[float, Field(description="Relevance, 0 (none) to 10 (exactly what was asked).")]
    description: Annotated[str, Field(description="One sentence on what it is about.")] = ""
    date: Annotated[str | None, Field(description="Its date as the page shows it, if it shows one.")] = None

    @model_validator(mode="after")
    def _one_reference(self) -> ItemCandidate:
        if self.id is None and not self.url:
            raise ValueError("give the item's link number (id) or its url")
        return self


class CollectItemsResult(BaseModel):
    """What `collect_items` did with each candidate."""

    added: list[str] = Field(default_factory=list)
    updated: list[str] = Field(default_factory=list)
    unchanged: list[str] = Field(default_factory=list)
    rejected: list[str] = Field(default_factory=list, description="Why each rejected entry was refused.")
    message: str = ""


def collect_items(
    web_context: WebContext,
    page: Page,
    items: list[ItemCandidate] | list[dict[str, object]],
    *,
    state: HintState,
    allow_offsite: bool = False,
) -> CollectItemsResult:
    """Store the relevant items found on this page, each with a relevance score and a short description.

    Store only items that match the query. Name each item by the number of its link on this page
    (id), or by its URL when the item is this page itself.

    Args:
        items: a list of {"id": link number, "title": ..., "score": 0-10, "description": ...};
            use "url" instead of "id" for this page itself.

    Returns:
        Which items were added, updated or rejected and why.
    """
    if not isinstance(items, list):
        raise ToolInputError('items must be a list of {"id": n, "title": ..., "score": s, "description": ...}')
    result = CollectItemsResult()
    for raw in items:
        candidate, url = _resolve(raw, page, result)
        if candidate is None or url is None:
            continue
        link = page.link_for_url(url)
        if link is not None and not link.same_site and not allow_offsite:
            result.rejected.append(f"{url} leads off this site: only items of the site being explored are stored")
            continue
        outcome = web_context.add_item(
            url,
            title=" ".join(candidate.title.split()),
            description=candidate.description.strip(),
            score=candidate.score,
            found_on=page.final_url,
            date=_iso_date(candidate.date),
        )
        {ItemUpdate.ADDED: result.added, ItemUpdate.UPDATED: result.updated}.get(outcome, result.unchanged).append(url)
    state = state.model_copy(update={"items_collected": web_context.item_count})
    result.message = with_hint(_describe(result), hint("collect_items", "default", state))
    return result


def _resolve(raw: object, page: Page, result: CollectItemsResult) -> tuple[ItemCandidate | None, str | None]:
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
    if candidate.id is not None:
        link = page.link(candidate.id)
        if link is None:
            valid = f"1–{len(page.links)}" if page.links else "none: this page has no links"
            result.rejected.append(f"link {candidate.id} is not on this page (valid numbers: {valid})")
            return None, None
        return candidate, link.url
    url = try_canonicalize_url(candidate.url or "", page.final_url)
    if url is not None and (url in (page.url, page.final_url) or page.link_for_url(url) is not None):
        return candidate, url
    result.rejected.append(f"{candidate.url!r} does not appear on this page: name items by their link number")
    return None, None


def _iso_date(shown: str | None) -> str | None:
    """The date a page shows ("3 May 2025", "2025/05/03") as ISO, or None when it is not a recognisable date."""
    words = (shown or "").replace(",", " , ").split()[:12]
    for start in range(len(words)):  # the date may sit inside words: "Submitted 3 May 2025 (v2)"
        for end in range(len(words), start, -1):
            value = normalise_date(" ".join(words[start:end]).strip(" .;:()"))
            if _ISO_DATE.match(value):
                return value
    return None


def _name(candidate: ItemCandidate) -> str:
    return f"link {candidate.id}" if candidate.id is not None else repr(candidate.url)


def _describe(result: CollectItemsResult) -> str:
    text = f"Added {len(result.added)} item(s), updated {len(result.updated)}, unchanged {len(result.unchanged)}."
    if result.rejected:
        text += "\nRejected:\n" + "\n".join(f"- {reason}" for reason in result.rejected)
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
