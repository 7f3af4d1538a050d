"""What a GET brought back (`RawResponse`), and how a redirect hop is stopped before its request (`HopStop`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field

from research_crawler.pages.page import Determination
from research_crawler.web.html_body import decode_html, media_type

__all__ = ["HopCheck", "HopStop", "RawResponse"]


@dataclass(frozen=True, slots=True)
class RawResponse:
    """The outcome of one GET after redirects and retries: the last response's status, headers and body.

    `determination` is never ``non_html``: judging the content is the caller's business. `body` holds at
    most the byte cap (decompressed); `truncated` says the body was longer. `known_target` is True when a
    redirect led to a URL the caller said it already has (see `HopStop`); then nothing was requested there.
    """

    url: str
    final_url: str
    status: int | None
    determination: Determination
    reason: str = ""
    headers: Mapping[str, str] = field(default_factory=dict)
    body: bytes = b""
    truncated: bool = False
    attempts: int = 0
    elapsed_s: float = 0.0
    known_target: bool = False

    @property
    def ok(self) -> bool:
        """True when a 2xx response arrived and its body was read."""
        return self.determination is Determination.OK

    @property
    def content_type(self) -> str:
        """The Content-Type header as sent ('' when absent)."""
        return self.headers.get("content-type", "")

    @property
    def media_type(self) -> str:
        """The media type without parameters, lower-cased."""
        return media_type(self.content_type)

    def text(self) -> str:
        """The body decoded (BOM, header charset, ``<meta>``, UTF-8 with replacement); never raises."""
        return decode_html(self.body, self.content_type or None)


@dataclass(frozen=True, slots=True)
class HopStop:
    """Why a URL (the first or a redirect target) is not requested.

    `determination` None means the caller already holds that URL's page: the response then has
    `known_target=True` and `final_url` set to it.
    """

    determination: Determination | None
    reason: str = ""


#: Called with (url, hop number, 0 for the first URL) before each request; None lets it go ahead.
HopCheck = Callable[[str, int], Awaitable[HopStop | None]]
