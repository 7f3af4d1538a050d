"""A page that calls itself a draft and carries no file is work in progress, never an issued work."""

from __future__ import annotations

from research_crawler.pages.draft_status import declares_an_unissued_draft
from research_crawler.pages.html_tree import parse_html

_PAGE = (
    "<html><body><header><a href='/'>Team wiki</a></header><main><h1>{heading}</h1><table><tr><th>Report number</th>"
    "<td>TBC</td></tr><tr><th>Status</th><td>{status}</td></tr></table><p>Notes on sensors.</p></main></body></html>"
)


def test_a_page_headed_draft_or_with_a_draft_status_and_no_file_is_an_unissued_draft() -> None:
    headed = parse_html(_PAGE.format(heading="DRAFT Sensor procurement options", status="IN REVIEW"))
    assert declares_an_unissued_draft(headed, title="DRAFT Sensor procurement options", has_file=False)
    status = parse_html(_PAGE.format(heading="Sensor procurement options", status="DRAFT"))
    assert declares_an_unissued_draft(status, title="Sensor procurement options", has_file=False)


def test_a_final_report_a_draft_with_its_file_and_a_title_about_drafts_are_not() -> None:
    final = parse_html(_PAGE.format(heading="Slab Track Vibration", status="FINAL"))
    assert not declares_an_unissued_draft(final, title="Slab Track Vibration", has_file=False)
    issued = parse_html(_PAGE.format(heading="Draft: Guide to Track Sensors", status="Initial Public Draft"))
    assert not declares_an_unissued_draft(issued, title="Draft: Guide to Track Sensors", has_file=True)
    about = parse_html(_PAGE.format(heading="Drafting Rules for Track Drawings", status="FINAL"))
    assert not declares_an_unissued_draft(about, title="Drafting Rules for Track Drawings", has_file=False)
    assert not declares_an_unissued_draft(None, title="DRAFT notes", has_file=False)
