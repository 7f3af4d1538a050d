"""A run whose every site refused it ends in one line that says what went wrong and what to do about it."""

from __future__ import annotations

import pytest

from research_crawler.cli.run_helpers import unreachable_everywhere
from research_crawler.report.models import Report, SiteSummary

START = "its start page http://a.example/ could not be opened: "


def _refused(detail: str) -> str | None:
    site = SiteSummary(name="a", url="http://a.example/", reason="unreachable", detail=START + detail)
    return unreachable_everywhere(Report(query="q", sites=[site], simulated_model=True))


@pytest.mark.parametrize(
    ("detail", "fix"),
    [
        ("http_error (HTTP 403)", "; the site refuses automated visitors there: try another site or another page"),
        ("http_error (HTTP 401)", "; the site refuses automated visitors there"),
        ("http_error (HTTP 404)", "; no such page: check the URL (open it in a browser)"),
        ("http_error (HTTP 503)", "; the site is failing: try again later"),
        (
            "http_error (HTTP 429; the server asked to retry after 3600 s, more than the 60 s we wait (attempt 1))",
            "; the site asks us to wait 3600 s: try again then, or let a run wait that long with "
            "--set fetch.max_retry_after_s=3600",
        ),
        ("http_error (HTTP 429)", "; the site asks us to slow down: try again later"),
        ("blocked (a sign-in page: Sign in)", "; its start page is a sign-in wall, a paywall or a robot check"),
        ("network_error (connection failed)", "; check the URL and that the host is up"),
        (
            "blocked_by_robots (robots.txt of a.example could not be read (the deadline of 30 s passed (1 attempt "
            "made)); the site is treated as disallowed for now)",
            "; its robots.txt did not answer in time: check that it is up, or give a page longer with "
            "--set fetch.page_deadline_s=60",
        ),
        (
            "blocked_by_robots (robots.txt of a.example could not be read (HTTP 503); the site is treated as "
            "disallowed for now)",
            "; its robots.txt could not be read (the site is failing): try again later",
        ),
        ("blocked_by_robots (robots.txt of a.example disallows /)", "; the site's robots.txt forbids it: try another"),
        (
            "timeout (the page deadline of 30 s passed (3 attempts made))",
            "; the site did not answer in time: check that it is up, or give a page longer with "
            "--set fetch.page_deadline_s=60",
        ),
    ],
)
def test_a_site_that_refuses_us_says_what_to_do(detail: str, fix: str) -> None:
    line = _refused(detail)
    assert line is not None and "\n" not in line
    assert line.startswith(f"no site could be opened: http://a.example/: {START}{detail}")
    assert fix in line


def test_a_site_whose_page_was_read_is_no_refusal() -> None:
    site = SiteSummary(name="a", url="http://a.example/", reason="all_sites_done", pages_visited=3)
    assert unreachable_everywhere(Report(query="q", sites=[site], simulated_model=True)) is None


def test_a_start_page_that_redirects_to_a_refused_address_never_prints_the_setting_that_allows_it() -> None:
    """The address a redirect leads to is the site's choice: the fix a message prints never allows it (a page never
    chooses what the URL guard allows), while a refusal of the address the user gave still says how to allow it."""
    redirected = (
        "refused (refused by the URL guard: 169.254.169.254 is a link-local address (169.254.0.0/16); allow it with: "
        "--set fetch.allowed_hosts=169.254.169.254:80)"
    )
    line = _refused(redirected)
    assert line is not None and "fetch.allowed_hosts" not in line, line
    said = "169.254.169.254:80 is where the site redirected, an address it chose: not allowed here; try another site"
    assert said in line, line
    own = "refused (refused by the URL guard: a.example resolves to 10.0.0.7, a private address (10.0.0.0/8))"
    assert (_refused(own) or "").endswith("; allow it with: --set fetch.allowed_hosts=a.example:80")
