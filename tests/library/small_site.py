"""A small preprint site on loopback for the watch tests: a listing page and one page per paper (with citation_*
tags), ETags and 304s for unchanged pages as real sites send them, papers that can be added between runs, and every
request counted (with whether it was conditional and answered 304)."""

from __future__ import annotations

import hashlib
import html
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass(frozen=True)
class Paper:
    number: int
    title: str
    authors: tuple[str, ...]
    date: str
    doi: str

    @property
    def path(self) -> str:
        return f"/paper/{self.number}"


@dataclass(frozen=True)
class Request:
    path: str
    conditional: bool
    status: int


class SmallSite:
    """Start with `start()`; `url(path)` is absolute; `add(paper)` puts a paper on the listing from now on."""

    def __init__(self, title: str, papers: list[Paper]) -> None:
        self.title = title
        self.papers = list(papers)
        self.requests: list[Request] = []
        self._lock = threading.Lock()
        site = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                body = site.body(self.path)
                status = 200 if body is not None else 404
                data = (body or "<html><body>not found</body></html>").encode("utf-8")
                etag = f'"{hashlib.sha1(data).hexdigest()[:16]}"'
                conditional = "If-None-Match" in self.headers
                if status == 200 and self.headers.get("If-None-Match") == etag:
                    status, data = 304, b""
                with site._lock:
                    site.requests.append(Request(self.path, conditional, status))
                self.send_response(status)
                if status != 304:
                    self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                if status in (200, 304):
                    self.send_header("ETag", etag)
                self.end_headers()
                self.wfile.write(data)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def start(self) -> SmallSite:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    @property
    def host_port(self) -> str:
        return f"127.0.0.1:{self._server.server_address[1]}"

    def url(self, path: str = "/") -> str:
        return f"http://{self.host_port}{path}"

    def add(self, paper: Paper) -> None:
        with self._lock:
            self.papers.append(paper)

    def body(self, path: str) -> str | None:
        if path == "/robots.txt":
            return None
        if path in ("/", "/list"):
            entries = "\n".join(
                f'<li><a href="{p.path}">{html.escape(p.title)}</a><br>{html.escape(", ".join(p.authors))} '
                f"({p.date})</li>"
                for p in self.papers
            )
            return (
                f"<html><head><title>{html.escape(self.title)}</title></head><body><h1>{html.escape(self.title)}</h1>"
                f"<h2>Recent papers</h2><ul>\n{entries}\n</ul></body></html>"
            )
        paper = next((p for p in self.papers if p.path == path), None)
        if paper is None:
            return None
        authors = "".join(f'<meta name="citation_author" content="{html.escape(a)}">' for a in paper.authors)
        return (
            f'<html><head><title>{html.escape(paper.title)}</title><meta name="citation_title" '
            f'content="{html.escape(paper.title)}">{authors}<meta name="citation_publication_date" '
            f'content="{paper.date}"><meta name="citation_doi" content="{paper.doi}"></head><body>'
            f"<h1>{html.escape(paper.title)}</h1><p>{html.escape(', '.join(paper.authors))}</p><h2>Abstract</h2>"
            f"<p>We study {html.escape(paper.title.lower())} with new methods and careful experiments on "
            "several benchmarks, and report what works.</p></body></html>"
        )

    def page_requests(self) -> list[Request]:
        with self._lock:
            return [r for r in self.requests if r.path != "/robots.txt"]
