"""The saved pages' titles, read by the instrument itself (never the product's metadata reader): ``citation_title``,
else ``og:title``, else ``<title>`` up to " | "."""

from __future__ import annotations

from pathlib import Path

import pytest

from research_crawler.eval.saved_pages import read_saved_pages

_MANIFEST_HEADER = "file\tsite\tpage_kind\toriginal_url\n"


def _title_of(tmp_path: Path, head: str) -> str:
    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "page.html").write_text(
        f"<html><head>{head}</head><body><h1>A heading the instrument does not read</h1></body></html>",
        encoding="utf-8",
    )
    (tmp_path / "MANIFEST.tsv").write_text(
        _MANIFEST_HEADER + "page.html\tsite\tarticle\thttps://papers.test/abs/1\n", encoding="utf-8"
    )
    [page] = read_saved_pages(tmp_path)
    return page.title


@pytest.mark.parametrize(
    ("head", "title"),
    [
        (
            '<title>Page title | Site</title><meta property="og:title" content="Open Graph title">'
            '<meta name="citation_title" content="  Citation\n title ">',
            "Citation title",
        ),
        ('<title>Page title | Site</title><meta property="og:title" content="Open Graph title">', "Open Graph title"),
        ('<meta name="citation_title" content=" "><title>Page title | Site | More</title>', "Page title"),
        ("<title>Título de la página — Sitio</title>", "Título de la página — Sitio"),
        ("", ""),
    ],
)
def test_a_saved_pages_title_is_its_citation_title_else_og_title_else_its_title_before_a_bar(
    tmp_path: Path, head: str, title: str
) -> None:
    assert _title_of(tmp_path, head) == title
