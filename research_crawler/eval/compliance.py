"""Request compliance: does the report do what the request asked — its years, its count, newest first, exactly
the N most recent, a site named in its text, an author — measured deterministically against the dataset's
`QueryContract`.

Each constraint the request carries is one check (1 met, 0 not); the query's score is the share met. A year
constraint is met only when every reported item has a date inside it (an undated item cannot be shown to comply);
"the N most recent" only when the report is exactly the N newest relevant items, newest first.
"""

from __future__ import annotations

from datetime import date
from itertools import pairwise

from pydantic import BaseModel, Field

from research_crawler.eval.addresses import address_key, same_site
from research_crawler.eval.bibliographic_match import authors_match
from research_crawler.eval.dataset import QueryContract
from research_crawler.eval.metrics import GroundTruth
from research_crawler.report.models import Report

__all__ = ["COMPLIANCE_CHECKS", "Compliance", "contract_compliance"]

#: The checks, by the name each has in results (``compliance_<name>``), in the order they are shown.
COMPLIANCE_CHECKS = ("dates", "count", "order", "most_recent", "named_site", "author")


class Compliance(BaseModel):
    """The checks a query's contract calls for, each met (1.0) or not (0.0), and why not."""

    checks: dict[str, float] = Field(default_factory=dict)
    violations: list[str] = Field(default_factory=list)

    @property
    def score(self) -> float | None:
        """The share of checks met; None when the request had no constraint to check."""
        return sum(self.checks.values()) / len(self.checks) if self.checks else None


def contract_compliance(
    report: Report, contract: QueryContract, truth: GroundTruth | None, *, named_site_url: str | None = None
) -> Compliance:
    """How `report` meets `contract`. `truth` (the relevant items, newest first for "the N most recent") names the
    items; `named_site_url` is where the site named in the request's text starts."""
    result = Compliance()
    items = report.items
    if contract.year_from is not None or contract.year_to is not None:
        low, high = contract.year_from or 1, contract.year_to or 9999
        outside = [item for item in items if _year(item.date) is None or not low <= (_year(item.date) or 0) <= high]
        result.checks["dates"] = 0.0 if outside else 1.0
        result.violations += [f"{item.title!r} dated {item.date or 'nowhere'}, not in {low}–{high}" for item in outside]
    if contract.count is not None:
        result.checks["count"] = 1.0 if len(items) <= contract.count else 0.0
        if len(items) > contract.count:
            result.violations.append(f"{len(items)} items reported, {contract.count} asked for")
    if contract.newest_first:
        dates = [_day(item.date) for item in items]
        ordered = all(d is not None for d in dates) and all(
            a >= b for a, b in pairwise(dates) if a is not None and b is not None
        )
        result.checks["order"] = 1.0 if ordered else 0.0
        if not ordered:
            result.violations.append("not newest first: " + ", ".join(item.date or "no date" for item in items))
    if contract.most_recent is not None and truth is not None:
        by_url = truth.url_to_item()
        reported = [by_url.get(_canonical(item.url)) or item.url for item in items]
        expected = list(truth.relevant)[: contract.most_recent]
        result.checks["most_recent"] = 1.0 if reported == expected else 0.0
        if reported != expected:
            result.violations.append(f"reported {reported}, the {contract.most_recent} most recent are {expected}")
    if contract.author is not None:
        wanted = contract.author
        others = [item for item in items if not any(authors_match(name, wanted) for name in item.authors)]
        result.checks["author"] = 0.0 if others else 1.0
        result.violations += [f"{item.title!r} is not by {contract.author}" for item in others]
    if contract.named_site is not None:
        explored = named_site_url is not None and any(
            same_site(site.url, named_site_url) and site.pages_visited > 0 for site in report.sites
        )
        result.checks["named_site"] = 1.0 if explored else 0.0
        if not explored:
            result.violations.append(f"the site named in the request ({named_site_url}) was not explored")
    return result


def _day(value: str | None) -> date | None:
    if not value:
        return None
    parts = value.split("-")
    try:
        return date(int(parts[0]), int(parts[1]) if len(parts) > 1 else 1, int(parts[2]) if len(parts) > 2 else 1)
    except (ValueError, IndexError):
        return None


def _year(value: str | None) -> int | None:
    day = _day(value)
    return day.year if day is not None else None


def _canonical(url: str) -> str:
    return address_key(url)
