"""Works against the ground truth: a work on two sites counted once whichever copy is reported, entries with a wrong
title, year or first author (or no item at all), works listed twice, relevant works whose own page was read; the
issue-26 table pooled over requests; robots.txt violations counted from what the testbed received."""

from __future__ import annotations

from pathlib import Path

import httpx

from research_crawler.eval.results import EvaluationResult, QueryCompliance, QueryResult
from research_crawler.eval.table import works_table
from research_crawler.eval.testbed import Item, TestbedServer
from research_crawler.eval.testbed.unfamiliar_corpus import generate_unfamiliar_web
from research_crawler.eval.testbed_sites import TestbedSites
from research_crawler.eval.work_figures import WorkFigures, entry_problems, work_figures
from research_crawler.pages.page import Determination, Page
from research_crawler.report.models import Report, ReportItem
from research_crawler.web.page_store import PageArchive

WEB = generate_unfamiliar_web(2024)
BASES = {name: f"http://127.0.0.1:{9100 + n}/" for n, name in enumerate(WEB.site_names())}
SITES = TestbedSites(WEB, BASES)


def entry(item: Item, rank: int = 1, **fields: object) -> ReportItem:
    values: dict[str, object] = {
        "rank": rank,
        "title": item.title,
        "url": SITES.urls_of(item)[0],
        "site": BASES[item.site],
        "found_on": BASES[item.site],
        "collector_score": 8,
        "date": item.date,
        "authors": list(item.authors),
    }
    values.update(fields)
    return ReportItem.model_validate(values)


def test_a_work_on_two_sites_counts_once_and_twice_when_listed_twice() -> None:
    preprint = next(i for i in WEB.items_on("feed-preprints") if i.work)
    journal = next(c for c in WEB.copies_of(preprint) if c.id != preprint.id)
    truth = SITES.ground_truth("consent-journal", [journal.id, preprint.id])
    assert list(truth.relevant) == [preprint.work_id] and len(truth.relevant[preprint.work_id]) == 4
    once = Report(query="q", simulated_model=True, items=[entry(journal)])
    figures = work_figures(once, SITES, [journal.id, preprint.id])
    assert figures == WorkFigures(
        relevant_works=1, relevant_works_reported=1, relevant_works_read=0, entries=1, relevant_entries=1,
        wrong_entries=0, works_twice=0,
    )  # fmt: skip
    twice = once.model_copy(update={"items": [entry(journal), entry(preprint, 2)]})
    assert work_figures(twice, SITES, [journal.id, preprint.id]).works_twice == 1


def test_an_entry_is_wrong_in_its_title_year_or_first_author_or_when_it_is_no_item() -> None:
    item = WEB.items_on("consent-journal")[0]
    assert entry_problems(entry(item), item) == []
    assert entry_problems(entry(item, title=item.title.upper() + "!"), item) == []  # the same after normalising
    suffixed = entry(item, title=f"{item.title} | Meridian Letters", date=None, authors=[])
    assert len(entry_problems(suffixed, item)) == 3
    assert entry_problems(entry(item, authors=list(reversed(item.authors))), item)
    assert entry_problems(entry(item), None) == ["no item at this address"]


def test_a_work_is_read_when_its_own_page_was_fetched_not_a_notice_in_its_place(tmp_path: Path) -> None:
    item = WEB.items_on("consent-journal")[0]
    page_url = SITES.urls_of(item)[0]
    archive = PageArchive(tmp_path / "pages")
    report = Report(query="q", simulated_model=True, items=[], run_dir=str(tmp_path))

    def fetched(markdown: str) -> None:
        archive.put(
            Page(url=page_url, final_url=page_url, status=200, determination=Determination.OK, markdown=markdown)
        )

    fetched("# Cookie settings\nPlease make a choice to continue to the site.")
    assert work_figures(report, SITES, [item.id]).relevant_works_read == 0
    fetched(f"# {item.title}\nby …")
    assert work_figures(report, SITES, [item.id]).relevant_works_read == 1


def _query(site: str, works: WorkFigures | None, checks: dict[str, float] | None = None) -> QueryResult:
    compliance = QueryCompliance(score=None, checks=checks) if checks is not None else None
    return QueryResult(
        query_id=f"{site}/q", site=site, kind="unfamiliar", query="q", works=works, compliance=compliance
    )


def test_the_issue_table_pools_requests_and_keeps_held_out_sites_apart() -> None:
    full = WorkFigures(relevant_works=4, relevant_works_reported=4, relevant_works_read=4, entries=4,
                       relevant_entries=4, wrong_entries=1, works_twice=0)  # fmt: skip
    none = WorkFigures(relevant_works=3, relevant_works_reported=0, relevant_works_read=0, entries=0,
                       relevant_entries=0, wrong_entries=0, works_twice=0)  # fmt: skip
    result = EvaluationResult(
        dataset="testbed", dataset_file="t", source="testbed", backend="simulated", simulated_model=True,
        judge="simulated", judge_model="simulated-judge",
        robots_violations={"feed-preprints": ["/search?query=x"], "heldout-society": []},
        queries=[
            _query("feed-preprints", full, {"author": 1.0}),
            _query("consent-journal", none, {"dates": 1.0}),  # an empty report keeps its dates by saying nothing
            _query("heldout-society", None),  # failed
        ],
    )  # fmt: skip
    table = works_table(result)
    assert "| relevant works reported | 0.57 (4/7) | – (0/0) | 0.57 (4/7) | ≥ 0.9 |" in table
    assert "| requests whose report honours count / year / newest first / author | 0.50 (1/2) |" in table
    assert "| items with a wrong title, year or first author | 0.25 (1/4) |" in table
    assert "| robots.txt violations | 1 | 0 | 1 | 0 |" in table and "| failed runs | 0 | 1 | 1 | 0 |" in table


def test_robots_violations_are_the_requests_a_sites_robots_txt_forbids() -> None:
    with TestbedServer(WEB, slow_seconds=0) as server, httpx.Client(timeout=5) as http:
        marks = server.hit_counts()
        base = server.base_url("feed-preprints").rstrip("/")
        for path in ("/", "/feeds/new.atom", "/search?query=atoms", "/admin/queue", "/robots.txt"):
            http.get(base + path)
        assert server.robots_violations(since=marks)["feed-preprints"] == ["/search?query=atoms", "/admin/queue"]
        assert server.robots_violations(since=server.hit_counts())["feed-preprints"] == []
