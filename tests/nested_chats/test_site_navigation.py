"""The site's menu, repeated on every page read there, is left out of the Collector's view from the third page on."""

from __future__ import annotations

from research_crawler.nested_chats.site_navigation import SiteNavigation
from research_crawler.pages.page import Determination, Link, Page

SITE = "https://society.example/"
MENU = [("journal/language", "Journal of Language Science"), ("journal/marine", "Journal of Marine Science")]


def page(path: str, own: list[tuple[str, str]]) -> tuple[Page, str]:
    links = [Link(id=n, url=SITE + url, text=text, same_site=True) for n, (url, text) in enumerate(MENU + own, 1)]
    menu = "\n".join(f"  * [{n}] {text}" for n, (_, text) in enumerate(MENU, 1))
    body = "\n".join(f"[{n}] {text}\nNovak, I. · 10 October 2024" for n, (_, text) in enumerate(own, len(MENU) + 1))
    return Page(url=SITE + path, final_url=SITE + path, determination=Determination.OK, links=links), f"{menu}\n{body}"


def test_the_menu_is_left_out_once_two_pages_showed_it() -> None:
    navigation = SiteNavigation()
    for path in ("", "search?q=coral"):  # the first two pages: nothing is known to be the site's navigation yet
        shown, view = page(path, [(f"{path}/x", "A listed paper")])
        assert navigation.without_navigation(SITE, shown, view) == view
    article, view = page("doi/1", [("journal/marine/issue/10", "Issue 10"), ("doi/1.pdf", "PDF")])
    seen = navigation.without_navigation(SITE, article, view)
    assert "Journal of Language Science" not in seen and "Journal of Marine Science" not in seen
    assert "[3] Issue 10" in seen and "[4] PDF" in seen and "Novak, I." in seen
    assert seen.endswith("(2 line(s) of the site's navigation, shown on every page read here, are left out)")


def test_a_line_that_says_more_than_its_menu_links_stays() -> None:
    navigation = SiteNavigation()
    for path in ("", "about"):
        navigation.without_navigation(SITE, *page(path, []))
    article, _ = page("doi/2", [])
    view = "[2] Journal of Marine Science / Issue 10\n[1] Journal of Language Science"
    assert navigation.without_navigation(SITE, article, view).splitlines()[0] == view.splitlines()[0]
    assert navigation.without_navigation("https://other.example/", article, view) == view  # per site
