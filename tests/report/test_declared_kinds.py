"""A page that declares itself another kind of record than the request's — "Resource type: Dataset", a "Type" row
saying Software, a "Guidance" caption over its heading, a JSON-LD Dataset — is no paper, and a report of papers
leaves it out, said in the trace; a page declaring a kind of text work, or nothing, is kept (pages of the test's
own)."""

from __future__ import annotations

from pathlib import Path

import pytest

from research_crawler.config.settings import Settings
from research_crawler.context.graph import NavigationGraph
from research_crawler.context.search_context import SearchContext, SiteRef
from research_crawler.context.web_context import WebContext
from research_crawler.nested_chats import report_items
from research_crawler.pages.declared_kind import declared_kind, names_another_kind
from research_crawler.pages.html_forms import FormSubmission
from research_crawler.pages.html_tree import parse_html
from research_crawler.pages.page import Determination, Page
from research_crawler.pages.view import build_page_view
from research_crawler.run.trace import Trace, read_trace
from research_crawler.tools.exploration import Exploration, PageAccess

SITE = "http://outputs.test/"


def _html(body: str, head: str = "") -> str:
    return (
        f"<html><head><title>Record</title>{head}</head><body><nav><a href='/'>Home</a> <a href='/data'>Data</a>"
        f"</nav><main>{body}</main><footer>Kind of work: see the help pages</footer></body></html>"
    )


_POSTING = '<script type="application/ld+json">{"@type": "BlogPosting", "headline": "Post"}</script>'
PAGES = {
    SITE + "r/1": _html(
        "<h1>Nitrate Leaching under Wet Springs</h1><p>Ines Moreau, Tariq Bello</p><p>3 May 2023</p>"
        "<dl><dt>Output type</dt><dd>Journal article</dd></dl><h2>Abstract</h2><p>We measured nitrate losses.</p>"
    ),
    SITE + "r/2": _html(
        "<h1>Lysimeter nitrate records from wet springs, 2019 to 2022</h1><p>Ines Moreau</p><p>5 May 2023</p>"
        "<table><tr><th>Resource type</th><td>Dataset</td></tr></table>"
    ),
    SITE + "r/3": _html(
        "<span class='caption'>Guidance</span><h1>Nitrate rules for farmers: what to do in wet springs</h1>"
        "<p>Published 2 June 2023</p><p>How to keep to the nitrate rules.</p>"
    ),
    SITE + "r/4": _html(
        "<h1>nitrate-tools: scripts for lysimeter data</h1><p>Tariq Bello</p><p>2022</p>",
        head='<script type="application/ld+json">{"@type": "SoftwareSourceCode", "name": "nitrate-tools"}</script>',
    ),
    # a group's blog post on its new paper, with the paper's file: the post announces the work
    SITE + "r/5": _html(
        "<h1>Nitrate Pulses after Wet Springs</h1><p>Mar 4, 2024 • Ines Moreau</p><p>Our paper by Tariq Bello and "
        "Ana Lopes has just come out.</p><p><a href='/files/nitrate-pulses.pdf'>Full text (PDF)</a></p>",
        head=_POSTING,
    ),
    # a post that carries no work: the group's news
    SITE + "r/6": _html("<h1>Nitrate field day in the wet spring</h1><p>Mar 9, 2024 • Ines Moreau</p>", head=_POSTING),
}


@pytest.mark.parametrize(
    ("body", "head", "kind"),
    [
        ("<p>Type: Patent</p><h1>A lysimeter lid</h1>", "", "Patent"),
        ("<div><div>Type</div><div><a href='/k/sw'>Software</a></div></div><h1>soilkit</h1>", "", "Software"),
        ("<p class='kicker'>Official Statistics</p><h1>Farm nitrate returns, 2024</h1>", "", "Official Statistics"),
        ("<p class='kicker'>Research and analysis</p><h1>Nitrate in wells</h1>", "", "Research and analysis"),
        ("<p>Software Engineering Notes</p><h1>Testing lysimeter code</h1>", "", None),
        ("<h1>Lysimeter nitrate records, 2019 to 2022</h1><p>Dataset</p><p>Soil Institute, 2023</p>", "", "Dataset"),
        ("<h1>A lysimeter lid</h1><p>Research output: Patent</p>", "", "Patent"),
        ("<h1>Wet springs leach more nitrate</h1><p>Press/Media: Research</p>", "", "Press/Media: Research"),
        ("<p>Research</p><h1>Nitrate in wells</h1>", "", None),
        (
            "<h1>Nitrate in wells</h1><p>Research output: Contribution to journal › Article</p>",
            "",
            "Contribution to journal › Article",
        ),
        ("<h1>Nitrate in wells</h1><p>Ines Moreau, Tariq Bello</p><p>Data and code</p>", "", None),
        ("<h1>Nitrate in wells</h1>", "<meta name='DC.type' content='Text'>", "Text"),
        (  # a catalogue's properties, each a heading over its values, the record's type among them
            "<h2>Core section from a lysimeter, box 3</h2><div class='property'><h4>Creator</h4><div>Soil Institute"
            "</div></div><div class='property'><h4>Type</h4><div class='values'><div>PhysicalObject</div></div></div>",
            "",
            "PhysicalObject",
        ),
        ("<h1>Nitrate in wells</h1>", '<script type="application/ld+json">{"@type":"Organization"}</script>', None),
        ("<h1>Nitrate in wells</h1>", '<script type="application/ld+json">[{"@type":"Dataset"}]</script>', "Dataset"),
    ],
)
def test_the_kind_a_page_declares(body: str, head: str, kind: str | None) -> None:
    html = _html(body, head)
    assert declared_kind(parse_html(html)) == kind


def test_which_kinds_are_no_paper() -> None:
    for kind in ("Dataset", "Software", "Patent", "Guidance", "Consultation outcome", "Official Statistics",
                 "SoftwareSourceCode", "Press clipping", "Collection", "Press/Media: Research",
                 "Research data", "PhysicalObject", "StillImage", "MovingImage", "Sound", "Cartographic",
                 "Three dimensional object", "Sound recording"):  # fmt: skip
        assert names_another_kind(kind, "paper"), kind
    for kind in ("Journal article", "Conference paper", "Data paper", "Policy paper", "Research and analysis",
                 "Text", "Thesis", "ScholarlyArticle", "Peer reviewed articles", "Research article",
                 "Research"):  # fmt: skip
        assert not names_another_kind(kind, "paper"), kind
    assert not names_another_kind("Dataset", "dataset"), "only a request for text works is judged"


def _page(url: str, site: SiteRef, /, *, form: FormSubmission | None = None) -> Page:
    html = PAGES.get(url, _html("<h1>Outputs</h1><p>Records of the institute.</p>"))
    links = build_page_view(html, url=url).links
    return Page(url=url, final_url=url, status=200, determination=Determination.OK, title="Record", html=html,
                links=links)  # fmt: skip


def _exploration(tmp_path: Path, item_kind: str) -> tuple[Exploration, Trace]:
    web = WebContext.for_site(SITE)
    for number, url in enumerate(PAGES, 1):
        web.add_item(url, title=f"Nitrate record {number}", description="", score=9 - number, found_on=SITE)
    graph = NavigationGraph()
    for url in PAGES:
        graph.add_link(SITE, url)
    search = SearchContext(query="nitrate leaching")
    search.add_site(SiteRef(name="outputs", url=SITE))
    trace = Trace(tmp_path / "trace.jsonl")
    settings = Settings().model_copy(deep=True)
    settings.explore.item_kind = item_kind
    x = Exploration(settings=settings, search=search, pages=PageAccess(_page), trace=trace,
                    web_contexts={SITE: web}, graph=graph)  # fmt: skip
    return x, trace


def test_a_report_of_papers_leaves_out_records_declared_another_kind(tmp_path: Path) -> None:
    x, trace = _exploration(tmp_path, "paper")
    chosen = report_items.choose_items(x, None)
    # the post that carries its paper's file announces that paper (by its authors, not the post's writer)
    assert [item.url for item in chosen.items] == [SITE + "r/1", SITE + "r/5"]
    assert chosen.items[1].authors == ["Tariq Bello", "Ana Lopes"]
    trace.close()
    refused = {e["url"]: e["reason"] for e in read_trace(tmp_path / "trace.jsonl") if e["event"] == "item_refused"}
    assert set(refused) == {SITE + "r/2", SITE + "r/3", SITE + "r/4", SITE + "r/6"}
    assert "'BlogPosting', not a paper" in refused[SITE + "r/6"]
    assert "'Dataset', not a paper" in refused[SITE + "r/2"]
    assert "'Guidance'" in refused[SITE + "r/3"]


def test_a_report_of_datasets_keeps_every_record(tmp_path: Path) -> None:
    x, trace = _exploration(tmp_path, "dataset")
    chosen = report_items.choose_items(x, None)
    trace.close()
    assert len(chosen.items) == 6
