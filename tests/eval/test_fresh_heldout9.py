"""The ninth batch of fresh held-out sites (`eval/testbed/fresh_heldout9*.py`) as built, served on loopback: each
structure they claim, and every relevant item reachable from the home page as a visitor reaches it (the links a
person clicks, paging included) within robots.txt, with a robots.txt that shuts the way showing the check can fail.
No crawler runs here: their first benchmark run is the measure, and it is the lead's."""

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
from research_crawler.eval.testbed.fresh_heldout9 import FRESH9_SITE_SPECS
from research_crawler.eval.testbed.fresh_heldout9_agency import OTHER_DOCUMENTS, PER_PAGE, documents
from research_crawler.eval.testbed.fresh_heldout9_funder import DELIVERABLES, PROJECTS_PER_PAGE, TAGGED_SINCE, dmy
from research_crawler.eval.testbed.fresh_heldout9_funder import projects as funded_projects
from research_crawler.eval.testbed.fresh_heldout9_group import entries, hugo_date, members, paper_venue
from research_crawler.eval.testbed.markup import long_date

SITES = [spec.name for spec in FRESH9_SITE_SPECS]
FUNDER, AGENCY, GROUP = "fresh9-funder", "fresh9-agency", "fresh9-group"


# ---------------------------------------------------------------------------------------------- funder's portal


def test_programmes_page_their_projects_and_results_tabs_list_publications_among_deliverables(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(FUNDER)
    every = funded_projects(items)
    programmes = links_of(page_of(get, FUNDER, "/programmes"), r"/programme/[a-z-]+")
    assert len(programmes) == len({i.category for i in items})
    listed: list[str] = []
    for programme in programmes:
        page = page_of(get, FUNDER, programme)
        shown = links_of(page, r"/project/id/\d+")
        more = links_of(page, rf"{programme}\?page=\d+")
        assert len(shown) == PROJECTS_PER_PAGE and more  # every programme runs past its first page
        listed += shown + [p for m in more for p in links_of(page_of(get, FUNDER, m), r"/project/id/\d+")]
    assert listed == [p.path for p in sorted(every, key=lambda p: (p.programme, -p.start.toordinal(), -p.pid))]
    assert any(p.outputs == () for p in every)  # a project that has reported nothing yet
    project = next(p for p in every if len(p.outputs) >= 2)
    sheet = page_of(get, FUNDER, project.path)
    assert f"<dd>{dmy(project.start)}</dd>" in sheet and project.start.isoformat() not in sheet
    assert "<h2>Coordinator</h2>" in sheet and not links_of(sheet, r"/results/publication/\d+")
    results = page_of(get, FUNDER, f"{project.path}/results")
    assert sorted(links_of(results, r"/results/publication/\d+")) == sorted(i.path for i in project.outputs)
    assert all(name in results for _, name in DELIVERABLES) and "Periodic Reporting for period 2" in results
    deliverable = links_of(results, r"/docs/deliverables/[^\"]+")[0]
    assert deliverable not in {i.path for i in items}
    export = links_of(results, rf"{project.path}/export\?format=\w+")
    robots = robots_of(get, FUNDER)
    assert export and not any(robots.can_fetch(url_of(get, FUNDER, e), "*") for e in export)
    assert robots.can_fetch(url_of(get, FUNDER, f"{project.path}/results"), "*")
    assert sorted(i.path for p in every for i in p.outputs) == sorted(i.path for i in items)


def test_newer_records_carry_dublin_core_older_ones_text_and_reported_papers_link_to_the_groups_page(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(FUNDER)
    newer = next(i for i in items if i.year >= TAGGED_SINCE)
    older = next(i for i in items if i.year < TAGGED_SINCE)
    page = page_of(get, FUNDER, newer.path)
    assert f'<meta name="DC.date" content="{newer.date}" />' in page
    assert f'<meta name="DC.creator" content="{newer.authors[0]}" />' in page
    old = page_of(get, FUNDER, older.path)
    assert not METADATA_TAGS.search(old) and f"<h1>{older.title}</h1>" in old
    assert f"<dd>{dmy(date.fromisoformat(older.date))}</dd>" in old and older.date not in old
    reported = next(i for i in items if i.work)
    original = next(c for c in web.copies_of(reported) if c.site == GROUP)
    page = page_of(get, FUNDER, reported.path)
    assert f'href="{url_of(get, GROUP, original.path)}"' in page and original.date < reported.date
    assert f"<em>{paper_venue(original)}</em>" in page_of(get, GROUP, original.path) and paper_venue(original) in page
    pdf = get[1].get(url_of(get, FUNDER, older.pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert older.title in page_of(get, FUNDER, "/search?q=" + older.title.split()[0])


# ---------------------------------------------------------------------------------------------- publications finder


def test_the_finder_pages_twenty_updated_newest_first_with_research_among_documents_that_are_not(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(AGENCY)
    every = documents(items)
    first = page_of(get, AGENCY, "/search/all")
    assert "Updated (newest)</option>" in first and f"{len(every)} results" in first
    listed = links_of(first, r"/government/publications/[a-z0-9-]+")
    more = links_of(first, r"/search/all\?page=\d+")
    assert len(listed) == PER_PAGE and more
    listed += [p for m in more for p in links_of(page_of(get, AGENCY, m), r"/government/publications/[a-z0-9-]+")]
    assert listed == [d.path for d in every]
    assert listed != [d.path for d in sorted(every, key=lambda d: (d.published, d.slug), reverse=True)]
    others = sum(len(v) for v in OTHER_DOCUMENTS.values())
    assert len(every) == len(items) + others and any("Guidance" in page_of(get, AGENCY, d.path) for d in every[:8])
    research = page_of(get, AGENCY, "/search/all?content_store_document_type=research")
    assert sorted(links_of(research, r"/government/publications/[a-z0-9-]+")) == sorted(i.path for i in items)
    robots = robots_of(get, AGENCY)
    assert robots.can_fetch(url_of(get, AGENCY, "/search/all?page=2"), "*")


def test_a_publication_page_holds_its_attachments_dates_in_words_and_its_authors_only_in_the_details(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(AGENCY)
    every = {d.slug: d for d in documents(items)}
    updated = next(i for i in items if every[i.key].updated != every[i.key].published)
    page = page_of(get, AGENCY, updated.path)
    doc = every[updated.key]
    assert (
        f"Published {long_date(updated.date)}" in page and f"Last updated {long_date(doc.updated.isoformat())}" in page
    )
    assert '<span class="govuk-caption-xl">Research and analysis</span>' in page
    attachments = links_of(page, r"/media/\d+/[a-z0-9-]+\.pdf")
    assert attachments[0] == updated.pdf_path and len(attachments) == 3  # the report, an annex, an easy-read version
    for path in attachments:
        pdf = get[1].get(url_of(get, AGENCY, path))
        assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    linked = json.loads(re.search(r'<script type="application/ld\+json">(.*?)</script>', page).group(1))  # type: ignore[union-attr]
    assert linked["author"]["@type"] == "Organization" and linked["datePublished"].startswith(updated.date)
    before, details = page.split('id="details"')
    assert updated.authors[0] in details and updated.authors[0] not in before
    assert '<meta name="citation_' not in page
    print_view = links_of(page, r"/government/publications/[a-z0-9-]+/print")
    robots = robots_of(get, AGENCY)
    assert print_view and not robots.can_fetch(url_of(get, AGENCY, print_view[0]), "*")
    assert robots.can_fetch(url_of(get, AGENCY, f"{updated.path}/summary"), "*")
    collection = page_of(get, AGENCY, f"/government/collections/{updated.category.lower().replace(' ', '-')}-research")
    assert set(links_of(collection, r"/government/publications/[a-z0-9-]+")) >= {
        i.path for i in items if i.category == updated.category
    }


# ---------------------------------------------------------------------------------------------- group's site


def test_the_publication_list_pages_ten_rows_hiding_unselected_ones_with_datasets_and_a_patent_among_papers(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(GROUP)
    rows = entries(items)
    first = page_of(get, GROUP, "/publication/")
    assert ".pub-list-item:not(.selected){display:none}" in first
    shown = re.findall(r'<div class="pub-list-item year-(\d{4}) pubtype-(\d)( selected)?" data-year="\1"', first)
    assert len(shown) == 10 and any(s[2] for s in shown) and not all(s[2] for s in shown)
    assert links_of(first, r"/publication/page/\d+/") == ["/publication/page/2/"]
    listed = links_of(first, r"/publication/[a-z0-9-]+/")
    listed += links_of(page_of(get, GROUP, "/publication/page/2/"), r"/publication/[a-z0-9-]+/")
    paths = [e.path for e in rows]
    assert [p for p in listed if p in paths and p != "/publication/page/2/"] == paths
    assert len(rows) > len(items) and {e.kind for e in rows if e.item is None} == {0, 8, 9}
    dataset = next(e for e in rows if e.kind == 0)
    assert "Data for: " in dataset.title and dataset.path not in {i.path for i in items}
    feed = page_of(get, GROUP, "/publication/index.xml")
    assert feed.count("<item>") == len(rows)
    assert 'href="/publication/index.xml"' in first


def test_a_paper_page_writes_its_date_as_the_theme_does_and_its_open_graph_time_is_the_pages(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(GROUP)
    item = items[0]
    page = page_of(get, GROUP, item.path)
    assert f"<h1>{item.title}</h1>" in page and f'<span class="article-date">{hugo_date(item.date)}</span>' in page
    published = re.search(r'property="article:published_time" content="(\d{4}-\d{2}-\d{2})', page)
    assert published and published.group(1) > item.date and not re.search(r'name="(citation_|dc\.)', page, re.I)
    assert item.date not in page
    lead = members(items)[0]
    author = page_of(get, GROUP, f"/author/{lead.lower().replace(' ', '-')}/")
    assert {i.path for i in items if lead in i.authors} == set(links_of(author, r"/publication/[a-z0-9-]+/"))
    shared = next(i for i in items if i.work)
    copy = next(c for c in web.copies_of(shared) if c.site == FUNDER)
    assert f'href="{url_of(get, FUNDER, copy.path)}"' in page_of(get, GROUP, shared.path)
    news = page_of(get, GROUP, "/post/")
    assert "Paper accepted" in news and not any(f'href="{i.path}"' in news for i in items)
    robots = robots_of(get, GROUP)
    assert not robots.can_fetch(url_of(get, GROUP, "/admin/"), "*")
    assert robots.can_fetch(url_of(get, GROUP, item.path), "*")
    pdf = get[1].get(url_of(get, GROUP, item.pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


# ---------------------------------------------------------------------------------------------- reachability


@pytest.mark.parametrize("site", SITES)
def test_every_relevant_item_is_reachable_from_home_as_a_visitor_within_robots_txt(web: Testbed, site: str) -> None:
    check_reachable(web, site)


def _shut(site: str) -> str:
    """Each site's way to its items shut while the items themselves stay allowed: the funder's programmes and
    results tabs, the finder and collections, the group's publication list, author pages and news (its home still
    shows the newest)."""
    if site == FUNDER:
        return "Disallow: /programme\nDisallow: /project/\nDisallow: /search\n"
    if site == AGENCY:
        return "Disallow: /search/\nDisallow: /government/collections/\nDisallow: /government/organisations/\n"
    return "Disallow: /publication/$\nDisallow: /publication/page/\nDisallow: /author/\nDisallow: /post/\n"


@pytest.mark.parametrize("site", SITES)
def test_the_reachability_check_fails_when_robots_txt_shuts_the_way(web: Testbed, site: str) -> None:
    reached = visit(web, site, robots_txt=f"User-agent: *\n{_shut(site)}")
    assert missing(web, site, reached)
    assert reached & {i.path for i in web.items_on(site)}  # the home page still shows some
