"""The fifth batch of fresh held-out sites (`eval/testbed/fresh_heldout5*.py`) as built, served on loopback: each
structure they claim, and every relevant item reachable from the home page as a visitor reaches it (the links a
person clicks, paging links included) within robots.txt, with a robots.txt that shuts the way showing the check can
fail. No crawler runs here: their first benchmark run is the measure, and it is the lead's."""

from __future__ import annotations

import re

import httpx
import pytest
from protego import Protego
from site_visitor import METADATA_TAGS, check_reachable, missing, page_of, url_of, visit

from research_crawler.eval.testbed import Testbed, TestbedServer
from research_crawler.eval.testbed.fresh_heldout5 import (
    FRESH5_SITE_SPECS,
    INVITED,
    slot,
    spoken_date,
    term_of,
)
from research_crawler.eval.testbed.fresh_heldout5_homepage import HOME, bibtex, owner
from research_crawler.eval.testbed.fresh_heldout5_reports import PER_PAGE, PUBLICATIONS, report_number, uk_date

SITES = [spec.name for spec in FRESH5_SITE_SPECS]


# ---------------------------------------------------------------------------------------------- seminar series


def test_the_programme_is_a_schedule_by_term_with_invited_lectures_and_posters_among_the_talks(
    web: Testbed, get: tuple[TestbedServer, httpx.Client]
) -> None:
    items = web.items_on("fresh5-colloquium")
    home = page_of(get, "fresh5-colloquium", "/")
    years = sorted({i.year for i in items}, reverse=True)
    assert all(f'href="/programme/{y}.html"' in home for y in years)
    seen_invited = seen_poster = False
    for year in years:
        programme = page_of(get, "fresh5-colloquium", f"/programme/{year}.html")
        talks = sorted((i for i in items if i.year == year), key=lambda i: i.date)
        linked = re.findall(r'<a href="(/programme/talks/\d+\.html)">', programme)
        assert linked == [i.path for i in talks if term_of(i) == "Spring"] + [
            i.path for i in talks if term_of(i) == "Autumn"
        ]
        for item in talks:
            start, room = slot(item)
            row = programme.split(f'href="{item.path}"')[0].rsplit("<tr>", 1)[1]
            assert f"<td>{start}</td><td>{room}</td>" in row
        seen_invited |= any(f"<td>Invited lecture</td><td>{name}</td>" in programme for name, _ in INVITED)
        seen_poster |= "<td>Poster evening</td>" in programme
        assert "<th>Date</th><th>Time</th><th>Room</th>" in programme and not METADATA_TAGS.search(programme)
    assert seen_invited and seen_poster
    assert get[1].get(url_of(get, "fresh5-colloquium", "/programme/1999.html")).status_code == 404


def test_a_talks_abstract_page_names_speaker_day_time_and_room_without_tags(
    web: Testbed, get: tuple[TestbedServer, httpx.Client]
) -> None:
    item = web.items_on("fresh5-colloquium")[0]
    page = page_of(get, "fresh5-colloquium", item.path)
    start, room = slot(item)
    assert f"<h1>{item.title}</h1>" in page and f"<b>Speaker:</b> {item.authors[0]}" in page
    assert f"{spoken_date(item.date)}, {start}" in page and room in page and not METADATA_TAGS.search(page)
    assert spoken_date("2024-03-14") == "Thursday 14 March 2024"
    slides = get[1].get(url_of(get, "fresh5-colloquium", item.pdf_path))
    assert slides.status_code == 200 and slides.content.startswith(b"%PDF")
    robots = Protego.parse(page_of(get, "fresh5-colloquium", "/robots.txt"))
    assert not robots.can_fetch(url_of(get, "fresh5-colloquium", "/registration/"), "*")


# ---------------------------------------------------------------------------------------------- homepage


def test_the_homepage_lists_citations_with_the_year_only_inside_and_links_after_each(
    web: Testbed, get: tuple[TestbedServer, httpx.Client]
) -> None:
    items = web.items_on("fresh5-homepage")
    name = owner(items)
    assert f'href="{HOME}"' in page_of(get, "fresh5-homepage", "/")
    assert f'href="{HOME}publications.html"' in page_of(get, "fresh5-homepage", HOME)
    page = page_of(get, "fresh5-homepage", f"{HOME}publications.html")
    mine, students = page.split("<h2>Papers by my students</h2>")
    assert [i.path for i in items if name in i.authors] == re.findall(r'\[<a href="([^"]+\.html)">Abstract', mine)
    assert [i.path for i in items if name not in i.authors] == re.findall(
        r'\[<a href="([^"]+\.html)">Abstract', students
    )
    item = next(i for i in items if name in i.authors)
    entry = page.split(f"{item.title}.")[1].split("</li>")[0]
    assert f", {item.year}. [" in entry and "[<a" in entry and ">BibTeX</a>]" in entry
    assert "Slides</a>]" in page and "<ul><li>" in page and not METADATA_TAGS.search(page)
    assert not re.search(r"<h[23][^>]*>\s*20\d\d", page)  # no year headings: the year is only in the citation


def test_the_homepages_abstract_pages_name_no_author_or_year_and_bibtex_is_text(
    web: Testbed, get: tuple[TestbedServer, httpx.Client]
) -> None:
    item = web.items_on("fresh5-homepage")[0]
    page = page_of(get, "fresh5-homepage", item.path)
    assert f"<h1>{item.title}</h1>" in page and item.abstract in page
    assert not any(a in page for a in item.authors) and str(item.year) not in page.replace("2026", "")
    bib = get[1].get(url_of(get, "fresh5-homepage", item.path.replace(".html", ".bib")))
    assert bib.headers["content-type"].startswith("text/plain") and bib.text == bibtex(item)
    assert f"year    = {{{item.year}}}" in bib.text and " and ".join(item.authors) in bib.text
    shared = next(i for i in web.items_on("fresh5-homepage") if i.work)
    talk = next(c for c in web.copies_of(shared) if c.site == "fresh5-colloquium")
    assert talk.title == shared.title and talk.date > shared.date


# ---------------------------------------------------------------------------------------------- report series


def test_the_publications_page_narrows_by_a_get_form_of_select_boxes_and_pages(
    web: Testbed, get: tuple[TestbedServer, httpx.Client]
) -> None:
    items = web.items_on("fresh5-reports")
    everything = page_of(get, "fresh5-reports", PUBLICATIONS)
    assert f'<form action="{PUBLICATIONS}" method="get">' in everything
    assert '<select name="year">' in everything and '<select name="topic">' in everything
    assert re.findall(r'<li class="document"><a href="([^"]+)"', everything) == [i.path for i in items[:PER_PAGE]]
    following = re.search(r'href="([^"]+)">Next page ›', everything)
    assert following is not None
    second = page_of(get, "fresh5-reports", following.group(1).replace("&amp;", "&"))
    assert re.findall(r'<li class="document"><a href="([^"]+)"', second)[0] == items[PER_PAGE].path
    topic = next(re.finditer(r'<option value="([a-z-]+)">', everything.split('name="topic"')[1])).group(1)
    narrowed = page_of(get, "fresh5-reports", f"{PUBLICATIONS}?year=2024&topic={topic}")
    listed = re.findall(r'<li class="document"><a href="([^"]+)"', narrowed)
    expected = [i.path for i in items if i.year == 2024 and re.sub(r"[^a-z]+", "-", i.category.lower()) == topic]
    assert listed == expected[:PER_PAGE] and listed
    assert '<option value="2024" selected>' in narrowed


def test_a_reports_landing_page_carries_its_number_date_and_pdf_and_the_search_is_forbidden(
    web: Testbed, get: tuple[TestbedServer, httpx.Client]
) -> None:
    item = web.items_on("fresh5-reports")[0]
    page = page_of(get, "fresh5-reports", item.path)
    number = report_number(item)
    assert re.fullmatch(r"Report 20\d\d/\d+", number) and number in page and not METADATA_TAGS.search(page)
    assert f"<dt>Published</dt><dd>{uk_date(item.date)}</dd>" in page and item.authors[0] in page
    assert uk_date("2024-05-17") == "17/05/2024"
    assert get[1].get(url_of(get, "fresh5-reports", item.pdf_path)).content.startswith(b"%PDF")
    robots = Protego.parse(page_of(get, "fresh5-reports", "/robots.txt"))
    assert not robots.can_fetch(url_of(get, "fresh5-reports", "/search?q=water"), "*")
    assert robots.can_fetch(url_of(get, "fresh5-reports", f"{PUBLICATIONS}?year=2024"), "*")


# ---------------------------------------------------------------------------------------------- reachability


@pytest.mark.parametrize("site", SITES)
def test_every_relevant_item_is_reachable_from_home_as_a_visitor_within_robots_txt(web: Testbed, site: str) -> None:
    check_reachable(web, site)


#: Each site's way to its items shut while the items themselves stay allowed: the programmes, the list of papers,
#: the publications page and its pages (the report series' home page still links its two newest reports).
SHUT = {
    "fresh5-colloquium": "Disallow: /programme/20\n",
    "fresh5-homepage": f"Disallow: {HOME}publications\n",
    "fresh5-reports": f"Disallow: {PUBLICATIONS}$\nDisallow: {PUBLICATIONS}?\n",
}


@pytest.mark.parametrize("site", SITES)
def test_the_reachability_check_fails_when_robots_txt_shuts_the_way(web: Testbed, site: str) -> None:
    reached = visit(web, site, robots_txt=f"User-agent: *\n{SHUT[site]}")
    assert missing(web, site, reached)
    assert reached & {i.path for i in web.items_on(site)} or site != "fresh5-reports"
