"""Who may talk to the web app, and how: an ASGI middleware in front of every route.

- **Host**: only the names the server answers to (loopback names, the bound address) — a page on another site
  cannot reach it through DNS rebinding. Starlette's `TrustedHostMiddleware` reads the Host header (strictly:
  ``evil@127.0.0.1`` or ``127.0.0.1#x`` is no loopback name); the refusal says which host it was.
- **Token** (when `serve.token` is set; required off loopback): ``Authorization: Bearer TOKEN`` or the cookie the
  page gets once from ``/?token=TOKEN``; compared in constant time.
- **Cross-origin writes**: a POST whose Origin (or Sec-Fetch-Site) is another site is refused — it could start
  crawls; with the token cookie, a POST also needs the CSRF header matching its cookie (double submit). Ours, not a
  library's: starlette-csrf 3.0.0 never replaces a cookie it cannot verify (a token change blocks every POST) and
  asgi-csrf 0.11 refuses a JSON POST carrying any cookie at all (another local app's: cookies ignore ports); neither
  checks Origin, and asgi-cross-origin-protection (0.1.1, its first year) has no track record yet.
- **Size**: a body over `serve.max_body_bytes` is refused (413), as is a body of unknown length (411). The bytes
  are counted as they arrive, whatever Content-Length announced (a chunked body behind ``Content-Length: 10``).
- **Headers**: a Content-Security-Policy that lets only the app's own script run, no framing, no sniffing.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qs, quote, urlencode

from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CSRF_COOKIE", "CSRF_HEADER", "TOKEN_COOKIE", "AccessGuard", "AccessRules", "is_loopback"]

TOKEN_COOKIE = "rc_token"
CSRF_COOKIE = "rc_csrf"
CSRF_HEADER = "x-csrf-token"
_SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
_LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)


def is_loopback(host: str) -> bool:
    """True for the addresses only this machine can reach."""
    name = host.strip("[]").lower()
    return name in _LOOPBACK_NAMES or name.startswith("127.")


@dataclass(frozen=True)
class AccessRules:
    """What the guard enforces: the host names served, the token (None: none needed), the largest body."""

    hosts: frozenset[str] | None  # None: any (off loopback, where the token guards)
    token: str | None
    max_body_bytes: int

    @classmethod
    def for_address(cls, host: str, *, token: str | None, max_body_bytes: int, extra_hosts: Iterable[str] = ()) -> (
        AccessRules
    ):
        """Loopback: only loopback names (and `extra_hosts`) are served, against DNS rebinding. Elsewhere the
        token is required (the caller checks) and guards instead: the machine's names are not known here."""
        if not is_loopback(host):
            return cls(hosts=None, token=token, max_body_bytes=max_body_bytes)
        names = {*_LOOPBACK_NAMES, host, *extra_hosts}
        hosts = frozenset(_host_header_name(name) for name in names)
        return cls(hosts=hosts, token=token, max_body_bytes=max_body_bytes)


def _host_header_name(name: str) -> str:
    """How a Host header spells `name`: an IPv6 address in brackets (``[::1]``), lower case."""
    bare = name.strip("[]").lower()
    return f"[{bare}]" if ":" in bare else bare


class _BodyTooLarge(Exception):
    """The request's body passed the limit while it arrived."""


class AccessGuard:
    """The ASGI middleware enforcing `AccessRules` (see the module docstring)."""

    def __init__(self, app: ASGIApp, *, rules: AccessRules) -> None:
        self.app = app
        self.rules = rules
        #: Starlette's check of the Host header; it calls `_host_trusted` when the host is one of ours.
        self._host_check = (
            TrustedHostMiddleware(_host_trusted, allowed_hosts=sorted(rules.hosts), www_redirect=False)
            if rules.hosts is not None
            else None
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope["headers"]}
        refusal = await self._host_refusal(scope, headers) or self._refusal(scope, headers)
        if refusal is None and _has_body(headers):
            try:
                receive = await _read_body(receive, limit=self.rules.max_body_bytes)
            except _BodyTooLarge:
                refusal = 413, f"the request body is larger than {self.rules.max_body_bytes} bytes", []
        if refusal is not None:
            status, message, extra = refusal
            await _send_plain(send, status, message, scope, extra)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *_security_headers(scope)]
            await send(message)

        await self.app(scope, receive, with_headers)

    async def _host_refusal(
        self, scope: Scope, headers: dict[str, str]
    ) -> tuple[int, str, list[tuple[bytes, bytes]]] | None:
        if self._host_check is None:
            return None
        heard: list[str] = []

        async def hear(message: Message) -> None:
            heard.append(message["type"])

        await self._host_check(scope, _no_body, hear)
        if heard == [_HOST_TRUSTED]:
            return None
        host = headers.get("host", "")
        return 400, f"this server does not answer to the host {host[:100]!r}", []

    def _refusal(self, scope: Scope, headers: dict[str, str]) -> tuple[int, str, list[tuple[bytes, bytes]]] | None:
        method = scope["method"]
        cookies = _cookies(headers)
        if self.rules.token is not None:
            granted = self._token_refusal(scope, headers, cookies)
            if granted is not None:
                return granted
        if method not in _SAFE_METHODS:
            if why := _cross_site(headers, scheme=scope.get("scheme", "http")):
                return 403, why, []
            if self.rules.token is not None and not _bearer(headers) and not _csrf_ok(headers, cookies):
                return 403, "missing or wrong CSRF token: reload the page and try again", []
            length = headers.get("content-length")
            if length is None and headers.get("transfer-encoding"):
                return 411, "send the request body with a Content-Length", []
            if length is not None and (not length.isdigit() or int(length) > self.rules.max_body_bytes):
                return 413, f"the request body is larger than {self.rules.max_body_bytes} bytes", []
        return None

    def _token_refusal(
        self, scope: Scope, headers: dict[str, str], cookies: dict[str, str]
    ) -> tuple[int, str, list[tuple[bytes, bytes]]] | None:
        token = self.rules.token or ""
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        given = query.get("token", [""])[0]
        if scope["method"] == "GET" and given and hmac.compare_digest(given.encode(), token.encode()):
            rest = {key: values for key, values in query.items() if key != "token"}
            # One leading slash: "//evil.example/" would send the browser to another host (an open redirect).
            target = "/" + quote(scope["path"].lstrip("/")) + (f"?{urlencode(rest, doseq=True)}" if rest else "")
            cookie_flags = "Path=/; SameSite=Strict"
            return 303, "signed in", [
                (b"location", target.encode("ascii")),
                (b"set-cookie", f"{TOKEN_COOKIE}={_cookie_value(token)}; HttpOnly; {cookie_flags}".encode("ascii")),
                (b"set-cookie", f"{CSRF_COOKIE}={secrets.token_urlsafe(24)}; {cookie_flags}".encode("latin-1")),
            ]
        bearer, cookie = _bearer(headers), cookies.get(TOKEN_COOKIE, "")
        if bearer and hmac.compare_digest(bearer.encode(), token.encode()):
            return None
        if cookie and hmac.compare_digest(cookie.encode(), _cookie_value(token).encode()):
            return None
        return 401, "this server needs its access token: open the address serve printed (it ends in ?token=…)", []


_HOST_TRUSTED = "research_crawler.host_trusted"


async def _host_trusted(scope: Scope, receive: Receive, send: Send) -> None:
    """What TrustedHostMiddleware calls for a host it accepts: it says so, and nothing else."""
    await send({"type": _HOST_TRUSTED})


async def _no_body() -> Message:
    return {"type": "http.request", "body": b"", "more_body": False}


def _has_body(headers: dict[str, str]) -> bool:
    return headers.get("content-length", "0") != "0" or "transfer-encoding" in headers


async def _read_body(receive: Receive, *, limit: int) -> Receive:
    """Read the request's body as it arrives, counting every byte (never trusting Content-Length); raises
    `_BodyTooLarge` as soon as it passes `limit`, reading no more. Returns the `receive` that replays it."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":  # the client went away: the app hears it
            replay: list[Message] = [message]
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise _BodyTooLarge
        chunks.append(chunk)
        if not message.get("more_body", False):
            replay = [{"type": "http.request", "body": b"".join(chunks), "more_body": False}]
            break

    async def replaying() -> Message:
        return replay.pop(0) if replay else await receive()

    return replaying


def _cookie_value(token: str) -> str:
    """What the sign-in cookie holds: derived from the token (so the token itself, whatever its characters, never
    sits in a cookie), and useless for anything but this server."""
    return hmac.new(token.encode(), b"research-crawler serve cookie", hashlib.sha256).hexdigest()


def _bearer(headers: dict[str, str]) -> str:
    scheme, _, value = headers.get("authorization", "").partition(" ")
    return value.strip() if scheme.lower() == "bearer" else ""


def _cookies(headers: dict[str, str]) -> dict[str, str]:
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(headers.get("cookie", ""))
    except Exception:  # a malformed Cookie header counts as none
        return {}
    return {key: morsel.value for key, morsel in jar.items()}


def _csrf_ok(headers: dict[str, str], cookies: dict[str, str]) -> bool:
    expected, given = cookies.get(CSRF_COOKIE, ""), headers.get(CSRF_HEADER, "")
    return bool(expected) and hmac.compare_digest(expected.encode(), given.encode())


def _cross_site(headers: dict[str, str], *, scheme: str) -> str | None:
    """Why a state-changing request comes from another site, or None when it does not (or says nothing: a
    script or curl, which no web page can make a browser imitate)."""
    origin = headers.get("origin")
    if origin is not None:
        own = f"{scheme}://{headers.get('host', '')}".lower()
        if origin.lower() != own:
            return f"cross-origin request refused (Origin {origin[:100]!r} is not {own!r})"
        return None
    fetch_site = headers.get("sec-fetch-site")
    if fetch_site is not None and fetch_site not in ("same-origin", "none"):
        return f"cross-site request refused (Sec-Fetch-Site: {fetch_site[:40]})"
    return None


def _security_headers(scope: Scope) -> list[tuple[bytes, bytes]]:
    found: list[tuple[bytes, bytes]] = [
        (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"x-frame-options", b"DENY"),
        (b"referrer-policy", b"no-referrer"),
        (b"cross-origin-opener-policy", b"same-origin"),
    ]
    if str(scope.get("path", "")).startswith("/api/"):
        found.append((b"cache-control", b"no-store"))
    return found


async def _send_plain(
    send: Send, status: int, message: str, scope: Scope, extra: list[tuple[bytes, bytes]]
) -> None:
    """A refusal: JSON ({"detail": …}) for the API, plain text for pages."""
    if str(scope.get("path", "")).startswith("/api/"):
        body, media = json.dumps({"detail": message}).encode(), b"application/json"
    else:
        body, media = f"{message}\n".encode(), b"text/plain; charset=utf-8"
    headers: list[Any] = [
        (b"content-type", media),
        (b"content-length", str(len(body)).encode()),
        *extra,
        *_security_headers(scope),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
