"""The fourteenth batch of fresh held-out sites (`eval/testbed/fresh_heldout14*.py`) as built, served on loopback:
each structure they claim, and every relevant item reachable from the home page as a visitor reaches it (the links a
person clicks, paging included) within robots.txt, with a robots.txt that shuts the way showing the check can fail.
No crawler runs here: their first benchmark run is the measure, and it is the lead's."""

from __future__ import annotations

import json
import re
from datetime import date

import pytest
from site_visitor import METADATA_TAGS, Served, check_reachable, links_of, missing, page_of, robots_of, url_of, visit

from research_crawler.eval.testbed import Testbed
from research_crawler.eval.testbed.fresh_heldout14 import FRESH14_SITE_SPECS
from research_crawler.eval.testbed.fresh_heldout14_cris import PER_PAGE, by_pure_order, outputs, pure_date, staff
from research_crawler.eval.testbed.fresh_heldout14_forum import (
    ACTIVE_YEAR,
    TABS,
    notes,
    or_date,
    profile_id,
    venue_id,
)
from research_crawler.eval.testbed.fresh_heldout14_wikibase import LIMIT, entities, linking, precision, wb_date
from research_crawler.eval.testbed.markup import esc, url_slug

SITES = [spec.name for spec in FRESH14_SITE_SPECS]
CRIS, FORUM, WIKIBASE = "fresh14-cris", "fresh14-forum", "fresh14-wikibase"
OUTPUT = r"/en/publications/[a-z0-9-]+"
NOTE = r"/forum/[A-Za-z0-9]{10}"
ITEM = r"/wiki/Item:Q\d+"


def _unique(links: list[str]) -> list[str]:
    return list(dict.fromkeys(links))


# ---------------------------------------------------------------------------------------------- Pure portal


def test_research_output_lists_twenty_a_page_by_year_then_title_with_zero_based_pages_and_forbidden_filters(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(CRIS)
    every = by_pure_order(outputs(items))
    root = get[1].get(url_of(get, CRIS, "/"))
    assert root.status_code == 301 and root.headers["location"] == "/en/"
    assert "/en/publications/" in links_of(page_of(get, CRIS, "/en/"), r"/en/publications/")
    page = page_of(get, CRIS, "/en/publications/")
    shown = _unique(links_of(page, OUTPUT))
    assert len(shown) == PER_PAGE < len(every) and "/en/publications/?page=1" in links_of(page, r"[^\"]+page=1")
    while found := re.search(r'<a class="next" href="([^"]+)">', page):
        page = page_of(get, CRIS, found.group(1).replace("&amp;", "&"))
        shown += _unique(links_of(page, OUTPUT))
    assert shown == [o.path for o in every]
    days = [o.day for o in every if o.item]
    assert days != sorted(days, reverse=True) and [d.year for d in days] == sorted((d.year for d in days), reverse=True)
    assert {o.kind for o in every if o.item is None} >= {
        "Thesis › Doctoral Thesis",
        "Book/Report › Commissioned report",
    }
    robots = robots_of(get, CRIS)
    facets = links_of(page_of(get, CRIS, "/en/publications/"), r"[^\"]+nofollow=true")
    assert facets and not any(robots.can_fetch(url_of(get, CRIS, f), "*") for f in facets)
    assert not robots.can_fetch(url_of(get, CRIS, "/en/searchAll/index/?search=copper"), "*")
    assert robots.can_fetch(url_of(get, CRIS, "/en/publications/?page=1"), "*")
    lead = max(staff(items), key=lambda a: sum(a in i.authors for i in items))
    profile = page_of(get, CRIS, next(o.path for o in every if o.item and lead in o.item.authors))
    tab = links_of(profile, rf"/en/persons/{url_slug(lead)}")[0] + "/publications/"
    assert set(links_of(page_of(get, CRIS, tab), OUTPUT)) == {o.path for o in every if lead in o.authors}


def test_an_output_names_its_type_staff_linked_external_authors_as_initials_its_status_and_scholar_tags(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(CRIS)
    people = staff(items)
    item = next(i for i in items if not i.work and any(a not in people for a in i.authors))
    page = page_of(get, CRIS, item.path)
    assert f"<h1><span>{esc(item.title)}</span></h1>" in page and METADATA_TAGS.search(page)
    assert "Research output</span>: Contribution to journal › Article › peer-review" in page
    for author in item.authors:
        given, _, surname = author.rpartition(" ")
        shown = f"<span>{esc(author)}</span></a>" if author in people else f"{esc(given[:1])}. {esc(surname)}"
        assert shown in page
    forms = set()
    for output in (o for o in outputs(items) if o.item):
        text = page_of(get, CRIS, output.path)
        shown = pure_date(output.day, month_only=output.month_only)
        status = f'<span class="prefix">Published - </span><span class="date">{shown}</span>'
        assert status in text and ("E-pub ahead of print - " in text) == output.month_only
        forms.add(output.month_only)
    assert forms == {True, False}
    assert pure_date(date(2024, 3, 5)) == "5 Mar 2024" and pure_date(date(2024, 3, 5), month_only=True) == "Mar 2024"
    pdf = get[1].get(url_of(get, CRIS, links_of(page, r"/files/\d+/[0-9a-f]+\.pdf")[0]))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    shared = next(i for i in items if i.work)
    forum = next(c for c in web.copies_of(shared) if c.site == FORUM)
    text = page_of(get, CRIS, shared.path)
    assert forum.date < shared.date and f'href="{url_of(get, FORUM, forum.path)}"' in text
    assert "Conference contribution › peer-review" in text


# ---------------------------------------------------------------------------------------------- OpenReview venues


def test_the_host_group_leads_to_each_years_venue_whose_tabs_hold_its_submissions_by_decision(
    web: Testbed, get: Served
) -> None:
    every = notes(web.items_on(FORUM))
    home = page_of(get, FORUM, "/")
    assert f"/group?id={venue_id(ACTIVE_YEAR)}" in links_of(home, r"/group\?id=[^\"]+")
    venues = links_of(page_of(get, FORUM, links_of(home, r"/group\?id=ESC\.cc")[0]), r"/group\?id=[^\"]+")
    assert sorted(venues) == sorted(f"/group?id={venue_id(y)}" for y in {n.year for n in every})
    tabs = set()
    for venue in venues:
        year = int(venue.split("/")[2])
        page = page_of(get, FORUM, venue)
        assert sorted(_unique(links_of(page, NOTE))) == sorted(n.path for n in every if n.year == year)
        for tab in TABS if year != ACTIVE_YEAR else ("Active Submissions",):
            assert f'data-toggle="tab">{tab}</a>' in page
        tabs |= {n.tab for n in every if n.year == year and n.item}
        if year == ACTIVE_YEAR:
            assert "Anonymous Authors" in page and "/profile?id=" not in page
    assert tabs >= {"Accept (Oral)", "Accept (Poster)", "Reject", "Active Submissions"}
    assert any(n.item is None for n in every)


def test_a_forum_gives_the_submission_its_published_and_modified_dates_its_reviews_and_decision(
    web: Testbed, get: Served
) -> None:
    every = notes(web.items_on(FORUM))
    note = next(n for n in every if n.item and n.tab in ("Accept (Poster)", "Reject") and len(n.authors) > 1)
    page = page_of(get, FORUM, note.path)
    assert f'<h2 class="citation_title">{esc(note.title)}</h2>' in page and METADATA_TAGS.search(page)
    assert f"Published: {or_date(note.day)}, Last Modified: {or_date(note.modified)}" in page
    assert note.modified > note.day and or_date(date(2024, 3, 5)) == "05 Mar 2024"
    assert page.count("Official Review of Submission") == 3 and "<strong>Decision:</strong> " in page
    for author in note.authors:
        assert f'<a href="/profile?id={esc(profile_id(author))}" data-toggle="tooltip">{esc(author)}</a>' in page
    profile = page_of(get, FORUM, f"/profile?id={profile_id(note.authors[0])}")
    assert note.path in links_of(profile, NOTE)
    pdf = get[1].get(url_of(get, FORUM, links_of(page, r"/pdf/[A-Za-z0-9]{10}")[0]))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    robots = robots_of(get, FORUM)
    revisions = links_of(page, r"/revisions\?id=[^\"]+")
    assert revisions and not robots.can_fetch(url_of(get, FORUM, revisions[0]), "*")
    assert not robots.can_fetch(url_of(get, FORUM, "/search?term=audio"), "*")
    assert not robots.can_fetch(url_of(get, FORUM, "/api/notes?invitation=x"), "*")


# ---------------------------------------------------------------------------------------------- Wikibase


def test_works_are_reached_from_a_subject_or_a_person_by_what_links_here_and_from_the_list_of_all_items(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(WIKIBASE)
    graph = entities(items)
    root = get[1].get(url_of(get, WIKIBASE, "/"))
    assert root.status_code == 301 and root.headers["location"] == "/wiki/Main_Page"
    main = page_of(get, WIKIBASE, "/wiki/Main_Page")
    subjects = [s for s in _unique(links_of(main, ITEM)) if graph[s.split(":")[1]].description == "topic of research"]
    assert len(subjects) == len({i.category for i in items})
    others: set[str] = set()
    for subject in subjects:
        qid = subject.split(":")[1]
        assert not set(links_of(page_of(get, WIKIBASE, subject), ITEM)) & {i.path for i in items}
        here = page_of(get, WIKIBASE, f"/wiki/Special:WhatLinksHere/Item:{qid}")
        shown = [p for p in _unique(links_of(here, ITEM)) if p != subject]
        assert shown == [e.path for e in linking(graph, qid)]
        assert {i.path for i in items if graph[i.key].statements[-3][2] == qid} <= set(shown)
        others |= {graph[p.split(":")[1]].description for p in shown if graph[p.split(":")[1]].item is None}
    assert others == {"dataset", "archaeological site"}
    assert len(linking(graph, "Q1")) <= LIMIT
    every = _unique(links_of(page_of(get, WIKIBASE, "/wiki/Special:AllPages?namespace=120"), ITEM))
    assert sorted(every) == sorted(e.path for e in graph.values()) and every == sorted(every)
    person = next(q for q, e in graph.items() if e.description == "researcher")
    here = page_of(get, WIKIBASE, f"/wiki/Special:WhatLinksHere/Item:{person}")
    name = graph[person].label
    assert {p for p in links_of(here, ITEM)} - {f"/wiki/Item:{person}"} == {i.path for i in items if name in i.authors}
    robots = robots_of(get, WIKIBASE)
    page = page_of(get, WIKIBASE, items[0].path)
    for forbidden in links_of(page, r"/w/index\.php[^\"]+"):
        assert not robots.can_fetch(url_of(get, WIKIBASE, forbidden), "*")
    assert not robots.can_fetch(url_of(get, WIKIBASE, "/wiki/Special:Search?search=plague"), "*")
    assert robots.can_fetch(url_of(get, WIKIBASE, items[0].pdf_path), "*")


def test_an_item_is_statements_authors_in_the_order_added_with_ordinals_and_dates_at_their_precision(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(WIKIBASE)
    graph = entities(items)
    item = next(i for i in items if len(i.authors) > 2 and precision(i) == "day")
    page = page_of(get, WIKIBASE, item.path)
    day = date.fromisoformat(item.date)
    assert f'<span class="wikibase-title-label">{esc(item.title)}</span> <span class="wikibase-title-id">' in page
    assert f"scholarly article published on {wb_date(day)}" in page and not METADATA_TAGS.search(page)
    ordinals = [int(n) for n in re.findall(r">series ordinal</a> (\d+)<", page)]
    assert sorted(ordinals) == list(range(1, len(item.authors) + 1))
    orders = [
        [int(n) for n in re.findall(r">series ordinal</a> (\d+)<", page_of(get, WIKIBASE, i.path))] for i in items
    ]
    assert any(order != sorted(order) for order in orders)
    kinds = [{s[0] for s in graph[i.key].statements} for i in items]
    assert any({"P3", "P4"} <= k for k in kinds) and all("P5" in k and "P6" in k for k in kinds)
    levels = {precision(i) for i in items}
    assert "day" in levels and levels & {"month", "year"}
    for other in items:
        text = page_of(get, WIKIBASE, other.path)
        assert wb_date(date.fromisoformat(other.date), precision(other)) in text
    assert wb_date(date(2023, 3, 5), "month") == "March 2023" and wb_date(date(2022, 3, 5), "year") == "2022"
    data = json.loads(page_of(get, WIKIBASE, f"/wiki/Special:EntityData/{item.key}.json"))
    claim = data["entities"][item.key]["claims"]["P5"][0]["mainsnak"]["datavalue"]["value"]
    assert claim == {"time": f"+{item.date}T00:00:00Z", "precision": 11}
    pdf = get[1].get(url_of(get, WIKIBASE, item.pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


# ---------------------------------------------------------------------------------------------- reachability


@pytest.mark.parametrize("site", SITES)
def test_every_relevant_item_is_reachable_from_home_as_a_visitor_within_robots_txt(web: Testbed, site: str) -> None:
    check_reachable(web, site)


def _shut(site: str) -> str:
    """Each site's way to its items shut while the items themselves stay allowed: the portal's listings and profiles
    (its home page still shows the newest outputs), the forum's venue groups and profiles, the wiki's special pages
    (subjects are reached, but nothing links from them to their works)."""
    if site == CRIS:
        return (
            "Disallow: /en/publications/$\nDisallow: /en/publications/?\n"
            "Disallow: /en/persons/\nDisallow: /en/organisations/\n"
        )
    if site == FORUM:
        return "Disallow: /group\nDisallow: /profile\n"
    return "Disallow: /wiki/Special:\n"


@pytest.mark.parametrize("site", SITES)
def test_the_reachability_check_fails_when_robots_txt_shuts_the_way(web: Testbed, site: str) -> None:
    reached = visit(web, site, robots_txt=f"User-agent: *\n{_shut(site)}")
    assert missing(web, site, reached)
    if site == CRIS:
        assert reached & {i.path for i in web.items_on(site)}  # the home page still shows the newest
