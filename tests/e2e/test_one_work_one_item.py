"""One work, one item, whole queries: on the repository-like site a record's page, its PDF and the "Cite" string on
its page are one item, and "found N of M" counts works."""

from __future__ import annotations

from research_crawler.config.settings import Settings
from research_crawler.context.urls import canonicalize_url
from research_crawler.eval.testbed import TestbedServer
from research_crawler.eval.testbed.models import Testbed
from research_crawler.run.session import ResearchSession


def test_a_records_cite_string_and_pdf_are_not_papers_of_their_own(
    settings: Settings, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    site = "repo-like"
    base = testbed_server.base_url(site).rstrip("/")
    works = {testbed_server.url_for(item): item.id for item in testbed.items_on(site)}
    works |= {canonicalize_url(base + item.pdf_path): item.id for item in testbed.items_on(site)}
    topic = testbed.topic(testbed.queries_for(site)[0].topic).name
    report = ResearchSession(settings, backend="simulated").run(
        f"the 3 most recent papers on {topic}", sites=[testbed_server.base_url(site)]
    )
    entries = [works.get(canonicalize_url(item.url)) for item in report.items]
    assert report.items and None not in entries, [item.url for item in report.items]
    assert len(set(entries)) == len(entries), "one work listed twice"
    assert all(not item.url.endswith("/document") for item in report.items)  # the record's page, not its PDF
    assert all(item.date and item.authors for item in report.items)
    found = report.compliance[0]
    assert found == f"{len(entries)} of the 3 requested" or found.startswith(f"only {len(entries)} of the 3"), found
