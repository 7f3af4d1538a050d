"""When the evaluation takes two addresses for one page, and an address for a page of a site.

The evaluation judges what the crawler reports against the testbed's known answers, so it must not tell
addresses apart with the crawler's own URL code (research_crawler.context.urls): a fault there that made two
pages one, or one page two, would then be made on both sides of the comparison and never show in a figure.
This module is the instrument's own reading, kept deliberately plain and built only on the standard library and
w3lib's canonical form: scheme and host in lower case, the scheme's default port left out, the fragment left out,
the query's arguments sorted and percent-escapes written alike. It removes nothing else: an address that still
carries a tracking or session parameter names another page here, so a report that kept one is not credited.
"""

from __future__ import annotations

from urllib.parse import urljoin, urlsplit, urlunsplit

from w3lib.url import canonicalize_url

__all__ = ["address_key", "page_address", "same_site"]

_DEFAULT_PORTS = {"http": 80, "https": 443}


def page_address(url: str, base: str | None = None) -> str | None:
    """The form of `url` (resolved against `base` when relative) under which the evaluation compares pages.

    None when it is no absolute http(s) address with a host.
    """
    try:
        parts = urlsplit(urljoin(base, url.strip()) if base else url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").rstrip(".").lower()
    if scheme not in _DEFAULT_PORTS or not host:
        return None
    netloc = f"[{host}]" if ":" in host else host
    if port is not None and port != _DEFAULT_PORTS[scheme]:
        netloc = f"{netloc}:{port}"
    return canonicalize_url(urlunsplit((scheme, netloc, parts.path or "/", parts.query, "")), keep_fragments=False)


def address_key(url: str) -> str:
    """`page_address(url)`, or `url` itself when it is no address (so it matches nothing but itself)."""
    return page_address(url) or url


def same_site(url: str, site_url: str) -> bool:
    """Whether `url` is on the site at `site_url`: the same host and port, or a subdomain (``www.`` ignored)."""
    host, site = _host(url), _host(site_url)
    return bool(host) and (host == site or host.endswith("." + site))


def _host(url: str) -> str:
    address = page_address(url)
    if address is None:
        return ""
    netloc = urlsplit(address).netloc
    return netloc.removeprefix("www.")
