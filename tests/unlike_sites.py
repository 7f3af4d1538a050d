"""Small sites built unlike the testbed's, on a `FaultServer`, for the tests of issue 26: a journal whose only search
is a POST form, a listing that loads the rest of its items by script ("Load more"), a site with feeds and a sitemap,
a deep archive (subject → year → month). Each paper has a page of its own; titles are the tests' own."""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fault_server import FaultServer, Hit, Reply

from research_crawler.eval.testbed.markup import MONTHS

if TYPE_CHECKING:
    from research_crawler.config.settings import Settings
    from research_crawler.report.models import Report


@dataclass(frozen=True)
class Paper:
    slug: str
    title: str
    date: str  # ISO
    subject: str = "machine learning"

    @property
    def path(self) -> str:
        return f"/paper/{self.slug}"


#: Six papers, three of other fields and three on graph neural networks (dated 2023 to 2025): a listing's or a
#: search's papers, for the request "Find papers on graph neural networks".
LISTED = [
    Paper("alloys", "Bayesian optimisation of alloy compositions", "2023-02-01", "materials"),
    Paper("radar", "Weather radar nowcasting with optical flow", "2022-06-01", "geoscience"),
    Paper("soil", "Soil carbon mapping from satellite imagery", "2021-04-01", "geoscience"),
    Paper("gnn-protein", "Graph neural networks for protein structure", "2024-03-05"),
    Paper("gnn-traffic", "Graph neural networks for traffic forecasting", "2025-01-20"),
    Paper("gnn-scale", "Message passing graph neural networks at scale", "2023-11-11"),
]


def page(title: str, body: str, head: str = "") -> str:
    return (
        f"<!doctype html><html><head><title>{html.escape(title)}</title>{head}</head>"
        f"<body><header><a href='/'>Home</a></header><main>{body}</main></body></html>"
    )


def entry(paper: Paper) -> str:
    return (
        f"<li><h3><a href='{paper.path}'>{html.escape(paper.title)}</a></h3>"
        f"<p>Published {paper.date} in {html.escape(paper.subject)}.</p></li>"
    )


def serve_papers(server: FaultServer, papers: list[Paper]) -> None:
    """One page per paper, with its title, date and a short abstract (no metadata tags)."""
    for paper in papers:
        server.page(
            paper.path,
            page(
                paper.title,
                f"<h1>{html.escape(paper.title)}</h1><p>Published {paper.date}.</p>"
                f"<h2>Abstract</h2><p>We study {html.escape(paper.title.lower())} and report results on standard "
                "benchmarks, with an analysis of where the method helps and where it does not.</p>",
            ),
        )


def post_search_site(server: FaultServer, papers: list[Paper], *, on_home: int = 2) -> None:
    """A journal whose home lists its first `on_home` papers and whose only search is a POST form (a GET of the
    search address answers 405); the search matches every word of the query in titles."""
    serve_papers(server, papers)
    form = (
        "<h2>Search the journal</h2><form method='post' action='/search'>"
        "<input type='hidden' name='token' value='abc123'>"
        "<label for='q'>Keywords</label><input id='q' name='terms'>"
        "<select name='order'><option value='rel'>Best match</option><option value='newest'>Newest first</option>"
        "</select><button type='submit'>Search</button></form>"
    )
    listing = "".join(entry(paper) for paper in papers[:on_home])
    server.page("/", page("Journal of Unusual Results", f"<h1>Journal of Unusual Results</h1>{form}<ul>{listing}</ul>"))

    def search(hit: Hit) -> Reply:
        if hit.method != "POST" or hit.form.get("token") != ["abc123"]:
            return Reply(405, page("Not allowed", "<p>Use the search form.</p>"))
        words = hit.form.get("terms", [""])[0].lower().split()
        found = [paper for paper in papers if words and all(word in paper.title.lower() for word in words)]
        if hit.form.get("order") == ["newest"]:
            found.sort(key=lambda paper: paper.date, reverse=True)
        items = "".join(entry(paper) for paper in found) or "<li>No results.</li>"
        return Reply(200, page("Search results", f"<h1>{len(found)} results</h1><ul>{items}</ul>"))

    server.handle("/search", search)


#: The script both listings run to load their next papers: fetch them as JSON and append them to the list.
_FETCH_AND_APPEND = (
    "const r=await fetch('/api/papers?offset='+offset);const d=await r.json();"
    "for(const p of d.items){const li=document.createElement('li');"
    "li.innerHTML='<h3><a href=\"'+p.url+'\">'+p.title+'</a></h3><p>Published '+p.date+'.</p>';"
    "document.getElementById('list').appendChild(li);}offset+=d.items.length;"
)


def load_more_site(
    server: FaultServer, papers: list[Paper], *, first: int = 3, per_click: int = 3, slow_s: float = 0.0
) -> None:
    """A listing that shows its first `first` papers and a "Load more" button whose script fetches the next ones as
    JSON from /api/papers?offset=N and appends them (what a browser shows after the clicks); while it loads, the
    button says "Loading…" and is disabled, and the JSON takes `slow_s` to come."""
    serve_papers(server, papers)
    listing = "".join(entry(paper) for paper in papers[:first])
    script = (
        f"<script>let offset={first};const b=document.getElementById('more');"
        "document.getElementById('more').addEventListener('click',async()=>{"
        "b.textContent='Loading…';b.disabled=true;"
        f"{_FETCH_AND_APPEND}b.textContent='Load more';b.disabled=false;if(!d.more){{b.remove();}}}});</script>"
    )
    server.page(
        "/",
        page(
            "Preprints",
            f"<h1>Preprints</h1><ul id='list'>{listing}</ul><button id='more' type='button'>Load more</button>{script}",
        ),
    )

    def api(hit: Hit) -> Reply:
        offset = int((hit.form.get("offset") or ["0"])[0])
        chunk = papers[offset : offset + per_click]
        items = [{"title": p.title, "url": p.path, "date": p.date} for p in chunk]
        body = json.dumps({"items": items, "more": offset + per_click < len(papers)})
        return Reply(200, body, content_type="application/json", stall_s=slow_s)

    server.handle("/api/papers", api)


def endless_list_site(server: FaultServer, papers: list[Paper], *, first: int = 3, per_scroll: int = 3) -> None:
    """A listing that loads its next papers (JSON from /api/papers) when its sentinel scrolls into view."""
    load_more_site(server, papers, first=first, per_click=per_scroll)  # the papers and the JSON endpoint
    listing = "".join(entry(paper) for paper in papers[:first])
    script = (
        f"<script>let offset={first};let busy=false;const s=document.getElementById('sentinel');"
        "new IntersectionObserver(async(seen)=>{if(!seen[0].isIntersecting||busy)return;busy=true;"
        f"{_FETCH_AND_APPEND}busy=false;if(!d.more){{s.remove();}}}}).observe(s);</script>"
    )
    server.page(
        "/",
        page(
            "Preprints",
            f"<h1>Preprints</h1><ul id='list'>{listing}</ul>"
            f"<div id='sentinel' class='infinite-scroll-sentinel' style='height:40px'></div>{script}",
        ),
    )


def atom_feed(title: str, papers: list[Paper], *, base: str = "") -> str:
    """An Atom document of `papers` (in the order given), each with its link, date, author and summary."""
    entries = "".join(
        f"<entry><title>{html.escape(p.title)}</title><link href='{base}{p.path}'/><id>tag:test,{p.slug}</id>"
        f"<published>{p.date}T09:00:00Z</published><updated>{p.date}T09:00:00Z</updated>"
        f"<author><name>Author of {html.escape(p.slug)}</name></author>"
        f"<summary>We study {html.escape(p.title.lower())}.</summary></entry>"
        for p in papers
    )
    return (
        "<?xml version='1.0' encoding='utf-8'?><feed xmlns='http://www.w3.org/2005/Atom'>"
        f"<title>{html.escape(title)}</title><id>tag:test,feed</id><updated>2025-01-01T00:00:00Z</updated>"
        f"{entries}</feed>"
    )


def sitemap(urls: list[tuple[str, str]]) -> str:
    """A sitemap of (address, last change) pairs."""
    items = "".join(f"<url><loc>{html.escape(loc)}</loc><lastmod>{when}</lastmod></url>" for loc, when in urls)
    return f"<?xml version='1.0'?><urlset xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'>{items}</urlset>"


def feed_site(server: FaultServer, papers: list[Paper]) -> None:
    """A journal whose home lists no paper (an "about" page with links to its policies), whose Atom feed holds its
    papers (oldest first, as some feeds are), and whose robots.txt names a sitemap of its paper pages."""
    serve_papers(server, papers)
    head = "<link rel='alternate' type='application/atom+xml' title='Latest papers' href='/feed.atom'>"
    server.page(
        "/",
        page(
            "Journal of Quiet Results",
            "<h1>Journal of Quiet Results</h1><p>A journal of careful work, published as it is accepted.</p>"
            "<p><a href='/about/editors'>Editorial board</a> · <a href='/about/policies'>Editorial policies</a></p>",
            head,
        ),
    )
    for path in ("/about/editors", "/about/policies"):
        server.page(path, page("About", "<h1>About the journal</h1><p>Editors and their policies.</p>"))
    server.route(
        "/feed.atom",
        Reply(
            200,
            atom_feed("Latest papers", sorted(papers, key=lambda p: p.date)),
            content_type="application/atom+xml; charset=utf-8",
        ),
    )
    server.route(
        "/sitemap.xml",
        Reply(200, sitemap([(server.url(p.path), p.date) for p in papers]), content_type="application/xml"),
    )
    server.robots(f"User-agent: *\nAllow: /\nSitemap: {server.url('/sitemap.xml')}\n")


def deep_archive_site(server: FaultServer, papers: list[Paper], *, breadcrumbs: bool = True) -> None:
    """An archive browsed subject → year → month, the papers listed only on their month's page; each page shows its
    breadcrumb trail (unless `breadcrumbs` is False). Subjects are the papers' `subject`s."""
    serve_papers(server, papers)
    subjects = sorted({p.subject for p in papers})

    def slug(text: str) -> str:
        return text.lower().replace(" ", "-")

    def trail(*parts: tuple[str, str]) -> str:
        if not breadcrumbs:
            return ""
        items = "".join(f"<li><a href='{href}'>{html.escape(name)}</a></li>" for name, href in parts[:-1])
        current = f"<li aria-current='page'>{html.escape(parts[-1][0])}</li>"
        return f"<nav aria-label='Breadcrumb'><ol>{items}{current}</ol></nav>"

    home = ("Archive", "/")
    links = "".join(f"<li><a href='/archive/{slug(s)}'>{html.escape(s.title())}</a></li>" for s in subjects)
    server.page("/", page("The Open Archive", f"<h1>The Open Archive</h1><p>Browse by subject.</p><ul>{links}</ul>"))
    for subject in subjects:
        mine = [p for p in papers if p.subject == subject]
        base = f"/archive/{slug(subject)}"
        here = (subject.title(), base)
        years = sorted({p.date[:4] for p in mine}, reverse=True)
        year_links = "".join(f"<li><a href='{base}/{y}'>{y}</a></li>" for y in years)
        server.page(
            base,
            page(
                subject.title(),
                f"{trail(home, here)}<h1>{html.escape(subject.title())}</h1>"
                f"<p>Browse by year.</p><ul>{year_links}</ul>",
            ),
        )
        for year in years:
            in_year = [p for p in mine if p.date.startswith(year)]
            months = sorted({int(p.date[5:7]) for p in in_year}, reverse=True)
            month_links = "".join(f"<li><a href='{base}/{year}/{m:02d}'>{MONTHS[m - 1]}</a></li>" for m in months)
            server.page(
                f"{base}/{year}",
                page(
                    f"{subject.title()} {year}",
                    f"{trail(home, here, (year, ''))}<h1>{year}</h1><p>Browse by month.</p><ul>{month_links}</ul>",
                ),
            )
            for month in months:
                listed = "".join(entry(p) for p in in_year if int(p.date[5:7]) == month)
                name = MONTHS[month - 1]
                server.page(
                    f"{base}/{year}/{month:02d}",
                    page(
                        f"{subject.title()}, {name} {year}",
                        f"{trail(home, here, (year, f'{base}/{year}'), (name, ''))}<h1>{name} {year}</h1>"
                        f"<ul>{listed}</ul>",
                    ),
                )


def loopback_settings(server: FaultServer, runs_dir: Path) -> Settings:
    """Settings for a run on the site `server` serves on loopback: its host let through the URL guard (which refuses
    loopback otherwise), no per-host delay, the bm25 reranker (bge weights cannot be downloaded here), runs kept in
    `runs_dir`."""
    from research_crawler.config.settings import Settings

    settings = Settings(runs_dir=runs_dir)
    settings.fetch.allowed_hosts = [server.host_port]
    settings.fetch.per_host_delay_s = 0.0
    settings.rerank.kind = "bm25"
    return settings


def run_on_loopback(
    server: FaultServer, runs_dir: Path, query: str, *, pages: int | None = None
) -> tuple[Report, list[dict[str, Any]]]:
    """The simulated team's run of `query` on the site `server` serves (`loopback_settings`), and its trace's events;
    `pages`, where given, is the site's page budget, the base and the ceiling both (no page earned beyond it)."""
    from research_crawler.run.session import ResearchSession
    from research_crawler.run.trace import read_trace

    settings = loopback_settings(server, runs_dir)
    if pages is not None:
        settings.explore.max_subpages = settings.explore.max_subpages_earned = pages
    report = ResearchSession(settings, backend="simulated").run(query, sites=[server.url("/")])
    return report, read_trace(Path(report.run_dir or "") / "trace.jsonl")


def explore(server: FaultServer, query: str, run_dir: Path) -> Report:
    """The simulated team's report on `query` for the site on `server` (bm25, no per-host delay), run in `run_dir`."""
    from research_crawler.run.session import ResearchSession

    settings = loopback_settings(server, run_dir.parent / "runs")
    return ResearchSession(settings, backend="simulated").run(query, sites=[server.url("/")], run_dir=run_dir)
