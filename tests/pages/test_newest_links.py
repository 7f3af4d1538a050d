"""Links that lead to a site's newest works are told from works whose titles share their words."""

from __future__ import annotations

import pytest

from research_crawler.pages.newest_links import leads_to_newest
from research_crawler.pages.page import Link


def link(text: str, url: str = "https://journal.test/page") -> Link:
    return Link(id=1, url=url, text=text, same_site=True)


@pytest.mark.parametrize(
    "text",
    ["Current issue", "View the current issue", "Latest articles", "Newest first", "Recently added", "Sort by date",
     "Número actual", "Edição atual", "Numéro en cours", "Aktuelle Ausgabe", "Più recenti", "What’s new"],
)  # fmt: skip
def test_words_that_name_the_newest_works_or_the_current_issue_lead_to_them(text: str) -> None:
    assert leads_to_newest(link(text))


@pytest.mark.parametrize(
    "text",
    ["Recent Advances in Graph Learning", "New approaches to recent droughts", "Latest trends in soil science",
     "Issue 4", "Archive", "About the journal", ""],
)  # fmt: skip
def test_a_works_title_or_another_page_does_not(text: str) -> None:
    assert not leads_to_newest(link(text))


def test_an_address_that_sorts_by_date_newest_first_leads_to_the_newest_and_oldest_first_does_not() -> None:
    assert leads_to_newest(link("Date", "https://journal.test/list?q=x&sort=date_desc"))
    assert leads_to_newest(link("Date", "https://journal.test/list?orderBy=-published_date"))
    assert leads_to_newest(link("Newest", "https://journal.test/list?order=newest"))
    assert not leads_to_newest(link("Date", "https://journal.test/list?sort=date_asc"))
    assert not leads_to_newest(link("Oldest", "https://journal.test/list?order=oldest"))
    assert not leads_to_newest(link("Title", "https://journal.test/list?sort=title"))
