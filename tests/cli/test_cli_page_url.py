"""`research-crawler page FILE --url URL`: a saved page read as if it were at its original address."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from research_crawler.cli.app import app

runner = CliRunner()

# A saved table of contents with no canonical link and no <base>: its links are relative.
SAVED_TOC = """<html><head><title>Issue 3 contents</title></head><body><h1>Issue 3</h1><ul>
<li><a href="../articles/101">First paper</a></li><li><a href="../articles/102">Second paper</a></li>
<li><a href="/about">About</a></li></ul></body></html>"""


def _one_line_error(output: str) -> str:
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].lower().startswith("error:") and "Traceback" not in output, output
    return lines[0]


def test_relative_links_of_a_saved_page_resolve_against_its_url(home: Path) -> None:
    (home / "toc.html").write_text(SAVED_TOC, encoding="utf-8")
    alone = runner.invoke(app, ["page", "toc.html", "--json"])
    assert alone.exit_code == 0 and json.loads(alone.output)["links"] == []  # nowhere to resolve them against
    located = runner.invoke(app, ["page", "toc.html", "--url", "https://journal.example.org/issues/3", "--json"])
    assert located.exit_code == 0, located.output
    shown = json.loads(located.output)
    assert [link["url"] for link in shown["links"]] == [
        "https://journal.example.org/articles/101",
        "https://journal.example.org/articles/102",
        "https://journal.example.org/about",
    ]
    assert shown["final_url"] == "https://journal.example.org/issues/3"


def test_a_bad_url_or_a_url_for_a_url_is_one_line_with_the_command_to_type(home: Path) -> None:
    (home / "toc.html").write_text(SAVED_TOC, encoding="utf-8")
    for url, why in [
        ("ftp://journal.example.org/", "only http(s) URLs are allowed, not 'ftp'"),
        ("https://user:pw@journal.example.org/", "URL carries credentials"),  # an http(s) address all the same
        ("https://journal.example.org:99999/", "Port out of range"),
    ]:
        bad = runner.invoke(app, ["page", "toc.html", "--url", url])
        assert bad.exit_code == 1
        error = _one_line_error(bad.output)
        assert why in error and "research-crawler page toc.html --url https://" in error, error
    twice = runner.invoke(app, ["page", "https://journal.example.org/", "--url", "https://journal.example.org/"])
    assert twice.exit_code == 2  # a usage error, as every flag the command refuses
    assert "research-crawler page FILE --url https://journal.example.org/" in _one_line_error(twice.output)


def test_a_search_only_its_script_sends_is_shown_as_typed_into_its_box(home: Path) -> None:
    saved = SAVED_TOC.replace(
        "<h1>", '<form action="/s" onsubmit="go(); return false;"><input type="search" id="qs"></form><h1>'
    )
    (home / "toc.html").write_text(saved, encoding="utf-8")
    shown = runner.invoke(app, ["page", "toc.html", "--url", "https://journal.example.org/issues/3", "--json"])
    assert shown.exit_code == 0, shown.output
    search = json.loads(shown.output)["search"]
    assert (search["method"], search["query_field"], search["usable"]) == ("TYPE", "#qs", True)
    assert search["url_template"] == "https://journal.example.org/issues/3"
    told = runner.invoke(
        app, ["page", "toc.html", "--url", "https://journal.example.org/issues/3"], env={"COLUMNS": "200"}
    )
    assert "typed into #qs in the browser, on https://journal.example.org/issues/3 (usable)" in told.output


# A saved article page: its <title> carries the site's name, its form a relative action.
SAVED_ARTICLE = """<html><head><title>Tidal mixing in fjords | Journal of Coastal Things</title>
<meta name="citation_title" content="Tidal mixing in fjords"><meta name="citation_author" content="Ana Quist">
</head><body><form action="/search"><input name="q"></form><h1>Tidal mixing in fjords</h1></body></html>"""


def test_the_title_shown_is_the_works_and_the_tab_title_is_kept_apart(home: Path) -> None:
    (home / "article.html").write_text(SAVED_ARTICLE, encoding="utf-8")
    shown = json.loads(runner.invoke(app, ["page", "article.html", "--json"]).output)
    assert shown["title"] == shown["metadata"]["title"] == "Tidal mixing in fjords"
    assert shown["head_title"] == "Tidal mixing in fjords | Journal of Coastal Things"
    (home / "toc.html").write_text(SAVED_TOC, encoding="utf-8")
    listing = json.loads(runner.invoke(app, ["page", "toc.html", "--json"]).output)
    assert listing["title"] == listing["head_title"] == "Issue 3 contents"  # no work's title: the page's own


def test_a_saved_pages_relative_search_form_says_to_give_its_address(home: Path) -> None:
    (home / "article.html").write_text(SAVED_ARTICLE, encoding="utf-8")
    alone = json.loads(runner.invoke(app, ["page", "article.html", "--json"]).output)["search"]
    assert not alone["usable"] and alone["note"].endswith("page FILE --url URL")
    located = runner.invoke(app, ["page", "article.html", "--url", "https://coast.example.org/a/1", "--json"])
    search = json.loads(located.output)["search"]
    assert search["usable"] and search["url_template"].startswith("https://coast.example.org/search")


def test_the_page_view_tells_one_author_from_the_next(home: Path) -> None:
    saved = """<html><head><title>A paper</title><meta name="citation_title" content="A paper">
<meta name="citation_author" content="Schneider, Minh"><meta name="citation_author" content="Mbeki, Mateo">
</head><body><h1>A paper</h1><p>By Minh Schneider and Mateo Mbeki</p></body></html>"""
    (home / "paper.html").write_text(saved, encoding="utf-8")
    shown = runner.invoke(app, ["page", "paper.html"], env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    line = next(line for line in shown.output.splitlines() if "authors" in line)
    assert "Schneider, Minh; Mbeki, Mateo" in line, line  # not "Schneider, Minh, Mbeki, Mateo": four names?
