"""Serves real saved pages on loopback, one port per site, each page at its original URL's path and query.

What is real: every saved page's bytes, served as saved, labelled with the encoding a browser reads them in
(`SavedPage.charset`: the page's BOM or ``<meta charset>``, else UTF-8), at
the path and query of the URL it was saved from; its links are the page's own (links to the original host,
``https://arxiv.org/…``, lead off the loopback site, as they would lead to a page that was not saved).

What is added: the site's root, ``/``, which is not a saved page (the real sites' home pages were not
saved) but an index of the site's saved pages, each linked at its original path under its real title
(`SavedPage.title`), in the manifest's order, so that the agents can reach the saved pages from a start page
the way a reader of a listing does. Everything else is a 404.
"""

from __future__ import annotations

import html
import logging
import threading
from collections import defaultdict
from collections.abc import Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

from research_crawler.errors import ConfigError, StateError
from research_crawler.eval.addresses import address_key
from research_crawler.eval.saved_pages import SavedPage, page_key, relevant_pages
from research_crawler.eval.site_servers import SiteServers

__all__ = ["SavedSitesServer", "index_page"]

logger = logging.getLogger(__name__)

_INDEX = "/"


def index_page(site: str, pages: Sequence[SavedPage]) -> bytes:
    """The added root page of `site`: a list of its saved pages linked at their original paths, by title."""
    host = urlsplit(pages[0].original_url).hostname if pages else site
    entries = "\n".join(
        f'<li><a href="{html.escape(page.target)}">{html.escape(page.title or page.target)}</a></li>' for page in pages
    )
    return (
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
        f"<title>Saved pages of {html.escape(host or site)}</title></head>\n<body>\n"
        f"<h1>Saved pages of {html.escape(host or site)}</h1>\n<ul>\n{entries}\n</ul>\n</body></html>\n"
    ).encode()


class _SiteServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def __init__(self, address: tuple[str, int], pages: Sequence[SavedPage], site: str) -> None:
        super().__init__(address, _Handler)
        self.index = index_page(site, pages)
        self.pages: dict[tuple[str, tuple[tuple[str, str], ...]], SavedPage] = {}
        for page in pages:
            key = page_key(page.target)
            if key[0] == _INDEX and not key[1]:
                raise ConfigError(f"{page.file.name} was saved from the root of {site}, where the index is served")
            self.pages[key] = page
        self.hits: list[str] = []
        self.hits_lock = threading.Lock()

    def handle_error(self, request: object, client_address: object) -> None:
        """A client that hangs up mid-request is no error of the server's: logged, not printed."""
        logger.debug("request from %s ended with an error", client_address, exc_info=True)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "SavedPages/1.0"
    timeout = 30
    disable_nagle_algorithm = True
    server: _SiteServer

    def do_GET(self) -> None:
        self._serve(send_body=True)

    def do_HEAD(self) -> None:
        self._serve(send_body=False)

    def _serve(self, *, send_body: bool) -> None:
        with self.server.hits_lock:
            self.server.hits.append(self.path)
        key = page_key(self.path)
        page = self.server.pages.get(key)
        if page is not None:
            status, content_type, body = 200, page.content_type, page.file.read_bytes()
        elif key == (_INDEX, ()):
            status, content_type, body = 200, "text/html; charset=utf-8", self.server.index
        else:
            status, content_type, body = 404, "text/html; charset=utf-8", b"<h1>Not Found</h1>"
        try:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if send_body:
                self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            logger.debug("client went away before %s was answered", self.path)

    def log_message(self, format: str, *args: object) -> None:
        logger.debug("%s %s", self.address_string(), format % args)


class SavedSitesServer(SiteServers[_SiteServer]):
    """The sites of `pages` served on `host`, one free port each; a context manager.

    >>> with SavedSitesServer(read_saved_pages(realweb, ["arxiv"])) as server:
    ...     server.start_url("arxiv")  # 'http://127.0.0.1:PORT/', the added index
    """

    def __init__(self, pages: Sequence[SavedPage], *, host: str = "127.0.0.1") -> None:
        super().__init__()
        self.host = host
        self._pages: dict[str, list[SavedPage]] = defaultdict(list)
        for page in pages:
            self._pages[page.site].append(page)

    def start(self) -> SavedSitesServer:
        if self._servers:
            return self
        try:
            for site, pages in self._pages.items():
                self._servers[site] = _SiteServer((self.host, 0), pages, site)
        except OSError as exc:
            self.stop()
            raise ConfigError(f"cannot serve the saved pages on {self.host}: {exc}") from exc
        self._serve_all("saved")
        return self

    def site_names(self) -> list[str]:
        return list(self._pages)

    def pages(self, site: str) -> list[SavedPage]:
        return list(self._pages[site])

    def start_url(self, site: str) -> str:
        """'http://host:port/' of a running site: its added index."""
        return f"http://{self._host_port(site)}/"

    def allowed_hosts(self) -> list[str]:
        """'host:port' of every running site, for `FetchSettings.allowed_hosts` (the URL guard refuses loopback
        addresses it does not name)."""
        return [self._host_port(site) for site in self._pages]

    def url_of(self, page: SavedPage) -> str:
        """The canonical URL `page` is served at on the running server."""
        return address_key(self.start_url(page.site).rstrip("/") + page.target)

    def ground_truth(self, request: str) -> dict[str, str]:
        """The relevant pages of `request` (`relevant_pages`) as canonical URL → page file name: each page both at
        its address here and at its original URL, since an item may be reported from either."""
        truth = {}
        for page in relevant_pages(request, [page for pages in self._pages.values() for page in pages]):
            truth[self.url_of(page)] = page.file.name
            truth[address_key(page.original_url)] = page.file.name
        return truth

    def hits(self, site: str) -> list[str]:
        """The request targets `site` received, in order."""
        server = self._server(site)
        with server.hits_lock:
            return list(server.hits)

    def _host_port(self, site: str) -> str:
        return f"{self.host}:{self._server(site).server_address[1]}"

    def _server(self, site: str) -> _SiteServer:
        if site not in self._servers:
            raise StateError(f"{site!r} is not served: start the server (a context manager) with its pages")
        return self._servers[site]
