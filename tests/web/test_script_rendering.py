"""Telling a script-rendered shell from a page that merely mentions JavaScript (fetch.render = "auto")."""

from __future__ import annotations

from pathlib import Path

import pytest
import realweb

from research_crawler.web.page_building import html_page, page_from_file
from research_crawler.web.rendering import script_rendering_reason

NOTICE = "<noscript><p>PaperStream needs JavaScript to show the list of papers.</p></noscript>"


def _reason(body: str) -> str | None:
    html = f"<html><head><title>t</title></head><body>{body}</body></html>"
    page = html_page(
        html,
        url="https://x.org/",
        final_url="https://x.org/",
        site_url="https://x.org/",
        status=200,
        content_type="text/html",
        render="http",
        attempts=1,
    )
    return script_rendering_reason(page.html, page.markdown)


def test_a_shell_that_asks_for_javascript_needs_the_browser() -> None:
    reason = _reason(f"<h1>Latest papers</h1><div id='list'></div>{NOTICE}")
    assert reason is not None and "asks for JavaScript" in reason and "PaperStream needs JavaScript" in reason


def test_a_long_page_with_a_javascript_notice_does_not() -> None:
    text = " ".join(["Every reader sees this server-rendered paragraph about protein folding."] * 40)
    assert _reason(f"<h1>An article</h1><p>{text}</p>{NOTICE}") is None


def test_an_empty_application_root_needs_the_browser_without_any_notice() -> None:
    reason = _reason("<div id='root'></div><script src='/bundle.js'></script>")
    assert reason is not None and "#root is empty" in reason
    assert _reason("<div id='root'><h1>Server-rendered</h1><p>Some words.</p></div>") is None


@pytest.mark.parametrize("body", ["<p>A short page.</p>", "<noscript><img src='/pixel.gif'></noscript>", ""])
def test_short_pages_without_a_javascript_signal_do_not(body: str) -> None:
    assert _reason(body) is None


@realweb.needs_realweb
def test_no_real_saved_page_is_taken_for_a_shell() -> None:
    """Five of the real pages carry a "please enable JavaScript" notice (PeerJ, ScienceDirect, ACM), all of them
    server-rendered: none may be fetched again through the browser."""
    pages = sorted((Path(realweb.REALWEB) / "pages").glob("*.html"))
    assert len(pages) >= 50
    flagged = [p.name for p in pages if script_rendering_reason((page := page_from_file(p)).html, page.markdown)]
    assert flagged == []
