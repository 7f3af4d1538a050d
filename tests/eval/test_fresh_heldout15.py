"""The fifteenth batch of fresh held-out sites (`eval/testbed/fresh_heldout15*.py`) as built, served on loopback:
each structure they claim, and every relevant item reachable from the home page as a visitor reaches it (the links a
person clicks, paging included) within robots.txt, with a robots.txt that shuts the way showing the check can fail.
No crawler runs here: their first benchmark run is the measure, and it is the lead's."""

from __future__ import annotations

import re
from datetime import date
from urllib.parse import urljoin

import lxml.html
import pytest
from site_visitor import METADATA_TAGS, Served, check_reachable, links_of, missing, page_of, robots_of, url_of, visit

from research_crawler.eval.testbed import Testbed
from research_crawler.eval.testbed.fresh_heldout15 import FRESH15_SITE_SPECS, SPACE_KEY, report_number
from research_crawler.eval.testbed.fresh_heldout15_confluence import byline_date, lozenge, modified, wiki_pages
from research_crawler.eval.testbed.fresh_heldout15_cran import VIEW_DATE, by_date, by_name, packages
from research_crawler.eval.testbed.fresh_heldout15_ojs import ISSUES_PER_PAGE, JOURNAL, galley_id, issues

SITES = [spec.name for spec in FRESH15_SITE_SPECS]
OJS, CRAN, WIKI = "fresh15-ojs", "fresh15-cran", "fresh15-confluence"
ARTICLE = r"[^\"]*/index\.php/jqe/article/view/\d+"
PACKAGE = r"[^\"]*/web/packages/[A-Za-z0-9.]+/index\.html"


def _unique(links: list[str]) -> list[str]:
    return list(dict.fromkeys(links))


def _paths(get: Served, site: str, links: list[str]) -> list[str]:
    base = url_of(get, site, "")
    return [link[len(base) :] if link.startswith(base) else link for link in links]


# ---------------------------------------------------------------------------------------------- OJS journal


def test_the_root_leads_to_the_journal_whose_archive_pages_issues_and_whose_issues_list_articles_by_section(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(OJS)
    every = issues(items)
    root = get[1].get(url_of(get, OJS, "/"))
    assert root.status_code == 302 and root.headers["location"] == f"{JOURNAL}/index"
    home = page_of(get, OJS, f"{JOURNAL}/index")
    assert every[0].label in home and url_of(get, OJS, f"{JOURNAL}/issue/archive") in links_of(home, r"[^\"]+")
    assert len(every) > ISSUES_PER_PAGE
    page = page_of(get, OJS, f"{JOURNAL}/issue/archive")
    shown = _paths(get, OJS, links_of(page, r"[^\"]*/issue/view/\d+"))
    assert len(shown) == ISSUES_PER_PAGE
    while found := re.search(r'<a class="next" href="([^"]+)">', page):
        page = page_of(get, OJS, _paths(get, OJS, [found.group(1)])[0])
        shown += _paths(get, OJS, links_of(page, r"[^\"]*/issue/view/\d+"))
    assert shown == [issue.path for issue in every]
    for issue in every:
        toc = page_of(get, OJS, issue.path)
        assert f"<h1>{issue.label}</h1>" in toc and f'<span class="value">{issue.published.isoformat()}</span>' in toc
        assert _paths(get, OJS, _unique(links_of(toc, ARTICLE))) == [
            i.path for s in ("Methods", "Applications") for i in issue.articles if i.category == s
        ]
        assert "<h2>Editorial</h2>" in toc and "<h2>Software Reviews</h2>" in toc
        assert {f"{i.path}/{galley_id(i)}" for i in issue.articles} <= set(
            _paths(get, OJS, links_of(toc, ARTICLE + r"/\d+"))
        )
    assert any(len({i.category for i in issue.articles}) == 2 for issue in every)
    robots = robots_of(get, OJS)
    assert not robots.can_fetch(url_of(get, OJS, f"{JOURNAL}/search/search?query=lake"), "*")
    assert robots.can_fetch(url_of(get, OJS, items[0].pdf_path), "*")


def test_an_article_gives_published_as_ojs_writes_it_its_issue_section_galley_and_scholar_tags(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(OJS)
    item = next(i for i in items if len(i.authors) > 2 and not i.work)
    page = page_of(get, OJS, item.path)
    assert f'<h1 class="page_title">{item.title}</h1>' in page.replace("&amp;", "&") and METADATA_TAGS.search(page)
    published = f'<h2 class="label">Published</h2><div class="value"><span>{item.date}</span></div>'
    assert published in page
    assert f'<meta name="citation_date" content="{item.date.replace("-", "/")}" />' in page
    assert [a.text for a in lxml.html.fromstring(page).find_class("name")] == list(item.authors)
    issue = next(i for i in issues(items) if item in i.articles)
    assert f'href="{url_of(get, OJS, issue.path)}">{issue.label}</a>' in page
    citations = links_of(page, r"[^\"]*/citationstylelanguage/[^\"]+")
    assert citations and not any(robots_of(get, OJS).can_fetch(c, "*") for c in citations)
    galley = _paths(get, OJS, links_of(page, ARTICLE + r"/\d+"))[0]
    viewer = page_of(get, OJS, galley)
    download = _paths(get, OJS, links_of(viewer, r"[^\"]*/article/download/\d+/\d+"))[0]
    assert download == item.pdf_path and "<iframe" in viewer
    pdf = get[1].get(url_of(get, OJS, download))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    shared = next(i for i in items if i.work)
    package = next(c for c in web.copies_of(shared) if c.site == CRAN)
    assert package.date < shared.date
    assert f'href="{url_of(get, CRAN, package.path)}"' in page_of(get, OJS, shared.path)


# ---------------------------------------------------------------------------------------------- CRAN


def test_the_home_page_leads_by_relative_links_to_packages_by_date_by_name_and_task_views(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(CRAN)
    every = packages(items)
    home = page_of(get, CRAN, "/")
    navbar = page_of(get, CRAN, "/navbar.html")
    assert navbar[navbar.index("<img") : navbar.index("</ul>")] in home and not links_of(home, r"/[^\"]*")
    assert "web/packages/index.html" in links_of(navbar, r"[^\"]+") and "web/views/" in links_of(navbar, r"[^\"]+")
    index = page_of(get, CRAN, "/web/packages/index.html")
    assert {"available_packages_by_date.html", "available_packages_by_name.html"} <= set(links_of(index, r"[^\"]+"))
    listing = page_of(get, CRAN, "/web/packages/available_packages_by_date.html")
    assert links_of(listing, r"[^\"]+index\.html") == [
        f"../../web/packages/{p.name}/index.html" for p in by_date(every)
    ]
    days = re.findall(r"<tr><td> (\d{4}-\d{2}-\d{2}) </td>", listing)
    assert days == sorted(days, reverse=True) and len(days) == len(every) > len(items)
    names = page_of(get, CRAN, "/web/packages/available_packages_by_name.html")
    assert links_of(names, r"[^\"]+index\.html") == [f"../../web/packages/{p.name}/index.html" for p in by_name(every)]
    assert len({p.name for p in every}) == len(every)
    view = page_of(get, CRAN, "/web/views/Environmetrics.html")
    listed = {link.split("/")[2] for link in links_of(view, r"\.\./packages/[^\"]+")}
    ours = {p.name for p in every if p.view == "Environmetrics"}
    assert listed & ours == {p.name for p in every if p.view == "Environmetrics" and p.day <= VIEW_DATE}
    assert not any(i.topic.endswith("-other") and i.key in listed for i in items)


def test_a_package_page_gives_published_its_authors_with_roles_its_maintainer_and_its_manual(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(CRAN)
    every = {p.name: p for p in packages(items)}
    item = next(i for i in items if len(i.authors) > 1 and not i.topic.endswith("-other"))
    page = page_of(get, CRAN, item.path)
    assert f"<h2>{item.key}: {item.title}</h2>" in page.replace("&amp;", "&") and METADATA_TAGS.search(page)
    assert f"<td>Published:</td>\n<td>{item.date}</td>" in page
    assert f"{item.authors[0]} [aut, cre]" in page and f"{item.authors[1]} [aut]" in page
    assert f"<td>Maintainer:</td>\n<td>{item.authors[0]}  &lt;" in page
    assert any(every[i.key].contributor for i in items)
    for i in items:
        text = page_of(get, CRAN, i.path)
        contributor = every[i.key].contributor
        assert (f"{contributor} [ctb]" in text) if contributor else "[ctb]" not in text
    robots = robots_of(get, CRAN)
    base = url_of(get, CRAN, item.path)
    for forbidden in links_of(page, r"[^\"]*(?:checks|Archive)/[^\"]*"):
        assert not robots.can_fetch(urljoin(base, forbidden), "*")
    assert len(links_of(page, r"[^\"]*(?:checks|Archive)/[^\"]*")) == 2
    pdf = get[1].get(url_of(get, CRAN, item.pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF") and f'href="{item.key}.pdf"' in page
    canonical = get[1].get(url_of(get, CRAN, f"/package={item.key}"))
    assert canonical.status_code == 302 and canonical.headers["location"] == item.path
    citation = page_of(get, CRAN, f"/web/packages/{item.key}/citation.html")
    assert f"({item.year})" in citation and "R package version" in citation


# ---------------------------------------------------------------------------------------------- Confluence


def test_the_dashboard_leads_to_the_space_whose_pages_show_their_children_down_to_the_reports(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(WIKI)
    pages = wiki_pages(items)
    root = get[1].get(url_of(get, WIKI, "/"))
    assert root.status_code == 302 and root.headers["location"] == "/dashboard.action"
    dashboard = page_of(get, WIKI, "/dashboard.action")
    assert f"/display/{SPACE_KEY}" in links_of(dashboard, r"/display/[A-Z]+")
    space = get[1].get(url_of(get, WIKI, f"/display/{SPACE_KEY}"))
    assert space.status_code == 302
    home = page_of(get, WIKI, space.headers["location"])
    teams = links_of(home, r"/display/AE/[^\"]+")
    assert {"/display/AE/Track+Engineering", "/display/AE/Wind+Operations"} <= set(teams)
    for team, section in (("Track Engineering", "Track+Engineering"), ("Wind Operations", "Wind+Operations")):
        reports = page_of(get, WIKI, f"/display/AE/{section}+Technical+Reports")
        years = [link for link in links_of(reports, r"/display/AE/[^\"]+") if re.search(r"Reports\+\d{4}$", link)]
        mine = [i for i in items if i.category == team]
        assert sorted(_unique(years)) == sorted(f"/display/AE/{section}+Reports+{y}" for y in {i.year for i in mine})
        table = reports[reports.index("metadata-summary-macro") : reports.index("childpages-macro")]
        assert sorted(links_of(table, r"/display/AE/[^\"]+")) == sorted(i.path for i in mine)
        for year in _unique(years):
            text = page_of(get, WIKI, year)
            children = links_of(text[text.index("childpages-macro") :], r"/display/AE/[^\"]+")
            assert children == sorted(children, key=lambda p: p.lower()) or len(children) > 0
            titles = [pages[p].title for p in next(p for p in pages.values() if p.path == year).children]
            shown = [a.text for a in lxml.html.fromstring(text).find_class("childpages-macro")[0].iter("a")]
            assert shown == sorted(titles, key=str.lower)
    drafts = [p for p in pages.values() if p.status == "Draft"]
    text = page_of(get, WIKI, drafts[0].path)
    assert "DRAFT</span>" in text and "/download/attachments/" not in text


def test_a_report_gives_its_properties_with_date_issued_and_a_byline_of_creator_and_last_modification(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(WIKI)
    creators = set()
    for item in items:
        page = page_of(get, WIKI, item.path)
        day = date.fromisoformat(item.date)
        assert f'<th class="confluenceTh">Date issued</th><td class="confluenceTd">{lozenge(day)}</td>' in page
        assert "on <a" in page and f">{byline_date(modified(item))}</a>" in page and modified(item) > day
        assert report_number(day, item.title) in page and not METADATA_TAGS.search(page)
        mentions = [a.text for a in lxml.html.fromstring(page).find_class("confluence-userlink")]
        assert mentions[2:] == list(item.authors)
        creators.add(mentions[0] in item.authors)
        assert item.pdf_path in [link.split("?")[0] for link in links_of(page, r"/download/attachments/[^\"]+")]
    assert creators == {True, False}
    assert lozenge(date(2024, 3, 5)).endswith(">05 Mar 2024</time>") and byline_date(date(2024, 3, 5)) == "Mar 05, 2024"
    pdf = get[1].get(url_of(get, WIKI, items[0].pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    robots = robots_of(get, WIKI)
    page = page_of(get, WIKI, items[0].path)
    for forbidden in links_of(page, r"/(?:pages|spaces/flyingpdf)/[^\"]+"):
        assert not robots.can_fetch(url_of(get, WIKI, forbidden), "*")
    assert not robots.can_fetch(url_of(get, WIKI, "/dosearchsite.action?queryString=ice"), "*")
    label = page_of(get, WIKI, f"/label/{SPACE_KEY}/technical-report")
    assert sorted(links_of(label, r"/display/AE/[^\"]+")) == sorted(i.path for i in items)


# ---------------------------------------------------------------------------------------------- reachability


@pytest.mark.parametrize("site", SITES)
def test_every_relevant_item_is_reachable_from_home_as_a_visitor_within_robots_txt(web: Testbed, site: str) -> None:
    check_reachable(web, site)


def _shut(site: str) -> str:
    """Each site's way to its items shut while the items themselves stay allowed: the journal's issues (its home
    still shows the current one), the registry's package tables and task views, the wiki's year pages, reports
    tables and labels (the dashboard still shows what was updated lately)."""
    if site == OJS:
        return "Disallow: /index.php/jqe/issue/\n"
    if site == CRAN:
        return "Disallow: /web/packages/available_packages_by\nDisallow: /web/views/\n"
    return "Disallow: /display/AE/*Reports+20\nDisallow: /display/AE/*Technical+Reports$\nDisallow: /label/\n"


@pytest.mark.parametrize("site", SITES)
def test_the_reachability_check_fails_when_robots_txt_shuts_the_way(web: Testbed, site: str) -> None:
    reached = visit(web, site, robots_txt=f"User-agent: *\n{_shut(site)}")
    assert missing(web, site, reached)
    if site != CRAN:
        assert reached & {i.path for i in web.items_on(site)}  # the home page or dashboard still shows the newest
