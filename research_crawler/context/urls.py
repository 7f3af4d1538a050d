"""URL canonicalisation and same-site tests: every URL is canonical before it enters any set.

Canonical form follows w3lib's `canonicalize_url` (sorted query, percent-encoding normalised, fragment
dropped, host lower-cased) plus: default ports removed, tracking and session-id parameters removed,
only http(s) accepted, and a length cap against crawler traps.
"""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit, urlunsplit

from tld import get_fld
from w3lib.url import canonicalize_url as _w3lib_canonicalize
from w3lib.url import url_query_cleaner

from research_crawler.errors import InvalidURLError

__all__ = [
    "TRACKING_PARAMETERS",
    "canonicalize_url",
    "host_of",
    "is_same_site",
    "on_another_site",
    "other_version",
    "same_organisation",
    "shown_on_site",
    "site_root",
    "try_canonicalize_url",
]

MAX_URL_LENGTH = 2083

#: Query parameters that change nothing about the page: analytics, click ids and session ids.
TRACKING_PARAMETERS: frozenset[str] = frozenset(
    {
        *("fbclid", "gclid", "dclid", "gbraid", "wbraid", "msclkid", "mc_cid", "mc_eid", "yclid"),
        *("_ga", "_gl", "igshid", "ref_src", "spm", "__hstc", "__hssc", "__hsfp", "hsctatracking"),
        *("oly_anon_id", "oly_enc_id", "vero_id", "wickedid"),
        *("sessionid", "session_id", "sid", "phpsessid", "jsessionid", "aspsessionid", "cfid", "cftoken"),
    }
)
_TRACKING_PREFIXES = ("utm_", "pk_", "mtm_", "hsa_")
_SESSION_PATH_PARAM = re.compile(r";(?:jsessionid|phpsessid|sid|sessionid)=[^/?#]*", re.IGNORECASE)
_DEFAULT_PORTS = {"http": 80, "https": 443}


def _is_tracking(name: str) -> bool:
    lowered = name.lower()
    return lowered in TRACKING_PARAMETERS or lowered.startswith(_TRACKING_PREFIXES)


#: Characters no host name or address holds (what urlsplit leaves in "http://a b/" or "http://a<b>/").
_NOT_IN_A_HOST = re.compile(r"[\s<>\"'{}|\\^`%,;()]")


#: What a URL parser removes from either end of an address (the WHATWG URL standard's "C0 control or space"): not a
#: no-break space or any other Unicode space, which is part of the path (str.strip() took it off the end of one URL
#: and not of the same URL followed by a fragment).
_C0_OR_SPACE = "".join(map(chr, range(0x21)))


def canonicalize_url(url: str, base: str | None = None, *, max_length: int = MAX_URL_LENGTH) -> str:
    """The canonical absolute form of `url` (resolved against `base` when relative).

    Raises `InvalidURLError` for anything that is not an http(s) URL with a host, or longer than
    `max_length` characters.
    """
    if not isinstance(url, str) or not url.strip(_C0_OR_SPACE):
        raise InvalidURLError("empty URL")
    raw = url.strip(_C0_OR_SPACE)
    if base:
        try:
            raw = urljoin(base, raw)
        except ValueError as exc:  # an href such as "http://[::1" that no base can complete
            raise InvalidURLError(f"malformed URL {raw[:200]!r}: {exc}") from exc
    if len(raw) > max_length:
        raise InvalidURLError(f"URL longer than {max_length} characters")
    try:
        parts = urlsplit(raw)
        port = parts.port
    except ValueError as exc:
        raise InvalidURLError(f"malformed URL {raw[:200]!r}: {exc}") from exc
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS:
        kind = repr(scheme) if scheme else "a relative URL"
        raise InvalidURLError(f"only http(s) URLs are allowed, not {kind}: {raw[:200]!r}")
    host = (parts.hostname or "").rstrip(".").lower()
    if not host:
        raise InvalidURLError(f"URL has no host: {raw[:200]!r}")
    if _NOT_IN_A_HOST.search(host):
        raise InvalidURLError(f"URL's host {host[:100]!r} is no host name (it holds a space or a sign no host has)")
    if parts.username is not None or parts.password is not None:
        raise InvalidURLError(f"URL carries credentials: {raw[:200]!r}")
    netloc = f"[{host}]" if ":" in host else host
    if port is not None and port != _DEFAULT_PORTS[scheme]:
        netloc = f"{netloc}:{port}"
    path = _SESSION_PATH_PARAM.sub("", parts.path) or "/"
    cleaned = url_query_cleaner(
        urlunsplit((scheme, netloc, path, parts.query, "")),
        parameterlist=[k for k in _query_keys(parts.query) if _is_tracking(k)],
        remove=True,
        unique=False,
        keep_fragments=False,
    )
    canonical = _w3lib_canonicalize(cleaned, keep_fragments=False)
    if len(canonical) > max_length:
        raise InvalidURLError(f"URL longer than {max_length} characters")
    return canonical


def _query_keys(query: str) -> list[str]:
    return [pair.split("=", 1)[0] for pair in query.split("&") if pair]


def try_canonicalize_url(url: str, base: str | None = None, *, max_length: int = MAX_URL_LENGTH) -> str | None:
    """Like `canonicalize_url`, but None instead of an error (for links scraped from pages)."""
    try:
        return canonicalize_url(url, base, max_length=max_length)
    except InvalidURLError:
        return None


def shown_on_site(url: str, site_url: str) -> str:
    """`url` as a list of the site `site_url` shows it: its path (and query) when it has the site's scheme,
    host and port, so the origin is not repeated on every line; otherwise the whole URL. The path
    resolves back to `url` against `site_url` (a path starting with ``//`` would not, so it is never cut)."""
    parts, site = urlsplit(url), urlsplit(site_url)
    same_origin = (parts.scheme, parts.netloc) == (site.scheme, site.netloc)
    if not same_origin or not parts.path.startswith("/") or parts.path.startswith("//"):
        return url
    return parts.path + (f"?{parts.query}" if parts.query else "")


def host_of(url: str) -> str:
    """The host[:port] of a URL, lower-cased, without a leading ``www.``."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    host = host.removeprefix("www.")
    if parts.port is not None and parts.port != _DEFAULT_PORTS.get(parts.scheme.lower()):
        host = f"{host}:{parts.port}"
    return host


def same_organisation(url: str, other: str) -> bool:
    """Whether two URLs' hosts share their registrable domain under the Public Suffix List (``journals.iucr.org``
    and ``scripts.iucr.org``; not ``a.github.io`` and ``b.github.io``); False for a host without one (an IP address,
    ``localhost``)."""
    mine = get_fld(url, fail_silently=True, fix_protocol=True)
    return bool(mine) and mine == get_fld(other, fail_silently=True, fix_protocol=True)


def on_another_site(url: str, *own: str) -> bool:
    """Whether `url` is on another site than the pages at `own` (a page's address, the one it declares): not their
    site, a subdomain of it, nor a sibling under the same registrable domain. An address that is no http(s) URL (a
    page read from a file) has no site, so nothing is elsewhere of it."""
    known = [page for page in own if urlsplit(page).scheme.lower() in ("http", "https")]
    return bool(known) and not any(
        is_same_site(url, page) or is_same_site(page, url) or same_organisation(url, page) for page in known
    )


def is_same_site(url: str, site_url: str) -> bool:
    """True when `url` is on `site_url`'s site: the same host (``www.`` ignored) and port, or a subdomain."""
    host, site = host_of(url), host_of(site_url)
    return bool(host) and (host == site or host.endswith("." + site))


def site_root(url: str) -> str:
    """The root URL (scheme://host[:port]/) of `url`'s site."""
    parts = urlsplit(canonicalize_url(url))
    return urlunsplit((parts.scheme, parts.netloc, "/", "", ""))


#: A record's version named at the end of its address: ``/manuscript/2025.0033/v1``, arXiv's ``/abs/2401.01234v2``.
_VERSION_SUFFIX = re.compile(r"/?v\d{1,3}/?$", re.IGNORECASE)
#: A link's text that names a version: "v1", "[v2]", "Version 3", "v1 — 1 February 2025 …".
_VERSION_TEXT = re.compile(r"^\W*(?:v|version\s*)\d{1,3}\b", re.IGNORECASE)


def other_version(page_url: str, link_url: str, text: str) -> bool:
    """Whether the link `link_url` reading `text` is another version of the record at `page_url`: its text names a
    version ("v1", "Version 2") and its address is the page's with a version named at its end (``…/v1``, ``…v2``),
    or without it, or with another (both canonical URLs, queries alike). A volume's link reads "Volume 12"."""
    page, link = urlsplit(page_url), urlsplit(link_url)
    if (page.netloc, page.query) != (link.netloc, link.query) or page.path == link.path:
        return False
    if not _VERSION_TEXT.match(text):
        return False
    record = _VERSION_SUFFIX.sub("", page.path)
    return len(record) > 1 and record == _VERSION_SUFFIX.sub("", link.path)
