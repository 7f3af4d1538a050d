"""A site's chrome read as chrome: the links a page shows only in its header, navigation or footer are listed and
queued after its own; a breadcrumb's step is never an item, nor its trail a title."""

from __future__ import annotations

from research_crawler.context.web_context import WebContext
from research_crawler.pages.main_content import frame_link_urls
from research_crawler.pages.page import Determination, Page
from research_crawler.pages.view import PageView, build_page_view, link_view
from research_crawler.tools.hints import HintState
from research_crawler.tools.items import collect_items
from research_crawler.tools.navigation import MENU_PENALTY, save_links

SITE = "http://conference.test/"
STATE = HintState(subpages_left=4, items_collected=0)
HOME = (
    "<html><head><title>Home · CONF</title></head><body><header><a href='/'>CONF</a><nav>"
    "<a href='/cfp'>Call for papers</a> <a href='/organisers'>Organisers</a> <a href='/venue'>Venue</a></nav></header>"
    "<main><h1>The Conference</h1><p>A yearly meeting. Every accepted paper is in the proceedings.</p><ul>"
    "<li><a href='/2025/'>CONF 2025</a>, Ghent: proceedings</li><li><a href='/2024/'>CONF 2024</a>, Porto</li>"
    "</ul></main><footer><a href='/privacy'>Privacy</a></footer></body></html>"
)
PAPER = (
    "<html><head><title>Speech for All · CONF</title></head><body><header><nav><a href='/cfp'>Call for papers</a>"
    "</nav></header><main><p><a href='/2025/'>Proceedings of CONF 2025</a> › Session: Speech and Language</p>"
    "<h1>Speech for All</h1><p>Ana Silva, Jun Park</p><p>Abstract: recognising speech in languages with little "
    "data.</p><p><a href='/2025/papers/p7.pdf'>Paper (PDF)</a></p></main></body></html>"
)


def page_of(html: str, url: str) -> Page:
    view = build_page_view(html, url=url)
    return Page(
        url=url, final_url=url, status=200, determination=Determination.OK, html=html, markdown=view.markdown,
        links=view.links, title=view.title,
    )  # fmt: skip


def test_the_links_of_the_header_navigation_and_footer_are_the_sites_menu() -> None:
    home = page_of(HOME, SITE)
    assert frame_link_urls(home) == {f"{SITE}cfp", f"{SITE}organisers", f"{SITE}venue", f"{SITE}privacy"}
    # a page that marks no landmark tells no link apart
    assert frame_link_urls(page_of("<html><body><a href='/a'>A paper on speech</a> text</body></html>", SITE)) == set()


def test_the_crawler_reads_the_pages_own_links_first_and_the_menu_under_a_line_that_says_so() -> None:
    home = page_of(HOME, SITE)
    view = PageView(title=home.title, markdown=home.markdown, links=home.links, base_url=SITE)
    lines = link_view(view, menu=frame_link_urls(home)).splitlines()
    menu_line = lines.index("Site menu (only in the page's header, navigation or footer):")
    assert "CONF 2025" in lines[1] and "CONF 2024" in lines[2] and menu_line == 3
    assert all(name in "\n".join(lines[menu_line:]) for name in ("Organisers", "Venue", "Privacy"))
    assert link_view(view) == link_view(view, menu=frozenset())  # no menu: the view as it was


def test_a_menu_link_scored_like_the_pages_own_is_queued_after_them() -> None:
    # a model that scores "Organisers" like "CONF 2024" (or above it by less than the penalty) opens the edition first
    home, web = page_of(HOME, SITE), WebContext.for_site(SITE)
    ids = {link.text: link.id for link in home.links}
    links = [{"id": ids["Organisers"], "score": 3.5}, {"id": ids["CONF 2024"], "score": 3.0}]
    result = save_links(web, home, links, state=STATE, menu=frame_link_urls(home))
    assert result.menu == 1 and "of the site's menu were queued" in result.message
    assert [entry.url for entry in web.top_urls(3) if entry.url != SITE] == [f"{SITE}2024/", f"{SITE}organisers"]
    assert web.pending_entry(f"{SITE}organisers").score == 3.5 - MENU_PENALTY
    strong = WebContext.for_site(SITE)  # a menu link the model judges far better is still opened first
    save_links(strong, home, [{"id": ids["Venue"], "score": 9.0}, {"id": ids["CONF 2024"], "score": 3.0}],
               state=STATE, menu=frame_link_urls(home))  # fmt: skip
    assert next(entry.url for entry in strong.top_urls(3) if entry.url != SITE) == f"{SITE}venue"


def test_a_breadcrumb_step_is_never_an_item_nor_its_trail_a_title() -> None:
    url = f"{SITE}2025/papers/p7"
    paper, web = page_of(PAPER, url), WebContext.for_site(SITE)
    step = next(link for link in paper.links if link.text == "Proceedings of CONF 2025")
    trail = "Proceedings of CONF 2025 › Session: Speech and Language"
    result = collect_items(
        web,
        paper,
        [
            {"id": step.id, "title": trail, "score": 7.0},  # the trail's first step, named by its number
            {"url": f"{SITE}2025/", "title": "Proceedings of CONF 2025", "score": 7.0},  # or by its URL
            {"url": url, "title": trail, "score": 8.0},  # the page itself, titled with its trail
        ],
        state=STATE,
    )
    assert len(result.rejected) == 2 and all("breadcrumb trail" in reason for reason in result.rejected)
    (item,) = web.items()
    assert item.url == url and item.title == "Speech for All · CONF"  # the page's own title, not its trail
    # a listing's entries are not steps: a link followed by its byline on the same line stays an item
    listing = page_of(f"<html><body><main><p><a href='{url}'>Speech for All</a> › Ana Silva</p>"
                      "<ul><li><a href='/2025/papers/p8'>Listening in Code-Switched Talk</a> - Jun Park</li></ul>"
                      "</main></body></html>", f"{SITE}2025/")  # fmt: skip
    kept = collect_items(WebContext.for_site(SITE), listing, [{"id": 2, "title": "Listening", "score": 6}], state=STATE)
    assert kept.added == [f"{SITE}2025/papers/p8"]


def test_a_link_that_switches_the_sites_language_is_never_queued() -> None:
    # a journal's search page offers "English" / "Español (España)" in its header, and a footer link that sets the
    # locale by its address: a model that scores them like a listing still opens the listing, and never those
    page_html = (
        "<html><head><title>Search · J</title></head><body><header><nav><a href='/user/setLocale/en_US?source=/s'>"
        "English</a> <a href='/lang/es'>Español (España)</a> <a href='/archive'>Archives</a> <a href='/about'>About"
        "</a></nav></header><main><h1>Search</h1><p>No results.</p><p><a href='/german-studies'>German</a> "
        "<a href='/s?q=dunes&amp;lang=fr'>French results</a></p></main><footer><a href='/deutsch'>Deutsch</a>"
        "</footer></body></html>"
    )
    page, web = page_of(page_html, f"{SITE}s"), WebContext.for_site(SITE)
    links = [{"id": link.id, "score": 3.5} for link in page.links]
    result = save_links(web, page, links, state=STATE, menu=frame_link_urls(page))
    queued = {url.removeprefix(SITE) for url in result.queued}
    # the page's own "German" is a subject, not a switcher; the menu's "Archives" and "About" are pages
    assert queued == {"archive", "about", "german-studies"}
    assert sum("switches the site's language" in reason for reason in result.rejected) == 4
    assert "switches the site's language" in result.message
