"""The eleventh batch of fresh held-out sites (`eval/testbed/fresh_heldout11*.py`) as built, served on loopback: each
structure they claim, and every relevant item reachable from the home page as a visitor reaches it (the links a
person clicks, paging and facets included) within robots.txt, with a robots.txt that shuts the way showing the check
can fail. No crawler runs here: their first benchmark run is the measure, and it is the lead's."""

from __future__ import annotations

import json
import re
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
from research_crawler.eval.testbed.fresh_heldout11 import FRESH11_SITE_SPECS
from research_crawler.eval.testbed.fresh_heldout11_archive import PER_PAGE as SERIES_PAGE
from research_crawler.eval.testbed.fresh_heldout11_archive import collections, dacs, inverted
from research_crawler.eval.testbed.fresh_heldout11_registry import PER_PAGE as STUDIES_PAGE
from research_crawler.eval.testbed.fresh_heldout11_registry import long_us, studies
from research_crawler.eval.testbed.fresh_heldout11_standards import PER_PAGE, drafts_of, errata_of, mdy, releases
from research_crawler.eval.testbed.markup import MONTHS

SITES = [spec.name for spec in FRESH11_SITE_SPECS]
STANDARDS, ARCHIVE, REGISTRY = "fresh11-standards", "fresh11-archive", "fresh11-registry"


# ---------------------------------------------------------------------------------------------- standards institute


def test_the_publication_search_pages_finals_drafts_and_withdrawn_reports_newest_release_first(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(STANDARDS)
    rows = releases(items)
    first = page_of(get, STANDARDS, "/publications")
    listed = links_of(first, r"/pubs/(?:tr|hb)/\d+/\w+")
    more = links_of(first, r"/publications\?page=\d+")
    assert len(listed) == PER_PAGE and len(more) >= 2
    listed += [p for m in more for p in links_of(page_of(get, STANDARDS, m), r"/pubs/(?:tr|hb)/\d+/\w+")]
    assert listed == [r.path for r in rows]
    assert [r.released for r in rows] == sorted((r.released for r in rows), reverse=True)
    assert {r.status for r in rows} == {"Final", "Draft", "Withdrawn"} and any(r.series == "HB" for r in rows)
    assert f"<td>{mdy(rows[0].released)}</td>" in first and rows[0].released.isoformat() not in first
    finals = links_of(first, r"/publications\?status=final")
    assert finals
    final_paths = []
    page = page_of(get, STANDARDS, finals[0])
    for target in [finals[0], *links_of(page, r"/publications\?status=final&amp;page=\d+")]:
        final_paths += links_of(page_of(get, STANDARDS, target), r"/pubs/tr/\d+/final")
    assert sorted(set(final_paths) & {i.path for i in items}) == sorted(i.path for i in items)
    robots = robots_of(get, STANDARDS)
    export = links_of(first, r"/publications/export\?format=csv")
    assert export and not robots.can_fetch(url_of(get, STANDARDS, export[0]), "*")
    assert robots.can_fetch(url_of(get, STANDARDS, "/publications?page=2"), "*")


def test_a_final_gives_month_and_year_its_history_the_dates_and_each_draft_is_its_own_superseded_page(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(STANDARDS)
    item = next(i for i in items if len(drafts_of(i)) == 2)
    day = date.fromisoformat(item.date)
    page = page_of(get, STANDARDS, item.path)
    assert f"<h1>{item.title}</h1>" in page and f"<dd>{MONTHS[day.month - 1]} {day.year}</dd>" in page
    assert f"{day.month:02d}/{day.day:02d}/{day.year % 100:02d}: " in page and item.date not in page
    assert not METADATA_TAGS.search(page) and f"<li>{item.authors[0]}</li>" in page
    drafts = links_of(page, r"/pubs/tr/\d+/(?:ipd|2pd)")
    assert len(drafts) == 2 and all(d.startswith(item.path.rsplit("/", 1)[0]) for d in drafts)
    for path in drafts:
        draft = page_of(get, STANDARDS, path)
        assert "has been superseded by" in draft and f'href="{item.path}"' in draft
        assert f"<h1>{item.title}</h1>" in draft and path not in {i.path for i in items}
        comment = links_of(draft, r"/pubs/tr/\d+/\w+/comment")
        assert comment and not robots_of(get, STANDARDS).can_fetch(url_of(get, STANDARDS, comment[0]), "*")
    corrected = next(i for i in items if errata_of(i))
    assert "errata update" in page_of(get, STANDARDS, corrected.path)
    assert any("Supersedes:" in page_of(get, STANDARDS, i.path) for i in items)
    withdrawn = next(r for r in releases(items) if r.status == "Withdrawn")
    assert "withdrawn and is kept for reference" in page_of(get, STANDARDS, withdrawn.path)
    topic = page_of(get, STANDARDS, links_of(page, r"/topics/[a-z-]+")[-1])
    assert set(links_of(topic, r"/pubs/tr/\d+/final")) == {i.path for i in items if i.category == item.category}
    group = page_of(get, STANDARDS, links_of(page, r"/groups/[a-z-]+")[0])
    assert "Working Group" in group and item.path in links_of(group, r"/pubs/tr/\d+/final")
    pdf = get[1].get(url_of(get, STANDARDS, item.pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert item.path in links_of(page_of(get, STANDARDS, "/publications?keywords=" + item.title.split()[0]), r"[^\"]+")


# ---------------------------------------------------------------------------------------------- special collections


def test_collections_arrange_series_where_reports_and_theses_sit_among_records_that_are_not_works(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(ARCHIVE)
    every = collections(items)
    listed = links_of(page_of(get, ARCHIVE, "/repositories/2/resources"), r"/repositories/2/resources/\d+")
    assert sorted(listed) == sorted(c.path for c in every) and len(every) > len({i.category for i in items})
    found: list[str] = []
    for collection in every:
        page = page_of(get, ARCHIVE, collection.path)
        series = links_of(page, r"/repositories/2/archival_objects/\d+")
        assert series == [s.path for s in collection.series]
        printable = links_of(page, r"/repositories/2/resources/\d+/pdf")
        assert printable and not robots_of(get, ARCHIVE).can_fetch(url_of(get, ARCHIVE, printable[0]), "*")
        for entry in collection.series:
            first = page_of(get, ARCHIVE, entry.path)
            shown = links_of(first, r"/repositories/2/archival_objects/\d+")
            pages = links_of(first, rf"{entry.path}\?page=\d+")
            assert len(shown) == min(SERIES_PAGE, len(entry.components))
            for more in pages:
                shown += links_of(page_of(get, ARCHIVE, more), r"/repositories/2/archival_objects/\d+")
            assert shown == [c.path for c in entry.components]
            assert [c.day for c in entry.components] == sorted(c.day for c in entry.components)
            found += shown
    assert {i.path for i in items} <= set(found) and len(found) > 2 * len(items)
    theses = [s for c in every for s in c.series if s.title == "Theses and dissertations"]
    assert theses and all(any(p.item for p in s.components) for s in theses)
    assert all(any(p.item is None and "closed" in p.title for p in s.components) for s in theses)
    assert any(len(s.components) > SERIES_PAGE for c in every for s in c.series)


def test_a_component_gives_dacs_dates_creators_surname_first_a_digital_object_and_the_trials_record(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(ARCHIVE)
    item = items[0]
    page = page_of(get, ARCHIVE, item.path)
    day = date.fromisoformat(item.date)
    assert f"<h1>{item.title}, {dacs(day)}</h1>" in page and f"Creation: {dacs(day)}" in page
    assert f"<li>{inverted(item.authors[0])} (Person)</li>" in page and item.date not in page
    linked = json.loads(re.search(r'<script type="application/ld\+json">(.*?)</script>', page).group(1))  # type: ignore[union-attr]
    assert linked["@type"] == "ArchiveComponent" and linked["name"] == f"{item.title}, {dacs(day)}"
    assert linked["creator"][0] == {"@type": "Person", "name": inverted(item.authors[0])}
    assert linked["dateCreated"] == [dacs(day)] and not re.search(r'<meta name="(citation_|dc\.)', page, re.I)
    assert dacs(day) == f"{day.year} {MONTHS[day.month - 1]} {day.day}"
    assert re.search(r'class="breadcrumb">.*/repositories/2/resources/\d+.*/repositories/2/archival_objects/\d+', page)
    pdf = get[1].get(url_of(get, ARCHIVE, links_of(page, r"/files/\d+/access\.pdf")[0]))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    shared = next(i for i in items if i.work)
    copy = next(c for c in web.copies_of(shared) if c.site == REGISTRY)
    assert f'href="{url_of(get, REGISTRY, copy.path)}"' in page_of(get, ARCHIVE, shared.path)
    assert copy.date > shared.date
    other = next(c for c in collections(items) if all(p.item is None for s in c.series for p in s.components))
    letter = page_of(get, ARCHIVE, other.series[0].components[0].path)
    request = links_of(letter, r"/fill_request\?id=\d+")
    assert request and not robots_of(get, ARCHIVE).can_fetch(url_of(get, ARCHIVE, request[0]), "*")
    assert item.path in links_of(page_of(get, ARCHIVE, "/search?q=" + item.title.split()[0]), r"[^\"]+")


# ---------------------------------------------------------------------------------------------- trials registry


def test_categories_page_studies_newest_registration_first_with_studies_that_have_no_results(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(REGISTRY)
    every = studies(items)
    categories = links_of(page_of(get, REGISTRY, "/browse"), r"/browse/[a-z-]+")
    assert len(categories) == len({s.category for s in every}) > len({i.category for i in items})
    listed: list[str] = []
    for category in categories:
        first = page_of(get, REGISTRY, category)
        shown = links_of(first, r"/study/NMR\d+")
        for more in links_of(first, rf"{category}\?page=\d+"):
            shown += links_of(page_of(get, REGISTRY, more), r"/study/NMR\d+")
        chosen = [s for s in every if category.endswith(re.sub(r"[^a-z]+", "-", s.category.lower()).strip("-"))]
        assert shown == [s.path for s in chosen] and len(shown) <= STUDIES_PAGE * 3
        listed += shown
    assert sorted(listed) == sorted(s.path for s in every) and {i.path for i in items} <= set(listed)
    assert any(len(links_of(page_of(get, REGISTRY, c), r"/browse/[a-z-]+\?page=\d+")) for c in categories)
    without = [s for s in every if s.item is None]
    assert {s.status for s in without} >= {"Recruiting", "Terminated", "Withdrawn"}
    registration = [s.registered for s in every]
    assert registration == sorted(registration, reverse=True)
    posted = [s for s in every if s.item]
    assert [s.item.date for s in posted if s.item] != sorted((s.item.date for s in posted if s.item), reverse=True)
    page = page_of(get, REGISTRY, without[0].path + "?tab=results")
    assert "No results have been posted" in page


def test_a_study_record_gives_dates_of_many_kinds_investigators_results_and_a_history_of_versions(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(REGISTRY)
    item = next(i for i in items if not i.work)
    page = page_of(get, REGISTRY, item.path)
    posted = date.fromisoformat(item.date)
    assert f"<h1>{item.title}</h1>" in page and f"<dt>Results First Posted</dt><dd>{long_us(posted)}</dd>" in page
    assert page.count("<dt>") == 7 and item.date not in page and not METADATA_TAGS.search(page)
    assert f"Principal Investigator: {item.authors[0]}," in page and item.abstract in page
    results = page_of(get, REGISTRY, f"{item.path}?tab=results")
    assert f'href="{item.pdf_path}"' in results and f"{item.title}. Results report, {item.year}." in results
    pdf = get[1].get(url_of(get, REGISTRY, item.pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    history = page_of(get, REGISTRY, f"{item.path}?tab=history")
    versions = links_of(history, rf"{item.path}\?tab=history&amp;a=\d+")
    assert len(versions) == 7
    first = page_of(get, REGISTRY, versions[0])
    assert "version 1 of this record" in first and "Recruiting" in first and "Results First Posted" not in first
    shared = next(i for i in items if i.work)
    original = next(c for c in web.copies_of(shared) if c.site == ARCHIVE)
    assert f'href="{url_of(get, ARCHIVE, original.path)}"' in page_of(get, REGISTRY, f"{shared.path}?tab=results")
    robots = robots_of(get, REGISTRY)
    download = links_of(page, rf"{item.path}/download\?format=csv")
    assert download and not robots.can_fetch(url_of(get, REGISTRY, download[0]), "*")
    assert robots.can_fetch(url_of(get, REGISTRY, f"{item.path}?tab=results"), "*")
    found = page_of(get, REGISTRY, "/search?term=" + item.title.split()[0])
    assert item.path in links_of(found, r"/study/NMR\d+")


# ---------------------------------------------------------------------------------------------- reachability


@pytest.mark.parametrize("site", SITES)
def test_every_relevant_item_is_reachable_from_home_as_a_visitor_within_robots_txt(web: Testbed, site: str) -> None:
    check_reachable(web, site)


def _shut(site: str) -> str:
    """Each site's way to its items shut while the items themselves stay allowed: the institute's search, topic
    areas and groups (its home still lists the newest), the archive's collections, the registry's categories (its
    home still lists the newest registrations)."""
    if site == STANDARDS:
        return "Disallow: /publications\nDisallow: /topics/\nDisallow: /groups/\n"
    if site == ARCHIVE:
        return "Disallow: /repositories/2/resources\n"
    return "Disallow: /browse\n"


@pytest.mark.parametrize("site", SITES)
def test_the_reachability_check_fails_when_robots_txt_shuts_the_way(web: Testbed, site: str) -> None:
    reached = visit(web, site, robots_txt=f"User-agent: *\n{_shut(site)}")
    assert missing(web, site, reached)
    if site == STANDARDS:
        assert reached & {i.path for i in web.items_on(site)}  # the home page still shows some
