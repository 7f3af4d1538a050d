"""The site-search tool: submit the Planner's keywords through the search form or OpenSearch description
that the Scraper found on the current site; the results page is then read by the Scraper like any page.

The mechanisms are tried best first (`pages/search_forms.py` ranks them): an unusable one (POST-only,
script-driven) is skipped with its reason, an OpenSearch description is fetched once to learn its URL
template and, when it cannot be read, the next mechanism is tried. Nothing is guessed.
"""

from __future__ import annotations

from datetime import date

from research_crawler.context.urls import try_canonicalize_url
from research_crawler.errors import ToolInputError
from research_crawler.pages.page import Determination
from research_crawler.pages.search_dates import with_dates
from research_crawler.pages.search_forms import SearchMechanism, build_search_url, read_opensearch_description
from research_crawler.tools.exploration import Exploration, ScrapeTarget
from research_crawler.tools.hints import hint, with_hint

__all__ = ["search_site", "usable_mechanisms"]


def usable_mechanisms(mechanisms: list[SearchMechanism]) -> list[SearchMechanism]:
    """The mechanisms worth remembering for a site: usable forms, and OpenSearch descriptions (read later)."""
    return [m for m in mechanisms if m.usable or (m.kind == "opensearch" and m.description_url)]


def search_site(x: Exploration, query: str) -> str:
    """Open the results of `query` on the current site for the Scraper (costs one subpage); the message
    the Planner reads says which mechanism was used, or why the site cannot be searched."""
    state = x.hint_state()
    if x.subpages_left <= 0:
        return "Error: no subpages are left on this site. Call finish_site."
    if not isinstance(query, str) or not query.strip():
        return "Error: the search query is empty. Give the keywords to search for."
    mechanisms = x.site_search.get(x.site.url, [])
    if not mechanisms:
        text = "No usable search form has been seen on this site yet."
        return with_hint(text, hint("search_site", "unusable", state))
    problems: list[str] = []
    for position, mechanism in enumerate(mechanisms):
        resolved, problem = _resolve(x, mechanism)
        if resolved is None:
            problems.append(problem)
            continue
        mechanisms[position] = resolved  # the description is read once per site
        try:
            search_url = build_search_url(resolved, query)
        except ToolInputError as exc:
            problems.append(str(exc))
            continue
        search_url, filled = _request_dates(x, search_url, resolved)
        return _open(x, search_url, query, how=resolved.kind, filled=filled)
    reasons = "; ".join(dict.fromkeys(p for p in problems if p))
    text = f"The site's search cannot be used: {reasons}. Nothing was submitted."
    return with_hint(text, hint("search_site", "unusable", state))


def _resolve(x: Exploration, mechanism: SearchMechanism) -> tuple[SearchMechanism | None, str]:
    """`mechanism` ready to build a URL (an OpenSearch description read first), or None and why not."""
    if mechanism.kind != "opensearch" or mechanism.url_template:
        return (mechanism, "") if mechanism.usable else (None, mechanism.note or "unusable")
    url = mechanism.description_url or ""
    page = x.fetch_page(url, x.site)
    # The description is XML, which the fetcher marks non_html while keeping its text.
    if page.determination not in (Determination.OK, Determination.NON_HTML) or not page.html:
        detail = f"{page.determination.value}: {page.reason}" if page.reason else page.determination.value
        return None, f"its OpenSearch description at {url} could not be fetched ({detail})"
    found = read_opensearch_description(page.html, url=page.final_url or url)
    if found is None:
        return None, f"its OpenSearch description at {url} has no HTML search URL template"
    if not found.usable:
        return None, f"its OpenSearch description at {url} cannot be used: {found.note}"
    return found, ""


def _request_dates(x: Exploration, search_url: str, mechanism: SearchMechanism) -> tuple[str, list[str]]:
    """`search_url` with the request's dates and "newest first" in the form's own fields, when it has them."""
    request = x.search.request
    if request is None or not mechanism.dates.any:
        return search_url, []
    start, end = request.window(today=date.today(), recent_days=x.settings.report.recent_days)
    return with_dates(search_url, mechanism.dates, start=start, end=end, newest=request.order == "newest")


def _open(x: Exploration, search_url: str, query: str, *, how: str, filled: list[str]) -> str:
    canonical = try_canonicalize_url(search_url)
    if canonical is None or x.web.is_visited(canonical):
        x.stuck.record_bad_choice(search_url, "this search was already made")
        return "Error: this search was already made on this site. Try other keywords or another URL."
    form_page = x.search_form_pages.get(x.site.url)
    if form_page is not None:
        x.graph.add_link(form_page, canonical, anchor_text=f"site search: {query}")
    # Like a page chosen with scrape_url, the results page enters VU when the Scraper starts reading it.
    x.planner_action, x.scrape_target = "scrape", ScrapeTarget(canonical, kind="search", search_query=query)
    through = "its search form" if how == "form" else "its OpenSearch description"
    dates = f", with the request's dates and order in the form ({', '.join(filled)})" if filled else ""
    return f"Searching the site for {query.strip()!r} through {through}{dates}: opening {canonical} for the Scraper."
