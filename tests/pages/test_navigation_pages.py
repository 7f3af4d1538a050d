"""What counts as a navigation page — a way to a site's works (an index, a grid of issues, a table of contents) — and
what does not: a work's own page, whatever it links (`pages/navigation_pages.py`)."""

from __future__ import annotations

from research_crawler.pages.main_content import frame_link_urls
from research_crawler.pages.navigation_pages import MIN_WAYS_ON, finds_the_way_on, is_navigation_page, leads_still_open
from research_crawler.pages.page import Page
from research_crawler.web.page_building import html_page

SITE = "https://journals.example.org/"
MENU = (
    "<header><nav><a href='/'>Home</a> <a href='/about'>About the collection</a> <a href='/help'>Help</a> "
    "<a href='/contact'>Contact us</a></nav></header>"
)
FOOTER = "<footer><a href='/privacy'>Privacy policy</a> <a href='/terms'>Terms of use</a></footer>"


def built(body: str, *, path: str) -> Page:
    html = f"<html><head><title>Page</title></head><body>{MENU}<main>{body}</main>{FOOTER}</body></html>"
    return html_page(
        html,
        url=SITE + path,
        final_url=SITE + path,
        site_url=SITE,
        status=200,
        content_type="text/html",
        render="http",
        attempts=1,
    )


def navigation(page: Page) -> bool:
    return is_navigation_page(page, menu=frame_link_urls(page))


def test_an_index_of_journals_is_a_navigation_page() -> None:
    journals = "".join(f"<li><a href='/j/{n}/'>Revista de estudios {n}</a></li>" for n in range(1, 9))
    page = built(f"<h1>Journals A–Z</h1><ul>{journals}</ul>", path="journals/alpha")
    assert navigation(page)


def test_a_grid_of_issues_is_a_navigation_page() -> None:
    rows = "".join(
        f"<tr><td>{year}</td>" + "".join(f"<td><a href='/j/a/i/{year}n{n}/'>No. {n}</a></td>" for n in range(1, 5))
        for year in range(2019, 2025)
    )
    page = built(f"<h1>All issues</h1><table>{rows}</table>", path="j/a/grid")
    assert navigation(page)


def test_a_table_of_contents_with_authors_and_pdfs_is_a_navigation_page() -> None:
    entries = "".join(
        f"<li class='article'><h3><a href='/j/a/a/{n}/'>On the measurement of regional inequality part {n}</a></h3>"
        f"<p>Lima, Ana; Souza, Bruno</p><a href='/j/a/a/{n}/?format=pdf'>PDF</a></li>"
        for n in range(1, 5)
    )
    page = built(f"<h1>Vol. 13 No. 2 (2024)</h1><h2>Articles</h2><ul>{entries}</ul>", path="j/a/i/2024n2/")
    assert navigation(page)


def test_a_work_s_own_page_is_none_whatever_it_links() -> None:
    abstract = " ".join(["We measure how regional inequality changed over two decades of public investment."] * 6)
    page = built(
        "<h1>On the measurement of regional inequality</h1><p><a href='/author/lima'>Ana Lima</a>, "
        "<a href='/author/souza'>Bruno Souza</a></p><h2>Abstract</h2>"
        f"<p>{abstract}</p><p>Keywords: inequality; regions; investment</p>"
        "<p><a href='/j/a/a/1/?format=pdf'>Download PDF</a> <a href='/claim/1'>Claim this work</a> "
        "<a href='/cite/1'>How to cite</a></p>",
        path="j/a/a/1/",
    )
    assert not navigation(page)
    assert not finds_the_way_on(page, frame_link_urls(page), promising_links=3)


def test_a_page_of_two_links_is_no_way_on() -> None:
    page = built("<h1>Moved</h1><p><a href='/j/a/'>The journal</a> <a href='/j/b/'>Its sister</a></p>", path="old")
    assert not navigation(page)


def test_the_site_s_menu_alone_makes_no_page_an_index() -> None:
    """A short notice inside the site's frame: its menu and footer links are the site's, not the page's."""
    page = built("<h1>Notice</h1><p>The collection will be closed for maintenance on Sunday night.</p>", path="news")
    assert not navigation(page)


def test_an_index_finds_the_way_only_when_promising_links_were_queued_from_it() -> None:
    journals = "".join(f"<li><a href='/j/{n}/'>Revista de estudios {n}</a></li>" for n in range(1, 9))
    page = built(f"<h1>Journals by subject</h1><ul>{journals}</ul>", path="journals/thematic")
    menu = frame_link_urls(page)
    assert finds_the_way_on(page, menu, promising_links=MIN_WAYS_ON)
    assert not finds_the_way_on(page, menu, promising_links=MIN_WAYS_ON - 1), "it repeated what the site had shown"


def test_a_journal_s_page_of_its_issues_and_a_line_on_its_scope_is_a_navigation_page() -> None:
    page = built(
        "<h1>Revista de Economía y Desarrollo</h1><p>ISSN 1234-5678 versión on-line · Santiago</p><ul>"
        "<li><a href='/j/a/i/2024n4/'>Número actual</a></li><li><a href='/j/a/grid'>Números anteriores</a></li>"
        "<li><a href='/j/a/about'>Sobre la revista</a></li><li><a href='/j/a/submit'>Enviar manuscrito</a></li></ul>"
        "<p>Publicación trimestral de acceso abierto, arbitrada por pares, que difunde investigación sobre economía y "
        "sociedad en América Latina.</p>",
        path="j/a/",
    )
    assert navigation(page)


def test_a_short_record_of_a_work_with_an_abstract_is_no_navigation_page() -> None:
    """A repository's record: its fields are links (authors, subjects, files), but its abstract is prose."""
    abstract = (
        "Street vending is regulated by municipalities through permits, zoning and fines; we compare twelve cities "
        "over a decade and find that permits issued in bulk reduce evictions while zoning alone displaces vendors to "
        "the edges of markets, with lower incomes as a result for most of them."
    )
    page = built(
        "<h1>Street vending and municipal rules</h1><p><a href='/people/1'>Ana Lima</a>; "
        "<a href='/people/2'>Bruno Souza</a></p><p><a href='/subject/urban'>Urban studies</a> · "
        f"<a href='/subject/labour'>Labour</a></p><p>{abstract}</p><p><a href='/files/7.pdf'>Full text (PDF)</a></p>",
        path="record/7",
    )
    assert not navigation(page)


def test_leads_still_open_counts_the_pages_own_links_to_pages_not_read_yet() -> None:
    years = "".join(f"<li><a href='/pubs/{year}.html'>Papers from {year}</a></li>" for year in (2023, 2024, 2025))
    page = built(
        "<h1>Publications</h1><p>Everything the group has published is kept here, grouped by the year it appeared."
        f"</p><ul>{years}</ul>",
        path="pubs/index.html",
    )
    menu = frame_link_urls(page)
    pending = {SITE + "pubs/2024.html", SITE + "pubs/2025.html", SITE + "about", SITE + "help"}
    assert leads_still_open(page, menu=menu, is_pending=pending.__contains__) == 2  # the menu's are not its own
    assert leads_still_open(page, menu=menu, is_pending=lambda url: False) == 0
