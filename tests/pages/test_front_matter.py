"""A Markdown paper's front matter shown on its page (a code forge's paper.md, a Pandoc source) is read as the
paper's own title, authors and date; a page under a "Summary" heading so titled is the paper, not a listing."""

from __future__ import annotations

from research_crawler.pages.metadata import read_item_metadata
from research_crawler.report.index_pages import index_page_reason

URL = "http://forge.test/ice/floe/-/blob/main/paper/paper.md"


def paper_page(front_matter: str) -> str:
    return (
        "<html><head><title>paper/paper.md · main · Ice Group / floe · Forge</title></head><body>"
        '<nav><a href="/ice">Ice Group</a> / <a href="/ice/floe">floe</a> / paper / paper.md</nav>'
        f'<pre lang="yaml"><code>{front_matter}</code></pre>'
        "<h1>Summary</h1><p>We measure sea ice drift from pairs of radar images.</p><h1>References</h1>"
        "</body></html>"
    )


JOSS = """---
title: 'Sea Ice Drift Measured from Radar Pairs'
tags:
  - Python
authors:
  - name: Ingrid Solberg
    orcid: 0000-0000-0000-0001
    affiliation: 1
  - name: Tomas Eriksen
    affiliation: "1, 2"
date: 3 March 2025
bibliography: paper.bib
---"""


def test_front_matter_gives_the_papers_title_authors_and_date() -> None:
    html = paper_page(JOSS)
    meta = read_item_metadata(html, url=URL)
    assert meta.title == "Sea Ice Drift Measured from Radar Pairs"
    assert meta.authors == ["Ingrid Solberg", "Tomas Eriksen"]
    assert meta.date == "2025-03-03"
    assert index_page_reason(URL, [], meta, html=html, page_title="paper/paper.md · main · Ice Group / floe") is None


def test_a_single_author_string_and_no_title_block() -> None:
    one = read_item_metadata(paper_page("---\ntitle: Fjord Tides\nauthor: Ada Berg\ndate: 2024-05-01\n---"), url=URL)
    assert (one.title, one.authors, one.date) == ("Fjord Tides", ["Ada Berg"], "2024-05-01")
    settings = read_item_metadata(paper_page("---\nname: build\non: [push]\n---"), url=URL)  # a CI file: no title
    assert settings.sources.get("title") != "front_matter"
    unsafe = read_item_metadata(paper_page("---\ntitle: !!python/object:os.system ls\n---"), url=URL)
    assert unsafe.sources.get("title") != "front_matter"
