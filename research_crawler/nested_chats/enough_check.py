"""Before a site's items are taken to be enough, each is checked on its own page, as a careful person does before
stopping: "3 papers found" is believed only of items that are papers.

An item the Collector stored from a listing may, on its own page, turn out to be a dataset, a press clipping, a
listing of other works or of another year than asked: the report leaves it out (`report_items.with_metadata`), so
it must not count toward the request while the site is still being explored. Once the current site's counted
items reach the number the report lists, those not checked yet are read the way the report reads them (the run's
archive first: the report reads the same pages); the ones it would leave out stop counting, with the reason kept
(`SiteFindings.not_counted`), and the Planner, told the lower count, reads on within the site's budget.
"""

from __future__ import annotations

from datetime import date

from research_crawler.context.request import ResearchRequest
from research_crawler.nested_chats.report_items import collected_report_items, read_or_keep
from research_crawler.tools.exploration import Exploration

__all__ = ["check_before_enough"]


def check_before_enough(x: Exploration, *, today: date | None = None) -> int:
    """When the current site's counted items reach `x.items_wanted`, read each of them not checked yet on its own
    page; those the report would leave out (not an item of the kind asked, or dated outside the request's dates)
    stop counting. How many stopped counting now."""
    site = x.search.current_site
    if site is None or x.items_counted() < x.items_wanted:
        return 0
    findings = x.findings
    with x.lock:
        unchecked = [
            item for item in collected_report_items(x) if item.site == site.url and item.url not in findings.checked
        ]
        findings.checked.update(item.url for item in unchecked)
    request = x.search.request
    today, recent_days = today or date.today(), x.settings.report.recent_days
    dropped = 0
    for item in unchecked:
        read = read_or_keep(x, item)
        if read is None:
            why = "its own page shows it is not one of the items asked for"
        elif request is not None and request.has_dates() and _outside(request, read.date, today, recent_days):
            why = f"its own page dates it {read.date}, outside the dates asked for"
        else:
            why = ""
        if why:
            with x.lock:
                findings.not_counted[item.url] = why
            x.trace.emit("item_not_counted", site=site.url, url=item.url, reason=why)
            dropped += 1
    return dropped


def _outside(request: ResearchRequest, day: str | None, today: date, recent_days: int) -> bool:
    return request.date_fit(day, today=today, recent_days=recent_days) == "outside"
