"""Request compliance: each constraint of a contract is a check that a report meets or breaks, and says why."""

from __future__ import annotations

from research_crawler.eval.compliance import contract_compliance
from research_crawler.eval.dataset import QueryContract
from research_crawler.eval.metrics import GroundTruth
from research_crawler.report.models import Report, ReportItem, SiteSummary

SITE = "http://127.0.0.1:8001/"


def _report(*dated: tuple[str, str | None], sites: list[SiteSummary] | None = None) -> Report:
    items = [
        ReportItem(
            rank=n, title=f"Paper {key}", url=f"{SITE}abs/{key}", site=SITE, found_on=SITE, collector_score=8, date=day
        )
        for n, (key, day) in enumerate(dated, 1)
    ]
    return Report(query="q", simulated_model=False, items=items, sites=sites or [])


def _truth(*keys: str) -> GroundTruth:
    return GroundTruth(relevant={f"s:{key}": [f"{SITE}abs/{key}"] for key in keys}, site="s")


def test_a_year_is_kept_only_when_every_item_is_dated_inside_it() -> None:
    year = QueryContract(year_from=2025, year_to=2025)
    assert contract_compliance(_report(("a", "2025-01-01"), ("b", "2025-12-31")), year, None).checks == {"dates": 1.0}
    late = contract_compliance(_report(("a", "2025-03-01"), ("b", "2026-01-01")), year, None)
    assert late.checks == {"dates": 0.0} and late.score == 0.0 and "2026-01-01" in late.violations[0]
    undated = contract_compliance(_report(("a", "2025-03-01"), ("b", None)), year, None)
    assert undated.checks == {"dates": 0.0} and "nowhere" in undated.violations[0]
    since = QueryContract(year_from=2024, count=20)
    result = contract_compliance(_report(("a", "2024-02-01"), ("b", "2026-05-01")), since, None)
    assert result.checks == {"dates": 1.0, "count": 1.0} and result.score == 1.0


def test_the_count_is_an_upper_bound() -> None:
    three = QueryContract(count=3)
    assert contract_compliance(_report(("a", None), ("b", None), ("c", None)), three, None).score == 1.0
    assert contract_compliance(_report(("a", None)), three, None).score == 1.0  # fewer is honest, not padded
    padded = contract_compliance(_report(*[(k, None) for k in "abcd"]), three, None)
    assert padded.checks == {"count": 0.0} and "4 items reported, 3 asked for" in padded.violations


def test_the_n_most_recent_must_be_exactly_those_newest_first() -> None:
    contract = QueryContract(count=2, newest_first=True, most_recent=2)
    truth = _truth("new", "second")
    exact = contract_compliance(_report(("new", "2026-10-01"), ("second", "2026-02-01")), contract, truth)
    assert exact.checks == {"count": 1.0, "order": 1.0, "most_recent": 1.0}
    swapped = contract_compliance(_report(("second", "2026-02-01"), ("new", "2026-10-01")), contract, truth)
    assert swapped.checks == {"count": 1.0, "order": 0.0, "most_recent": 0.0}
    other = contract_compliance(_report(("new", "2026-10-01"), ("older", "2025-01-01")), contract, truth)
    assert other.checks["order"] == 1.0 and other.checks["most_recent"] == 0.0
    assert round(other.score or 0, 3) == 0.667


def test_a_site_named_in_the_text_must_have_been_explored() -> None:
    contract = QueryContract(named_site="repo-like")
    named = "http://127.0.0.1:9004/"
    visited = SiteSummary(name="HALo", url=named, reason="completed", pages_visited=3)
    assert contract_compliance(_report(sites=[visited]), contract, None, named_site_url=named).score == 1.0
    unopened = visited.model_copy(update={"pages_visited": 0, "reason": "unreachable"})
    elsewhere = SiteSummary(name="other", url="http://127.0.0.1:9001/", reason="completed", pages_visited=4)
    for sites in ([elsewhere], [unopened, elsewhere]):
        result = contract_compliance(_report(sites=sites), contract, None, named_site_url=named)
        assert result.checks == {"named_site": 0.0} and "was not explored" in result.violations[0]


def test_a_request_without_constraints_has_no_score() -> None:
    assert contract_compliance(_report(("a", None)), QueryContract(), None).score is None


def test_an_author_is_kept_only_when_every_item_has_one_of_that_surname() -> None:
    by = QueryContract(author="Okafor")
    report = _report(("a", "2025-01-01"), ("b", "2025-02-01"))
    signed = report.model_copy(
        update={
            "items": [
                report.items[0].model_copy(update={"authors": ["Amara Okafor", "Lukas Weber"]}),
                report.items[1].model_copy(update={"authors": ["Weber, Lukas", "Okafor, A."]}),
            ]
        }
    )
    assert contract_compliance(signed, by, None).checks == {"author": 1.0}
    unsigned = report.model_copy(update={"items": [signed.items[0], report.items[1]]})
    result = contract_compliance(unsigned, by, None)
    assert result.checks == {"author": 0.0} and "'Paper b' is not by Okafor" in result.violations
