"""A hostile site on loopback, through the installed command as a user runs it on a colour terminal: its control
sequences, bidi overrides, zero-width characters and console markup reach no output raw — not the terminal (stdout
or the live view on stderr), report.md, items.bib, report.json, the graph files, state.json or the trace — and an
item whose link redirects to a refused address is left out of the report."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from research_crawler.eval.reliability.fault_web import FaultServer, Reply
from research_crawler.eval.reliability.hostile_site import (
    HOSTILE,
    QUERY,
    REFUSED_ITEM_PATH,
    hostile_site,
    leftovers,
    terminal_links,
)
from research_crawler.eval.reliability.hostile_text_cases import decoded_text, on_a_terminal
from research_crawler.report.models import Report
from research_crawler.run.trace import read_trace

REPO = Path(__file__).resolve().parents[2]
FILES = (
    "report.md", "items.bib", "report.json", "graph.json", "graph.graphml", "state.json", "trace.jsonl", "run.json"
)


@pytest.fixture(scope="module")
def site() -> Iterator[FaultServer]:
    pages = hostile_site()
    with FaultServer() as server:
        for path, html in pages.pages.items():
            server.page(path, html)
        server.route(REFUSED_ITEM_PATH, Reply(302, headers={"Location": pages.refused_target}))
        yield server


def _on_a_terminal(tmp_path: Path, site: FaultServer, *arguments: str) -> subprocess.CompletedProcess[str]:
    """`research-crawler ARGUMENTS` with Rich writing as to a colour terminal (hyperlinks, live view and all)."""
    return on_a_terminal(tmp_path, site.host_port, *arguments)


def _ask(tmp_path: Path, site: FaultServer, out: Path) -> subprocess.CompletedProcess[str]:
    arguments = ["ask", QUERY, "--site", site.url("/"), "--model", "simulated", "--out", str(out)]
    return _on_a_terminal(tmp_path, site, *arguments)


def test_a_hostile_site_reaches_no_output_raw(tmp_path: Path, site: FaultServer) -> None:
    out = tmp_path / "run"
    done = _ask(tmp_path, site, out)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "\x1b[" in done.stdout and "\x1b[" in done.stderr, "not written as to a terminal: the test proves nothing"
    assert leftovers(done.stdout, terminal=True) == [], "stdout"
    assert leftovers(done.stderr, terminal=True) == [], "stderr (the live view)"
    report = Report.model_validate_json((out / "report.json").read_text(encoding="utf-8"))
    assert len(report.items) >= 3
    assert terminal_links(done.stdout) <= {item.url for item in report.items}, "a hyperlink to a page's choosing"
    for name in FILES:
        assert leftovers(decoded_text(out / name)) == [], name
    # The payloads' visible remains are data, shown as text: "[/red]" literally, and no link to evil.example.
    assert "[/red]" in done.stdout
    markdown = (out / "report.md").read_text(encoding="utf-8")
    assert "](http://evil.example" not in markdown and "http://evil.example" not in terminal_links(done.stdout)
    assert "Hostile Preprints" in markdown and "\\[/red\\]" in markdown, "the site's name is escaped Markdown"


def test_an_item_whose_link_redirects_to_a_refused_address_is_left_out(tmp_path: Path, site: FaultServer) -> None:
    out = tmp_path / "run"
    done = _ask(tmp_path, site, out)
    assert done.returncode == 0, done.stderr[-3000:]
    report = Report.model_validate_json((out / "report.json").read_text(encoding="utf-8"))
    refused = site.url(REFUSED_ITEM_PATH)
    assert refused not in {item.url for item in report.items}
    assert refused not in (out / "report.md").read_text(encoding="utf-8")
    assert refused not in (out / "items.bib").read_text(encoding="utf-8")
    events = [e for e in read_trace(out / "trace.jsonl") if e["event"] == "item_refused"]
    assert [e["url"] for e in events] == [refused] and "10.0.0.7" in events[0]["final_url"]


@pytest.mark.parametrize("path", ["/", "/abs/1", "/abs/3"])
def test_page_shows_hostile_text_as_text(tmp_path: Path, site: FaultServer, path: str) -> None:
    done = _on_a_terminal(tmp_path, site, "page", site.url(path))
    assert done.returncode == 0, done.stderr[-3000:]
    assert "MarkupError" not in done.stderr and done.stderr == ""
    assert leftovers(done.stdout, terminal=True) == []
    assert terminal_links(done.stdout) == set(), "page text made a hyperlink"
    assert HOSTILE["markup_close"] in done.stdout, "console markup is shown literally"


@pytest.mark.parametrize("control", ["\x0c", "\x1b", "\x08", "\x0b", "\ufffe"])
def test_a_control_character_beside_a_script_is_read_past(tmp_path: Path, control: str) -> None:
    """lxml parses a control character no XML may hold into the tree but refuses it once the tree is edited (a
    script taken out of the paragraph it sits in): a form feed on one item's page stopped the whole run."""
    from research_crawler.pages.metadata import read_item_metadata

    html = (
        f"<html><head><title>Message passing{control} for proteins</title></head><body>"
        f"<h1>Message passing{control} for proteins<script>var x = 1;</script></h1>"
        f"<p>by Ada Lovelace{control}<style>p {{}}</style> and Alan Turing</p></body></html>"
    )
    assert read_item_metadata(html, url="https://example.org/abs/1").title == "Message passing for proteins"
    saved = tmp_path / "page.html"
    saved.write_text(html, encoding="utf-8")
    command = [str(REPO / ".venv/bin/research-crawler"), "page", str(saved), "--json"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
