"""A fetched page as the agents see it: determination, Markdown with numbered links, and the link table."""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from research_crawler.text.untrusted import UntrustedText

__all__ = ["BlockedBy", "Determination", "Link", "Page", "RenderKind"]

RenderKind = Literal["http", "browser", "file", "replay"]
BlockedBy = Literal["challenge", "soft_404", "login_wall", "paywall", "busy", "consent"]


class Determination(StrEnum):
    """What happened when a page was fetched. Only `ok` pages carry content an agent may use."""

    OK = "ok"
    NOT_FOUND = "not_found"
    BLOCKED_BY_ROBOTS = "blocked_by_robots"
    BLOCKED = "blocked"  # answered, but with a bot challenge or a soft 404 instead of the page (never citable)
    TIMEOUT = "timeout"
    TOO_LARGE = "too_large"
    NON_HTML = "non_html"
    HTTP_ERROR = "http_error"
    NETWORK_ERROR = "network_error"
    REFUSED = "refused"  # not fetched on purpose: the URL guard, or a replay that has no recording of it


class Link(BaseModel):
    """One numbered link of a page: the number an LLM uses, the canonical URL it stands for."""

    model_config = ConfigDict(frozen=True)

    id: int = Field(ge=1, description="The number shown as [id] in the page's Markdown.")
    url: str = Field(description="Canonical absolute URL.")
    text: UntrustedText = Field(
        description="Anchor text (or title/alt text when the anchor has none); of a link the page shows more than "
        "once, its most telling anchor: in the content rather than the menu, a name rather than 'More' or 'PDF'."
    )
    count: UntrustedText = Field(
        default="",
        description="The count the page shows in brackets right after that anchor, without them ('12' of 'Value "
        "Theory (12)', '0 items'): how many entries the linked page holds. Empty when none is shown.",
    )
    same_site: bool = Field(description="Whether the link stays on the page's site.")
    context: UntrustedText = Field(default="", description="A little of the text around the link, for link-only views.")
    names_entry: bool = Field(
        default=False,
        description="The link names only what it opens ('Abstract', 'PDF') of the entry its context is: a citation "
        "written before its links.",
    )
    result_title: int | None = Field(
        default=None,
        description="The [id] of the title link of the listing's result this link sits in ('PDF', 'Abstract', an "
        "e-print beside a result's title): the work this link belongs to. None when it sits in no result or titles "
        "it (`pages/listing_results.py`).",
    )


class Page(BaseModel):
    """A page after fetching: what it is, whether it is usable, and how an LLM sees it."""

    url: str = Field(description="The canonical URL that was asked for.")
    final_url: str = Field(description="The canonical URL after redirects.")
    status: int | None = Field(default=None, description="HTTP status of the last response, None when none came.")
    determination: Determination
    reason: UntrustedText = Field(default="", description="A human-readable detail of the determination.")
    blocked_by: BlockedBy | None = Field(
        default=None,
        description="What answered in the page's place when it is `blocked`: a robot check (challenge), a soft 404, a "
        "sign-in (login_wall), a paywall, a licensed site's notice that all its seats are in use (busy), or a consent "
        "notice that could not be passed (consent).",
    )
    title: UntrustedText = ""
    markdown: UntrustedText = Field(
        default="", description="The page as Markdown, every link shown as [n] anchor text."
    )
    links: list[Link] = Field(default_factory=list)
    html: str = Field(
        default="", exclude=True, repr=False, description="The decoded HTML (kept for metadata and search)."
    )
    content_type: str = ""
    render: RenderKind = "http"
    fetched_at: datetime = Field(default_factory=lambda: datetime.now(UTC))
    elapsed_s: float = 0.0
    attempts: int = 0
    revisited: bool = Field(
        False,
        description="Answered 304 Not Modified to a conditional request: this is the copy kept from an earlier run "
        "(fetch.revisit_cache), nothing was downloaded.",
    )

    @property
    def ok(self) -> bool:
        """True when the page was fetched and holds HTML an agent may read."""
        return self.determination is Determination.OK

    def link(self, link_id: int) -> Link | None:
        """The link numbered `link_id` on this page, or None when the page has no such number."""
        if 1 <= link_id <= len(self.links) and self.links[link_id - 1].id == link_id:
            return self.links[link_id - 1]
        return next((link for link in self.links if link.id == link_id), None)

    def link_for_url(self, url: str) -> Link | None:
        """The link of this page that points at canonical `url`, or None."""
        return next((link for link in self.links if link.url == url), None)
