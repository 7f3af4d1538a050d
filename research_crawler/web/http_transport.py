"""Our HTTP transport: GET (and a form's POST) over httpx, streamed under a size cap, retried politely, redirects
hop by hop.

Why it is ours and not Crawl4AI's: its AsyncHTTPCrawlerStrategy (0.9.5) reads whole bodies with no size cap
(``response.read()``), follows redirects without letting us check each hop, raises on non-2xx and so loses
Retry-After, and has no retries. Here bodies are streamed under the byte cap, with ``follow_redirects=False``: each
redirect hop is canonicalised and checked (robots.txt, allowed hosts, http(s) only, already fetched) *before* it is
requested, which neither Crawl4AI's HTTP strategy nor httpx's own redirect following can do. A POST that is
redirected with 301, 302 or 303 goes on as a GET, as browsers do; 307 and 308 repeat the POST. Cookies travel
only in the jar the caller gives (the site's, `cookie_jars.py`): the client's own jar keeps nothing.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from urllib.parse import urljoin

import httpx

from research_crawler.config.settings import FetchSettings
from research_crawler.context.urls import canonicalize_url
from research_crawler.errors import InvalidURLError
from research_crawler.pages.page import Determination
from research_crawler.web.content_encoding import ACCEPT_ENCODING, BoundedDecoder, ContentDecodingError
from research_crawler.web.cookie_jars import refusing_jar
from research_crawler.web.fetch_progress import FetchProgress
from research_crawler.web.html_body import media_type
from research_crawler.web.pacing import SendPacing
from research_crawler.web.pinned_transport import GuardRefusedError, PinnedTransport
from research_crawler.web.politeness import HostPoliteness, politeness_key
from research_crawler.web.raw_response import HopCheck, RawResponse
from research_crawler.web.retries import retry_politely
from research_crawler.web.url_guard import UrlGuard

__all__ = ["REDIRECT_STATUSES", "ConditionalHeaders", "HttpTransport"]

logger = logging.getLogger(__name__)

REDIRECT_STATUSES: frozenset[int] = frozenset({301, 302, 303, 307, 308})
#: Redirects after which a POST goes on as a GET without its body (what browsers do).
_REDIRECTS_TO_GET = frozenset({301, 302, 303})
_FORM_TYPE = "application/x-www-form-urlencoded"
_ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5"
#: The conditional request headers (If-None-Match, If-Modified-Since) to send for a URL; {} for none.
ConditionalHeaders = Callable[[str], Awaitable[Mapping[str, str]]]
#: Where the response hook keeps a redirect's Location while httpx looks at the response.
_SET_ASIDE_LOCATION = "x-research-crawler-location"


@dataclass(frozen=True, slots=True)
class _Exchange:
    """One request's result; `failure` describes a transport failure (then `status` is None)."""

    status: int | None
    headers: httpx.Headers
    body: bytes = b""
    truncated: bool = False
    failure: str = ""
    failure_kind: Determination | None = None
    retryable: bool = False

    @property
    def summary(self) -> str:
        return self.failure or f"HTTP {self.status}"


class HttpTransport:
    """GETs pages and documents with the politeness, limits and retry rules of `FetchSettings`.

    Every connection goes through `guard` (a `PinnedTransport`): only to the address the URL guard checked
    for the host. Without a guard, one is made from the settings' allowlist.
    """

    def __init__(
        self,
        settings: FetchSettings,
        *,
        politeness: HostPoliteness,
        transport: httpx.AsyncBaseTransport | None = None,
        guard: UrlGuard | None = None,
    ) -> None:
        self._settings = settings
        self._politeness = politeness
        self._guard = guard or UrlGuard(
            allowed_hosts=settings.allowed_hosts,
            resolve_timeout_s=settings.connect_timeout_s,
            pin_ttl_s=settings.dns_pin_ttl_s,
        )
        self._client = httpx.AsyncClient(
            headers={
                "User-Agent": settings.user_agent,
                "Accept": _ACCEPT,
                "Accept-Encoding": ACCEPT_ENCODING,
            },
            timeout=httpx.Timeout(
                connect=settings.connect_timeout_s,
                read=settings.read_timeout_s,
                write=settings.read_timeout_s,
                pool=settings.connect_timeout_s,
            ),
            follow_redirects=False,
            cookies=refusing_jar(),
            event_hooks={"response": [_set_location_aside]},
            # Proxies and .netrc come from the environment only through settings.py, never behind its back.
            trust_env=False,
            transport=PinnedTransport(self._guard, inner=transport),
        )

    async def aclose(self) -> None:
        """Close the connection pool."""
        await self._client.aclose()

    async def get(
        self,
        url: str,
        *,
        max_bytes: int,
        max_redirects: int,
        allow_truncated: bool = False,
        check_hop: HopCheck | None = None,
        progress: FetchProgress | None = None,
        conditional: ConditionalHeaders | None = None,
        form_body: bytes | None = None,
        cookies: httpx.Cookies | None = None,
        cut_types: frozenset[str] = frozenset(),
    ) -> RawResponse:
        """GET canonical `url` (POST `form_body` to it when given), following up to `max_redirects` redirects;
        never raises for web outcomes.

        A body longer than `max_bytes` (after decompression) is ``too_large`` unless `allow_truncated`, or its media
        type is one of `cut_types`, which keeps its first `max_bytes` (robots.txt; sitemaps and feeds). `check_hop`
        vets every URL before its request; `conditional` gives each one's conditional headers (a 304 then ends the
        GET with status 304, no body).
        `cookies` (the site's jar) are sent with each request and take what each response sets.
        """
        started = time.monotonic()
        progress = progress or FetchProgress()
        current = url
        body = form_body
        for hop in range(max_redirects + 1):
            if check_hop is not None:
                stop = await check_hop(current, hop)
                if stop is not None:
                    return RawResponse(
                        url=url,
                        final_url=current,
                        status=None,
                        determination=stop.determination or Determination.OK,
                        reason=stop.reason,
                        attempts=progress.attempts,
                        elapsed_s=time.monotonic() - started,
                        known_target=stop.determination is None,
                    )
            extra = dict(await conditional(current)) if conditional is not None and body is None else {}
            exchange, give_up = await self._exchange(
                current,
                max_bytes=max_bytes,
                allow_truncated=allow_truncated,
                cut_types=cut_types,
                progress=progress,
                headers=extra,
                body=body,
                cookies=cookies,
            )
            location = exchange.headers.get("location")
            if exchange.status in REDIRECT_STATUSES and location:
                refusal = self._guard.static_refusal(urljoin(current, location.strip()))
                if refusal is not None:
                    return self._refused(
                        url, current, exchange, progress, started, refusal, determination=Determination.REFUSED
                    )
                try:
                    target = canonicalize_url(location, current, max_length=self._settings.max_url_length)
                except InvalidURLError as exc:
                    return self._refused(url, current, exchange, progress, started, f"redirect refused: {exc}")
                if hop == max_redirects:
                    return self._refused(
                        url,
                        current,
                        exchange,
                        progress,
                        started,
                        f"more than {max_redirects} redirects (the next one goes to {target})",
                    )
                logger.debug("redirect %s -> %s (HTTP %s)", current, target, exchange.status)
                current = target
                if exchange.status in _REDIRECTS_TO_GET:
                    body = None
                continue
            return self._response(
                url,
                current,
                exchange,
                give_up,
                progress,
                started,
                max_bytes=max_bytes,
                allow_truncated=allow_truncated or media_type(exchange.headers.get("content-type")) in cut_types,
            )
        raise AssertionError("unreachable: the redirect loop always returns")

    def _refused(
        self,
        url: str,
        current: str,
        exchange: _Exchange,
        progress: FetchProgress,
        started: float,
        reason: str,
        *,
        determination: Determination = Determination.HTTP_ERROR,
    ) -> RawResponse:
        return RawResponse(
            url=url,
            final_url=current,
            status=exchange.status,
            determination=determination,
            reason=reason,
            headers=exchange.headers,
            attempts=progress.attempts,
            elapsed_s=time.monotonic() - started,
        )

    def _response(
        self,
        url: str,
        final_url: str,
        exchange: _Exchange,
        give_up: str,
        progress: FetchProgress,
        started: float,
        *,
        max_bytes: int,
        allow_truncated: bool,
    ) -> RawResponse:
        status = exchange.status
        reason = _with_give_up(exchange.summary, give_up)
        if exchange.failure_kind is not None:
            determination = exchange.failure_kind
        elif status is not None and 200 <= status < 300:
            if exchange.truncated and not allow_truncated:
                determination = Determination.TOO_LARGE
                reason = f"the body is larger than {max_bytes} bytes (after decompression)"
            else:
                determination, reason = Determination.OK, ""
        elif status in (404, 410):
            determination = Determination.NOT_FOUND
        elif status in REDIRECT_STATUSES:
            determination, reason = Determination.HTTP_ERROR, f"HTTP {status} without a Location header"
        else:
            determination = Determination.HTTP_ERROR
        return RawResponse(
            url=url,
            final_url=final_url,
            status=status,
            determination=determination,
            reason=reason,
            headers=exchange.headers,
            body=exchange.body if determination is Determination.OK else b"",
            truncated=exchange.truncated,
            attempts=progress.attempts,
            elapsed_s=time.monotonic() - started,
        )

    async def _exchange(
        self,
        url: str,
        *,
        max_bytes: int,
        allow_truncated: bool,
        progress: FetchProgress,
        headers: dict[str, str],
        body: bytes | None = None,
        cookies: httpx.Cookies | None = None,
        cut_types: frozenset[str] = frozenset(),
    ) -> tuple[_Exchange, str]:
        """One URL with retries: the last exchange, and why retrying stopped ('' when it was not needed)."""
        host = politeness_key(url)

        async def send() -> _Exchange:
            # The slot books the turn and waits for it; the request begins on the schedule only as its headers
            # are written (`SendPacing`), so each attempt and each redirect hop takes its own turn on the wire.
            async with self._politeness.slot(host, begins_here=False):
                progress.start_clock()
                progress.attempts += 1
                progress.url = url
                exchange = await self._once(
                    url,
                    max_bytes=max_bytes,
                    allow_truncated=allow_truncated,
                    extra_headers=headers,
                    pacing=SendPacing(self._politeness, host),
                    body=body,
                    cookies=cookies,
                    cut_types=cut_types,
                )
            progress.status = exchange.status
            return exchange

        return await retry_politely(
            send,
            url=url,
            settings=self._settings,
            time_left=progress.time_left,
            defer=lambda wait_s: self._politeness.defer(host, wait_s),
        )

    async def _once(
        self,
        url: str,
        *,
        max_bytes: int,
        allow_truncated: bool,
        extra_headers: dict[str, str] | None,
        pacing: SendPacing,
        body: bytes | None = None,
        cookies: httpx.Cookies | None = None,
        cut_types: frozenset[str] = frozenset(),
    ) -> _Exchange:
        empty = httpx.Headers()
        request_headers = dict(extra_headers or {})
        if body is not None:
            request_headers["Content-Type"] = _FORM_TYPE
        request = self._client.build_request(
            "GET" if body is None else "POST",
            url,
            headers=request_headers or None,
            content=body,
            extensions=pacing.extensions(),
        )
        if cookies is not None:
            cookies.set_cookie_header(request)
        try:
            response = await self._client.send(request, stream=True)
            async with contextlib.aclosing(response):
                if cookies is not None:
                    cookies.extract_cookies(response)
                headers = _restore_location(response.headers)
                status = response.status_code
                if not 200 <= status < 300:
                    return _Exchange(status, headers)
                declared = _content_length(headers)
                cut = allow_truncated or media_type(headers.get("content-type")) in cut_types
                if declared is not None and declared > max_bytes and not cut:
                    return _Exchange(
                        status,
                        headers,
                        failure=f"Content-Length of {declared} bytes is over the {max_bytes}-byte limit",
                        failure_kind=Determination.TOO_LARGE,
                    )
                decoder = BoundedDecoder(headers.get("content-encoding"), limit=max_bytes)
                parts: list[bytes] = []
                async for raw in response.aiter_raw():
                    parts.append(decoder.feed(raw))
                    if decoder.over_limit:
                        break
                else:
                    parts.append(decoder.finish())
                body = b"".join(parts)
                return _Exchange(status, headers, body[:max_bytes], truncated=decoder.over_limit)
        except ContentDecodingError as exc:
            return _Exchange(None, empty, failure=str(exc), failure_kind=Determination.NETWORK_ERROR)
        except GuardRefusedError as exc:  # nothing was sent; a retry would be refused again
            return _Exchange(None, empty, failure=str(exc), failure_kind=Determination.REFUSED)
        except httpx.TimeoutException as exc:
            return _Exchange(None, empty, failure=_describe(exc), failure_kind=Determination.TIMEOUT, retryable=True)
        except httpx.TransportError as exc:
            return _Exchange(
                None, empty, failure=_describe(exc), failure_kind=Determination.NETWORK_ERROR, retryable=True
            )


async def _set_location_aside(response: httpx.Response) -> None:
    """Hide Location from httpx, which builds (and may raise on) a next request even when not following.

    httpx 0.28 parses every redirect's Location into a request even with ``follow_redirects=False`` and
    raises on values such as ``data:…`` before we see the response; we follow and vet hops ourselves.
    """
    location = response.headers.get("location")
    if location is not None:
        del response.headers["location"]
        response.headers[_SET_ASIDE_LOCATION] = location


def _restore_location(headers: httpx.Headers) -> httpx.Headers:
    if _SET_ASIDE_LOCATION not in headers:
        return headers
    restored = headers.copy()
    restored["location"] = restored.pop(_SET_ASIDE_LOCATION)
    return restored


def _content_length(headers: httpx.Headers) -> int | None:
    try:
        value = int(headers.get("content-length", ""))
    except ValueError:
        return None
    return value if value >= 0 else None


_TIMEOUT_NAMES = {
    httpx.ConnectTimeout: "connect timeout",
    httpx.ReadTimeout: "read timeout",
    httpx.WriteTimeout: "write timeout",
    httpx.PoolTimeout: "connection pool timeout",
}


def _describe(exc: httpx.TransportError) -> str:
    """A short plain description of a transport failure, e.g. 'connection failed: [Errno 111] …'."""
    for kind, name in _TIMEOUT_NAMES.items():
        if isinstance(exc, kind):
            return name
    detail = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else type(exc).__name__
    if isinstance(exc, httpx.ConnectError):
        return f"connection failed: {detail}"
    if isinstance(exc, httpx.RemoteProtocolError):
        return f"broken response: {detail}"
    if isinstance(exc, httpx.ReadError):
        return f"connection lost while reading: {detail}"
    return f"{type(exc).__name__}: {detail}"


def _with_give_up(summary: str, give_up: str) -> str:
    if not give_up:
        return summary
    return f"{summary} {give_up}" if give_up.startswith("after") else f"{summary}; {give_up}"
