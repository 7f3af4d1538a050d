"""The entries of a site's Web Context (`context/web_context.py`): a URL waiting in C, an item of CP, and the
text and score types both hold (text from pages and models made safe to show and to save)."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from research_crawler.text.untrusted import untrusted

__all__ = [
    "MAX_SCORE",
    "MIN_SCORE",
    "PROMISING_SCORE",
    "CleanText",
    "CollectedItem",
    "ItemUpdate",
    "PendingURL",
    "clean_text",
]

MIN_SCORE = 0.0
MAX_SCORE = 10.0
#: From this score a link is judged likely to lead somewhere on the topic (a navigation link, a close subject, an
#: item): a branch worth following down. Below it the Crawler judged the link off the topic or could not tell.
PROMISING_SCORE = 3.0

_Score = Annotated[float, Field(ge=MIN_SCORE, le=MAX_SCORE, allow_inf_nan=False)]
_SURROGATE = re.compile("[\ud800-\udfff]")


def clean_text(value: str) -> str:
    """`value` made safe (`text/untrusted.py`), lone UTF-16 surrogates replaced by U+FFFD (pairs are joined).

    JSON escapes in model output can put lone surrogates into strings; they cannot be written as
    UTF-8, so one such anchor text would make the whole state unsaveable.
    """
    value = untrusted(value)  # text from pages and models: no control, bidi or zero-width characters
    if not _SURROGATE.search(value):
        return value
    return value.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


#: A string that can always be saved as UTF-8 (see `clean_text`).
CleanText = Annotated[str, AfterValidator(clean_text)]


class PendingURL(BaseModel):
    """A URL waiting in C: where it was found, its anchor text, and how promising the Crawler found it."""

    model_config = ConfigDict(frozen=True)

    url: str = Field(min_length=1, description="Canonical URL.")
    score: _Score = Field(description="Relevance from the Crawler, 0 to 10.")
    anchor_text: CleanText = ""
    found_on: str | None = Field(default=None, description="Canonical URL of the page the link was on.")
    seq: int = Field(ge=0, description="Insertion order: among equal scores and pages the earlier URL comes first.")
    found_at: int = Field(
        default=0,
        ge=0,
        description="Pages of the site visited when it was queued: among equal scores the links of the page read "
        "last come first, as a person goes on down the branch they are on (subject → year → month) before going "
        "back up. One less for a link of a page that offered no promising way on (a dead end: nothing there judged "
        "`PROMISING_SCORE` or more but pages read or known already): it waits behind the links of the page read "
        "before, as a person who found nothing on the topic down a branch goes back up a step.",
    )

    @property
    def pop_key(self) -> tuple[float, int, int]:
        """Sort key of C's order: highest score first, then the page read last, then earliest insertion."""
        return (-self.score, -self.found_at, self.seq)


class CollectedItem(BaseModel):
    """An entry of CP: a relevant item with its description, score and provenance.

    Frozen so that the only way to change an item is `WebContext.add_item`, which keeps CP and DP in step.
    """

    model_config = ConfigDict(frozen=True)

    url: str = Field(min_length=1, description="Canonical URL of the item (its key in CP).")
    title: CleanText
    description: CleanText = ""
    score: _Score = Field(description="Relevance from the Item Collector, 0 to 10.")
    found_on: str = Field(min_length=1, description="Canonical URL of the page where it was first found.")
    site: str = Field(min_length=1, description="The site_url of the Web Context that holds it.")
    seq: int = Field(ge=0, description="Order of first collection.")
    date: CleanText | None = Field(
        default=None,
        pattern=r"^\d{4}(-\d{2}(-\d{2})?)?$",
        description="The date the page showed next to the item (YYYY, YYYY-MM or YYYY-MM-DD), if any.",
    )
    authors: tuple[CleanText, ...] = Field(
        default=(), description="The authors the Collector read next to the item, each shown on that page."
    )
    read_on_own_page: bool = Field(
        default=False,
        description="Whether its date and authors were read on the item's own page rather than on a listing that "
        "links it (a listing's line may show another date, the posting's or the issue's, or a truncated byline).",
    )

    @property
    def rank_key(self) -> tuple[float, int]:
        """Sort key of `WebContext.items`: highest score first, then earliest collected."""
        return (-self.score, self.seq)


class ItemUpdate(StrEnum):
    """What `WebContext.add_item` did."""

    ADDED = "added"
    UPDATED = "updated"
    UNCHANGED = "unchanged"
