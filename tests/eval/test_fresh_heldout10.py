"""The tenth batch of fresh held-out sites (`eval/testbed/fresh_heldout10*.py`) as built, served on loopback: each
structure they claim, and every relevant item reachable from the home page as a visitor reaches it (the links a
person clicks, paging included, and on the script-rendered site the links its script adds) within robots.txt, with a
robots.txt that shuts the way showing the check can fail. No crawler runs here: their first benchmark run is the
measure, and it is the lead's."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import date

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
from research_crawler.eval.testbed.fresh_heldout10 import FRESH10_SITE_SPECS
from research_crawler.eval.testbed.fresh_heldout10_discovery import (
    FIELD_PAGE,
    author_path,
    citations,
    field_papers,
    references,
)
from research_crawler.eval.testbed.fresh_heldout10_events import (
    FILLERS,
    SEMINARS,
    WORKSHOP_PROGRAMME,
    indico_day,
    workshops,
)
from research_crawler.eval.testbed.fresh_heldout10_index import homonyms, person_id, venue_of
from research_crawler.eval.testbed.layouts import make_site_app
from research_crawler.eval.testbed.markup import long_date
from research_crawler.eval.testbed.site_app import Request, SiteApp, SiteLinks

SITES = [spec.name for spec in FRESH10_SITE_SPECS]
INDEX, EVENTS, DISCOVERY = "fresh10-index", "fresh10-events", "fresh10-discovery"


# ---------------------------------------------------------------------------------------------- bibliography


def test_persons_by_letter_list_their_works_by_year_with_coauthors_and_homonyms_told_apart(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(INDEX)
    namesakes = homonyms(items)
    lead = next(iter(namesakes))
    letter = page_of(get, INDEX, f"/pers/{lead.split()[-1][0].lower()}/")
    assert f'href="{person_id(lead)}"' in letter and f'href="{namesakes[lead]}"' in letter
    assert f"{lead.split()[-1]}, {' '.join(lead.split()[:-1])} 0002" in letter
    page = page_of(get, INDEX, person_id(lead))
    assert f"<h1>{lead} 0001</h1>" in page and f'href="{namesakes[lead]}"' in page
    theirs = sorted((i for i in items if lead in i.authors), key=lambda i: (i.year, i.key), reverse=True)
    assert links_of(page, r"/rec/[A-Za-z0-9]+\.html") == [i.path for i in theirs]
    years = [int(y) for y in re.findall(r'<li class="year">(\d{4})</li>', page)]
    assert years == sorted({i.year for i in theirs}, reverse=True)
    coauthor = next(a for i in theirs for a in i.authors if a != lead)
    assert f'href="{person_id(coauthor)}"' in page
    namesake = page_of(get, INDEX, namesakes[lead])
    assert "<h2>Editorship</h2>" in namesake and not links_of(namesake, r"/rec/[^\"]+")
    assert links_of(namesake, r"/db/conf/[a-z]+/[a-z]+\d+\.html")  # proceedings edited, not works


def test_records_give_years_abstracts_only_when_known_exports_that_are_not_works_and_links_to_the_discovery_page(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(INDEX)
    pages = {i.key: page_of(get, INDEX, i.path) for i in items}
    with_abstract = [i for i in items if i.abstract in pages[i.key]]
    assert with_abstract and len(with_abstract) < len(items)
    assert all(i.date not in pages[i.key] and str(i.year) in pages[i.key] for i in items)
    assert not any(METADATA_TAGS.search(p) for p in pages.values())
    shared = next(i for i in items if i.work)
    copy = next(c for c in web.copies_of(shared) if c.site == DISCOVERY)
    assert f'href="{url_of(get, DISCOVERY, copy.path)}"' in pages[shared.key]
    item = items[0]
    bib = get[1].get(url_of(get, INDEX, f"/rec/{item.key}.bib"))
    assert bib.status_code == 200 and f"title = {{{item.title}}}" in bib.text
    robots = robots_of(get, INDEX)
    assert robots.can_fetch(url_of(get, INDEX, f"/rec/{item.key}.bib"), "*")
    exports = links_of(pages[item.key], r"/export/[A-Za-z0-9]+\.(?:ris|xml)")
    assert len(exports) == 2 and not any(robots.can_fetch(url_of(get, INDEX, e), "*") for e in exports)
    assert not robots.can_fetch(url_of(get, INDEX, "/search?q=repair"), "*")
    pdf = get[1].get(url_of(get, INDEX, item.pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


def test_venues_list_workshops_by_year_and_journals_by_volume(web: Testbed, get: Served) -> None:
    items = web.items_on(INDEX)
    journal = next(venue_of(i) for i in items if venue_of(i).journal)
    workshop = next(venue_of(i) for i in items if not venue_of(i).journal)
    assert journal.path in links_of(page_of(get, INDEX, "/db/journals/"), r"/db/journals/[a-z]+/")
    assert workshop.path in links_of(page_of(get, INDEX, "/db/conf/"), r"/db/conf/[a-z]+/")
    for venue in (journal, workshop):
        tocs = links_of(page_of(get, INDEX, venue.path), rf"{venue.path}{venue.acronym}\d+\.html")
        years = sorted({i.year for i in items if venue_of(i) == venue}, reverse=True)
        assert tocs == [venue.toc(y) for y in years]
        listed = [p for t in tocs for p in links_of(page_of(get, INDEX, t), r"/rec/[A-Za-z0-9]+\.html")]
        assert sorted(set(listed)) == sorted(i.path for i in items if venue_of(i) == venue)
    year = next(i.year for i in items if venue_of(i) == journal)
    assert journal.toc(year).endswith(f"{journal.acronym}{year - journal.first_year + 1}.html")
    assert "Volume" in page_of(get, INDEX, journal.toc(year))


# ---------------------------------------------------------------------------------------------- event platform


def test_seminars_are_listed_by_month_a_year_at_a_time_among_events_that_are_not_talks(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(EVENTS)
    years = sorted({i.year for i in items}, reverse=True)
    first = page_of(get, EVENTS, f"/category/{SEMINARS}/")
    assert links_of(first, rf"/category/{SEMINARS}/\?year=\d{{4}}") == [
        f"/category/{SEMINARS}/?year={y}" for y in years[1:]
    ]
    listed: list[str] = []
    for year in years:
        page = page_of(get, EVENTS, f"/category/{SEMINARS}/?year={year}")
        months = re.findall(r'<h3 class="month">(\w+) (\d{4})</h3>', page)
        assert months and all(y == str(year) for _, y in months)
        listed += links_of(page, r"/event/\d+/")
    assert sorted(p for p in listed if p in {i.path for i in items}) == sorted(i.path for i in items)
    fillers = [p for p in listed if p not in {i.path for i in items}]
    assert len(fillers) == len(FILLERS) * len(years)
    assert "Reading group" in page_of(get, EVENTS, fillers[0]) or "colloquium" in page_of(get, EVENTS, fillers[0])


def test_a_talk_names_its_date_as_indico_does_its_speaker_and_attaches_slides_and_paper(
    web: Testbed, get: Served
) -> None:
    item = next(i for i in web.items_on(EVENTS) if len(i.authors) > 1)
    page = page_of(get, EVENTS, item.path)
    day = date.fromisoformat(item.date)
    assert f"{indico_day(day)}, 16:00 → 17:00" in page and item.date not in page
    assert f'<span class="speaker">{item.authors[0]}</span>' in page and f"{item.authors[-1]}." in page
    assert not re.search(r'name="(citation_|dc\.)', page, re.I) and "article:published_time" not in page
    attachments = links_of(page, r"/event/\d+/attachments/\d+/\d+/\w+\.pdf")
    assert item.pdf_path in attachments and len(attachments) == 2
    for path in attachments:
        pdf = get[1].get(url_of(get, EVENTS, path))
        assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    robots = robots_of(get, EVENTS)
    ics = links_of(page, r"/event/\d+/event\.ics")
    assert ics and not robots.can_fetch(url_of(get, EVENTS, ics[0]), "*")
    assert robots.can_fetch(url_of(get, EVENTS, item.path), "*")
    assert not robots.can_fetch(url_of(get, EVENTS, "/login/"), "*")
    assert get[1].get(url_of(get, EVENTS, "/category/14/")).status_code == 403


def test_a_workshop_has_a_timetable_by_day_and_session_a_track_filtered_contribution_list_and_a_book(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(EVENTS)
    every = workshops(items)
    listed = links_of(page_of(get, EVENTS, "/category/13/"), r"/event/\d+/")
    assert sorted(listed) == sorted(f"/event/{w}/" for w in every)
    wid, start = next(iter(every.items()))
    timetable = page_of(get, EVENTS, f"/event/{wid}/timetable/")
    assert f'<h2 id="{start:%Y%m%d}">{indico_day(start)}</h2>' in timetable
    assert timetable.count('<table class="timetable">') == 2 and '<td class="session">Tutorials</td>' in timetable
    everything = links_of(page_of(get, EVENTS, f"/event/{wid}/contributions/"), rf"/event/{wid}/contributions/\d+/")
    assert len(everything) == len(WORKSHOP_PROGRAMME)
    keynotes = links_of(page_of(get, EVENTS, f"/event/{wid}/contributions/?track=1"), r"/event/\d+/contributions/\d+/")
    assert 0 < len(keynotes) < len(everything)
    assert "<dd>Keynote</dd>" in page_of(get, EVENTS, keynotes[0]) or "<dd>Panel</dd>" in page_of(
        get, EVENTS, keynotes[0]
    )
    assert not {i.path for i in items} & set(everything)
    book = get[1].get(url_of(get, EVENTS, f"/event/{wid}/book-of-abstracts.pdf"))
    assert book.status_code == 200 and book.content.startswith(b"%PDF")
    assert "<form" in page_of(get, EVENTS, f"/event/{wid}/registrations/")


# ---------------------------------------------------------------------------------------------- discovery service


def _app(web: Testbed) -> SiteApp:
    links = SiteLinks(
        own_base="http://discovery.invalid/", site_bases={n: f"http://{n}.invalid/" for n in web.site_names()}
    )
    return make_site_app(web, DISCOVERY, links)


def test_shells_hold_no_paper_links_and_their_script_links_are_what_the_json_api_returns(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(DISCOVERY)
    home = page_of(get, DISCOVERY, "/")
    assert "<noscript>" in home and not links_of(home, r"/paper/[^\"]+") and 'fetch("/api/v1/home")' in home
    api = get[1].get(url_of(get, DISCOVERY, "/api/v1/home")).json()
    app = _app(web)
    shell = app.handle(Request("GET", "/"))
    assert set(shell.script_links) == {f["url"] for f in api["fields"]} | {p["url"] for p in api["trending"]}
    field = items[0].category
    slug = api["fields"][[f["name"] for f in api["fields"]].index(field)]["url"].rsplit("/", 1)[1]
    ordered = field_papers(items, field)
    urls: list[str] = []
    offset: int | None = 0
    while offset is not None:
        page = get[1].get(url_of(get, DISCOVERY, f"/api/v1/fields/{slug}/papers?offset={offset}")).json()
        assert len(page["data"]) <= FIELD_PAGE
        urls += [p["url"] for p in page["data"]]
        offset = page["next"]
    assert urls == [i.path for i in ordered] and len(ordered) > FIELD_PAGE
    assert app.handle(Request("GET", f"/fields/{slug}")).script_links == tuple(urls[:FIELD_PAGE])
    assert urls != [i.path for i in sorted(ordered, key=lambda i: i.date, reverse=True)]
    author = items[0].authors[0]
    data = get[1].get(url_of(get, DISCOVERY, "/api/v1/author/" + author_path(author).rsplit("/", 1)[1])).json()
    assert data["name"] == author and {p["url"] for p in data["papers"]} == {
        i.path for i in items if author in i.authors
    }
    assert set(app.handle(Request("GET", author_path(author))).script_links) == {p["url"] for p in data["papers"]}


def test_paper_pages_are_served_whole_with_year_only_tags_references_and_citations_by_script(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(DISCOVERY)
    item = next(i for i in items if references(items, i) and citations(items, i))
    page = page_of(get, DISCOVERY, item.path)
    assert f'<meta name="citation_title" content="{item.title}" />' in page
    assert f'<meta name="citation_publication_date" content="{item.year}" />' in page
    assert f"{long_date(item.date)}</span>" in page and item.date not in page
    cited = links_of(page, r"/paper/[a-z0-9-]+/[0-9a-f]{40}")
    assert cited == [r.path for r in references(items, item)] and all(
        r.date < item.date for r in references(items, item)
    )
    data = get[1].get(url_of(get, DISCOVERY, f"/api/v1/paper/{item.key}/citations")).json()
    assert [p["url"] for p in data["data"]] == [c.path for c in citations(items, item)]
    assert not set(cited) & {c.path for c in citations(items, item)}
    robots = robots_of(get, DISCOVERY)
    assert not robots.can_fetch(url_of(get, DISCOVERY, "/search?q=seagrass"), "*")
    assert not robots.can_fetch(url_of(get, DISCOVERY, f"/api/v1/export/{item.key}.ris"), "*")
    assert robots.can_fetch(url_of(get, DISCOVERY, "/api/v1/home"), "*")
    sitemap = next(iter(robots.sitemaps), None)
    assert sitemap == url_of(get, DISCOVERY, "/sitemap.xml")
    assert sitemap is not None
    index = ET.fromstring(get[1].get(sitemap).content)
    ns = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
    urlset = ET.fromstring(get[1].get(index.find(f"{ns}sitemap/{ns}loc").text).content)  # type: ignore[union-attr,arg-type]
    locs = {u.find(f"{ns}loc").text for u in urlset}  # type: ignore[union-attr]
    assert locs == {url_of(get, DISCOVERY, i.path) for i in items}
    pdf = get[1].get(url_of(get, DISCOVERY, item.pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


# ---------------------------------------------------------------------------------------------- reachability


@pytest.mark.parametrize("site", SITES)
def test_every_relevant_item_is_reachable_from_home_as_a_visitor_within_robots_txt(web: Testbed, site: str) -> None:
    check_reachable(web, site, scripted=site == DISCOVERY)


def test_the_script_rendered_site_shows_a_visitor_without_script_no_papers(web: Testbed) -> None:
    reached = visit(web, DISCOVERY)
    assert not reached & {i.path for i in web.items_on(DISCOVERY)}


def _shut(site: str) -> str:
    """Each site's way to its items shut while the items themselves stay allowed: the bibliography's persons and
    venues, the seminar category's other years, the discovery service's fields and author pages."""
    if site == INDEX:
        return "Disallow: /pers/\nDisallow: /db/\nDisallow: /pid/\n"
    if site == EVENTS:
        return "Disallow: /category/12/?year=\n"
    return "Disallow: /fields/\nDisallow: /author/\n"


@pytest.mark.parametrize("site", SITES)
def test_the_reachability_check_fails_when_robots_txt_shuts_the_way(web: Testbed, site: str) -> None:
    reached = visit(web, site, robots_txt=f"User-agent: *\n{_shut(site)}", scripted=site == DISCOVERY)
    assert missing(web, site, reached)
    assert reached & {i.path for i in web.items_on(site)}  # the home page still shows some
