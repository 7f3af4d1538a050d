"""Links that lead to a site's newest works are told from works whose titles share their words."""

from __future__ import annotations

import pytest

from research_crawler.pages.newest_links import leads_to_newest
from research_crawler.pages.page import Link

LIST = "https://journal.test/list?q=x"


def link(text: str, url: str = "https://journal.test/page") -> Link:
    return Link(id=1, url=url, text=text, same_site=True)


@pytest.mark.parametrize(
    "text",
    ["Current issue", "View the current issue", "Latest articles", "Newest first", "Recently added", "Sort by date",
     "Número actual", "Edição atual", "Numéro en cours", "Aktuelle Ausgabe", "Più recenti", "What’s new"],
)  # fmt: skip
def test_words_that_name_the_newest_works_or_the_current_issue_lead_to_them(text: str) -> None:
    assert leads_to_newest(link(text), on=LIST)


@pytest.mark.parametrize(
    "text",
    ["Recent Advances in Graph Learning", "New approaches to recent droughts", "Latest trends in soil science",
     "Issue 4", "Archive", "About the journal", ""],
)  # fmt: skip
def test_a_works_title_or_another_page_does_not(text: str) -> None:
    assert not leads_to_newest(link(text), on=LIST)


def test_a_link_that_resorts_its_page_by_date_newest_first_leads_to_the_newest_and_oldest_first_does_not() -> None:
    assert leads_to_newest(link("Date", "https://journal.test/list?q=x&sort=date_desc"), on=LIST)
    assert leads_to_newest(link("Date", "https://journal.test/list?q=x&orderBy=-published_date&page=2"), on=LIST)
    assert leads_to_newest(link("Newest", "https://journal.test/list?order=newest&q=x"), on=LIST)
    assert not leads_to_newest(link("Date", "https://journal.test/list?q=x&sort=date_asc"), on=LIST)
    assert not leads_to_newest(link("Oldest", "https://journal.test/list?q=x&order=oldest"), on=LIST)
    assert not leads_to_newest(link("Title", "https://journal.test/list?q=x&sort=title"), on=LIST)


def test_a_link_sorting_another_list_by_date_does_not_lead_to_this_lists_newest() -> None:
    # a journal's name beside a result, linked to that journal's papers sorted by date: another list, not the newest
    assert not leads_to_newest(link("Toxicon", "https://journal.test/?sort=date&term=Toxicon[jour]"), on=LIST)
    assert not leads_to_newest(link("Date", "https://journal.test/other?q=x&sort=date_desc"), on=LIST)
