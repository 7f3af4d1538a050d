"""The seventh batch of fresh held-out sites (`eval/testbed/fresh_heldout7*.py`) as built, served on loopback: each
structure they claim, and every relevant item reachable from the home page as a visitor reaches it (the links a
person clicks, paging and redirects included) within robots.txt, with a robots.txt that shuts the way showing the
check can fail. No crawler runs here: their first benchmark run is the measure, and it is the lead's."""

from __future__ import annotations

import re

import pytest
from site_visitor import (
    METADATA_TAGS,
    Served,
    check_reachable,
    links_of,
    missing,
    page_of,
    robots_of,
    url_of,
    visit,
)

from research_crawler.eval.testbed import Testbed
from research_crawler.eval.testbed.fresh_heldout7 import FRESH7_SITE_SPECS
from research_crawler.eval.testbed.fresh_heldout7_books import MATTER, PER_PAGE, volumes
from research_crawler.eval.testbed.fresh_heldout7_proceedings import EXTRA_SLOTS, meeting_of, meetings, programme
from research_crawler.eval.testbed.fresh_heldout7_wiki import GERMAN_MONTHS, RECENT_YEARS, TALKS, citation

SITES = [spec.name for spec in FRESH7_SITE_SPECS]


# ---------------------------------------------------------------------------------------------- proceedings


def test_a_meetings_programme_leads_through_sessions_to_papers_among_talks_that_are_not_papers(
    web: Testbed, get: Served
) -> None:
    items = web.items_on("fresh7-proceedings")
    every = meetings(items)
    assert [m.path for m in every] == links_of(page_of(get, "fresh7-proceedings", "/meetings"), r"/meetings/[^\"]+")
    meeting = meeting_of(items[0], every)
    page = page_of(get, "fresh7-proceedings", meeting.path)
    assert [f"Day {n}:" in page for n in (1, 2, 3)] == [True] * 3
    sessions = links_of(page, rf"{meeting.path}/sessions/\w+")
    assert len(sessions) == len(programme(meeting, items, every)) and len(sessions) > len({k for k, *_ in EXTRA_SLOTS})
    papers, abstracts, itinerary = set(), set(), []
    for session in sessions:
        listing = page_of(get, "fresh7-proceedings", session)
        papers |= set(links_of(listing, r"/proceedings/nmes[\d-]+"))
        abstracts |= set(links_of(listing, rf"{meeting.path}/abstracts/\w+"))
        itinerary += links_of(listing, rf"{meeting.path}/itinerary/add\?talk=\w+")
    assert papers == {i.path for i in items if meeting_of(i, every) == meeting}
    assert len(abstracts) == len(EXTRA_SLOTS) and len(itinerary) == len(papers) + len(abstracts)
    keynote = page_of(get, "fresh7-proceedings", sorted(abstracts)[0])
    assert "Keynote" in keynote and "No proceedings paper was submitted" in keynote
    robots = robots_of(get, "fresh7-proceedings")
    assert not robots.can_fetch(url_of(get, "fresh7-proceedings", itinerary[0]), "*")
    assert robots.can_fetch(url_of(get, "fresh7-proceedings", sessions[0]), "*")
    # papers come out months after their meeting: some of one year were presented at the year before's
    assert any(meeting_of(i, every).start.year < i.year for i in items)


def test_proceedings_volumes_list_ten_a_page_and_half_the_paper_pages_carry_tags(web: Testbed, get: Served) -> None:
    items = web.items_on("fresh7-proceedings")
    volumes_page = page_of(get, "fresh7-proceedings", "/proceedings")
    listed: list[str] = []
    for volume in links_of(volumes_page, r"/proceedings/volume/\d+"):
        page = page_of(get, "fresh7-proceedings", volume)
        shown = links_of(page, r"/proceedings/nmes[\d-]+")
        assert len(shown) <= 10 and "Published online: " in page
        for more in links_of(page, r"/proceedings/volume/\d+\?page=\d+"):
            shown += links_of(page_of(get, "fresh7-proceedings", more), r"/proceedings/nmes[\d-]+")
        listed += shown
    assert sorted(listed) == sorted(i.path for i in items)
    tagged = [i for i in items if METADATA_TAGS.search(page_of(get, "fresh7-proceedings", i.path))]
    assert tagged and len(tagged) < len(items)
    bare = next(i for i in items if i not in tagged)
    page = page_of(get, "fresh7-proceedings", bare.path)
    day = bare.date
    assert f"<h1>{bare.title}</h1>" in page and f"Published Online: {int(day[8:])} " in page and day not in page
    assert "Presented at the" in page and meeting_of(bare, meetings(items)).dates in page
    pdf = get[1].get(url_of(get, "fresh7-proceedings", bare.pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert bare.title in page_of(get, "fresh7-proceedings", "/search?q=" + bare.title.split()[0])


# ---------------------------------------------------------------------------------------------- book series


def test_series_list_volumes_three_a_page_and_a_volume_lists_chapters_between_front_and_back_matter(
    web: Testbed, get: Served
) -> None:
    items = web.items_on("fresh7-books")
    every = volumes(items)
    home = page_of(get, "fresh7-books", "/")
    series = links_of(home, r"/series/[a-z-]+")
    assert len(series) == 2
    books: list[str] = []
    for each in series:
        page = page_of(get, "fresh7-books", each)
        first = links_of(page, r"/book/[^\"]+")
        more = links_of(page, rf"{each}\?page=\d+")
        assert len(first) == PER_PAGE and more  # every series runs past its first page
        books += first + [b for m in more for b in links_of(page_of(get, "fresh7-books", m), r"/book/[^\"]+")]
    assert sorted(books) == sorted(v.path for v in every)
    volume = every[0]
    toc = page_of(get, "fresh7-books", volume.path)
    order = links_of(toc, rf"{re.escape(volume.path)}/[a-z-]+|/chapter/[^\"]+")
    matter = [f"{volume.path}/{part}" for part, *_ in MATTER]
    assert order == matter[:2] + [c.path for c in volume.chapters] + matter[2:]
    for path in matter:
        assert "<h1>" in page_of(get, "fresh7-books", path) and path not in {i.path for i in items}
    assert {i.category for i in items} == {v.series for v in every}


def test_chapter_pages_of_newer_volumes_carry_tags_older_ones_text_and_the_reader_copy_is_forbidden(
    web: Testbed, get: Served
) -> None:
    items = web.items_on("fresh7-books")
    newer = next(i for i in items if i.year >= 2024)
    older = next(i for i in items if i.year < 2024)
    page = page_of(get, "fresh7-books", newer.path)
    assert f'<meta name="citation_title" content="{newer.title}" />' in page
    assert f'<meta name="citation_publication_date" content="{newer.date.replace("-", "/")}" />' in page
    old = page_of(get, "fresh7-books", older.path)
    assert not METADATA_TAGS.search(old) and f"<h1>{older.title}</h1>" in old and "<dt>First Online</dt>" in old
    assert "".join(f"<li>{a}</li>" for a in older.authors) in old
    reader = links_of(old, r"/reader/[^\"]+")
    assert reader and not robots_of(get, "fresh7-books").can_fetch(url_of(get, "fresh7-books", reader[0]), "*")
    pdf = get[1].get(url_of(get, "fresh7-books", older.pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    extended = next(i for i in items if i.work)
    given = next(c for c in web.copies_of(extended) if c.site == "fresh7-proceedings")
    assert "extends a paper presented" in page_of(get, "fresh7-books", extended.path)
    assert given.title == extended.title and given.date < extended.date


# ---------------------------------------------------------------------------------------------- lab wiki


def test_the_wiki_redirects_home_and_its_publication_list_is_bibtex_ordered_by_year_then_key(
    web: Testbed, get: Served
) -> None:
    items = web.items_on("fresh7-wiki")
    home = get[1].get(url_of(get, "fresh7-wiki", "/"), follow_redirects=False)
    assert home.status_code == 301 and home.headers["location"] == "/wiki/Main_Page"
    assert 'href="/wiki/Publications"' in page_of(get, "fresh7-wiki", "/wiki/Main_Page")
    page = page_of(get, "fresh7-wiki", "/wiki/Publications")
    years = sorted({i.year for i in items}, reverse=True)
    assert re.findall(r'<span class="mw-headline" id="(\d{4})">', page) == [str(y) for y in years[:RECENT_YEARS]]
    newest = years[0]
    keys = [i.key for i in items if i.year == newest]
    listed = re.findall(r'<li id="([a-z]+\d+)">', page)[: len(keys)]
    assert listed == sorted(keys) and listed != keys  # by key, not newest first
    assert citation(items[0]).split(" (")[0] in page and "Invited talk" in page and TALKS[0][2] in page
    older = links_of(page, r"/wiki/Publications/\d{4}")
    assert older == [f"/wiki/Publications/{y}" for y in years[RECENT_YEARS:]] and older
    assert all(f'href="{i.path}"' in page_of(get, "fresh7-wiki", older[-1]) for i in items if i.year == years[-1])


def test_a_paper_page_is_named_by_its_key_with_title_and_date_in_an_infobox_and_edit_pages_forbidden(
    web: Testbed, get: Served
) -> None:
    items = web.items_on("fresh7-wiki")
    pages = {i.key: page_of(get, "fresh7-wiki", i.path) for i in items}
    item = items[0]
    page = pages[item.key]
    assert f'<h1 id="firstHeading">Paper:{item.key}</h1>' in page and f"<h1>{item.title}" not in page
    assert f"<td>{item.title}</td>" in page and "@article{" + item.key in page and not METADATA_TAGS.search(page)
    german = [i for i in items if any(f". {m} {i.year}</td>" in pages[i.key] for m in GERMAN_MONTHS)]
    iso = [i for i in items if f"<td>{i.date}</td>" in pages[i.key]]
    assert german and iso and len(german) + len(iso) < len(items)
    assert "<th>Erschienen</th>" in pages[german[0].key]
    category = page_of(get, "fresh7-wiki", f"/wiki/Category:Publications_{item.year}")
    assert f'href="{item.path}"' in category and item.title not in category
    robots = robots_of(get, "fresh7-wiki")
    edit = links_of(page, r"/index\.php\?[^\"]+")
    assert edit and not any(robots.can_fetch(url_of(get, "fresh7-wiki", e), "*") for e in edit)
    assert not robots.can_fetch(url_of(get, "fresh7-wiki", "/wiki/Special:RecentChanges"), "*")
    assert robots.can_fetch(url_of(get, "fresh7-wiki", item.path), "*")
    pdf = get[1].get(url_of(get, "fresh7-wiki", item.pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


# ---------------------------------------------------------------------------------------------- reachability


@pytest.mark.parametrize("site", SITES)
def test_every_relevant_item_is_reachable_from_home_as_a_visitor_within_robots_txt(web: Testbed, site: str) -> None:
    check_reachable(web, site)


def _shut(site: str) -> str:
    """Each site's way to its items shut while the items themselves stay allowed: the proceedings' meetings and
    volumes, the publisher's series pages (its home still shows the three newest books), the wiki's publication
    lists and categories."""
    if site == "fresh7-proceedings":
        return "Disallow: /meetings\nDisallow: /proceedings/volume/\n"
    if site == "fresh7-books":
        return "Disallow: /series/\n"
    return "Disallow: /wiki/Publications\nDisallow: /wiki/Category:\n"


@pytest.mark.parametrize("site", SITES)
def test_the_reachability_check_fails_when_robots_txt_shuts_the_way(web: Testbed, site: str) -> None:
    reached = visit(web, site, robots_txt=f"User-agent: *\n{_shut(site)}")
    assert missing(web, site, reached)
    assert reached & {i.path for i in web.items_on(site)} or site != "fresh7-books"
