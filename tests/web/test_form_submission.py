"""A search form sent by POST: through the URL guard, robots.txt and the host's pace like a page, with the site's
cookies; its results page known by the search it made (cached, never mistaken for the bare action URL)."""

from __future__ import annotations

from fault_server import FaultServer, Hit, Reply

from research_crawler.config.settings import FetchSettings
from research_crawler.context.urls import canonicalize_url
from research_crawler.pages.html_forms import FormSubmission, submission_identity
from research_crawler.pages.page import Determination
from research_crawler.web.fetcher import Fetcher

RESULTS = (
    "<html><head><title>Results</title></head><body><h1>Results for {q}</h1><a href='/p/1'>A paper</a></body></html>"
)


def _search(hit: Hit) -> Reply:
    if hit.method != "POST":
        return Reply(405, "<html><body>POST only</body></html>")
    query = hit.form.get("q", [""])[0]
    return Reply(200, RESULTS.format(q=query))


async def test_a_post_search_is_sent_and_its_page_known_by_the_search(
    fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    fault_server.handle("/search", _search)
    form = FormSubmission("POST", fault_server.url("/search"), (("q", "graph networks"), ("sort", "date")))
    async with Fetcher(fast_settings) as fetcher:
        page = await fetcher.submit(form, site_url=fault_server.url("/"))
        again = await fetcher.submit(form, site_url=fault_server.url("/"))
        bare = await fetcher.fetch(fault_server.url("/search"))
    identity = canonicalize_url(submission_identity(form))
    assert page.ok and page.title == "Results" and "Results for graph networks" in page.markdown
    assert page.url == page.final_url == identity  # not the bare action, which answers something else
    assert again is page  # cached by the search it made
    assert bare.determination is Determination.HTTP_ERROR and bare.status == 405
    (post,) = [hit for hit in fault_server.hits_for("/search") if hit.method == "POST"]
    assert post.form == {"q": ["graph networks"], "sort": ["date"]}
    assert post.headers["content-type"] == "application/x-www-form-urlencoded"


async def test_a_post_redirected_to_its_results_goes_on_as_a_get(
    fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    fault_server.handle("/search", lambda hit: Reply(303, "", headers={"Location": "/results?id=7"}))
    fault_server.handle("/results", lambda hit: Reply(200, RESULTS.format(q=hit.method)))
    form = FormSubmission("POST", fault_server.url("/search"), (("q", "gnn"),))
    async with Fetcher(fast_settings) as fetcher:
        page = await fetcher.submit(form)
    assert page.ok and page.final_url == fault_server.url("/results?id=7") and "Results for GET" in page.markdown
    assert [hit.method for hit in fault_server.hits_for("/results?id=7")] == ["GET"]


async def test_a_post_obeys_robots_txt_and_the_allowed_hosts(
    fault_server: FaultServer, other_server: FaultServer, fast_settings: FetchSettings
) -> None:
    fault_server.robots("User-agent: *\nDisallow: /search\n")
    fault_server.handle("/search", _search)
    other_server.handle("/search", _search)
    settings = fast_settings.model_copy(update={"allowed_hosts": [fault_server.host_port]})
    async with Fetcher(settings) as fetcher:
        disallowed = await fetcher.submit(FormSubmission("POST", fault_server.url("/search"), (("q", "x"),)))
        elsewhere = await fetcher.submit(FormSubmission("POST", other_server.url("/search"), (("q", "x"),)))
    assert disallowed.determination is Determination.BLOCKED_BY_ROBOTS
    assert elsewhere.determination is Determination.REFUSED
    assert not fault_server.hits_for("/search") and other_server.hit_count == 0


async def test_a_get_submission_is_a_page_fetch(fault_server: FaultServer, fast_settings: FetchSettings) -> None:
    fault_server.handle("/find", lambda hit: Reply(200, RESULTS.format(q=hit.form.get("q", ["?"])[0])))
    async with Fetcher(fast_settings) as fetcher:
        page = await fetcher.submit(FormSubmission("GET", fault_server.url("/find?q=gnn")))
    assert page.ok and page.url == fault_server.url("/find?q=gnn") and "Results for gnn" in page.markdown
