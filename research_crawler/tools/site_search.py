"""The site-search tool: submit the Planner's keywords through the search form or OpenSearch description
that the Scraper found on the current site; the results page is then read by the Scraper like any page.

The mechanisms are tried best first (`pages/search_forms.py` ranks them): an unusable one is skipped with its reason,
an OpenSearch description is fetched once to learn its URL template and, when it cannot be read, the next mechanism
is tried. A form is sent as its page says, GET or POST (a POST goes through the same URL guard, robots.txt and pace
as any page); one that only the page's script sends is typed into its box in the browser, as a person would. The
form's own date, sort and author fields are filled from the request. Nothing is guessed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date

from research_crawler.context.urls import try_canonicalize_url
from research_crawler.errors import ToolInputError
from research_crawler.pages.html_forms import FormSubmission, submission_identity
from research_crawler.pages.page import Determination, Page
from research_crawler.pages.search_dates import with_dates
from research_crawler.pages.search_forms import (
    QUERY_PLACEHOLDER,
    SearchMechanism,
    build_search_submission,
    find_search_mechanisms,
    read_opensearch_description,
)
from research_crawler.pages.search_links import search_page_link
from research_crawler.tools.exploration import Exploration, ScrapeTarget
from research_crawler.tools.hints import hint, with_hint

__all__ = ["forbidden_by_robots", "found_nothing", "search_page_mechanisms", "search_site", "usable_mechanisms"]

#: What a results page says when a search matched nothing ("0 results", "No articles match", "Nothing found"), and
#: a count of none of whatever the site holds, said found ("0 studies found", "No matching trials found").
_NOTHING_FOUND = re.compile(
    r"\b(?:0|no|zero)\s+(?:[a-z]+\s+){1,2}(?:were\s+)?found\b"
    r"|\b(?:0|no|zero)\s+(?:\w+\s+)?(?:results?|matches|hits|articles|papers|records|items|documents|entries)"
    r"(?:\s+(?:were\s+)?(?:found|match(?:ed)?))?\b|\bnothing\s+(?:was\s+)?found\b|\bdid\s+not\s+match\s+any\b"
    r"|\byour\s+search\b[^.]{0,40}\bno\s+results\b|\bfound\s+0\b",
    re.IGNORECASE,
)
_MAX_LOOK_CHARS = 4000
_HOW_SENT = {
    "POST": " (sent by POST, as the form says)",
    "TYPE": " (typed into its search box in the browser, since only the page's script sends it)",
}


def found_nothing(markdown: str) -> bool:
    """Whether a search results page says its search matched nothing (read near its top, where pages say it)."""
    return _NOTHING_FOUND.search(markdown[:_MAX_LOOK_CHARS]) is not None


def usable_mechanisms(mechanisms: list[SearchMechanism]) -> list[SearchMechanism]:
    """The mechanisms worth remembering for a site: usable forms, and OpenSearch descriptions (read later)."""
    return [m for m in mechanisms if m.usable or (m.kind == "opensearch" and m.description_url)]


def forbidden_by_robots(mechanism: SearchMechanism, refusal: Callable[[str], str | None] | None) -> SearchMechanism:
    """`mechanism`, unusable when robots.txt forbids the address its searches go to (`refusal` says why a URL is
    forbidden): a search nobody may send costs no page and is said to be forbidden, not tried."""
    if refusal is None or not mechanism.usable or mechanism.method == "TYPE" or not mechanism.url_template:
        return mechanism
    why = refusal(mechanism.url_template.replace(QUERY_PLACEHOLDER, "research"))
    if why is None:
        return mechanism
    return mechanism.model_copy(update={"usable": False, "note": f"its robots.txt forbids crawlers its search ({why})"})


def search_page_mechanisms(x: Exploration, page: Page, *, tried: set[str]) -> tuple[list[SearchMechanism], str]:
    """The search forms of the site's search page when `page` has none but links to one ("Search", "Advanced
    search", `pages/search_links.py`), and that page's URL; ([], "") when it names none, or one already in `tried`.

    The search page is read as a person clicks it, once per site and before the Planner chooses a page: fetched
    through the same URL guard, robots.txt and pace as any page, costing no subpage (like an OpenSearch description).
    One robots.txt forbids is not fetched, and its search is remembered as forbidden."""
    link = search_page_link(page.links, page_url=page.final_url)
    if link is None or link.url in tried:
        return [], ""
    tried.add(link.url)
    refusal = x.pages.robots_refusal(link.url) if x.pages.robots_refusal is not None else None
    if refusal is not None:
        note = f"its robots.txt forbids crawlers its search page ({refusal})"
        return [SearchMechanism(kind="form", url_template=link.url, usable=False, note=note)], link.url
    found = x.pages.fetch_page(link.url, x.site)
    x.trace.emit("search_page", url=link.url, determination=found.determination.value, link_text=link.text)
    if not found.ok or not found.html:
        return [], ""
    x.graph.add_link(page.final_url, found.final_url, anchor_text=link.text)
    mechanisms = usable_mechanisms(find_search_mechanisms(found.html, url=found.final_url))
    return [forbidden_by_robots(m, x.pages.robots_refusal) for m in mechanisms], found.final_url


def search_site(x: Exploration, query: str) -> str:
    """Open the results of `query` on the current site for the Scraper (costs one subpage); the message
    the Planner reads says which mechanism was used, or why the site cannot be searched."""
    state = x.hint_state()
    if x.subpages_left <= 0:
        return "Error: no subpages are left on this site. Call finish_site."
    if not isinstance(query, str) or not query.strip():
        return "Error: the search query is empty. Give the keywords to search for."
    mechanisms = x.findings.site_search.get(x.site.url, [])
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
            submission = build_search_submission(resolved, query)
        except ToolInputError as exc:
            problems.append(str(exc))
            continue
        submission, filled = _request_fields(x, submission, resolved)
        return _open(x, submission, query, how=resolved.kind, filled=filled)
    reasons = "; ".join(dict.fromkeys(p for p in problems if p))
    text = f"The site's search cannot be used: {reasons}. Nothing was submitted."
    return with_hint(text, hint("search_site", "unusable", state))


def _resolve(x: Exploration, mechanism: SearchMechanism) -> tuple[SearchMechanism | None, str]:
    """`mechanism` ready to build a URL (an OpenSearch description read first), or None and why not."""
    if mechanism.kind != "opensearch" or mechanism.url_template:
        return (mechanism, "") if mechanism.usable else (None, mechanism.note or "unusable")
    url = mechanism.description_url or ""
    page = x.pages.fetch_page(url, x.site)
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


def _request_fields(
    x: Exploration, submission: FormSubmission, mechanism: SearchMechanism
) -> tuple[FormSubmission, list[str]]:
    """`submission` with the request's dates, "newest first" and author in the form's own fields, when it has them;
    and what was filled, in words."""
    request = x.search.request
    if request is None:
        return submission, []
    filled: list[str] = []
    if mechanism.dates.any:
        start, end = request.window(today=date.today(), recent_days=x.settings.report.recent_days)
        newest = request.order == "newest"
        submission, filled = with_dates(submission, mechanism.dates, start=start, end=end, newest=newest)
    if mechanism.author_field and request.authors:
        submission = submission.with_values({mechanism.author_field: request.authors[0]})
        filled.append(f"{mechanism.author_field}={request.authors[0]}")
    return submission, filled


def _open(x: Exploration, submission: FormSubmission, query: str, *, how: str, filled: list[str]) -> str:
    canonical = try_canonicalize_url(submission_identity(submission))
    if canonical is None or x.web.is_visited(canonical):
        x.stuck.record_bad_choice(submission.url, "this search was already made")
        return "Error: this search was already made on this site. Try other keywords or another URL."
    form_page = x.findings.search_form_pages.get(x.site.url)
    if form_page is not None:
        x.graph.add_link(form_page, canonical, anchor_text=f"site search: {query}")
    # Like a page chosen with scrape_url, the results page enters VU when the Scraper starts reading it.
    posted = submission if submission.method != "GET" else None
    x.findings.searched.add(x.site.url)
    x.flow.planner_action = "scrape"
    x.flow.scrape_target = ScrapeTarget(canonical, kind="search", search_query=query, form=posted)
    through = "its search form" if how == "form" else "its OpenSearch description"
    sent = _HOW_SENT.get(submission.method, "")
    fields = f", with the request's dates, order or author in the form ({', '.join(filled)})" if filled else ""
    return (
        f"Searching the site for {query.strip()!r} through {through}{sent}{fields}: "
        f"opening {canonical} for the Scraper."
    )
