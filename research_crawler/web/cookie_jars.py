"""Cookies, one jar per site: what a site sets (the consent a cookie notice asked for, a session) is sent back to
that site for the rest of the run and never to another, and nothing outlives the run.

The HTTP client's own jar accepts nothing (`refusing_jar`), so a cookie can only travel in a site's jar, which
the transport reads before each request and fills from each response, redirect hops included. The jars live in
memory with the fetcher that owns them and end with it. A browser render gets its site's cookies as it starts,
and what the page set comes back into the same jar (`browser_cookies`, `keep_browser_cookies`).
"""

from __future__ import annotations

import time
from http.cookiejar import Cookie, CookieJar, DefaultCookiePolicy
from typing import Any

import httpx

from research_crawler.context.urls import host_of, is_same_site

__all__ = ["SiteCookies", "browser_cookies", "keep_browser_cookies", "refusing_jar"]


def refusing_jar() -> CookieJar:
    """A cookie jar that stores nothing (the HTTP client's own, so no cookie crosses from one site to another)."""
    return CookieJar(policy=DefaultCookiePolicy(allowed_domains=[]))


class SiteCookies:
    """The run's cookie jars, one per site: a site is its start URL's host and port (``www.`` ignored) with its
    subdomains; a request to any other host uses that host's own jar, whatever site it is made for."""

    def __init__(self) -> None:
        self._jars: dict[str, httpx.Cookies] = {}

    def jar(self, url: str, site_url: str | None = None) -> httpx.Cookies:
        """The jar a request of `url`, made while exploring `site_url`, uses (made empty on first use)."""
        key = host_of(site_url) if site_url and is_same_site(url, site_url) else host_of(url)
        jar = self._jars.get(key)
        if jar is None:
            jar = self._jars[key] = httpx.Cookies()
        return jar

    def sites(self) -> list[str]:
        """The sites that have a jar (host[:port])."""
        return sorted(self._jars)

    def clear(self) -> None:
        """Forget every cookie (the run is over)."""
        self._jars.clear()


def browser_cookies(jar: httpx.Cookies) -> list[dict[str, Any]]:
    """The jar's unexpired cookies in the form a browser context takes them (Playwright's ``add_cookies``)."""
    now = time.time()
    cookies: list[dict[str, Any]] = []
    for cookie in jar.jar:
        if cookie.expires is not None and cookie.expires <= now:
            continue
        entry: dict[str, Any] = {
            "name": cookie.name,
            "value": cookie.value or "",
            "domain": cookie.domain,
            "path": cookie.path or "/",
            "secure": bool(cookie.secure),
        }
        if cookie.expires is not None:
            entry["expires"] = float(cookie.expires)
        cookies.append(entry)
    return cookies


def keep_browser_cookies(jar: httpx.Cookies, cookies: list[dict[str, Any]]) -> None:
    """Put the cookies a browser context holds (Playwright's ``cookies()``) into the site's jar."""
    for entry in cookies:
        name, domain = entry.get("name"), entry.get("domain")
        if not isinstance(name, str) or not isinstance(domain, str) or not domain:
            continue
        expires = entry.get("expires")
        jar.jar.set_cookie(
            Cookie(
                version=0,
                name=name,
                value=str(entry.get("value", "")),
                port=None,
                port_specified=False,
                domain=domain,
                domain_specified=domain.startswith("."),
                domain_initial_dot=domain.startswith("."),
                path=str(entry.get("path") or "/"),
                path_specified=True,
                secure=bool(entry.get("secure")),
                expires=int(expires) if isinstance(expires, int | float) and expires > 0 else None,
                discard=not (isinstance(expires, int | float) and expires > 0),
                comment=None,
                comment_url=None,
                rest={},
            )
        )
