"""Pages saved from a web archive: their links lead to the archive's copies of pages, each standing for the page it
copies.

A web archive serves its copy of a page at a replay address that holds the page's own address whole, after a
14-digit capture time (``https://web.archive.org/web/20240325103510/https://example.org/news/a``; a modifier such as
``im_`` may follow the time), the form the Wayback Machine, pywb and Memento archives all write; every link of the
copy is rewritten to such an address, absolute or relative (``/web/20240325103510/https://example.org/b``). Read
under its own address (a saved page with ``page FILE --url``), such a page's links to the archive's copies of its
own site show it is a saved copy, and then each replay link is taken as the page it copies: a headline on a saved
front page leads to the article, not to a capture of it. A page read inside the archive (under a replay address),
or a live page that links an archived copy of another site's page, keeps the archive's addresses.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import urlsplit

from research_crawler.context.urls import is_same_site, try_canonicalize_url

__all__ = ["archived_address", "copied_pages"]

#: A replay address's path: any collection segments, the capture time (and a modifier), then the copied address
#: (whose "//" some archives fold to "/").
_REPLAY_PATH = re.compile(r"^(?:/[^/]+)*?/\d{14}(?:[a-z]{2}_)?/(https?):/{1,2}([^/].*)$", re.IGNORECASE)


def archived_address(url: str) -> str | None:
    """The canonical address of the page that the replay address `url` copies; None when `url` is no replay
    address."""
    parts = urlsplit(url)
    match = _REPLAY_PATH.match(parts.path)
    if match is None:
        return None
    copied = f"{match.group(1).lower()}://{match.group(2)}" + (f"?{parts.query}" if parts.query else "")
    return try_canonicalize_url(copied)


def copied_pages(urls: Iterable[str], *, page_url: str | None, site_url: str | None) -> dict[str, str]:
    """For a page saved from an archive and read under its own address (`page_url`, of the site `site_url`): each
    replay address among `urls` → the address of the page it copies. Empty when the page is read inside the
    archive (`page_url` is itself a replay address), when none of `urls` copies a page of its own site (a live
    page citing an archived copy elsewhere), or when no site is known."""
    if not site_url or (page_url and archived_address(page_url)):
        return {}
    copies = {url: copied for url in urls if (copied := archived_address(url))}
    if not any(is_same_site(copied, site_url) for copied in copies.values()):
        return {}
    return copies
