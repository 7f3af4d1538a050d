"""A listed work's PDF waits behind the work's own page: when a table of contents shows a title link and a "PDF" link
beside it, the PDF is not queued once the page is queued, read, or scored with it — even scored above it, as a model
may do — since the page names the work and links its file (`tools/navigation.save_links`)."""

from __future__ import annotations

from research_crawler.context.web_context import WebContext
from research_crawler.pages.page import Determination, Page
from research_crawler.pages.view import build_page_view
from research_crawler.tools.hints import HintState
from research_crawler.tools.navigation import save_links

SITE = "http://journal.test/"
TOC_URL = SITE + "issue/2/"
STATE = HintState(subpages_left=4, items_collected=0)
TITLES = ("Graph neural networks for molecules", "Soil moisture in the northern fields", "Wheat yield under drought")


def toc() -> Page:
    entries = "".join(
        f"<li class='article'><h3><a href='/a/{n}/'>{title}</a></h3><p>Lima, Ana; Souza, Bruno</p>"
        f"<a href='/a/{n}/pdf'>PDF</a> <a href='/files/{n}.pdf'>Full text</a></li>"
        for n, title in enumerate(TITLES, start=1)
    )
    html = (
        f"<html><head><title>Issue 2</title></head><body><main><h1>Issue 2</h1><ul>{entries}</ul></main></body></html>"
    )
    view = build_page_view(html, url=TOC_URL)
    return Page(
        url=TOC_URL, final_url=TOC_URL, status=200, determination=Determination.OK, html=html,
        markdown=view.markdown, links=view.links, title=view.title,
    )  # fmt: skip


def ids(page: Page) -> dict[str, int]:
    return {link.url.removeprefix(SITE): link.id for link in page.links}


def test_a_pdf_scored_above_its_work_s_page_is_not_queued() -> None:
    page, web = toc(), WebContext.for_site(SITE)
    found = ids(page)
    result = save_links(
        web, page, [{"id": found["a/1/pdf"], "score": 9}, {"id": found["a/1/"], "score": 7}], state=STATE
    )
    assert [url.removeprefix(SITE) for url in result.queued] == ["a/1/"]
    assert any("its file; not queued" in reason for reason in result.rejected)


def test_a_file_of_a_work_whose_page_was_read_is_not_queued() -> None:
    """The work's page was read already (judged off-topic, say): its PDF and full text, offered later, are not."""
    page, web = toc(), WebContext.for_site(SITE)
    web.add_url(SITE + "a/2/", 5, anchor_text=TITLES[1], found_on=TOC_URL)
    web.mark_visited(SITE + "a/2/")
    found = ids(page)
    result = save_links(
        web, page, [{"id": found["a/2/pdf"], "score": 6}, {"id": found["files/2.pdf"], "score": 6}], state=STATE
    )
    assert result.queued == []
    assert len([reason for reason in result.rejected if "that page is opened, not its file" in reason]) == 2


def test_a_pdf_whose_work_s_page_is_unknown_is_queued() -> None:
    """Only the PDF was scored (the model passed the title link by): the PDF is the one way to the work."""
    page, web = toc(), WebContext.for_site(SITE)
    result = save_links(web, page, [{"id": ids(page)["a/3/pdf"], "score": 6}], state=STATE)
    assert [url.removeprefix(SITE) for url in result.queued] == ["a/3/pdf"]


def built(path: str, body: str) -> Page:
    url = SITE + path
    html = f"<html><head><title>Page</title></head><body><main>{body}</main></body></html>"
    view = build_page_view(html, url=url)
    return Page(
        url=url, final_url=url, status=200, determination=Determination.OK, html=html, markdown=view.markdown,
        links=view.links, title=view.title,
    )  # fmt: skip


def test_a_work_s_own_pdf_is_not_queued_from_its_page() -> None:
    """Read on its page (and judged off-topic, say), a work's PDF at its own address adds nothing: not queued."""
    abstract = " ".join(["We survey soil moisture across the northern fields over ten seasons of measurement."] * 4)
    page = built(
        "a/2/",
        f"<h1>{TITLES[1]}</h1><p>Ana Lima, Bruno Souza</p><h2>Abstract</h2><p>{abstract}</p>"
        "<p><a href='/a/2/pdf'>Download PDF</a> <a href='/a/2/?format=pdf'>PDF</a> <a href='/a/5/'>A related work "
        "on irrigation of wheat fields</a></p>",
    )
    web = WebContext.for_site(SITE)
    found = ids(page)
    links = [{"id": found[path], "score": 6} for path in ("a/2/pdf", "a/2/?format=pdf", "a/5/")]
    result = save_links(web, page, links, state=STATE)
    assert [url.removeprefix(SITE) for url in result.queued] == ["a/5/"]


def test_a_listing_s_files_under_its_address_are_its_works() -> None:
    """A page listing reports as PDFs under its own address is no work: its files are the works, and are queued."""
    files = "".join(f"<li><a href='/reports/{n}.pdf'>Annual field report {n} (PDF)</a></li>" for n in range(1, 6))
    page = built("reports/", f"<h1>Reports</h1><ul>{files}</ul>")
    web = WebContext.for_site(SITE)
    result = save_links(web, page, [{"id": link.id, "score": 6} for link in page.links], state=STATE)
    assert len(result.queued) == 5
