"""What the Collector names on a page is checked against what the page shows it to be: a link followed by a count
of the items it holds ("Urban Economics eJournal (7 papers)") is a collection's, never one work's."""

from __future__ import annotations

from research_crawler.context.web_context import WebContext
from research_crawler.pages.page import Page
from research_crawler.tools.hints import HintState
from research_crawler.tools.items import collect_items
from research_crawler.web.page_building import html_page

SITE = "http://papers.test/"
STATE = HintState(subpages_left=4, items_collected=0)


def page(
    body: str, *, url: str = "http://papers.test/networks/econ", title: str = "Economics Network", head: str = ""
) -> Page:
    html = f"<html><head><title>{title}</title>{head}</head><body>{body}</body></html>"
    return html_page(
        html, url=url, final_url=url, site_url=SITE, status=200, content_type="text/html", render="http", attempts=1
    )


NETWORK = page(
    "<h1>Economics Research Network</h1><h2>Journals</h2><ul>"
    '<li><a href="/browse?journal=1473">Transportation Economics Working Papers</a> (7 papers)</li>'
    '<li><a href="/browse?journal=1541">Labor Markets and Urban Earnings Series</a> <span>— 12 articles</span></li>'
    "</ul><h2>Newest</h2><ul>"
    '<li><a href="/abstract=12">Tolls, Trips and Commuters in Three Cities</a> 18 pages</li></ul>'
)


def link_id(shown: Page, text: str) -> int:
    return next(link.id for link in shown.links if link.text.startswith(text))


def test_a_link_followed_by_the_count_of_what_it_holds_is_a_collection_not_an_item() -> None:
    web = WebContext.for_site(SITE)
    entries = [
        {
            "id": link_id(NETWORK, "Transportation"),
            "title": "Transportation Economics Working Papers (7 papers)",
            "score": 7,
        },
        {"id": link_id(NETWORK, "Labor"), "title": "Labor Markets and Urban Earnings Series", "score": 6},
        {"id": link_id(NETWORK, "Tolls"), "title": "Tolls, Trips and Commuters in Three Cities", "score": 8},
    ]
    result = collect_items(web, NETWORK, entries, state=STATE)
    assert [item.title for item in web.items()] == [
        "Tolls, Trips and Commuters in Three Cities"
    ]  # "18 pages": its length
    assert len(result.rejected) == 2 and all("a collection" in why for why in result.rejected)
    assert "'7 papers'" in result.rejected[0] and "'12 articles'" in result.rejected[1]


RECORD = page(
    "<h1>Crossing Points: Culverts and Toad Migration</h1><h4>Authors</h4><p>Kofi Nakamura</p>"
    '<h4>DOI</h4><p><a href="https://doi.org/10.5555/toads-2024-17">10.5555/toads-2024-17</a></p>'
    "<h4>Abstract</h4><p>Toads cross roads in spring, and many are killed. We counted crossings at culverts.</p>"
    '<h4>References</h4><p><a href="https://doi.org/10.5555/frogs-2019-02">Frogs on Roads, revisited</a></p>',
    url="http://papers.test/biology/136",
    title="Repository - Crossing Points: Culverts and Toad Migration",
    head='<meta name="bepress_citation_doi" content="10.5555/toads-2024-17">',
)


def test_the_doi_of_the_work_a_page_shows_names_that_page_under_its_own_title() -> None:
    web = WebContext.for_site(SITE)
    abstract = "Toads cross roads in spring, and many are killed. We counted crossings at culverts."
    own, other = link_id(RECORD, "10.5555"), link_id(RECORD, "Frogs")
    entries = [
        {"id": own, "title": abstract, "score": 8},
        {"id": other, "title": "Frogs on Roads, revisited", "score": 6},
    ]
    result = collect_items(web, RECORD, entries, state=STATE)
    (item,) = web.items()  # a reference's DOI is another work, on another site: not stored
    assert item.url == "http://papers.test/biology/136"
    assert item.title == "Crossing Points: Culverts and Toad Migration"
    assert any("leads off this site" in why for why in result.rejected)


DEPARTMENTS = page(
    "<h1>Ostland University</h1><h2>Departments</h2><ul>"
    '<li><a href="/institution/ostland/department/zoology">Department of Zoology</a> · 9 research items</li>'
    '<li><a href="/institution/ostland/department/botany">Department of Botany</a> | 4 published works</li>'
    '<li><a href="/publication/881_Lichens_on_Roofs">Lichens on Roofs in Coastal Towns</a> · 12 pages</li>'
    "</ul>",
    url="http://papers.test/institution/ostland",
    title="Ostland University",
)


def test_a_count_of_research_items_after_a_separator_is_a_collection() -> None:
    web = WebContext.for_site(SITE)
    entries = [
        {
            "id": link_id(DEPARTMENTS, "Department of Zoology"),
            "title": "Department of Zoology · 9 research items",
            "score": 7,
        },
        {"id": link_id(DEPARTMENTS, "Department of Botany"), "title": "Department of Botany", "score": 6},
        {"id": link_id(DEPARTMENTS, "Lichens"), "title": "Lichens on Roofs in Coastal Towns", "score": 8},
    ]
    result = collect_items(web, DEPARTMENTS, entries, state=STATE)
    assert [item.title for item in web.items()] == ["Lichens on Roofs in Coastal Towns"]
    assert "'9 research items'" in result.rejected[0] and "'4 published works'" in result.rejected[1]
