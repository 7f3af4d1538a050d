"""An httpx transport that connects only to addresses the URL guard checked (no DNS rebinding).

Every request's host is pinned through `UrlGuard.pin` and the request is sent to that IP address, with
the Host header and the TLS server name (SNI, also the name the certificate is verified against) kept as
the original host. The connection therefore goes to the address that was checked, whatever the DNS
says a moment later. Each host gets its own connection pool, so a TLS connection made for one name is
never reused for another name on the same address.
"""

from __future__ import annotations

import logging
import ssl
from collections import OrderedDict

# httpx imports these when it opens its first connection: imported here instead, so that a process's first request
# leaves when the politeness schedule lets it begin (40 ms later on an idle machine, up to 0.5 s on a busy one).
import anyio._backends._asyncio  # noqa: F401
import h11  # noqa: F401
import httpcore._async.http11
import httpcore._backends.anyio  # noqa: F401
import httpx

from research_crawler.web.url_guard import UrlGuard

__all__ = ["GuardRefusedError", "PinnedTransport"]

logger = logging.getLogger(__name__)

_MAX_POOLS = 32


class GuardRefusedError(httpx.ConnectError):
    """The URL guard refused the request's host; nothing was sent. Not worth a retry."""


class PinnedTransport(httpx.AsyncBaseTransport):
    """Sends each request to the guard's pinned address for its host.

    `inner` (a test's `httpx.MockTransport`, say) receives every request rewritten to the address; without
    it, each host gets an `httpx.AsyncHTTPTransport` of its own (at most `_MAX_POOLS` are kept open).
    """

    def __init__(self, guard: UrlGuard, *, inner: httpx.AsyncBaseTransport | None = None) -> None:
        self._guard = guard
        self._inner = inner
        self._pools: OrderedDict[str, httpx.AsyncHTTPTransport] = OrderedDict()
        # One TLS context for every pool: making one loads the CA bundle, too slow to do per host.
        self._tls: ssl.SSLContext | None = None if inner is not None else httpx.create_ssl_context(trust_env=False)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        host = request.url.host
        port = request.url.port or (443 if request.url.scheme == "https" else 80)
        pin = await self._guard.pin(host, port)
        if pin.refusal is not None:
            raise GuardRefusedError(pin.refusal, request=request)
        if pin.address is None:
            raise httpx.ConnectError(pin.failure or f"cannot resolve {host}", request=request)
        extensions = dict(request.extensions)
        if request.url.scheme == "https":
            extensions.setdefault("sni_hostname", host)
        # A new request (not the caller's, which keeps its URL for cookies and redirects) aimed at the
        # checked address; its headers, Host included, are the original ones.
        pinned = httpx.Request(
            request.method,
            request.url.copy_with(host=pin.address),
            headers=request.headers,
            stream=request.stream,
            extensions=extensions,
        )
        if self._inner is not None:
            return await _handed_over(self._inner, pinned)
        return await (await self._pool_for(host)).handle_async_request(pinned)

    async def _pool_for(self, host: str) -> httpx.AsyncHTTPTransport:
        pool = self._pools.get(host)
        if pool is not None:
            self._pools.move_to_end(host)
            return pool
        pool = httpx.AsyncHTTPTransport(verify=self._tls or True, trust_env=False)
        self._pools[host] = pool
        if len(self._pools) > _MAX_POOLS:
            _, oldest = self._pools.popitem(last=False)
            await oldest.aclose()
        return pool

    async def aclose(self) -> None:
        pools, self._pools = list(self._pools.values()), OrderedDict()
        for pool in pools:
            await pool.aclose()
        if self._inner is not None:
            await self._inner.aclose()


async def _handed_over(inner: httpx.AsyncBaseTransport, request: httpx.Request) -> httpx.Response:
    """`inner` answers `request` (a test's `httpx.MockTransport`, which writes nothing): its ``trace`` extension is told
    the headers were written as it is handed over, as httpcore would tell it, so the request is paced all the same."""
    trace = request.extensions.get("trace")
    if trace is None or isinstance(inner, httpx.AsyncHTTPTransport):  # httpcore traces its own writes
        return await inner.handle_async_request(request)
    await trace("http11.send_request_headers.started", {"request": request})
    try:
        response = await inner.handle_async_request(request)
    except BaseException as exc:
        await trace("http11.send_request_headers.failed", {"exception": exc})
        raise
    await trace("http11.send_request_headers.complete", {"return_value": None})
    return response
