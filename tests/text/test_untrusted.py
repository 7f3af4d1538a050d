"""Untrusted text never carries a control, bidi or zero-width character into any output: the sanitiser itself, the
page's own fields, the run's files and the terminal, over arbitrary strings (hypothesis) and a hostile page."""

from __future__ import annotations

import html
import io
import json
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from research_crawler.cli import inspect_commands
from research_crawler.cli.page_inspection import inspection_of
from research_crawler.cli.report_view import show_item_sources, show_items, show_report
from research_crawler.config.settings import PageViewSettings
from research_crawler.pages.metadata import read_item_metadata
from research_crawler.report.models import Report, ReportItem, SiteSummary
from research_crawler.report.writers import write_report
from research_crawler.text.untrusted import untrusted
from research_crawler.web.fetcher import page_from_file

#: What must never come out: C0 but tab and newline, DEL, C1, bidi controls, zero-width characters, BOM, noncharacters.
FORBIDDEN = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff"
    "\ufdd0-\ufdef\ufffe\uffff\U0001fffe\U0001ffff\U0010fffe\U0010ffff]"
)
HOSTILE = (
    "Graph \x1b[2J\x1b]0;pwned\x07neural [/red] networks \x1b]8;;http://evil.example/\x07click\x1b]8;;\x07 "
    "\u202eevil\u202c \u200bzero\u2060width \x9b31m [link=http://evil.example/]x[/link]"
)
#: Arbitrary text with the dangerous characters made frequent.
texts = st.text(
    alphabet=st.one_of(
        st.characters(codec="utf-8"),
        st.sampled_from("\x1b\x07\x9b\x9d\x00\r\x7f\u202e\u2066\u200b\ufeff\ufffe\uffff\U0010ffff[]/\\{}<>&\"'%#$_^~"),
    ),
    max_size=60,
)


@given(texts)
def test_the_sanitiser_leaves_no_forbidden_character(text: str) -> None:
    cleaned = untrusted(text)
    assert not FORBIDDEN.search(cleaned)
    assert untrusted(cleaned) == cleaned
    assert {c for c in text if c in "\t\n"} <= set(cleaned) | {c for c in text if c not in "\t\n"}


def _page_html(text: str) -> str:
    value = html.escape(text, quote=True)
    return (
        f'<html><head><title>{value}</title><meta name="citation_title" content="{value}">'
        f'<meta name="citation_author" content="{value}"><meta name="citation_abstract" content="{value}">'
        f'<meta name="citation_date" content="2025-05-01"></head>'
        f'<body><h1>{value}</h1><p>{value}</p><a href="/x">{value}</a></body></html>'
    )


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(texts)
def test_a_pages_fields_come_out_clean(text: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "page.html"
        path.write_text(_page_html(text), encoding="utf-8", errors="surrogatepass")
        page = page_from_file(path, settings=PageViewSettings())
    meta = read_item_metadata(page.html, url=page.final_url)
    values = [page.title, page.markdown, *(link.text for link in page.links), meta.title or "", *meta.authors]
    values.append(meta.abstract or "")
    assert not [v for v in values if FORBIDDEN.search(v)]


def _report(text: str) -> Report:
    item = ReportItem(
        rank=1, title=text or "t", url="http://127.0.0.1:8001/abs/1", site="http://127.0.0.1:8001/",
        found_on="http://127.0.0.1:8001/list", collector_score=8, authors=[text, "Ada Lovelace"], date="2025-05-01",
        abstract=text, description=text, doi="10.1234/x",
    )  # fmt: skip
    site = SiteSummary(name=text or "s", url="http://127.0.0.1:8001/", reason="completed", detail=text)
    return Report(query=f"papers on {text}", simulated_model=True, items=[item], sites=[site], markdown=text)


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(texts)
def test_the_run_files_and_the_terminal_come_out_clean(text: str) -> None:
    report = _report(text)
    with tempfile.TemporaryDirectory() as folder:
        write_report(report, Path(folder))
        for name in ("report.md", "items.bib"):
            assert not FORBIDDEN.search((Path(folder) / name).read_text(encoding="utf-8")), name
        strings: list[str] = []
        _strings(json.loads((Path(folder) / "report.json").read_text(encoding="utf-8")), strings)
        assert not [s for s in strings if FORBIDDEN.search(s)]
    out = io.StringIO()
    console = Console(file=out, force_terminal=False, width=100)
    show_report(console, report)
    show_items(console, report)
    show_item_sources(console, report.items[0])
    assert not FORBIDDEN.search(out.getvalue())


def _strings(value: object, into: list[str]) -> None:
    if isinstance(value, str):
        into.append(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            into.append(str(key))
            _strings(item, into)
    elif isinstance(value, list):
        for item in value:
            _strings(item, into)


@pytest.mark.parametrize("terminal", [False, True])
def test_page_shows_a_hostile_page_as_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, terminal: bool
) -> None:
    """The `page` command: no crash on markup in a title, no escape code or hyperlink from the page reaches the
    terminal (Rich's own styling codes, on a terminal, are the only escape sequences)."""
    path = tmp_path / "hostile.html"
    path.write_text(_page_html(HOSTILE), encoding="utf-8")
    out = io.StringIO()
    monkeypatch.setattr(inspect_commands, "console", Console(file=out, force_terminal=terminal, width=120))
    inspect_commands._show_inspection(inspection_of(page_from_file(path, settings=PageViewSettings())))
    shown = out.getvalue()
    without_styles = re.sub(r"\x1b\[[0-9;]*m", "", shown)  # Rich's own SGR codes when on a terminal
    assert not FORBIDDEN.search(without_styles), repr(without_styles[:300])
    assert "[/red] networks" in without_styles and "[link=http://evil.example/]x[/link]" in without_styles
    assert "\x1b]8" not in shown, "no hyperlink escape reaches the terminal"


def test_noncharacters_are_removed_since_no_xml_may_hold_them() -> None:
    assert untrusted("a\ufffe\uffff\ufdd0\ufdef\U0001fffe\U0010ffffb\U0010fffd") == "ab\U0010fffd"
