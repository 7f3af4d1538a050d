"""The Web Selector's first tool: record the request read as a contract (topic, count, dates, order, kind,
fields, sites, authors). The reading is validated whole: an invalid one is refused with why, never half-applied.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Literal

from pydantic import ValidationError

from research_crawler.context.request import FIELDS, ResearchRequest
from research_crawler.tools.exploration import Exploration

__all__ = ["RequestTools"]


class RequestTools:
    """Records the reading of the request in the Search Context (and whether a follow-up needs a new search)."""

    def __init__(self, exploration: Exploration, *, text: str) -> None:
        self._x = exploration
        self._text = text
        self.recorded: ResearchRequest | None = None
        self.new_search = True

    def record_request(
        self,
        topic: Annotated[str, "The subject to search for: no count, no dates, no format words."],
        count: Annotated[int | None, "How many items are wanted; null when the request names no number."] = None,
        date_from: Annotated[str | None, "Earliest date an item may have, YYYY-MM-DD; null when none."] = None,
        date_to: Annotated[str | None, "Latest date an item may have, YYYY-MM-DD; null when none."] = None,
        recent: Annotated[bool, "The request asks for recent or latest items and gives no dates."] = False,
        order: Annotated[Literal["relevance", "newest"], "newest: the items newest first."] = "relevance",
        item_kind: Annotated[str | None, "The kind of item named (paper, dataset…); null when none."] = None,
        fields: Annotated[list[str] | None, f"The fields to show, of: {', '.join(FIELDS)}."] = None,
        fields_only: Annotated[bool, "Only those fields are wanted ('titles and dates only')."] = False,
        sites: Annotated[list[str] | None, "Sites the request names: URLs or names."] = None,
        authors: Annotated[list[str] | None, "Authors the request names."] = None,
        unmapped: Annotated[str, "What the request asks that none of these fields holds."] = "",
        like: Annotated[str, "For 'more like item N': that item's title (it is not shown again)."] = "",
        new_search: Annotated[bool, "For a follow-up: true only if it asks for another topic or other sites."] = True,
    ) -> str:
        """Record what the request asks for. Give only what the request says; leave the rest out."""
        try:
            request = ResearchRequest.model_validate(
                {
                    "text": self._text,
                    "topic": topic,
                    "count": count,
                    "date_from": date_from,
                    "date_to": date_to,
                    "recent": recent,
                    "order": order,
                    "item_kind": item_kind,
                    "fields": fields or [],
                    "fields_only": fields_only,
                    "sites": sites or [],
                    "authors": authors or [],
                    "unmapped": unmapped,
                    "like": like,
                }
            )
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'request'}: {e['msg']}" for e in exc.errors())
            return f"Error: this reading of the request is invalid ({problems}). Call record_request again, corrected."
        self.recorded, self.new_search = request, bool(new_search)
        x = self._x
        x.search.request = request
        x.save()
        return f"Recorded: {x.request_summary()}."

    def tools(self) -> list[Callable[..., str]]:
        return [self.record_request]
