"""Among the links a model scores alike, those whose words name works are queued first: a department's "Publications"
before its "News", whatever order its page gives them; a link scored higher keeps its place, and item titles keep
the page's order."""

from __future__ import annotations

from research_crawler.context.web_context import WebContext
from research_crawler.pages.page import Determination, Page
from research_crawler.pages.view import build_page_view
from research_crawler.tools.hints import HintState
from research_crawler.tools.link_kinds import link_rank
from research_crawler.tools.navigation import save_links

SITE = "http://department.test/"
STATE = HintState(subpages_left=4, items_collected=0)
HOME = (
    "<html><head><title>Welcome · Department</title></head><body><main><h1>Welcome</h1><ul>"
    "<li><a href='/events'>Events</a></li><li><a href='/news'>News</a></li><li><a href='/team'>Our people</a></li>"
    "<li><a href='/seminars/day'>Research day</a></li><li><a href='/publications'>Publications</a></li>"
    "<li><a href='/papers/7'>A Pilot Study of Early Walking after Hip Surgery</a></li>"
    "<li><a href='/papers/3'>Published papers on nerve blocks in older patients</a></li>"
    "</ul></main></body></html>"
)


def home_page() -> Page:
    view = build_page_view(HOME, url=SITE)
    return Page(
        url=SITE, final_url=SITE, status=200, determination=Determination.OK, html=HOME, markdown=view.markdown,
        links=view.links, title=view.title,
    )  # fmt: skip


def test_a_links_words_say_whether_it_names_works_news_or_neither() -> None:
    assert link_rank("Publications") == 0 and link_rank("Working papers") == 0 and link_rank("Research outputs") == 0
    assert link_rank("News") == 2 and link_rank("Upcoming events") == 2 and link_rank("Our people") == 2
    assert link_rank("Literature citing WHM specimens") == 0 and link_rank("Literatur") == 0  # a bibliography's name
    assert link_rank("Research day") == 1 and link_rank("Next") == 1
    assert link_rank("Published papers on nerve blocks in older patients") == 1  # a title, not a part of the site


def test_a_part_named_with_the_singular_names_works_too() -> None:
    """'Paper companions', 'Publication list', 'Preprint archive': the singular as the part's modifier."""
    assert link_rank("Paper companions") == 0 and link_rank("Publication list") == 0
    assert link_rank("Preprint archive") == 0 and link_rank("Thesis repository") == 0
    assert link_rank("Your first week") == 1


def test_the_words_are_read_in_other_languages_too() -> None:
    """A German, Spanish or French department names its parts in its language: accented words are whole words."""
    assert link_rank("Veröffentlichungen") == 0 and link_rank("Publicaciones") == 0 and link_rank("Thèses") == 0
    assert link_rank("Aktuelles") == 2 and link_rank("Noticias") == 2 and link_rank("Actualités") == 2
    assert link_rank("Über uns") == 1


def test_links_scored_alike_are_queued_works_first_and_news_last() -> None:
    home, web = home_page(), WebContext.for_site(SITE)
    ids = {link.text: link.id for link in home.links}
    names = ["Events", "News", "Our people", "Research day", "Publications"]
    titles = ["A Pilot Study of Early Walking after Hip Surgery", "Published papers on nerve blocks in older patients"]
    links: list[dict[str, object]] = [{"id": ids[name], "score": 3.5} for name in names + titles]
    save_links(web, home, links, state=STATE)
    order = [entry.url.removeprefix(SITE) for entry in web.top_urls(10) if entry.url != SITE]
    assert order == ["publications", "seminars/day", "papers/7", "papers/3", "events", "news", "team"]


def test_a_link_scored_higher_is_opened_first_whatever_its_words() -> None:
    home, web = home_page(), WebContext.for_site(SITE)
    ids = {link.text: link.id for link in home.links}
    links: list[dict[str, object]] = [{"id": ids["Publications"], "score": 3.0}, {"id": ids["News"], "score": 6.0}]
    save_links(web, home, links, state=STATE)
    assert [entry.url for entry in web.top_urls(3) if entry.url != SITE] == [f"{SITE}news", f"{SITE}publications"]
