"""The eighth batch of fresh held-out sites (`eval/testbed/fresh_heldout8*.py`) as built, served on loopback: each
structure they claim, and every relevant item reachable from the home page as a visitor reaches it (the links a
person clicks, paging and redirects included) within robots.txt, with a robots.txt that shuts the way showing the
check can fail. No crawler runs here: their first benchmark run is the measure, and it is the lead's."""

from __future__ import annotations

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
from research_crawler.eval.testbed.fresh_heldout8 import FRESH8_SITE_SPECS
from research_crawler.eval.testbed.fresh_heldout8_portal import PER_PAGE, output_type, outputs, pure_date, statuses
from research_crawler.eval.testbed.fresh_heldout8_preprints import versions
from research_crawler.eval.testbed.fresh_heldout8_review import TABS, forum_date, tab_of
from research_crawler.eval.testbed.markup import long_date

SITES = [spec.name for spec in FRESH8_SITE_SPECS]
PORTAL, REVIEW, PREPRINTS = SITES


# ---------------------------------------------------------------------------------------------- research portal


def test_portal_lists_outputs_of_every_type_ten_a_page_from_page_zero_by_year_then_title(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(PORTAL)
    home = get[1].get(url_of(get, PORTAL, "/"), follow_redirects=False)
    assert home.status_code == 302 and home.headers["location"] == "/en/"
    first = page_of(get, PORTAL, "/en/publications/")
    pages = sorted(set(links_of(first, r"/en/publications/\?page=\d+")))
    assert pages[0] == "/en/publications/?page=1" and "?page=0" not in first  # page 0 is the first
    titles = re.findall(r'<h3 class="title"><a href="[^"]+"><span>([^<]+)</span>', first)
    for more in pages:
        titles += re.findall(r'<h3 class="title"><a href="[^"]+"><span>([^<]+)</span>',
                             page_of(get, PORTAL, more))  # fmt: skip
    rows = outputs(items)
    assert len(titles) == len(rows) > PER_PAGE and titles == [r.title for r in rows]
    assert [r.year for r in rows] == sorted((r.year for r in rows), reverse=True)
    assert [i.title for i in sorted(items, key=lambda i: i.date, reverse=True)] != [r.title for r in rows if r.item]
    others = [r for r in rows if r.item is None]
    assert {r.kind for r in others} == {"patent", "dataset", "clipping"}
    assert not {r.path for r in others} & {i.path for i in items}
    patents = page_of(get, PORTAL, "/en/publications/?type=patent")
    patent = next(r for r in others if r.kind == "patent")
    assert "Research output: Patent" in page_of(get, PORTAL, patent.path)
    assert f"{sum(r.kind == 'patent' for r in rows)} results" in patents
    assert all(i.title not in patents for i in items)
    facet = links_of(first, r"/en/publications/\?organisationalUnits=[a-z-]+")
    assert len(facet) == len({i.category for i in items})
    unit = page_of(get, PORTAL, facet[0])
    theirs = [r for r in rows if facet[0].endswith(re.sub(r"[^a-z0-9]+", "-", r.unit.lower()))]
    assert f"<p>{len(theirs)} results</p>" in unit and 0 < len(theirs) < len(rows)
    assert f"{facet[0]}&amp;type=article" in unit  # facets combine


def test_an_output_page_names_its_type_and_dated_statuses_and_only_articles_carry_tags(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(PORTAL)
    pages = {i.key: page_of(get, PORTAL, i.path) for i in items}
    articles = [i for i in items if output_type(i) == "article"]
    others = [i for i in items if output_type(i) != "article"]
    assert articles and others
    assert all(METADATA_TAGS.search(pages[i.key]) for i in articles)
    assert not any(METADATA_TAGS.search(pages[i.key]) for i in others)
    bare = others[0]
    page = pages[bare.key]
    assert f"<h1><span>{bare.title}</span></h1>" in page and "Research output: " in page and bare.date not in page
    assert all(f"{status} - {pure_date(day)}</td>" in page for status, day in statuses(bare))
    assert statuses(bare)[-1][1] == date.fromisoformat(bare.date)
    both = next(i for i in items if len(statuses(i)) == 2)
    assert "Accepted/In press - " in pages[both.key] and statuses(both)[0][1] < statuses(both)[1][1]
    newest = max(items, key=lambda i: i.date)
    assert f"E-pub ahead of print - {pure_date(date.fromisoformat(newest.date))}" in pages[newest.key]
    assert re.search(r"\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) 20\d\d</td>", page)
    robots = robots_of(get, PORTAL)
    export = links_of(page, r"/en/publications/[a-z0-9-]+/export/\w+")
    assert export and not any(robots.can_fetch(url_of(get, PORTAL, e), "*") for e in export)
    assert robots.can_fetch(url_of(get, PORTAL, bare.path), "*")
    person = links_of(page, r"/en/persons/[a-z0-9-]+")[0]
    assert f'href="{bare.path}"' in page_of(get, PORTAL, person)
    pdf = get[1].get(url_of(get, PORTAL, bare.pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


# ---------------------------------------------------------------------------------------------- open-review venue


def test_a_venues_tabs_hold_accepted_rejected_and_withdrawn_submissions_and_only_accepted_are_works(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(REVIEW)
    home = page_of(get, REVIEW, "/")
    groups = links_of(home, r"/group\?id=SGU%2F\d{4}%2FWorkshop")
    assert len(groups) == len({i.year for i in items})
    found: dict[str, set[str]] = {}
    for group in groups:
        page = page_of(get, REVIEW, group)
        tabs = links_of(page, r"/group\?id=[^\"]+&amp;tab=[a-z-]+")
        assert [t.rsplit("=", 1)[1] for t in tabs] == [t for t, _ in TABS]
        for tab in tabs:
            listing = page_of(get, REVIEW, tab)
            for more in links_of(listing, r"/group\?[^\"]+&amp;page=\d+"):
                listing += page_of(get, REVIEW, more)
            found.setdefault(tab.rsplit("=", 1)[1], set()).update(links_of(listing, r"/forum/\w{10}"))
    assert set().union(*found.values()) == {i.path for i in items}
    kinds = {tab_of(i, items) for i in items}
    assert kinds == {t for t, _ in TABS}
    near = {i.path for i in items if i.topic.endswith("-other")}
    assert near == found["reject"] | found["withdrawn"] and not near & (found["accept-oral"] | found["accept-poster"])
    relevant = {web.item(i).path for q in web.queries if q.site == REVIEW for i in q.relevant_item_ids}
    assert relevant & {i.path for i in items} <= found["accept-oral"] | found["accept-poster"]


def test_a_forum_page_holds_reviews_and_a_decision_with_its_dates_and_revisions_are_forbidden(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(REVIEW)
    accepted = next(i for i in items if tab_of(i, items).startswith("accept"))
    page = page_of(get, REVIEW, accepted.path)
    day = date.fromisoformat(accepted.date)
    assert f"Published: {forum_date(day)}, Last Modified: " in page and "<strong>Decision:</strong> Accept" in page
    assert page.count("Official Review of Submission") == 3 and f"{accepted.title}</h2>" in page
    assert f'<meta name="citation_publication_date" content="{day:%Y/%m/%d}" />' in page
    online = re.search(r'citation_online_date" content="(\d{4})/(\d\d)/(\d\d)"', page)
    assert online and date(*map(int, online.groups())) < day  # the submission, not the publication
    withdrawn = next(i for i in items if tab_of(i, items) == "withdrawn")
    gone = page_of(get, REVIEW, withdrawn.path)
    assert "Withdrawal by Authors" in gone and "Published:" not in gone and "citation_publication_date" not in gone
    robots = robots_of(get, REVIEW)
    revisions = links_of(page, r"/revisions/\w+")
    profiles = links_of(page, r"/profile\?[^\"]+")
    assert revisions and profiles
    assert not any(robots.can_fetch(url_of(get, REVIEW, p), "*") for p in revisions + profiles)
    assert robots.can_fetch(url_of(get, REVIEW, accepted.path), "*")
    pdf = get[1].get(url_of(get, REVIEW, accepted.pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


# ---------------------------------------------------------------------------------------------- preprint server


def test_a_record_shows_its_latest_version_and_older_versions_their_own_title_and_date(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(PREPRINTS)
    revised = [i for i in items if len(versions(i)) > 1]
    assert revised and len(revised) < len(items)
    item = revised[0]
    first, latest = versions(item)[0], versions(item)[-1]
    assert first.title != item.title == latest.title and first.posted == date.fromisoformat(item.date)
    page = page_of(get, PREPRINTS, item.path)
    assert f"<h1>{item.title}</h1>" in page and f"First posted (v1): {long_date(item.date)}" in page
    assert f'<meta name="citation_date" content="{first.posted:%Y/%m/%d}" />' in page
    assert f'<meta name="citation_online_date" content="{latest.posted:%Y/%m/%d}" />' in page
    old = page_of(get, PREPRINTS, f"{item.path}/v1")
    assert f"<h1>{first.title}</h1>" in old and "A newer version of this preprint exists" in old
    assert f'<meta name="citation_title" content="{first.title}" />' in old
    moved = get[1].get(url_of(get, PREPRINTS, f"{item.path}/v{latest.number}"), follow_redirects=False)
    assert moved.status_code == 301 and moved.headers["location"] == item.path
    assert all(v.posted.year == first.posted.year for i in items for v in versions(i) for first in versions(i)[:1])
    robots = robots_of(get, PREPRINTS)
    download = links_of(page, r"/manuscript/[^\"]+/download")
    assert download and not robots.can_fetch(url_of(get, PREPRINTS, download[0]), "*")
    shared = next(i for i in items if i.work)
    copy = next(c for c in web.copies_of(shared) if c.site == REVIEW)
    assert copy.path in page_of(get, PREPRINTS, shared.path) and copy.title == shared.title


def test_subject_listings_page_by_offset_and_the_digest_lists_first_titles_by_month(web: Testbed, get: Served) -> None:
    items = web.items_on(PREPRINTS)
    home = page_of(get, PREPRINTS, "/")
    subjects = sorted(set(links_of(home, r"/subject/[a-z-]+")))
    assert len(subjects) == len({i.category for i in items})
    listed: list[str] = []
    for subject in subjects:
        path: str | None = subject
        while path:
            page = page_of(get, PREPRINTS, path)
            shown = links_of(page, r"/manuscript/\d{6}\.\d{4}")
            assert len(shown) <= 5
            listed += shown
            path = next(iter(re.findall(r'href="([^"]+)">Next', page)), None)
            assert path is None or re.fullmatch(r"/subject/[a-z-]+\?skip=\d+", path)
    assert sorted(listed) == sorted(i.path for i in items) and len(listed) > 5 * len(subjects) - 4
    index = page_of(get, PREPRINTS, "/digest/")
    months = links_of(index, r"/digest/\d{4}-\d\d")
    assert sorted(months, reverse=True) == months == [f"/digest/{m}" for m in sorted({i.date[:7] for i in items},
                                                                                     reverse=True)]  # fmt: skip
    item = next(i for i in items if len(versions(i)) > 1)
    digest = page_of(get, PREPRINTS, f"/digest/{item.date[:7]}")
    assert f'{item.date} — <a href="{item.path}">{versions(item)[0].title}</a>' in digest
    assert f">{item.title}</a>" not in digest


# ---------------------------------------------------------------------------------------------- reachability


@pytest.mark.parametrize("site", SITES)
def test_every_relevant_item_is_reachable_from_home_as_a_visitor_within_robots_txt(web: Testbed, site: str) -> None:
    check_reachable(web, site)


def _shut(site: str) -> str:
    """Each site's way to its items shut while the items themselves stay allowed: the portal's listings, persons and
    units; the venue's group pages; the preprint server's subject listings and digest (its home still shows the
    newest records)."""
    if site == PORTAL:
        return "Disallow: /en/publications/$\nDisallow: /en/publications/?\nDisallow: /en/persons/\n" \
               "Disallow: /en/organisations/\n"  # fmt: skip
    if site == REVIEW:
        return "Disallow: /group\n"
    return "Disallow: /subject/\nDisallow: /digest/\n"


@pytest.mark.parametrize("site", SITES)
def test_the_reachability_check_fails_when_robots_txt_shuts_the_way(web: Testbed, site: str) -> None:
    reached = visit(web, site, robots_txt=f"User-agent: *\n{_shut(site)}")
    assert missing(web, site, reached)
    assert reached & {i.path for i in web.items_on(site)} or site != PREPRINTS
