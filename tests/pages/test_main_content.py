"""The Collector's main-content view: boilerplate pruned, link numbers those of the page, nothing invented."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import realweb

from research_crawler.pages.main_content import main_content_markdown
from research_crawler.pages.markdown import prune_boilerplate_html
from research_crawler.pages.page import Page
from research_crawler.text.tokens import count_tokens
from research_crawler.web.fetcher import page_from_file
from research_crawler.web.page_building import html_page

NUMBER = re.compile(r"\[(\d+)\]")
URL = "https://journal.example.org/articles/42"

ARTICLE_PAGE = """<!doctype html><html><head><title>Graph networks for proteins</title></head><body>
<header class="site-header"><a href="/">Journal home</a> <a href="/login">Log in</a>
  <nav><a href="/browse">Browse</a> <a href="/about">About us</a></nav></header>
<div id="cookie-consent" class="cookie-banner"><p>We use cookies to remember your preferences.
  Read our <a href="/privacy">privacy and cookie policy</a>.</p><button>Accept all cookies</button></div>
<main><article>
  <header><h1>Graph networks for proteins</h1><p>Ada Lovelace, Alan Turing</p></header>
  <p>We study graph neural networks for protein structure prediction and report gains of 12 percent on the
  benchmark. The method reads residues as nodes and contacts as edges, as described in [3].</p>
  <figure><img src="f1.png" alt="Figure 1"><figcaption>Figure 1. A very long caption describing every
  panel of the first figure in great detail, which no item collector needs.</figcaption></figure>
  <h2>Related articles</h2>
  <ul><li><a href="/articles/43">Message passing on residue graphs</a></li>
      <li><a href="/articles/44">Equivariant networks for folding</a></li></ul>
</article>
<aside><h2>Most read</h2><a href="/articles/99">Unrelated popular article</a></aside></main>
<footer><a href="/terms">Terms</a> <a href="/contact">Contact us</a> © 2026 Journal</footer>
</body></html>"""


def page_of(html: str, *, url: str = URL, max_links: int = 1000) -> Page:
    return html_page(
        html,
        url=url,
        final_url=url,
        site_url=url,
        status=200,
        content_type="text/html",
        render="http",
        attempts=1,
        max_links=max_links,
    )


def following(text: str, number: int) -> set[str]:
    """The first word `text` shows after each "[number] " (the start of that link's text)."""
    return {match.group(1) for match in re.finditer(rf"\[{number}\] ([^\s|\[\]]+)", text)}


def assert_numbers_are_the_pages(view: str, page: Page) -> None:
    """Every [n] of `view` is a number of the page's link table, in front of the same text as on the page."""
    numbers = {int(n) for n in NUMBER.findall(view)}
    assert numbers <= {int(n) for n in NUMBER.findall(page.markdown)}
    for number in numbers:
        assert page.link(number) is not None, number
        assert following(view, number) <= following(page.markdown, number), number


def test_boilerplate_is_pruned_and_the_article_kept() -> None:
    page = page_of(ARTICLE_PAGE)
    main = main_content_markdown(page)
    for boilerplate in ("Log in", "About us", "cookies", "Terms", "Contact us", "Unrelated popular", "caption"):
        assert boilerplate in page.markdown
        assert boilerplate not in main, boilerplate
    for content in ("Graph networks for proteins", "Ada Lovelace", "12 percent", "Message passing on residue graphs"):
        assert content in main, content
    assert "described in (3)" in main  # the page's own "[3]" cannot pass for a link number
    assert_numbers_are_the_pages(main, page)
    assert count_tokens(main) < count_tokens(page.markdown) / 2


def test_the_related_links_keep_the_numbers_of_the_whole_page() -> None:
    page = page_of(ARTICLE_PAGE)
    main = main_content_markdown(page)
    for target in ("https://journal.example.org/articles/43", "https://journal.example.org/articles/44"):
        link = page.link_for_url(target)
        assert link is not None
        assert f"[{link.id}] {link.text}" in main
        assert link.id > 5, "the header's links come first on the page: the article's are not numbered 1, 2"


def test_a_page_wrapped_in_one_form_keeps_its_content() -> None:
    # ASP.NET and NCBI pages put the whole body in a <form>; Crawl4AI's filter drops forms by default.
    html = (
        "<html><body><form id='aspnetForm' method='post'><table><tr><td>"
        "<h1>Search results: polymerization</h1>"
        + "".join(
            f"<p><a href='/content/{n}'>Polymer chain growth kinetics study number {n}</a> by Author {n}, "
            f"Journal of Polymers {n} (2009), pages {n}-{n + 9}, with an abstract about living radical methods.</p>"
            for n in range(1, 6)
        )
        + "</td></tr></table></form></body></html>"
    )
    page = page_of(html, url="http://www.springerlink.example/content/?k=polymerization")
    main = main_content_markdown(page)
    for n in range(1, 6):
        assert f"Polymer chain growth kinetics study number {n}" in main
    assert_numbers_are_the_pages(main, page)
    assert "<p>" in prune_boilerplate_html(html)


def test_a_page_that_is_all_navigation_is_shown_rather_than_nothing() -> None:
    html = (
        "<html><body><nav><h1>Site map</h1><ul>"
        + "".join(f"<li><a href='/section/{n}'>Section {n} of the archive</a></li>" for n in range(1, 8))
        + "</ul></nav></body></html>"
    )
    page = page_of(html, url="https://archive.example.org/sitemap")
    main = main_content_markdown(page)
    assert "Section 7 of the archive" in main
    assert_numbers_are_the_pages(main, page)


def test_numbers_that_disagree_with_the_page_give_the_whole_page() -> None:
    # The page was built with only 3 links numbered; a view numbering all of them would point elsewhere.
    page = page_of(ARTICLE_PAGE, max_links=3)
    assert main_content_markdown(page, max_links=1000) == page.markdown
    assert main_content_markdown(page, max_links=3) != page.markdown


def test_a_page_without_html_keeps_its_markdown() -> None:
    page = page_of(ARTICLE_PAGE).model_copy(update={"html": ""})
    assert main_content_markdown(page) == page.markdown


REAL_PAGES = [
    "elife__article__1.html",
    "arxiv__listing__2.html",
    "pmc__search__1.html",
    "springer__search__1.html",
    "nature__listing__1.html",
    "googlescholar__search__1.html",
]


@pytest.mark.skipif(not realweb.AVAILABLE, reason=realweb.MISSING_REASON)
@pytest.mark.parametrize("name", REAL_PAGES)
def test_real_pages_lose_boilerplate_but_no_number_changes_meaning(name: str) -> None:
    page = page_from_file(Path(realweb.REALWEB) / "pages" / name)
    main = main_content_markdown(page)
    assert_numbers_are_the_pages(main, page)
    assert count_tokens(main) <= count_tokens(page.markdown)
    assert count_tokens(main) <= 0.25 * count_tokens(page.html)
    assert sum(character.isalnum() for character in main) > 200, "the main content of a real page is not empty"
