"""Whole requests, with the simulated model, on small sites built unlike the testbed's — a journal behind a cookie
notice, one behind a sign-in, one that first asks who the visitor is, a repository whose search robots.txt forbids —
as a person would meet them (issue 26)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fault_server import FaultServer, Reply
from unlike_sites import (
    LISTED,
    Paper,
    deep_archive_site,
    entry,
    feed_site,
    load_more_site,
    page,
    post_search_site,
    serve_papers,
)

from research_crawler.config.settings import Settings
from research_crawler.eval.reliability.consent_site import ConsentSite, journal_pages
from research_crawler.run.session import ResearchSession
from research_crawler.run.trace import read_trace

PAPERS = [
    ("gnn-molecules", "Graph neural networks for molecular property prediction"),
    ("gnn-traffic", "Spatio-temporal graph neural networks for traffic forecasting"),
    ("ssm", "State space models for long sequence modelling"),
]


@pytest.fixture
def server() -> Iterator[FaultServer]:
    with FaultServer() as running:
        yield running


def settings_for(tmp_path: Path, *servers: FaultServer) -> Settings:
    settings = Settings(runs_dir=tmp_path / "runs")
    settings.fetch.allowed_hosts = [s.host_port for s in servers]
    settings.fetch.per_host_delay_s = 0.0
    settings.rerank.kind = "bm25"
    return settings


def test_a_journal_behind_a_cookie_notice_is_explored(tmp_path: Path, server: FaultServer) -> None:
    site = ConsentSite(server, journal_pages("Journal of Learning", PAPERS), style="link")
    report = ResearchSession(settings_for(tmp_path, server), backend="simulated").run(
        "Find papers on graph neural networks", sites=[server.url("/")]
    )
    titles = {item.title for item in report.items}
    assert {title for _, title in PAPERS[:2]} <= titles, titles
    assert site.passes == 1  # one consent for the whole run
    (summary,) = report.sites
    assert summary.name == "Journal of Learning"  # the journal's own title, not the notice's
    fetches = [e for e in read_trace(Path(report.run_dir or "") / "trace.jsonl") if e["event"] == "fetch"]
    assert "passed a cookie consent page" in fetches[0]["reason"]


def test_a_site_behind_a_sign_in_ends_with_that_reason(tmp_path: Path, server: FaultServer) -> None:
    ConsentSite(server, journal_pages("Journal of Learning", PAPERS), style="login")
    report = ResearchSession(settings_for(tmp_path, server), backend="simulated").run(
        "Find papers on graph neural networks", sites=[server.url("/")]
    )
    assert report.items == []
    (summary,) = report.sites
    assert summary.reason == "unreachable"
    assert "a login wall: the site asks to sign in" in summary.detail
    assert not server.hits_for("/login")


SEARCHABLE = [
    Paper("alloys", "Bayesian optimisation of alloy compositions", "2023-02-01", "materials"),
    Paper("radar", "Weather radar nowcasting with optical flow", "2022-06-01", "geoscience"),
    Paper("gnn-protein", "Graph neural networks for protein structure", "2024-03-05"),
    Paper("gnn-traffic", "Graph neural networks for traffic forecasting", "2025-01-20"),
    Paper("gnn-scale", "Message passing graph neural networks at scale", "2023-11-11"),
]


def test_a_journal_searched_only_by_post(tmp_path: Path, server: FaultServer) -> None:
    post_search_site(server, SEARCHABLE)
    report = ResearchSession(settings_for(tmp_path, server), backend="simulated").run(
        "Find papers on graph neural networks, newest first", sites=[server.url("/")]
    )
    posts = [hit for hit in server.hits_for("/search") if hit.method == "POST"]
    assert len(posts) == 1 and posts[0].form["terms"] == ["graph neural networks"]
    assert posts[0].form["order"] == ["newest"]  # the form's own sort field, filled from the request
    assert not [hit for hit in server.hits_for("/search") if hit.method == "GET"]
    titles = {item.title for item in report.items}
    assert {paper.title for paper in SEARCHABLE[2:]} <= titles, titles
    searches = [e for e in read_trace(Path(report.run_dir or "") / "trace.jsonl") if e["event"] == "scrape"]
    assert any(e["kind"] == "search" and e["determination"] == "ok" for e in searches)


@pytest.mark.browser
def test_items_behind_a_load_more_button_are_read_from_the_listing(tmp_path: Path, server: FaultServer) -> None:
    load_more_site(server, LISTED, first=3, per_click=2)
    settings = settings_for(tmp_path, server)
    settings.explore.max_subpages = 1  # only the listing: what is found is read from it
    report = ResearchSession(settings, backend="simulated").run(
        "Find papers on graph neural networks", sites=[server.url("/")]
    )
    titles = {item.title for item in report.items}
    assert {paper.title for paper in LISTED[3:]} <= titles, titles
    assert all(item.found_on == server.url("/") for item in report.items)  # counted as read from that page
    assert len([hit for hit in server.hits if hit.path.startswith("/api/papers")]) == 2


FED = [
    Paper("gnn-2022", "Graph neural networks for chemistry, a survey", "2022-03-01"),
    Paper("gnn-2023", "Equivariant graph neural networks for molecules", "2023-06-01"),
    Paper("radar", "Weather radar nowcasting with optical flow", "2024-01-10", "geoscience"),
    Paper("gnn-2024", "Graph neural networks for power grids", "2024-09-01"),
    Paper("gnn-2025", "Graph neural networks for traffic forecasting", "2025-02-01"),
    Paper("gnn-2025b", "Scalable message passing graph neural networks", "2025-04-01"),
]


def test_the_most_recent_come_from_the_feed_a_page_names(tmp_path: Path, server: FaultServer) -> None:
    feed_site(server, FED)
    report = ResearchSession(settings_for(tmp_path, server), backend="simulated").run(
        "Find the 3 most recent papers on graph neural networks", sites=[server.url("/")]
    )
    # the three newest relevant papers (their order rests on the dates read, which is the Collector's and the
    # metadata reader's business, not the feed's)
    assert {item.title for item in report.items} == {FED[5].title, FED[4].title, FED[3].title}
    assert all(item.found_on == server.url("/feed.atom") for item in report.items)
    assert server.hits_for("/feed.atom") and not server.hits_for("/about/policies")
    events = read_trace(Path(report.run_dir or "") / "trace.jsonl")
    offered = {e["kind"]: e["url"] for e in events if e["event"] == "offered"}
    assert offered == {"feed": server.url("/feed.atom"), "sitemap": server.url("/sitemap.xml")}
    assert not server.hits_for("/sitemap.xml")  # offered, not needed: never fetched


ARCHIVED = [
    Paper("gnn-mar", "Graph neural networks for weather forecasting", "2025-03-04", "machine learning"),
    Paper("gnn-mar2", "Message passing graph neural networks for chemistry", "2025-03-20", "machine learning"),
    Paper("vision", "Vision transformers for satellite images", "2025-01-15", "machine learning"),
    Paper("gnn-old", "Graph neural networks for social networks", "2023-06-01", "machine learning"),
    Paper("quarks", "Lattice studies of heavy quarks", "2025-03-10", "physics"),
    Paper("cells", "Cell migration in soft tissue", "2024-05-05", "biology"),
]


@pytest.mark.parametrize("breadcrumbs", [True, False])
def test_a_deep_archive_is_browsed_down_to_its_month_pages(
    tmp_path: Path, server: FaultServer, breadcrumbs: bool
) -> None:
    deep_archive_site(server, ARCHIVED, breadcrumbs=breadcrumbs)
    settings = settings_for(tmp_path, server)
    assert settings.explore.max_subpages == 5  # within the default budget: start, subject, year, month
    report = ResearchSession(settings, backend="simulated").run(
        "Find papers on graph neural networks", sites=[server.url("/")]
    )
    titles = {item.title for item in report.items}
    assert {ARCHIVED[0].title, ARCHIVED[1].title} <= titles, titles
    assert server.hits_for("/archive/machine-learning/2025/03")
    events = read_trace(Path(report.run_dir or "") / "trace.jsonl")
    planner_reads = " ".join(str(e.get("content", "")) for e in events if e["event"] == "message")
    where = (
        "Where (the page's breadcrumbs): Archive › Machine Learning › 2025"
        if breadcrumbs
        else ("Reached from the start page by: The Open Archive › Machine Learning › Machine Learning 2025")
    )
    assert where in planner_reads


def test_a_site_whose_articles_need_a_sign_in_says_so(tmp_path: Path, server: FaultServer) -> None:
    papers = [(slug, title) for slug, title in PAPERS]
    pages = journal_pages("Journal of Learning", papers)
    for path in pages:
        if path.startswith("/article/"):  # every article redirects to a sign-in that never lets in
            server.route(path, Reply(302, "", headers={"Location": "/login"}))
        else:
            server.page(path, pages[path])
    server.page(
        "/login",
        "<html><head><title>Sign in</title></head><body><main><h1>Sign in to read</h1><form method='post'>"
        "<input name='user'><input type='password' name='password'><button>Sign in</button></form>"
        "</main></body></html>",
    )
    report = ResearchSession(settings_for(tmp_path, server), backend="simulated").run(
        "Find papers on graph neural networks", sites=[server.url("/")]
    )
    (summary,) = report.sites
    assert "asked to sign in or to pay" in summary.detail or "a login wall" in summary.detail, summary
    assert {title for _, title in PAPERS[:2]} <= {item.title for item in report.items}  # what the listing shows
    assert not [hit for hit in server.hits_for("/login") if hit.method == "POST"]  # never signs in


def test_a_journal_that_asks_who_the_visitor_is_is_explored(tmp_path: Path, server: FaultServer) -> None:
    site = ConsentSite(server, journal_pages("Journal of Learning", PAPERS), style="audience")
    report = ResearchSession(settings_for(tmp_path, server), backend="simulated").run(
        "Find papers on graph neural networks", sites=[server.url("/")]
    )
    assert {title for _, title in PAPERS[:2]} <= {item.title for item in report.items}
    assert site.passes == 1 and site.choices == ["researcher"]  # once for the run, as a researcher
    assert not server.hits_for("/login")


def test_a_search_robots_txt_forbids_is_never_tried_and_costs_no_page(tmp_path: Path, server: FaultServer) -> None:
    server.robots("User-agent: *\nDisallow: /cgi/\n")
    papers = "".join(f"<li><a href='/id/{slug}/'>{title}</a></li>" for slug, title in PAPERS)
    server.page(
        "/",
        "<html><head><title>Repository</title></head><body><header><form action='/cgi/search' method='get'>"
        "<input name='q'><input type='submit' value='Search'></form></header><main><h1>Repository</h1>"
        f"<h2>Latest additions</h2><ul>{papers}</ul></main></body></html>",
    )
    for slug, title in PAPERS:
        server.page(
            f"/id/{slug}/",
            f"<html><head><title>{title}</title></head><body><main><h1>{title}</h1><p>Authors: Okafor, Ada</p>"
            f"<h2>Abstract</h2><p>We study {title.lower()} on several benchmarks.</p></main></body></html>",
        )
    report = ResearchSession(settings_for(tmp_path, server), backend="simulated").run(
        "Find papers on graph neural networks", sites=[server.url("/")]
    )
    assert not server.hits_for("/cgi/search")
    events = read_trace(Path(report.run_dir or "") / "trace.jsonl")
    assert not [e for e in events if e["event"] == "fetch" and e["determination"] == "blocked_by_robots"]
    told = [e["content"] for e in events if e["event"] == "message" and e.get("sender") == "ScraperProxy"]
    assert "search is forbidden to crawlers by its robots.txt" in told[0]
    assert {title for _, title in PAPERS[:2]} <= {item.title for item in report.items}
    # the report says why the search was not tried, and never counts it as something the budget left out
    [coverage] = report.coverage
    assert coverage.search_form and not coverage.search_tried
    assert coverage.search_refusal and "robots.txt forbids" in coverage.search_refusal
    assert "search form was not tried" not in (Path(report.run_dir or "") / "report.md").read_text(encoding="utf-8")


VOLUMES = [
    Paper("gnn-2023", "Graph neural networks for molecular property prediction", "2023-05-02"),
    Paper("gnn-2024", "Graph neural networks for traffic forecasting", "2024-06-11"),
    Paper("soil-2024", "Soil carbon mapping from satellite imagery", "2024-02-03", "geoscience"),
    Paper("gnn-2025", "Graph neural networks at scale", "2025-03-09"),
]


def test_a_journal_whose_search_robots_txt_forbids_is_browsed_to_the_year_asked(
    tmp_path: Path, server: FaultServer
) -> None:
    """Its search is forbidden and its menu (About, Venue, For authors) comes first on every page: the run spends no
    page on the search, and reaches the 2024 volume through the list of volumes rather than the menu."""
    serve_papers(server, VOLUMES)
    server.robots("User-agent: *\nDisallow: /search\n")
    chrome = (
        "<header><a href='/'>Home</a><nav><a href='/about'>About</a> <a href='/venue'>Venue</a> "
        "<a href='/authors'>For authors</a></nav><form action='/search'><input name='q'><button>Search</button>"
        "</form></header>"
    )

    def framed(title: str, body: str) -> str:
        return f"<!doctype html><html><head><title>{title}</title></head><body>{chrome}<main>{body}</main></body>"

    years = sorted({paper.date[:4] for paper in VOLUMES}, reverse=True)
    server.page("/", framed("Journal of Slow Results", "<h1>Journal of Slow Results</h1><p>Quarterly since 2023."
                            "</p><p><a href='/volumes'>Browse the volumes</a></p>"))  # fmt: skip
    volumes = "".join(f"<li><a href='/vol/{n}'>Volume {n}</a> ({year})</li>" for n, year in enumerate(years[::-1], 1))
    server.page("/volumes", framed("Volumes", f"<h1>Volumes</h1><ul>{volumes}</ul>"))
    for n, year in enumerate(years[::-1], 1):
        listed = "".join(entry(paper) for paper in VOLUMES if paper.date.startswith(year))
        server.page(f"/vol/{n}", framed(f"Volume {n}", f"<h1>Volume {n} ({year})</h1><ul>{listed}</ul>"))
    for path in ("/about", "/venue", "/authors"):
        server.page(path, framed("About", "<h1>About the journal</h1><p>Edited by volunteers since 2023.</p>"))
    settings = settings_for(tmp_path, server)
    # the paper's fixed five pages: a site that yielded may earn more (tools/site_budget.py), and with nothing
    # promising left the simulated Planner then spends one on the venue page
    settings.explore.max_subpages_earned = settings.explore.max_subpages
    report = ResearchSession(settings, backend="simulated").run(
        "Find papers on graph neural networks published in 2024", sites=[server.url("/")]
    )
    assert not server.hits_for("/search")  # never asked for, so no page of the budget went on it
    assert [item.title for item in report.items] == ["Graph neural networks for traffic forecasting"]
    assert server.hits_for("/vol/2") and not server.hits_for("/about") and not server.hits_for("/venue")
    events = read_trace(Path(report.run_dir or "") / "trace.jsonl")
    told = [e["content"] for e in events if e["event"] == "message" and e.get("sender") == "ScraperProxy"]
    assert "search is forbidden to crawlers by its robots.txt" in told[0]
    assert any(e["event"] == "offered" and e["kind"] == "dated" and e["url"].endswith("/vol/2") for e in events)


def test_a_search_that_matches_nothing_costs_no_subpage(tmp_path: Path, server: FaultServer) -> None:
    """A site whose search matches nothing, with a budget of two pages: the start page and the empty results page
    would have spent it; the results page costs none, so the listing the start page links to is still read."""
    serve_papers(server, SEARCHABLE)
    server.page(
        "/",
        page("Journal of Quiet Results", "<h1>Journal of Quiet Results</h1><form action='/search'>"
             "<input name='q'><button>Search</button></form><p><a href='/issue/4'>Issue 4</a></p>"),
    )  # fmt: skip
    server.page("/issue/4", page("Issue 4", "<h1>Issue 4</h1><ul>" + "".join(map(entry, SEARCHABLE)) + "</ul>"))
    server.handle("/search", lambda hit: Reply(200, page("Search", "<h1>Search</h1><p>No results found.</p>")))
    settings = settings_for(tmp_path, server)
    settings.explore.max_subpages = 2
    report = ResearchSession(settings, backend="simulated").run(
        "Find papers on graph neural networks", sites=[server.url("/")]
    )
    assert [hit for hit in server.page_hits() if hit.path.startswith("/search?")] and server.hits_for("/issue/4")
    assert {paper.title for paper in SEARCHABLE[2:]} <= {item.title for item in report.items}
    (summary,) = report.sites
    assert summary.pages_visited == 3  # the start page, the empty search, the issue
    events = read_trace(Path(report.run_dir or "") / "trace.jsonl")
    told = [e["content"] for e in events if e["event"] == "message" and e.get("sender") == "ScraperProxy"]
    assert any("the search found nothing (it cost no subpage)" in text for text in told)


def test_a_dead_link_costs_no_subpage(tmp_path: Path, server: FaultServer) -> None:
    """A budget of two pages: the start page and the first issue, which is gone (404), would have spent it; the dead
    link costs none, so the next issue is still read."""
    serve_papers(server, SEARCHABLE)
    server.page(
        "/",
        page("Journal of Moved Things", "<h1>Journal of Moved Things</h1><p><a href='/issue/3'>Issue 3</a></p>"
             "<p><a href='/issue/4'>Issue 4</a></p>"),
    )  # fmt: skip
    server.page("/issue/4", page("Issue 4", "<h1>Issue 4</h1><ul>" + "".join(map(entry, SEARCHABLE)) + "</ul>"))
    settings = settings_for(tmp_path, server)
    settings.explore.max_subpages = 2
    report = ResearchSession(settings, backend="simulated").run(
        "Find papers on graph neural networks", sites=[server.url("/")]
    )
    assert server.hits_for("/issue/3") and server.hits_for("/issue/4")
    assert {paper.title for paper in SEARCHABLE[2:]} <= {item.title for item in report.items}
    events = read_trace(Path(report.run_dir or "") / "trace.jsonl")
    told = [e["content"] for e in events if e["event"] == "message" and e.get("sender") == "ScraperProxy"]
    assert any("Could not read" in text and "It cost no subpage." in text for text in told)


#: A society's news page showing ten papers of earlier years, and a page for each year.
EARLIER = [
    Paper(f"kelp-{year}-{n}", f"Kelp forest decline {topic}", f"{year}-{n % 9 + 1:02d}-10", "ecology")
    for n, (year, topic) in enumerate(
        [
            (2021, "in the North Sea"),
            (2021, "after storm seasons"),
            (2022, "and urchin grazing"),
            (2022, "seen from satellites"),
            (2022, "under nutrient loss"),
            (2023, "in cold upwelling zones"),
            (2023, "and fish nurseries"),
            (2023, "in citizen surveys"),
            (2023, "at range edges"),
            (2023, "and carbon burial"),
        ]
    )
]
OF_2024 = [
    Paper("kelp-2024-a", "Kelp forest decline during the 2024 heatwave", "2024-08-19", "ecology"),
    Paper("kelp-2024-b", "Recovery after kelp forest decline in sheltered bays", "2024-03-02", "ecology"),
]


def society(server: FaultServer) -> None:
    serve_papers(server, EARLIER + OF_2024)
    listed = "".join(entry(paper) for paper in EARLIER)
    server.page(
        "/",
        page(
            "Kelp Society",
            f"<h1>Kelp Society</h1><h2>Papers by our members</h2><ul>{listed}</ul>"
            "<p>By year: <a href='/year/2024'>2024</a> <a href='/year/2023'>2023</a></p>",
        ),
    )
    of_2024 = "".join(entry(paper) for paper in OF_2024)
    server.page("/year/2024", page("2024", f"<h1>Papers of 2024</h1><ul>{of_2024}</ul>"))
    older = "".join(entry(paper) for paper in EARLIER if paper.date.startswith("2023"))
    server.page("/year/2023", page("2023", f"<h1>Papers of 2023</h1><ul>{older}</ul>"))


def test_items_of_other_years_do_not_count_toward_a_year_asked_for(tmp_path: Path, server: FaultServer) -> None:
    society(server)
    report = ResearchSession(settings_for(tmp_path, server), backend="simulated").run(
        "Find papers on kelp forest decline published in 2024", sites=[server.url("/")]
    )
    # the home's ten papers of earlier years are as many as a report lists, but none is of 2024
    assert {item.title for item in report.items} == {paper.title for paper in OF_2024}
    assert server.hits_for("/year/2024")
