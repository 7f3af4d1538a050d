"""The thirteenth batch of fresh held-out sites (`eval/testbed/fresh_heldout13*.py`) as built, served on loopback:
each structure they claim, and every relevant item reachable from the home page as a visitor reaches it (the links a
person clicks, paging included) within robots.txt, with a robots.txt that shuts the way showing the check can fail.
No crawler runs here: their first benchmark run is the measure, and it is the lead's."""

from __future__ import annotations

import re
from datetime import date

import pytest
from site_visitor import METADATA_TAGS, Served, check_reachable, links_of, missing, page_of, robots_of, url_of, visit

from research_crawler.eval.testbed import Testbed
from research_crawler.eval.testbed.fresh_heldout13 import FRESH13_SITE_SPECS, OMEKA_SITE
from research_crawler.eval.testbed.fresh_heldout13_collections import PER_PAGE as COLLECTION_PAGE
from research_crawler.eval.testbed.fresh_heldout13_collections import exhibits, item_sets, records
from research_crawler.eval.testbed.fresh_heldout13_lectures import OWNER, SHOWN, channels, kms_date
from research_crawler.eval.testbed.fresh_heldout13_readinglists import (
    LAST_YEAR,
    RETIRED_BEFORE,
    THIS_YEAR,
    listed,
    modules,
    written,
)
from research_crawler.eval.testbed.layouts import make_site_app, offline_links
from research_crawler.eval.testbed.markup import MONTHS, esc
from research_crawler.eval.testbed.site_app import Request

SITES = [spec.name for spec in FRESH13_SITE_SPECS]
COLLECTIONS, READING, LECTURES = "fresh13-collections", "fresh13-readinglists", "fresh13-lectures"
ITEM = rf"{OMEKA_SITE}/item/\d+"
ENTRY = r"/items/[0-9A-F-]{36}\.html"
MEDIA = r"/media/[^/\"]+/1_[0-9a-z]{8}"


def _unique(links: list[str]) -> list[str]:
    return list(dict.fromkeys(links))


# ---------------------------------------------------------------------------------------------- Omeka S collections


def test_items_browse_twenty_five_a_page_by_date_catalogued_and_item_sets_and_exhibits_show_theirs(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(COLLECTIONS)
    every = records(items)
    root = get[1].get(url_of(get, COLLECTIONS, "/"))
    assert root.status_code == 302 and root.headers["location"] == OMEKA_SITE
    assert f"{OMEKA_SITE}/item" in links_of(page_of(get, COLLECTIONS, OMEKA_SITE), rf"{OMEKA_SITE}/item")
    page = page_of(get, COLLECTIONS, f"{OMEKA_SITE}/item")
    shown = _unique(links_of(page, ITEM))
    assert len(shown) == COLLECTION_PAGE < len(every)
    while found := re.search(r'class="next o-icon-next button" href="([^"]+)"', page):
        page = page_of(get, COLLECTIONS, found.group(1).replace("&amp;", "&"))
        shown += _unique(links_of(page, ITEM))
    assert shown == [r.path for r in every]
    assert [r.created for r in every] == sorted((r.created for r in every), reverse=True)
    assert [r.day for r in every] != sorted((r.day for r in every), reverse=True)
    assert {r.kind for r in every if r.item is None} == {"StillImage", "PhysicalObject", "Text", "Cartographic"}
    sets = _unique(links_of(page_of(get, COLLECTIONS, f"{OMEKA_SITE}/item-set"), rf"{OMEKA_SITE}/item-set/\d+"))
    assert len(sets) == len(item_sets(items))
    for number, (name, set_id) in zip(sets, item_sets(items).items(), strict=True):
        assert number.endswith(f"/{set_id}")
        browse = links_of(page_of(get, COLLECTIONS, number), rf"{OMEKA_SITE}/item\?item_set_id=\d+")
        assert _unique(links_of(page_of(get, COLLECTIONS, browse[0]), ITEM)) == [
            r.path for r in every if r.item_set == name
        ]
    for slug, (_, chosen) in exhibits(every).items():
        assert _unique(links_of(page_of(get, COLLECTIONS, f"{OMEKA_SITE}/page/{slug}"), ITEM)) == [
            r.path for r in chosen
        ]
    robots = robots_of(get, COLLECTIONS)
    assert not robots.can_fetch(url_of(get, COLLECTIONS, f"{OMEKA_SITE}/search?fulltext_search=lead"), "*")
    assert not robots.can_fetch(url_of(get, COLLECTIONS, f"{OMEKA_SITE}/item?fulltext_search=lead"), "*")
    assert not robots.can_fetch(url_of(get, COLLECTIONS, "/api/items"), "*")
    assert robots.can_fetch(url_of(get, COLLECTIONS, f"{OMEKA_SITE}/item?page=2"), "*")


def test_an_item_lists_its_properties_as_catalogued_creators_surname_first_its_media_and_its_item_set(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(COLLECTIONS)
    item = next(i for i in items if len(i.authors) > 1)
    page = page_of(get, COLLECTIONS, item.path)
    assert f'<h2><span class="title">{esc(item.title)}</span></h2>' in page and not METADATA_TAGS.search(page)
    for author in item.authors:
        given, _, surname = author.rpartition(" ")
        assert f'<div class="value" lang="">{esc(surname)}, {esc(given)}</div>' in page
    forms = set()
    for other in items:
        typed = re.search(
            r'<h4>Date</h4><div class="values"><div class="value" lang="">([^<]+)<',
            page_of(get, COLLECTIONS, other.path),
        )
        assert typed is not None
        day = date.fromisoformat(other.date)
        assert typed.group(1) in (other.date, f"{day.day} {MONTHS[day.month - 1]} {day.year}")
        forms.add(typed.group(1) == other.date)
    assert forms == {True, False}
    media = page_of(get, COLLECTIONS, links_of(page, rf"{OMEKA_SITE}/media/\d+")[0])
    pdf = get[1].get(url_of(get, COLLECTIONS, links_of(media, r"/files/original/[0-9a-f]+\.pdf")[0]))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert links_of(page, rf"{OMEKA_SITE}/item-set/\d+") == [f"{OMEKA_SITE}/item-set/{item_sets(items)[item.category]}"]
    shared = next(i for i in items if i.work)
    talk = next(c for c in web.copies_of(shared) if c.site == LECTURES)
    assert shared.date < talk.date
    assert f'href="{url_of(get, COLLECTIONS, shared.path)}"' in page_of(get, LECTURES, talk.path)


# ---------------------------------------------------------------------------------------------- reading lists


def test_the_hierarchy_leads_to_modules_whose_lists_run_by_section_and_this_years_drops_retired_readings(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(READING)
    every = modules(items)
    reached: list[str] = []
    for faculty in links_of(page_of(get, READING, "/"), r"/faculties/[a-z]+\.html"):
        for department in links_of(page_of(get, READING, faculty), r"/departments/[a-z]+\.html"):
            reached += links_of(page_of(get, READING, department), r"/modules/[a-z0-9]+\.html")
    assert sorted(reached) == sorted(m.path for m in every)
    retired = 0
    for module in every:
        lists = links_of(page_of(get, READING, module.path), r"/lists/[0-9A-F-]{36}\.html")
        assert lists == [module.list_path(THIS_YEAR), module.list_path(LAST_YEAR)]
        held: set[str] = set()
        for year, path in zip((THIS_YEAR, LAST_YEAR), lists, strict=True):
            page = page_of(get, READING, path)
            shown = links_of(page, ENTRY)
            assert shown == [e.path for e in listed(module, year)]
            works = [e for e in listed(module, year) if e.item]
            assert all(f'<span class="publishedDate">{e.year}</span>' in page for e in works)
            assert not any(written(e.day) in page for e in works if e.day)
            held |= set(shown)
        assert {e.path for e in module.entries} == held
        retired += sum(e.path not in links_of(page_of(get, READING, lists[0]), ENTRY) for e in module.entries)
        days = [e.day for e in listed(module, THIS_YEAR) if e.day]
        assert days not in (sorted(days), sorted(days, reverse=True))
    assert retired and all(
        e.day and e.day < RETIRED_BEFORE for m in every for e in m.entries if e not in listed(m, THIS_YEAR)
    )
    assert {e.kind for m in every for e in m.entries if e.item is None} >= {"Book", "Chapter", "Webpage"}


def test_an_item_page_gives_authors_surname_first_the_full_date_day_month_year_and_a_digitised_copy(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(READING)
    item = next(i for i in items if len(i.authors) > 1)
    page = page_of(get, READING, item.path)
    names = "; ".join(f"{a.rpartition(' ')[2]}, {a.rpartition(' ')[0]}" for a in item.authors)
    assert f'<h1 class="item-title">{esc(item.title)}</h1>' in page and not METADATA_TAGS.search(page)
    assert f"<tr><th>Author(s)</th><td>{esc(names)}</td></tr>" in page
    assert f"<tr><th>Date published</th><td>{written(date.fromisoformat(item.date))}</td></tr>" in page
    assert written(date(2024, 3, 5)) == "05/03/2024"
    pdf = get[1].get(url_of(get, READING, links_of(page, r"/digitisations/[0-9A-F-]{36}\.pdf")[0]))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert links_of(page, r"/lists/[0-9A-F-]{36}\.html")
    robots = robots_of(get, READING)
    module = next(m for m in modules(items) if any(e.item == item for e in m.entries))
    export = links_of(page_of(get, READING, module.list_path(THIS_YEAR)), r"/lists/[^\"]+/export\.ris")
    assert export and not robots.can_fetch(url_of(get, READING, export[0]), "*")
    assert not robots.can_fetch(url_of(get, READING, "/search/index?q=roofs"), "*")
    bookmark = links_of(page, r"/bookmarks/add\?item=[^\"]+")
    assert bookmark and not robots.can_fetch(url_of(get, READING, bookmark[0]), "*")


# ---------------------------------------------------------------------------------------------- MediaSpace


def test_channels_show_twelve_newest_load_the_rest_by_script_and_playlists_hold_every_recording(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(LECTURES)
    every = channels(items)
    home = page_of(get, LECTURES, "/")
    assert {c.path for c in every} <= set(links_of(home, r"/channel/[^\"]+/\d+"))
    app = make_site_app(web, LECTURES, offline_links(web, LECTURES))
    assert any(len(c.media) > SHOWN for c in every)
    for channel in every:
        page = page_of(get, LECTURES, channel.path)
        assert _unique(links_of(page, MEDIA)) == [m.path for m in channel.media[:SHOWN]]
        assert [m.day for m in channel.media] == sorted((m.day for m in channel.media), reverse=True)
        scripted = app.handle(Request("GET", channel.path, {}))
        assert list(scripted.script_links) == [m.path for m in channel.media[SHOWN:]]
        if len(channel.media) > SHOWN:
            more = page_of(get, LECTURES, f"/channel/channelmedia/channelid/{channel.number}/page/2")
            assert _unique(links_of(more, MEDIA)) == [m.path for m in channel.media[SHOWN : 2 * SHOWN]]
        held: list[str] = []
        for playlist in links_of(page_of(get, LECTURES, f"{channel.path}/playlists"), r"/playlist/dedicated/[^\"]+"):
            held += _unique(links_of(page_of(get, LECTURES, playlist), MEDIA))
        assert sorted(held) == sorted(m.path for m in channel.media)
        assert any(m.item is None for m in channel.media)


def test_a_recording_names_the_media_team_its_date_as_mediaspace_writes_it_the_speaker_only_in_its_description(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(LECTURES)
    item = next(i for i in items if len(i.authors) > 2)
    page = page_of(get, LECTURES, item.path)
    day = date.fromisoformat(item.date)
    assert f'<h1 class="entryTitle">{item.title}</h1>' in page
    assert f'From <span class="userLink">{OWNER}</span> <span class="entryDate">{kms_date(day)}</span>' in page
    assert (
        f"<p>Speaker: {esc(item.authors[0])} (" in page
        and f"Joint work with {esc(', '.join(item.authors[1:]))}." in page
    )
    assert item.date not in page and kms_date(date(2024, 3, 1)) == "March 1st, 2024"
    assert kms_date(date(2024, 3, 12)) == "March 12th, 2024" and kms_date(date(2024, 3, 23)) == "March 23rd, 2024"
    assert '<ul class="captions">' in page
    pdf = get[1].get(url_of(get, LECTURES, links_of(page, r"/media/attachment/[^\"]+\.pdf")[0]))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    robots = robots_of(get, LECTURES)
    download = links_of(page, r"/media/download/[^\"]+")
    assert download and not robots.can_fetch(url_of(get, LECTURES, download[0]), "*")
    assert not robots.can_fetch(url_of(get, LECTURES, "/esearch/search?keyword=ash"), "*")
    assert not robots.can_fetch(url_of(get, LECTURES, "/user/login"), "*")


# ---------------------------------------------------------------------------------------------- reachability


@pytest.mark.parametrize("site", SITES)
def test_every_relevant_item_is_reachable_from_home_as_a_visitor_within_robots_txt(web: Testbed, site: str) -> None:
    check_reachable(web, site)


def test_without_playlists_only_the_load_more_script_reaches_a_channels_older_recordings(web: Testbed) -> None:
    shut = "User-agent: *\nDisallow: /playlist/\nDisallow: /channel/*/playlists\n"
    older = {m.path for c in channels(web.items_on(LECTURES)) for m in c.media[SHOWN:]}
    assert older and not older & visit(web, LECTURES, robots_txt=shut)
    scripted = visit(web, LECTURES, robots_txt=shut, scripted=True)
    assert older <= scripted and not missing(web, LECTURES, scripted)


def _shut(site: str) -> str:
    """Each site's way to its items shut while the items themselves stay allowed: the collections' browse and item
    sets (the exhibits still show a few items), the reading lists, the channels and playlists (the home page still
    features the newest recordings)."""
    if site == COLLECTIONS:
        return f"Disallow: {OMEKA_SITE}/item$\nDisallow: {OMEKA_SITE}/item?\nDisallow: {OMEKA_SITE}/item-set\n"
    if site == READING:
        return "Disallow: /lists/\n"
    return "Disallow: /channel/\nDisallow: /playlist/\n"


@pytest.mark.parametrize("site", SITES)
def test_the_reachability_check_fails_when_robots_txt_shuts_the_way(web: Testbed, site: str) -> None:
    reached = visit(web, site, robots_txt=f"User-agent: *\n{_shut(site)}")
    assert missing(web, site, reached)
    if site != READING:
        assert reached & {i.path for i in web.items_on(site)}  # the home page still features some
