"""Catalogue cases of answers that agree with themselves: one work is one item, whichever of its copies is met first
(its page, its PDF, a "Cite" string on its page, its preprint or journal version on another site), and a DOI names
a work only where the page's title agrees."""

from __future__ import annotations

import itertools
import tempfile
from pathlib import Path

from research_crawler.eval.addresses import address_key
from research_crawler.eval.reliability.catalogue import Outcome, case
from research_crawler.eval.reliability.run_cases import testbed_settings, testbed_web
from research_crawler.pages.metadata import read_item_metadata
from research_crawler.report.identity import merge_same_works
from research_crawler.report.models import ReportItem
from research_crawler.run.session import ResearchSession

__all__: list[str] = []

_GROUP = "answers that agree with themselves"
_FAKE_DOI = "10.5555/one-doi-three-papers"
_TITLES = (
    "Sulfide Glass Ceramics with Fast Lithium Conduction",
    "Coral Bleaching Forecasts from Sea Surface Temperature",
    "Erasure Conversion in Neutral Atom Arrays",
)


@case(_GROUP, "one work once: its page, its PDF and the 'Cite' string on its page are one item in 'found N of M'")
def _cite_string_is_its_work() -> Outcome:
    with testbed_web() as server, tempfile.TemporaryDirectory(prefix="one-work-") as scratch:
        settings = testbed_settings(server, Path(scratch) / "runs")
        site = "repo-like"
        base = server.base_url(site).rstrip("/")
        works = {server.url_for(item): item.id for item in server.testbed.items_on(site)}
        works |= {address_key(base + item.pdf_path): item.id for item in server.testbed.items_on(site)}
        topic = server.testbed.topic(server.testbed.queries_for(site)[0].topic).name
        report = ResearchSession(settings, backend="simulated").run(
            f"the 3 most recent papers on {topic}", sites=[server.base_url(site)]
        )
    entries = [works.get(address_key(item.url), item.url) for item in report.items]
    twice = sorted({work for work in entries if entries.count(work) > 1})
    found = next((line for line in report.compliance if "requested" in line), "")
    counted = found.startswith(f"{len(report.items)} of") or f"only {len(report.items)} of" in found
    pdf_only = [item.url for item in report.items if item.url.endswith("/document")]
    return Outcome(
        held=bool(report.items) and not twice and not pdf_only and counted,
        detail=f"{len(report.items)} item(s), {len(set(entries))} work(s); '{found}'; "
        f"works listed twice: {twice or 'none'}; PDFs listed as papers: {pdf_only or 'none'}",
    )


def _page(title: str, doi: str, *, authors: str) -> str:
    return (
        f'<html><head><meta name="citation_title" content="{title}"><meta name="citation_doi" content="{doi}">'
        f'<meta name="citation_author" content="{authors}"></head><body><h1>{title}</h1></body></html>'
    )


def _read(n: int, html: str, url: str) -> ReportItem:
    meta = read_item_metadata(html, url=url)
    return ReportItem(
        rank=n,
        title=meta.title or url,
        url=url,
        site=url,
        found_on=url,
        collector_score=8,
        authors=list(meta.authors),
        doi=meta.doi,
        metadata_sources=dict(meta.sources),
    )


@case(_GROUP, "one DOI on three pages of three papers: three items; two copies of one work: one, in every order")
def _doi_names_a_work_only_with_its_title() -> Outcome:
    fakes = [
        _read(n, _page(title, _FAKE_DOI, authors=f"Author {n}"), f"http://127.0.0.1:9/p/{n}")
        for n, title in enumerate(_TITLES, 1)
    ]
    kept_apart = all(len(merge_same_works(list(order))) == 3 for order in itertools.permutations(fakes))
    preprint = _read(1, _page(_TITLES[0], "10.5555/pre.1", authors="Ana Lee"), "http://127.0.0.1:9/abs/2401.01234")
    journal = _read(2, _page(_TITLES[0], "10.5555/jrnl.7", authors="Lee, Ana"), "http://127.0.0.2:9/10.5555/jrnl.7")
    merged = {
        (m.url, tuple(m.authors), tuple(m.also_at))
        for order in itertools.permutations([preprint, journal])
        for m in merge_same_works(list(order))
    }
    return Outcome(
        held=kept_apart and len(merged) == 1,
        detail=f"three papers with one DOI kept apart in all 6 orders: {kept_apart}; "
        f"a preprint and its journal version in both orders: {sorted(merged)}",
    )
