"""The twentieth batch of fresh held-out sites (`eval/testbed/fresh_heldout20*.py`) as built, served on loopback:
each structure they claim, and every relevant item reachable from the home page as a visitor reaches it (the links a
person clicks, paging included) within robots.txt, with a robots.txt that shuts the way showing the check can fail.
No crawler runs here: their first benchmark run is the measure, and it is the lead's."""

from __future__ import annotations

import re
from datetime import date

import pytest
from site_visitor import METADATA_TAGS, Served, check_reachable, links_of, missing, page_of, robots_of, url_of, visit

from research_crawler.eval.testbed import Testbed
from research_crawler.eval.testbed.fresh_heldout20 import (
    ARCHIVES,
    FRESH20_SITE_SPECS,
    JOURNALS,
    archive_of,
    journal_of,
    philpapers_id,
)
from research_crawler.eval.testbed.fresh_heldout20_econ import (
    REPORTS,
    author_page,
    by_number,
    citation,
    issue_day,
    registered,
)
from research_crawler.eval.testbed.fresh_heldout20_philbib import (
    PER_PAGE,
    added_on,
    by_first_author,
    by_year,
    entry_citation,
    profile_of,
)
from research_crawler.eval.testbed.fresh_heldout20_scielo import history, issue_of, spanish_date, surname_first

SITES = [spec.name for spec in FRESH20_SITE_SPECS]
ECON, SCIELO, PHILBIB = "fresh20-econ", "fresh20-scielo", "fresh20-philbib"
RECORD = r"/p/[a-z]{3}/wpaper/\d{4}-\d{2,3}\.html"
ARTICLE = r"/j/[a-z]{4}/a/[A-Za-z0-9]{23}/"
ENTRY = r"/rec/[A-Z]+-\d+"


def _unescaped(page: str) -> str:
    return page.replace("&amp;", "&").replace("&quot;", '"').replace("&#x27;", "'")


# ---------------------------------------------------------------------------------------------- index


def test_the_index_lists_each_series_on_one_page_under_years_by_number(web: Testbed, get: Served) -> None:
    items = web.items_on(ECON)
    home = page_of(get, ECON, "/")
    assert "/s/" in links_of(home, r"/s/") and "/n/" in links_of(home, r"/n/")
    series = links_of(page_of(get, ECON, "/s/"), r"/s/[a-z]{3}/wpaper\.html")
    assert sorted(series) == sorted(f"/s/{code}/wpaper.html" for code in ARCHIVES)
    reached: list[str] = []
    for link in series:
        code = link.split("/")[2]
        page = page_of(get, ECON, link)
        mine = by_number([i for i in items if archive_of(i.title) == code])
        assert links_of(page, RECORD) == [i.path for i in mine]
        years = re.findall(r'<h3 id="(\d{4})">', page)
        assert years == sorted(set(years), reverse=True) and "page=" not in page
        reached += [i.path for i in mine]
    assert sorted(reached) == sorted(i.path for i in items)
    robots = robots_of(get, ECON)
    assert not robots.can_fetch(url_of(get, ECON, "/cgi-bin/htsearch?q=remittances"), "*")
    assert robots.can_fetch(url_of(get, ECON, series[0]), "*")


def test_nep_reports_archive_weekly_issues_that_announce_each_paper_once(web: Testbed, get: Served) -> None:
    items = web.items_on(ECON)
    reports = links_of(page_of(get, ECON, "/n/"), r"/n/nep-[a-z]{3}/")
    assert reports == [f"/n/{code}/" for code in REPORTS]
    announced: list[str] = []
    for report in reports:
        issues = links_of(page_of(get, ECON, report), r"/n/nep-[a-z]{3}/\d{4}-\d{2}-\d{2}\.html")
        days = [date.fromisoformat(i.rsplit("/", 1)[1][:10]) for i in issues]
        assert days == sorted(days, reverse=True) and all(day.weekday() == 6 for day in days)
        for issue in issues:
            announced += links_of(page_of(get, ECON, issue), RECORD)
    assert sorted(announced) == sorted(i.path for i in items)
    for item in items:
        assert (
            issue_day(item) >= date.fromisoformat(item.date)
            and (issue_day(item) - date.fromisoformat(item.date)).days < 7
        )


def test_an_index_record_gives_handle_date_citation_and_registered_authors(web: Testbed, get: Served) -> None:
    items = web.items_on(ECON)
    for item in items:
        page = _unescaped(page_of(get, ECON, item.path))
        assert f"<p>Date: {item.date}</p>" in page and f"<p>{item.key}</p>" in page
        assert citation(item) in page and f'<meta name="citation_publication_date" content="{item.year}" />' in page
        assert links_of(page, r"/e/p[a-z]+\d{3}\.html") == [author_page(a) for a in item.authors if registered(a)]
        assert (
            f'href="/n/{next(c for c, (f, _) in REPORTS.items() if f == item.category)}/{issue_day(item)}.html"' in page
        )
        for name in item.authors:
            if registered(name):
                assert item.path in links_of(page_of(get, ECON, author_page(name)), RECORD)
    assert any(not registered(a) for i in items for a in i.authors)
    shared = [i for i in items if i.work]
    assert len(shared) == 3
    for item in shared:
        article = next(c for c in web.copies_of(item) if c.site == SCIELO)
        assert article.date > item.date and item.doi == article.doi
        assert f'href="{url_of(get, SCIELO, article.path)}"' in page_of(get, ECON, item.path)
    pdf = get[1].get(url_of(get, ECON, items[0].pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


# ---------------------------------------------------------------------------------------------- collection


def test_the_collection_leads_from_journal_lists_to_issue_grids_and_tables_of_contents(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(SCIELO)
    alpha = page_of(get, SCIELO, "/journals/alpha?status=current")
    journals = links_of(alpha, r"/j/[a-z]{4}/")
    assert journals == [f"/j/{a}/" for a, _ in sorted(JOURNALS.items(), key=lambda kv: kv[1][0])]
    assert sorted(links_of(page_of(get, SCIELO, "/journals/thematic"), r"/j/[a-z]{4}/")) == sorted(journals)
    reached: list[str] = []
    for journal in journals:
        acronym = journal.split("/")[2]
        front = page_of(get, SCIELO, journal)
        assert f"/j/{acronym}/grid" in links_of(front, r"/j/[a-z]{4}/grid")
        grid = page_of(get, SCIELO, f"/j/{acronym}/grid")
        issues = links_of(grid, r"/j/[a-z]{4}/i/\d{4}\.v\d+n[1-4]/")
        mine = [i for i in items if journal_of(i.title) == acronym]
        assert sorted(issues) == sorted({f"/j/{acronym}/i/{issue_of(i)}/" for i in mine})
        current = links_of(front, r"/j/[a-z]{4}/i/[^\"]+")[0]
        assert current == f"/j/{acronym}/i/{issue_of(max(mine, key=lambda i: i.date))}/"
        for issue in issues:
            toc = page_of(get, SCIELO, issue)
            shown = list(dict.fromkeys(p.split("?")[0] for p in links_of(toc, ARTICLE + r"(?:\?lang=[a-z]{2})?")))
            assert sorted(shown) == sorted(i.path for i in mine if f"/i/{issue_of(i)}/" in issue)
            for item in (i for i in mine if i.path in shown):
                assert "; ".join(surname_first(a) for a in item.authors) in _unescaped(toc)
            reached += shown
    assert sorted(reached) == sorted(i.path for i in items)
    robots = robots_of(get, SCIELO)
    assert not robots.can_fetch(url_of(get, SCIELO, "/search/?q=remesas"), "*")
    assert robots.can_fetch(url_of(get, SCIELO, items[0].path), "*")


def test_an_article_gives_its_history_in_spanish_or_portuguese_and_meta_tags_with_the_issue_month(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(SCIELO)
    for item in items:
        lang = JOURNALS[journal_of(item.title)][2]
        page = _unescaped(page_of(get, SCIELO, item.path))
        received, accepted, published = history(item)
        assert received < accepted < published == date.fromisoformat(item.date)
        assert f"Publicado: {spanish_date(published, lang)}</li>" in page and f'<html lang="{lang}">' in page
        assert ("Recibido: " if lang == "es" else "Recebido: ") in page
        quarter_end = ((published.month - 1) // 3 + 1) * 3
        assert f'<meta name="citation_date" content="{quarter_end:02d}/{published.year}" />' in page
        assert item.date not in page
        english = page_of(get, SCIELO, f"{item.path}?lang=en")
        assert f"Published: {spanish_date(published, 'en')}</li>" in english
    assert spanish_date(date(2024, 3, 5)) == "5 de marzo de 2024"
    assert spanish_date(date(2024, 3, 5), "pt") == "5 de março de 2024"
    assert {JOURNALS[journal_of(i.title)][2] for i in items} == {"es", "pt"}
    shared = [i for i in items if i.work]
    assert len(shared) == 3
    for item in shared:
        paper = next(c for c in web.copies_of(item) if c.site == ECON)
        assert f'href="{url_of(get, ECON, paper.path)}"' in page_of(get, SCIELO, item.path)


# ---------------------------------------------------------------------------------------------- bibliography


def _walk(get: Served, first: str) -> tuple[list[str], int]:
    """The entries a category lists on its first page and on each page its "next ›" link leads to."""
    found, pages, page = [], 0, page_of(get, PHILBIB, first)
    while True:
        pages += 1
        found += links_of(page, ENTRY)
        step = re.search(r'<a class="next" href="([^"]+)">', page)
        if step is None:
            return found, pages
        page = page_of(get, PHILBIB, step.group(1).replace("&amp;", "&"))


def test_the_bibliography_lists_a_category_with_its_subcategories_ten_at_a_time_by_first_author(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(PHILBIB)
    areas = links_of(page_of(get, PHILBIB, "/"), r"/browse/[a-z-]+")
    assert "/browse/value-theory" in areas
    shown, pages = _walk(get, "/browse/value-theory")
    assert shown == [i.path for i in by_first_author(items)] and pages == -(-len(items) // PER_PAGE) > 1
    by_pub, _ = _walk(get, "/browse/value-theory?sort=pubYear")
    assert by_pub == [i.path for i in by_year(items)] and by_pub != shown
    area = page_of(get, PHILBIB, "/browse/value-theory")
    subcategories = re.search(r'<ul class="subcats">(.*?)</ul>', area)
    assert subcategories is not None and f"of {len(items)} (with sub-categories)" in area
    assert links_of(subcategories.group(1), r"/browse/[a-z-]+") == [
        "/browse/normative-ethics",
        "/browse/social-political",
    ]
    for leaf, name in (("moral-luck", "Moral Luck"), ("epistemic-injustice", "Epistemic Injustice")):
        mine = by_first_author([i for i in items if i.category == name])
        assert _walk(get, f"/browse/{leaf}")[0] == [i.path for i in mine]
    robots = robots_of(get, PHILBIB)
    assert not robots.can_fetch(url_of(get, PHILBIB, "/s/moral%20luck"), "*")
    assert not robots.can_fetch(url_of(get, PHILBIB, f"/export/{items[0].key}"), "*")
    assert robots.can_fetch(url_of(get, PHILBIB, "/browse/value-theory?start=10"), "*")


def test_entries_and_records_give_the_year_only_and_records_every_author(web: Testbed, get: Served) -> None:
    items = web.items_on(PHILBIB)
    listing = _unescaped("".join(page_of(get, PHILBIB, f"/browse/value-theory?start={n}") for n in range(0, 30, 10)))
    for item in items:
        assert f">{item.title}</a>" in listing
        assert (" et al." in entry_citation(item)) == (len(item.authors) > 3)
        page = _unescaped(page_of(get, PHILBIB, item.path))
        assert not METADATA_TAGS.search(page) and item.date not in page
        assert f"({item.year})</div>" in page and f"Added to PhilIndex: {added_on(item):%Y-%m-%d}" in page
        assert links_of(page, r"/profile/\d+") == [profile_of(a) for a in item.authors]
        assert item.path in links_of(page_of(get, PHILBIB, profile_of(item.authors[-1])), ENTRY)
    assert any(len(i.authors) > 3 for i in items)
    assert philpapers_id("Fortune, Control and Desert", 37) == "FORCD-37"


# ---------------------------------------------------------------------------------------------- reachability


@pytest.mark.parametrize("site", SITES)
def test_every_relevant_item_is_reachable_from_home_as_a_visitor_within_robots_txt(web: Testbed, site: str) -> None:
    check_reachable(web, site)


def _shut(site: str) -> str:
    """Each site's way to its items shut while the items themselves stay allowed: the index's series and reports
    (its home still shows the latest additions), the collection's journal pages, the bibliography's categories."""
    if site == ECON:
        return "Disallow: /s/\nDisallow: /n/\nDisallow: /e/\n"
    if site == SCIELO:
        return "Disallow: /journals/\nDisallow: /j/*/grid\nDisallow: /j/*/i/\n"
    return "Disallow: /browse/\n"


@pytest.mark.parametrize("site", SITES)
def test_the_reachability_check_fails_when_robots_txt_shuts_the_way(web: Testbed, site: str) -> None:
    reached = visit(web, site, robots_txt=f"User-agent: *\n{_shut(site)}")
    assert missing(web, site, reached)
    if site == ECON:  # the index's home page still shows its latest additions
        assert reached & {i.path for i in web.items_on(site)}
