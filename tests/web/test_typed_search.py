"""A site search that only the page's script sends: the words typed into its search box in the browser and Enter
pressed, as a person does (`Fetcher.submit` of a ``TYPE`` submission). The results page it leads to — another
address, or the same page changed in place by its script — is the search's page; where it goes obeys robots.txt and
the URL guard like any page, and the search keeps the host's pace."""

from __future__ import annotations

import html
import json

import pytest
from fault_server import FaultServer, Hit, Reply
from unlike_sites import Paper, entry, page, serve_papers

from research_crawler.config.settings import FetchSettings
from research_crawler.pages.html_forms import FormSubmission, submission_identity
from research_crawler.pages.page import Determination
from research_crawler.pages.search_forms import build_search_submission, find_search_mechanism
from research_crawler.web.fetcher import Fetcher

PAPERS = [
    Paper("a1", "Message passing on molecular graphs", "2025-02-01"),
    Paper("a2", "Equivariant layers for point clouds", "2025-01-11"),
    Paper("b1", "A survey of sourdough microbiology", "2024-12-03"),
]


@pytest.fixture
def browser_settings(fast_settings: FetchSettings) -> FetchSettings:
    return fast_settings.model_copy(update={"page_deadline_s": 30.0, "browser_wait_s": 0.2, "per_host_delay_s": 0.2})


def _matching(words: str) -> list[Paper]:
    wanted = set(words.lower().split())
    return [p for p in PAPERS if wanted & set(p.title.lower().split())]


def script_form_site(server: FaultServer) -> None:
    """A journal whose quick search is a form only its script sends: the box has no name, and the script builds the
    results address from it (onsubmit "go(); return false;")."""
    serve_papers(server, PAPERS)
    script = (
        "<script>function go(){const w=document.getElementById('qs').value;"
        "location.href='/find?terms='+encodeURIComponent(w);}</script>"
    )
    server.page(
        "/",
        page(
            "Journal",
            "<form action='/action/doSearch' onsubmit='go(); return false;'>"
            "<input type='search' id='qs' size='28'><button>Go</button></form><h1>Journal of examples</h1>" + script,
        ),
    )

    def find(hit: Hit) -> Reply:
        words = (hit.form.get("terms") or [""])[0]
        found = "".join(entry(p) for p in _matching(words)) or "<li>No results</li>"
        return Reply(200, page("Search results", f"<h1>Results for {html.escape(words)}</h1><ul>{found}</ul>"))

    server.handle("/find", find)


def app_site(server: FaultServer) -> None:
    """A single-page app: a search box outside any form; Enter makes its script fetch JSON and list the results in
    place (the address does not change)."""
    serve_papers(server, PAPERS)
    script = (
        "<script>document.getElementById('box').addEventListener('keydown',async(e)=>{if(e.key!=='Enter')return;"
        "const r=await fetch('/api/search?q='+encodeURIComponent(e.target.value));const d=await r.json();"
        "const list=document.getElementById('results');list.innerHTML='';"
        "for(const p of d.items){const li=document.createElement('li');const a=document.createElement('a');"
        "a.href=p.url;a.textContent=p.title;li.appendChild(a);list.appendChild(li);}});</script>"
    )
    server.page(
        "/",
        page(
            "Preprints",
            "<div role='search'><input type='text' id='box' placeholder='Search preprints'></div>"
            "<h1>Preprints</h1><ul id='results'></ul>" + script,
        ),
    )

    def api(hit: Hit) -> Reply:
        words = (hit.form.get("q") or [""])[0]
        items = [{"title": p.title, "url": p.path} for p in _matching(words)]
        return Reply(200, json.dumps({"items": items}), content_type="application/json")

    server.handle("/api/search", api)


def _hits(server: FaultServer, path: str) -> list[Hit]:
    return [hit for hit in server.hits if hit.path.split("?")[0] == path]


def _paper_links(links: list[str], server: FaultServer) -> list[str]:
    return sorted(url for url in links if url.startswith(server.url("/paper/")))


async def _typed_search(server: FaultServer, settings: FetchSettings, words: str) -> tuple[FormSubmission, object]:
    async with Fetcher(settings) as fetcher:
        home = await fetcher.fetch(server.url("/"), render="http")
        mechanism = find_search_mechanism(home.html, url=home.final_url)
        assert mechanism is not None and mechanism.method == "TYPE", mechanism
        typed = build_search_submission(mechanism, words)
        return typed, await fetcher.submit(typed, site_url=server.url("/"))


@pytest.mark.browser
async def test_a_form_only_its_script_sends_is_typed_into_and_its_results_page_read(
    fault_server: FaultServer, browser_settings: FetchSettings
) -> None:
    script_form_site(fault_server)
    typed, results = await _typed_search(fault_server, browser_settings, "molecular graphs")
    assert results.ok and results.render == "browser", results.reason
    assert results.url == submission_identity(typed)
    assert results.final_url == fault_server.url("/find?terms=molecular+graphs")
    assert _paper_links([link.url for link in results.links], fault_server) == [fault_server.url("/paper/a1")]
    assert "typed 'molecular graphs'" in results.reason
    assert [hit.form.get("terms") for hit in _hits(fault_server, "/find")] == [["molecular graphs"]]
    assert not _hits(fault_server, "/action/doSearch")  # the script's address, not the form's action
    rendered_home, search = _hits(fault_server, "/")[-1], _hits(fault_server, "/find")[0]
    assert search.at - rendered_home.at >= 0.15  # Enter is pressed on the host's turn (0.2 s apart)


@pytest.mark.browser
async def test_a_search_box_an_app_reads_lists_its_results_in_place(
    fault_server: FaultServer, browser_settings: FetchSettings
) -> None:
    app_site(fault_server)
    typed, results = await _typed_search(fault_server, browser_settings, "point clouds")
    assert results.ok, results.reason
    # the address did not change: the search's identity is the results page's address
    assert results.url == results.final_url == submission_identity(typed)
    assert _paper_links([link.url for link in results.links], fault_server) == [fault_server.url("/paper/a2")]


@pytest.mark.browser
async def test_when_enter_does_nothing_the_button_beside_the_box_is_pressed(
    fault_server: FaultServer, browser_settings: FetchSettings
) -> None:
    script_form_site(fault_server)  # its /find results
    fault_server.page(
        "/",
        page(
            "Archive",
            "<div class='search-box' role='search'><input type='search' id='q' aria-label='Search the archive'>"
            "<button type='button' onclick=\"location.href='/find?terms='+"
            "encodeURIComponent(document.getElementById('q').value)\">Search</button></div><h1>Archive</h1>",
        ),
    )
    _, results = await _typed_search(fault_server, browser_settings, "sourdough")
    assert results.ok and results.final_url == fault_server.url("/find?terms=sourdough"), results.reason
    assert _paper_links([link.url for link in results.links], fault_server) == [fault_server.url("/paper/b1")]


@pytest.mark.browser
async def test_the_results_page_a_typed_search_leads_to_obeys_robots_txt(
    fault_server: FaultServer, browser_settings: FetchSettings
) -> None:
    script_form_site(fault_server)
    fault_server.robots("User-agent: *\nDisallow: /find\n")
    _, results = await _typed_search(fault_server, browser_settings, "molecular graphs")
    assert results.determination is Determination.REFUSED and "robots.txt" in results.reason, results.reason
    assert not _hits(fault_server, "/find")
    assert not [link for link in results.links if "/paper/" in link.url]  # the form's page is not passed off as results


@pytest.mark.browser
async def test_enter_that_changes_nothing_is_no_results_page(
    fault_server: FaultServer, browser_settings: FetchSettings
) -> None:
    serve_papers(fault_server, PAPERS)
    fault_server.page("/", page("Journal", "<input type='search' id='q' placeholder='Search'><h1>Journal</h1>"))
    _, results = await _typed_search(fault_server, browser_settings, "sourdough")
    assert results.determination is Determination.REFUSED and "changed nothing" in results.reason


async def test_without_the_browser_a_typed_search_is_refused_and_says_why(
    fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    script_form_site(fault_server)
    _, results = await _typed_search(fault_server, fast_settings.model_copy(update={"render": "http"}), "graphs")
    assert results.determination is Determination.REFUSED
    assert "typed into its page in the browser" in results.reason and "fetch.render is 'http'" in results.reason
    assert [hit.path for hit in fault_server.hits if not hit.path.startswith("/robots")] == ["/"]
