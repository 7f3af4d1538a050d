"""Who may talk to the web app, and how: an ASGI middleware in front of every route.

- **Host**: only the names the server answers to (loopback names, the bound address) — a page on another site
  cannot reach it through DNS rebinding.
- **Token** (when `serve.token` is set; required off loopback): ``Authorization: Bearer TOKEN`` or the cookie the
  page gets once from ``/?token=TOKEN``; compared in constant time.
- **Cross-origin writes**: a POST whose Origin (or Sec-Fetch-Site) is another site is refused — it could start
  crawls; with the token cookie, a POST also needs the CSRF header matching its cookie (double submit).
- **Size**: a body over `serve.max_body_bytes` is refused (413), as is a body of unknown length (411).
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
from urllib.parse import parse_qs, quote, urlencode, urlsplit

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
        names = {*_LOOPBACK_NAMES, host.strip("[]").lower(), *(name.lower() for name in extra_hosts)}
        return cls(hosts=frozenset(names), token=token, max_body_bytes=max_body_bytes)


class AccessGuard:
    """The ASGI middleware enforcing `AccessRules` (see the module docstring)."""

    def __init__(self, app: ASGIApp, *, rules: AccessRules) -> None:
        self.app = app
        self.rules = rules

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope["headers"]}
        refusal = self._refusal(scope, headers)
        if refusal is not None:
            status, message, extra = refusal
            await _send_plain(send, status, message, scope, extra)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *_security_headers(scope)]
            await send(message)

        await self.app(scope, receive, with_headers)

    def _refusal(self, scope: Scope, headers: dict[str, str]) -> tuple[int, str, list[tuple[bytes, bytes]]] | None:
        host = headers.get("host", "")
        name = (urlsplit(f"//{host}").hostname or "") if host else ""
        if self.rules.hosts is not None and name.lower() not in self.rules.hosts:
            return 400, f"this server does not answer to the host {host[:100]!r}", []
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
            target = quote(scope["path"]) + (f"?{urlencode(rest, doseq=True)}" if rest else "")
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
