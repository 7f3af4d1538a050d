"""A page that plainly lists other works is never reported as one (a model may take a journal's name for a paper's)."""

from __future__ import annotations

from datetime import date

from research_crawler.config.settings import Settings
from research_crawler.context.request_rules import read_request
from research_crawler.context.search_context import SearchContext, SiteRef
from research_crawler.context.web_context import WebContext
from research_crawler.nested_chats.report_items import choose_items
from research_crawler.pages.metadata import ItemMetadata
from research_crawler.pages.page import Determination, Link, Page
from research_crawler.pages.view import build_page_view
from research_crawler.report.index_pages import index_page_reason, names_a_numbered_issue
from research_crawler.run.trace import Trace
from research_crawler.tools.exploration import Exploration, PageAccess

SITE = "https://society.example.org"
JOURNAL = f"{SITE}/journal/marine-science"
ARTICLE = (
    '<html><head><meta name="citation_title" content="Coral Bleaching in 2024">'
    '<meta name="citation_author" content="Novak, Ines"><meta name="citation_date" content="2024/03/01"></head>'
    "<body><h1>Coral Bleaching in 2024</h1></body></html>"
)


def _exploration(request: str, pages: dict[str, Page], web: WebContext) -> Exploration:
    """A finished exploration of the one site `web`, whose pages are `pages` (address → page; any other is not
    found)."""
    search = SearchContext(query=request, request=read_request(request, today=date(2025, 6, 1)))
    search.add_site(SiteRef(name="society", url=f"{SITE}/"))
    return Exploration(
        settings=Settings(),
        search=search,
        pages=PageAccess(
            lambda url, site, **_: (
                pages.get(url) or Page(url=url, final_url=url, status=404, determination=Determination.NOT_FOUND)
            )
        ),
        trace=Trace(None),
        web_contexts={f"{SITE}/": web},
    )


def test_a_journals_list_of_volumes_is_no_item() -> None:
    links = [f"{SITE}/", f"{SITE}/about", *(f"{JOURNAL}/volume/{year}" for year in (2023, 2024, 2025))]
    reason = index_page_reason(JOURNAL, links, ItemMetadata(title="Halden Journal of Marine Science", date="2024"))
    assert reason is not None and "3 pages below it" in reason


def test_a_page_other_items_were_found_on_is_no_item() -> None:
    meta = ItemMetadata(title="Working papers, page 2", authors=["A. Okafor"])
    assert index_page_reason(f"{SITE}/papers?page=2", [], meta, listed_on=[f"{SITE}/papers?page=2"]) is not None


def test_an_article_with_its_files_below_it_is_an_item() -> None:
    article = f"{SITE}/paper/123"
    files = [f"{article}/fulltext.pdf", f"{article}/figure-1", f"{article}/supplement"]
    assert index_page_reason(article, files, ItemMetadata(title="Coral Bleaching")) is None
    figures = [f"{article}/figure-{n}" for n in range(1, 6)]
    with_authors = ItemMetadata(title="Coral Bleaching", authors=["Ines Novak"])
    assert index_page_reason(article, figures, with_authors) is None  # an item's own figures, with its byline
    assert index_page_reason(article, figures, ItemMetadata(title="Coral Bleaching", abstract="Corals bleach…")) is None


def test_a_journal_the_model_took_for_a_paper_is_left_out_of_a_dated_report() -> None:
    # what a model may do on a society's home page: store a journal's name, dated by its listing, beside a paper
    web = WebContext.for_site(f"{SITE}/")
    paper = f"{SITE}/doi/10.5555/x.2024.1"
    web.add_item(JOURNAL, title="Journal of Marine Science", score=7.0, found_on=f"{SITE}/", date="2024-10-10")
    web.add_item(paper, title="Coral Bleaching in 2024", score=8.0, found_on=f"{SITE}/search", date="2024-03-01")
    volumes = [
        Link(id=n, url=f"{JOURNAL}/volume/{y}", text=str(y), same_site=True) for n, y in enumerate((23, 24, 25), 1)
    ]
    pages = {
        JOURNAL: Page(
            url=JOURNAL, final_url=JOURNAL, determination=Determination.OK, html="<h1>Journal</h1>", links=volumes
        ),
        paper: Page(url=paper, final_url=paper, determination=Determination.OK, html=ARTICLE),
    }
    x = _exploration("Find papers on coral bleaching published in 2024", pages, web)
    chosen = choose_items(x, None, today=date(2025, 6, 1))
    assert [item.url for item in chosen.items] == [paper]


MONTH = f"{SITE}/subject/soil-science/2024/12"
MONTH_HTML = (
    "<html><head><title>Soil Science, December 2024 | Strandline</title></head><body><header><a href='/'>Strandline"
    "</a></header><main><p><a href='/'>Home</a> › <a href='/subject/soil-science'>Soil Science</a></p>"
    "<h1>Soil Science: December 2024</h1><p>1 preprint first posted this month.</p><ol><li>"
    "<a href='/preprint/2412.00012'>2412.00012</a> <b>Mulch Residues in Agricultural Soils</b><br>Anika Costa, "
    "Nadia Eze<br><small>v1 posted 26 Dec 2024</small></li></ol></main></body></html>"
)


def test_a_listing_whose_first_entry_lends_it_a_byline_is_no_item() -> None:
    meta = ItemMetadata(
        title="Soil Science: December 2024", authors=["Anika Costa", "Nadia Eze"], sources={"authors": "page_byline"}
    )
    reason = index_page_reason(MONTH, [f"{SITE}/preprint/2412.00012"], meta, html=MONTH_HTML)
    assert reason is not None and "an entry's it lists" in reason
    # the same byline from the page's own tags, or an abstract of its own: an item
    tagged = meta.model_copy(update={"sources": {"authors": "citation"}})
    assert index_page_reason(MONTH, [], tagged, html=MONTH_HTML) is None
    assert index_page_reason(MONTH, [], meta.model_copy(update={"abstract": "Mulch…"}), html=MONTH_HTML) is None


def test_an_article_with_a_byline_and_linked_names_is_an_item() -> None:
    article = f"{SITE}/article/7"
    html = (
        "<html><body><main><article><p><a href='/subject/soil'>Soil</a></p><h1>Mulch Residues in Soils</h1><ul>"
        "<li><a href='/people/anika-costa'>Anika Costa</a></li><li><a href='/people/nadia-eze'>Nadia Eze</a></li>"
        "</ul><p><a href='/article/7/paper.pdf'>PDF</a></p></article><aside><ul><li><a href='/article/9'>Another"
        " paper</a> Anika Costa</li></ul></aside></main></body></html>"
    )
    meta = ItemMetadata(title="Mulch Residues in Soils", authors=["Anika Costa", "Nadia Eze"])
    meta = meta.model_copy(update={"sources": {"authors": "page_byline"}})
    assert index_page_reason(article, [f"{SITE}/article/9"], meta, html=html) is None


def test_a_books_table_of_contents_is_no_item_though_it_names_its_editors() -> None:
    # an edited volume's page: front matter, then chapters each with its own authors and page, then an index; the
    # editors read as its authors do not make it a work, nor do the volume's own parts (front matter, index)
    book = f"{SITE}/book/tidal-flats-3"
    chapters = "".join(
        f"<li><a href='/chapter/{n}'>{title}</a><ul><li>{first}</li><li>{second}</li></ul><span>Pages {n}1–{n}9</span>"
        f" <a href='/files/chapter-{n}.pdf'>Download chapter PDF</a></li>"
        for n, (title, first, second) in enumerate(
            [("Mudflat Diatoms in Winter", "Oona Laine", "Piet de Wit"), ("Worm Burrows and Sediment Mixing",
             "Sara Quist", "Lev Adler"), ("Shorebird Foraging on Ebbing Tides", "Hana Mori", "Ivo Kral")], 1)
    )  # fmt: skip
    html = (
        "<html><body><header><a href='/'>Tideline Press</a></header><main><p>Book · 2025</p><h1>Studies of Tidal "
        "Flats, Volume 3</h1><p>Editors: Greta Holm and Arvid Sand</p><ol><li><a href='/book/tidal-flats-3/front'>"
        f"Front Matter</a> Pages i–xii</li>{chapters}<li><a href='/book/tidal-flats-3/index'>Index</a></li></ol>"
        "</main></body></html>"
    )
    meta = ItemMetadata(title="Studies of Tidal Flats, Volume 3", authors=["Greta Holm", "Arvid Sand"])
    meta = meta.model_copy(update={"sources": {"authors": "page_field"}})
    reason = index_page_reason(book, [], meta, html=html)
    assert reason is not None and "lists 3 works with their own authors" in reason
    # two such entries (an article's "more from this series") do not make a page a listing, nor do three on a page
    # with an abstract of its own
    two = html.replace("<li><a href='/chapter/3'>", "<li><span>")
    assert index_page_reason(book, [], meta, html=two) is None
    assert index_page_reason(book, [], meta.model_copy(update={"abstract": "Flats…"}), html=html) is None


def test_a_volume_of_one_chapter_with_its_matter_below_it_is_no_item() -> None:
    # an edited volume with a single chapter: its editors read as its authors, one entry with authors of its own, and
    # its front matter, preface and back matter on pages below its address — the book's contents, not a work
    book = f"{SITE}/book/10.1/tidal-2025"
    parts = [f"{book}/front-matter", f"{book}/preface", f"{book}/back-matter"]
    html = (
        "<html><body><header><a href='/'>Wrenfield Press</a></header><main><p>Book · 2025</p><h1>Tidal Studies, "
        "Volume 9</h1><p>Editors: Maren Holt and Jonas Weir</p><ol>"
        f"<li><a href='{parts[0]}'>Front Matter</a> Pages i–xii</li><li><a href='{parts[1]}'>Preface</a></li>"
        "<li><a href='/chapter/10.1/t.2025-3'>Salt Marsh Accretion under Rising Tides</a><ul><li>Ada Brennan</li>"
        "<li>Kofi Mensah</li></ul> <a href='/pdf/10.1/t.2025-3.pdf'>Download chapter PDF</a></li>"
        f"<li><a href='{parts[2]}'>Back Matter</a></li></ol></main></body></html>"
    )
    links = [f"{SITE}/", *parts, f"{SITE}/chapter/10.1/t.2025-3", f"{SITE}/pdf/10.1/t.2025-3.pdf"]
    meta = ItemMetadata(title="Tidal Studies, Volume 9", authors=["Maren Holt", "Jonas Weir"], date="2025")
    meta = meta.model_copy(update={"sources": {"authors": "page_field"}})
    reason = index_page_reason(book, links, meta, html=html)
    assert reason is not None and "3 pages below it" in reason
    # without the pages below it, one entry is an article's "more from this series"; and an article with its files
    # below it and no entry of other people's is a work
    assert index_page_reason(book, links[:1] + links[4:], meta, html=html) is None
    alone = html.replace("<ul><li>Ada Brennan</li><li>Kofi Mensah</li></ul>", "")
    assert index_page_reason(book, links, meta, html=alone) is None


def test_an_article_whose_heading_and_byline_sit_in_its_own_header_is_an_item() -> None:
    # HTML's <header> inside an <article> is the article's (its title and byline), not the page's banner: the byline
    # beside the article's category link is the article's own, not an entry's of a listing
    post = f"{SITE}/2025/03/02/a-new-paper/"
    html = (
        "<html><body><header><p><a href='/'>Lab news</a></p></header><main><article><header><h1>A new paper on "
        "mulch</h1><div>Posted on March 2, 2025 by <span>Press Office</span></div></header><p>Our paper on mulch "
        "residues is out.</p><footer>Posted in <a href='/category/papers/'>Papers</a></footer></article></main>"
        "<aside><ul><li><a href='/2025/01/09/winter-school/'>Winter school</a></li></ul></aside></body></html>"
    )
    meta = ItemMetadata(title="A new paper on mulch", authors=["Press Office"], sources={"authors": "page_byline"})
    assert index_page_reason(post, [f"{SITE}/category/papers/"], meta, html=html) is None
    # the same byline in an entry of a listing the page shows (its heading apart) still makes it a listing
    listing = html.replace("<main><article><header><h1>A new paper on mulch</h1>", "<main><h1>News</h1><article>"
                           "<header><h2>A new paper on mulch</h2>")  # fmt: skip
    assert index_page_reason(post, [], meta.model_copy(update={"title": "News"}), html=listing) is not None


def test_the_sites_own_name_read_as_an_author_does_not_make_an_index_an_item() -> None:
    subject = f"{SITE}/subject/soil-science"
    links = [f"{subject}/{year}" for year in (2023, 2024, 2025)]
    meta = ItemMetadata(title="Soil Science", authors=["Strandline Preprints"], sources={"authors": "page_byline"})
    assert index_page_reason(subject, links, meta, page_title="Soil Science | Strandline Preprints") is not None
    assert index_page_reason(subject, links, meta, page_title="Soil Science") is None  # a person may own a site


def test_a_bylines_link_to_an_authors_page_is_no_work_and_does_not_make_the_article_a_listing() -> None:
    # a group's untagged article page: its byline links its authors' profiles. A model (the double did, gpt-4o may)
    # stores the byline's link as an item: the profile is no work, and the article it was found on lists nothing
    article, profile = f"{SITE}/publications/dune-overwash/", f"{SITE}/people/pablo-hussain/"
    article_html = (
        "<html><head><title>Dune Overwash under Storms | Coastal Group</title></head><body><main>"
        "<h1>Dune Overwash under Storms</h1><p class='authors'><a href='/people/pablo-hussain/'>Pablo Hussain</a>, "
        "Kofi Torres, Svetlana Santos</p><p>Feb 27, 2022 · Coastal Reports</p><h2>Abstract</h2><p>Storms wash "
        "sand over dunes; we measured how far.</p></main></body></html>"
    )
    profile_html = (
        "<html><head><title>Pablo Hussain | Coastal Group</title></head><body><main><h1>Pablo Hussain</h1>"
        "<p>Postdoc, since 2022.</p></main></body></html>"
    )
    web = WebContext.for_site(f"{SITE}/")
    web.add_item(article, title="Dune Overwash under Storms", score=8.0, found_on=f"{SITE}/publications/")
    web.add_item(profile, title="Pablo Hussain, Kofi Torres, Svetlana Santos", score=6.0, found_on=article)
    listing_html = (  # a search's hits, whose first title a page reader takes for names ("Dune Overwash", …)
        "<html><head><title>Search results</title></head><body><main><h1>Search results</h1><p>2 hits</p><div>"
        "<h3><a href='/publications/storm-surges/'>Dune Overwash and Storm Surges</a></h3><p>Novak, Ines · 2023 · "
        "Dissertation</p></div><div><h3><a href='/publications/dune-overwash/'>Dune Overwash under Storms</a></h3>"
        "<p>Hussain, Pablo · 2022 · Article</p></div></main></body></html>"
    )
    pages = {
        url: Page(
            url=url, final_url=url, determination=Determination.OK, html=html, title=title,
            links=build_page_view(html, url=url).links,
        )
        for url, html, title in (
            (f"{SITE}/publications/", listing_html, "Publications"),
            (article, article_html, "Dune Overwash under Storms | Coastal Group"),
            (profile, profile_html, "Pablo Hussain | Coastal Group"),
        )
    }  # fmt: skip
    x = _exploration("Find papers on dune overwash", pages, web)
    chosen = choose_items(x, None, today=date(2025, 6, 1))
    assert [(item.url, item.title, item.date) for item in chosen.items] == [
        (article, "Dune Overwash under Storms", "2022-02-27")
    ]
    # a work listed under a title that reads like names ("Dune Overwash", "Storm Surges") is still a work
    surges = f"{SITE}/publications/storm-surges/"
    pages[surges] = Page(url=surges, final_url=surges, determination=Determination.OK, title="Storm Surges",
                         html="<h1>Dune Overwash and Storm Surges</h1><p>Ines Novak</p><p>3 May 2023</p>")  # fmt: skip
    web.add_item(surges, title="Dune Overwash and Storm Surges", score=9.0, found_on=f"{SITE}/publications/")
    chosen = choose_items(x, None, today=date(2025, 6, 1))
    assert [item.url for item in chosen.items] == [surges, article]


def test_a_bylines_link_stored_under_another_line_of_the_page_is_no_work() -> None:
    # a model may store a byline's last link under the line that follows it ("Feb 27, 2022 · Coastal Reports"): the
    # page links it only by an author's name, so it is a profile, not a work, whatever title it was given
    article, profile = f"{SITE}/publications/dune-overwash/", f"{SITE}/people/pablo-hussain/"
    article_html = (
        "<html><head><title>Dune Overwash under Storms | Coastal Group</title><meta name='citation_author' "
        "content='Pablo Hussain'><meta name='citation_author' content='Kofi Torres'></head><body><main>"
        "<h1>Dune Overwash under Storms</h1><p class='authors'><a href='/people/kofi-torres/'>Kofi Torres</a>, "
        "<a href='/people/pablo-hussain/'>Pablo Hussain</a></p><p>Feb 27, 2022 · Coastal Reports</p><h2>Abstract"
        "</h2><p>Storms wash sand over dunes; we measured how far.</p></main></body></html>"
    )
    profile_html = (
        "<html><head><title>Pablo Hussain | Coastal Group</title></head><body><main><h1>Pablo Hussain</h1>"
        "<p>Postdoc, since 2022.</p></main></body></html>"
    )
    web = WebContext.for_site(f"{SITE}/")
    web.add_item(article, title="Dune Overwash under Storms", score=8.0, found_on=article)
    web.add_item(profile, title="Feb 27, 2022 · Coastal Reports", score=6.0, found_on=article)
    pages = {
        url: Page(url=url, final_url=url, determination=Determination.OK, html=html, title=title,
                  links=build_page_view(html, url=url).links)
        for url, html, title in ((article, article_html, "Dune Overwash under Storms | Coastal Group"),
                                 (profile, profile_html, "Pablo Hussain | Coastal Group"))
    }  # fmt: skip
    chosen = choose_items(_exploration("Find papers on dune overwash", pages, web), None, today=date(2025, 6, 1))
    assert [item.url for item in chosen.items] == [article]


def test_a_venue_and_a_slot_of_a_programme_are_no_works_but_a_work_named_like_one_is() -> None:
    # a bibliography's workshop page (its years, or none yet) and a workshop's panel, stored by a model for their
    # words: neither names a work's author or abstract; a paper whose title opens like a venue's keeps its place
    venue, panel, paper = f"{SITE}/db/conf/apr/", f"{SITE}/event/7/contributions/6/", f"{SITE}/rec/Conf24.html"
    html = {
        venue: "<html><head><title>Bib: International Workshop on Automated Program Repair</title></head><body><main>"
        "<h1>International Workshop on Automated Program Repair</h1><ul><li><a href='/db/conf/apr/apr2024.html'>"
        "APR 2024</a></li></ul></main></body></html>",
        panel: "<html><head><title>Panel · FLEdge Days 2024</title></head><body><main><h1>FLEdge Days 2024</h1>"
        "<h2>Panel: who owns the model trained on my phone?</h2><dl><dt>Type</dt><dd>Panel</dd></dl></main></body>"
        "</html>",
        paper: "<html><head><title>Conference Talks on Program Repair</title><meta name='citation_author' content='Ana "
        "Silva'></head><body><main><h1>Conference Talks on Program Repair</h1><p>Ana Silva</p><p>2024</p></main>"
        "</body></html>",
    }
    web = WebContext.for_site(f"{SITE}/")
    web.add_item(venue, title="International Workshop on Automated Program Repair (APR@ICSE)", score=8, found_on=SITE)
    web.add_item(panel, title="Panel: who owns the model trained on my phone?", score=7, found_on=SITE)
    web.add_item(paper, title="Conference Talks on Program Repair", score=6, found_on=SITE)
    pages = {url: _ok_page(url, body) for url, body in html.items()}
    chosen = choose_items(_exploration("Find papers on automated program repair", pages, web), None,
                          today=date(2025, 6, 1))  # fmt: skip
    assert [item.url for item in chosen.items] == [paper]


def _entity_page(body: str) -> str:
    return (
        "<html><head><title>Tidal Lab</title></head><body><nav><a href='/'>Home</a> <a href='/people/'>People"
        f"</a></nav><main>{body}</main><footer><a href='/about/'>About the Tidal Lab and its funders</a></footer>"
        "</body></html>"
    )


def _ok_page(url: str, html: str = "", title: str = "") -> Page:
    """A page read whole at `url` (a file when `html` is empty)."""
    if not html:
        return Page(url=url, final_url=url, determination=Determination.OK, title="", html="",
                    content_type="application/pdf")  # fmt: skip
    links = build_page_view(html, url=url).links
    return Page(url=url, final_url=url, determination=Determination.OK, html=html, title=title, links=links)


def _reason(url: str, html: str) -> str | None:
    return index_page_reason(url, [], ItemMetadata(title=None), html=html, page_title="Tidal Lab")


def test_a_persons_page_listing_works_by_title_is_no_item() -> None:
    html = _entity_page(
        "<h1>Ines Novak</h1><p>Researcher.</p><h2>Latest</h2><ul>"
        "<li><a href='/pub/kelp-loss/'>Kelp Forest Loss after Marine Heatwaves</a> (2024)</li>"
        "<li><a href='/pub/seagrass/'>Seagrass Recovery in Sheltered Bays</a> (2023)</li></ul>"
    )
    reason = _reason(f"{SITE}/people/ines-novak/", html)
    assert reason is not None and "Kelp Forest Loss after Marine Heatwaves" in reason


def test_a_news_post_about_one_paper_is_no_item() -> None:
    html = _entity_page(
        "<h1>New paper out!</h1><p>May 3, 2024</p><p>Our paper <a href='/pub/kelp-loss/'>Kelp Forest Loss after "
        "Marine Heatwaves</a> has been published. Well done, everyone!</p>"
    )
    assert _reason(f"{SITE}/news/new-paper/", html) is not None


def test_a_record_with_its_own_file_or_linking_only_itself_and_sections_is_an_item() -> None:
    with_file = _entity_page(
        "<h1>Kelp Forest Loss after Marine Heatwaves</h1><p>From: <a href='/org/'>Office for Coastal Research "
        "and Monitoring</a></p><p><a href='/media/kelp.pdf'>Kelp Forest Loss after Marine Heatwaves</a></p>"
    )
    assert _reason(f"{SITE}/pub/kelp-loss/", with_file) is None
    own_only = _entity_page(
        "<h1>Kelp Forest Loss after Marine Heatwaves</h1><p>2024</p><p><a href='/pub/kelp-loss/summary'>Kelp "
        "Forest Loss after Marine Heatwaves: summary</a> · <a href='/pub/kelp-loss/cite'>Cite</a></p>"
    )
    assert _reason(f"{SITE}/pub/kelp-loss/", own_only) is None


def test_a_list_headed_publications_is_no_item_though_its_first_byline_reads_as_its_authors() -> None:
    html = _entity_page(
        "<h1>Publications</h1><div class='row'><a href='/people/novak/'>Ines Novak</a>, Tariq Bello (2024). "
        "<a href='/pub/kelp/'>Kelp Forest Loss after Marine Heatwaves</a>. Marine Letters.</div>"
    )
    meta = ItemMetadata(title="Publications | Tidal Lab", authors=["Ines Novak", "Tariq Bello"])
    reason = index_page_reason(f"{SITE}/pub/", [], meta, html=html, page_title="Publications | Tidal Lab")
    assert reason is not None and "“Publications”" in reason
    tagged = ItemMetadata(title="Abstract", authors=["Ines Novak"], sources={"title": "citation"})
    assert index_page_reason(f"{SITE}/pub/kelp/", [], tagged, html=_entity_page("<h1>Abstract</h1>")) is None


def test_a_section_link_taken_for_an_item_does_not_make_the_work_page_it_was_found_on_a_listing() -> None:
    # the model stored the paper page's link up to its section ("Journal article" → /pub/) and its PDF: the paper
    # lists nothing; the section's page is no work; the PDF is the paper's
    article, section, pdf = f"{SITE}/pub/kelp/", f"{SITE}/pub/", f"{SITE}/pub/kelp/kelp.pdf"
    article_html = _entity_page(
        "<h1>Kelp Forest Loss after Marine Heatwaves</h1><p>Ines Novak, Tariq Bello</p><p>Mar 16, 2024</p>"
        "<p><a href='/pub/kelp/kelp.pdf'>PDF</a></p><h3>Abstract</h3><p>Kelp forests shrank after each heatwave "
        "we followed.</p><p>Type</p><p><a href='/pub/'>Journal article</a></p>"
    )
    section_html = _entity_page(
        "<h1>Publications</h1><div class='row'>Ines Novak, Tariq Bello (2024). <a href='/pub/kelp/'>Kelp Forest "
        "Loss after Marine Heatwaves</a>.</div>"
    )
    pages = {
        article: _ok_page(article, article_html, "Kelp Forest Loss after Marine Heatwaves | Tidal Lab"),
        section: _ok_page(section, section_html, "Publications | Tidal Lab"),
        pdf: _ok_page(pdf),
    }
    web = WebContext.for_site(f"{SITE}/")
    web.add_item(article, title="Kelp Forest Loss after Marine Heatwaves", score=8.0, found_on=article)
    web.add_item(section, title="Journal article", score=7.0, found_on=article)
    web.add_item(pdf, title="Kelp forests shrank after each heatwave we followed.", score=6.0, found_on=article)
    x = _exploration("papers on kelp forest loss", pages, web)
    chosen = choose_items(x, None)
    assert [item.url for item in chosen.items] == [article]
    assert chosen.items[0].title == "Kelp Forest Loss after Marine Heatwaves"


def test_a_signed_dated_record_whose_one_link_was_stored_is_an_item_and_two_make_it_a_listing() -> None:
    # a funder's publication record links its project; a model stored that link (under the abstract as its title):
    # the record names its own authors and date, so one item found on it is its link, not a sign it lists works
    record = f"{SITE}/results/publication/42"
    html = _entity_page(
        "<h1>Kelp Forest Loss after Marine Heatwaves</h1><p>Author(s)</p><p>Ines Novak, Tariq Bello</p>"
        "<p>Publication date</p><p>16/03/2024</p><p>Project</p><p><a href='/project/7'>KELPWATCH</a></p>"
    )
    meta = ItemMetadata(title="Kelp Forest Loss after Marine Heatwaves", authors=["Ines Novak", "Tariq Bello"],
                        date="2024-03-16")  # fmt: skip
    assert index_page_reason(record, [], meta, listed_on=[record], html=html) is None
    assert index_page_reason(record, [], meta, listed_on=[record, record], html=html) is not None
    undated = meta.model_copy(update={"date": None})
    assert index_page_reason(record, [], undated, listed_on=[record], html=html) is not None


def test_a_works_attachment_stored_as_the_item_is_reported_as_the_work() -> None:
    # a model stored a record's "easy read" attachment (its title repeats the record's) rather than the record:
    # the report lists the record's work once (its annex, found on its page, is the same work's file)
    record, easy, other = f"{SITE}/pub/kelp-loss", f"{SITE}/media/7/easy-read.pdf", f"{SITE}/media/8/annex.pdf"
    html = _entity_page(
        "<h1>Kelp Forest Loss after Marine Heatwaves</h1><p>Published 3 May 2024</p><h2>Documents</h2>"
        "<p><a href='/media/6/kelp.pdf'>Kelp Forest Loss after Marine Heatwaves</a> PDF, 2 MB</p>"
        "<p><a href='/media/7/easy-read.pdf'>Kelp Forest Loss after Marine Heatwaves: easy read</a> PDF</p>"
        "<p><a href='/media/8/annex.pdf'>Annex A: survey sites</a> PDF</p>"
    )
    pages = {
        record: _ok_page(record, html, "Kelp Forest Loss after Marine Heatwaves - Tidal Lab"),
        easy: _ok_page(easy),
        other: _ok_page(other),
    }
    web = WebContext.for_site(f"{SITE}/")
    web.add_item(easy, title="Kelp Forest Loss after Marine Heatwaves: easy read", score=8.0, found_on=record)
    web.add_item(other, title="Annex A: survey sites", score=5.0, found_on=record)
    chosen = choose_items(_exploration("papers on kelp forest loss", pages, web), None)
    assert [(item.url, item.title) for item in chosen.items] == [(record, "Kelp Forest Loss after Marine Heatwaves")]


def test_a_numbered_issue_of_a_series_is_no_work() -> None:
    assert names_a_numbered_issue("Riverwatch links #7") and names_a_numbered_issue("Friday reading # 12")
    assert not names_a_numbered_issue("C# 7 Pattern Matching in Practice")
    assert not names_a_numbered_issue("Signal Crayfish in Clay Banks: Predation on Salmonid Eggs")


def test_a_newsletters_roundup_the_model_took_for_a_paper_is_left_out() -> None:
    # a roundup post has a writer and a summary like any post; its title says it is the seventh of a series
    web = WebContext.for_site(f"{SITE}/")
    roundup, paper = f"{SITE}/p/links-7", f"{SITE}/doi/10.5555/x.2024.1"
    web.add_item(roundup, title="What we read this month", score=7.0, found_on=f"{SITE}/archive", date="2025-07-10")
    web.add_item(paper, title="Coral Bleaching in 2024", score=8.0, found_on=f"{SITE}/archive", date="2024-03-01")
    post = (
        '<html><head><meta property="og:title" content="Riverwatch links #7"><meta property="og:description" '
        'content="What we read this month"></head><body><article><h1>Riverwatch links #7</h1><div class="byline">'
        "Fen Ashby</div><p>What we read this month.</p></article></body></html>"
    )
    pages = {
        roundup: Page(url=roundup, final_url=roundup, determination=Determination.OK, html=post),
        paper: Page(url=paper, final_url=paper, determination=Determination.OK, html=ARTICLE),
    }
    x = _exploration("Find the 3 most recent papers on coral bleaching", pages, web)
    chosen = choose_items(x, None, today=date(2025, 12, 1))
    assert [item.url for item in chosen.items] == [paper]


def test_a_wiki_page_whose_byline_links_its_last_change_to_the_history_is_an_item() -> None:
    # a team wiki's report page: its byline names its creator and links the day of its last change to the page's
    # history ("Created by A, last modified by B on <a>Dec 09, 2026</a>"), a link to no other work; its authors are
    # read from its properties table; the same byline in an entry that links to another page by a title still
    # makes a page a listing
    report = f"{SITE}/display/AE/Slab+Track+Vibration"
    html = (
        "<html><body><header><a href='/dashboard'>Wiki</a></header><div id='main'><h1>Slab Track Vibration</h1>"
        "<div class='page-metadata'><ul><li>Created by <a href='/display/~ana'>Ana Brandt</a>, last modified by "
        "<a href='/display/~kofi'>Kofi Mensah</a> on <a href='/pages/diff?pageId=7&amp;v=2'>Dec 09, 2026</a></li>"
        "</ul></div><table><tr><th>Authors</th><td><a href='/display/~ana'>Ana Brandt</a>, <a href='/display/~kofi'>"
        "Kofi Mensah</a></td></tr><tr><th>Date issued</th><td>30 Sep 2026</td></tr></table><p>Sensors on slab track."
        "</p></div></body></html>"
    )
    meta = ItemMetadata(
        title="Slab Track Vibration",
        authors=["Ana Brandt", "Kofi Mensah"],
        date="2026-09-30",
        sources={"title": "page_heading", "authors": "page_field", "date": "page_field"},
    )
    links = [f"{SITE}/display/~ana", f"{SITE}/display/~kofi", f"{SITE}/pages/diff?pageId=7&v=2"]
    assert index_page_reason(report, links, meta, html=html) is None
    titled = html.replace(">Dec 09, 2026</a>", ">Dec 09, 2026</a> <a href='/display/AE/Ballast+Settlement+Trial'>"
                          "Ballast Settlement Trial Results</a>")  # fmt: skip
    assert index_page_reason(report, links, meta, html=titled) is not None


BLOG = f"{SITE}/blogs/tidal-notes/"
BLOG_HTML = (
    "<html><head><title>Tidal Notes | Planet Coasts</title></head><body><div id='content'><h2>Tidal Notes</h2>"
    "<p>By Ines Novak</p><ul>"
    "<li><a href='/2025/04/02/coral-bleaching-after-the-heatwave/'>Coral Bleaching after the Heatwave</a> 2 Apr 2025"
    "</li><li><a href='/2024/11/19/a-week-of-transects/'>A week of transects</a> 19 Nov 2024</li>"
    "<li><a href='/2024/06/03/we-are-hiring/'>We are hiring</a> 3 Jun 2024</li></ul></div></body></html>"
)


def test_a_blogs_landing_page_dated_by_its_newest_post_is_no_item() -> None:
    # the page's own text gives it a byline and a day, but the day is its newest post's: a list of posts
    meta = ItemMetadata(
        title="Tidal Notes", authors=["Ines Novak"], date="2025-04-02",
        sources={"authors": "page_byline", "date": "page_text"},
    )  # fmt: skip
    reason = index_page_reason(BLOG, [], meta, html=BLOG_HTML)
    assert reason is not None and "lists 3 entries" in reason
    # htmldate's search through the page's text finds the same newest post's day: still the list's, not the page's
    searched = meta.model_copy(update={"sources": {"authors": "page_byline", "date": "htmldate"}})
    assert index_page_reason(BLOG, [], searched, html=BLOG_HTML) is not None
    assert index_page_reason(BLOG, [], meta.model_copy(update={"date": None}), html=BLOG_HTML) is not None
    # a post dated by its own tags, or one whose day is none of its list's (its own, with "related posts"), is an item
    tagged = meta.model_copy(update={"sources": {"authors": "page_byline", "date": "opengraph"}})
    assert index_page_reason(BLOG, [], tagged, html=BLOG_HTML) is None
    assert index_page_reason(BLOG, [], meta.model_copy(update={"date": "2025-05-01"}), html=BLOG_HTML) is None
    two = BLOG_HTML.replace("<li><a href='/2024/06/03/we-are-hiring/'>We are hiring</a> 3 Jun 2024</li>", "")
    assert index_page_reason(BLOG, [], meta, html=two) is None  # two dated links: a work's versions, perhaps
