"""The report: the pydantic model behind report.json, with items, provenance, stop reason and run statistics."""

from __future__ import annotations

from datetime import UTC, datetime

from pydantic import BaseModel, Field

from research_crawler.config.model_prices import ModelPrice
from research_crawler.context.request import ResearchRequest
from research_crawler.text.untrusted import UntrustedText

__all__ = [
    "CITATION_SOURCE",
    "COLLECTOR_SOURCE",
    "ENTRY_SOURCE",
    "FOUND_ON_SOURCE",
    "LISTING_SOURCES",
    "OWN_PAGE_SOURCE",
    "AgentStats",
    "FailedPage",
    "PendingPage",
    "Report",
    "ReportItem",
    "RunStats",
    "SiteCoverage",
    "SiteSummary",
]

#: `ReportItem.metadata_sources` of a field read from the page where the item was found (a listing), not its own page:
#: the Collector's model read it there, and the text is on that page (`tools/items.py` keeps nothing else).
FOUND_ON_SOURCE = "read by the model on the page where it was found (the text is on that page)"
#: ... of a field the Collector's model read on the item's own page (its text is there): the work's own reading,
#: which no listing's line replaces (`WebContext.add_item`).
OWN_PAGE_SOURCE = "read by the model on the item's own page (the text is on that page)"
#: ... of a field read from the citation that links to the item on the page where it was found (a list of papers
#: "Novak, S. and Haddad, J.. Title. Journal, 2024. [Abstract] [PDF]"), its own page naming none.
CITATION_SOURCE = "the citation that links to it on the page where it was found"
#: ... of a field read from the listing's entry that links to the item on the page where it was found (a search result's
#: lines under its title: "Mbeki Z, Costa S" / "bioRxiv ; 2024 Aug 4 · PPRID: …"), its own page showing none.
ENTRY_SOURCE = "the listing's entry that links to it on the page where it was found"
#: ... of a field as the Collector wrote it down.
COLLECTOR_SOURCE = "collector"
#: The sources that are not the item's own page.
LISTING_SOURCES = frozenset({FOUND_ON_SOURCE, COLLECTOR_SOURCE, CITATION_SOURCE, ENTRY_SOURCE})


class ReportItem(BaseModel):
    """One item of the report, with where it was found and how it was scored."""

    rank: int = Field(ge=1)
    title: UntrustedText
    url: str
    site: str = Field(description="The start URL of the site it was found on.")
    found_on: str = Field(description="The page whose link or content revealed it.")
    path: list[str] = Field(default_factory=list, description="Pages from the site's root to found_on.")
    description: UntrustedText = ""
    collector_score: float
    rerank_score: float | None = None
    authors: list[UntrustedText] = Field(default_factory=list)
    date: UntrustedText | None = None
    abstract: UntrustedText | None = None
    doi: UntrustedText | None = None
    pdf_url: str | None = None
    metadata_sources: dict[str, str] = Field(default_factory=dict)
    also_at: list[str] = Field(
        default_factory=list, description="Other URLs of the same work (a preprint and its published version…)."
    )


class SiteSummary(BaseModel):
    """How the exploration of one site ended."""

    name: UntrustedText
    url: str
    reason: str
    detail: UntrustedText = ""
    pages_visited: int = 0
    items_collected: int = 0


class PendingPage(BaseModel):
    """A page the Crawler found worth visiting that the budget left unvisited."""

    url: str
    score: float = Field(description="The Crawler's relevance score of the link, 0 to 10.")
    anchor_text: UntrustedText = ""


class FailedPage(BaseModel):
    """A page of the site that was chosen but could not be read (refused, failed, blocked…)."""

    url: str
    determination: str


class SiteCoverage(BaseModel):
    """What the budget covered on one site, and what it left out (a follow-up on the site starts from this map)."""

    url: str
    pages_visited: int = 0
    pages_pending: int = Field(0, description="Links queued on the site and not visited.")
    promising_pending: int = Field(0, description="Of those, the promising ones (scored at least 5 of 10).")
    best_pending: list[PendingPage] = Field(default_factory=list, description="The best pending pages, best first.")
    promising_explored_share: float | None = Field(
        None,
        description="Of the promising pages known on the site (visited, or pending with a score of at least 5), the "
        "share visited: an estimate of how much of its relevant listing pages was explored. None when none is known.",
    )
    search_form: bool = Field(False, description="The site has a search form or OpenSearch description.")
    search_tried: bool = Field(False, description="The site's search was used.")
    search_refusal: str | None = Field(
        None, description="Why the site's search may not be used (its robots.txt forbids it); None when it may be."
    )
    failed_pages: list[FailedPage] = Field(default_factory=list)


class AgentStats(BaseModel):
    model_calls: int = 0
    input_tokens: int = 0
    cached_input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    list_price_cost_usd: float = 0.0
    failures: int = 0


class RunStats(BaseModel):
    """What the run cost and did."""

    pages_fetched: int = 0
    pages_not_modified: int = Field(
        0,
        description="Of the pages fetched, those answered 304 Not Modified and read from the revisit cache "
        "(fetch.revisit_cache): nothing was downloaded for them.",
    )
    model_calls: int = 0
    input_tokens: int = 0
    cached_input_tokens: int = Field(
        0, description="Of the input tokens, those a provider's prompt cache served (reported, or estimated offline)."
    )
    output_tokens: int = 0
    cost_usd: float = Field(0.0, description="What the model calls cost at the prices of the models that answered.")
    list_price_cost_usd: float = Field(
        0.0,
        description="What the model calls cost at list prices with the configured models, cached input at its "
        "price; for a simulated run, what they would have cost had those models answered.",
    )
    list_prices: dict[str, ModelPrice] = Field(
        default_factory=dict, description="The list prices used (USD per million tokens), by configured model."
    )
    by_agent: dict[str, AgentStats] = Field(default_factory=dict)
    faults: dict[str, int] = Field(default_factory=dict, description="Model and tool faults met, by kind.")
    wall_time_s: float = 0.0


class Report(BaseModel):
    """The result of one query."""

    query: UntrustedText
    item_kind: str = "paper"
    requested_count: int | None = None
    request: ResearchRequest | None = Field(None, description="The request read as a contract.")
    request_summary: str = Field("", description="The contract in one line: '5 papers · 2025 only · newest first'.")
    compliance: list[str] = Field(
        default_factory=list, description="One line per constraint of the request: how the report meets it."
    )
    simulated_model: bool = Field(description="True when the simulated test-double model wrote this report.")
    models: dict[str, str] = Field(default_factory=dict, description="The model of each agent role.")
    sites: list[SiteSummary] = Field(default_factory=list)
    coverage: list[SiteCoverage] = Field(
        default_factory=list, description="Per site: what the budget covered and what it left out."
    )
    items: list[ReportItem] = Field(default_factory=list)
    markdown: UntrustedText = ""
    stop_reason: str = ""
    stop_detail: str = ""
    guard_notes: list[str] = Field(default_factory=list, description="Every change the citation guard made.")
    supported_share: float | None = Field(
        None, description="Share of the report's items and fields that the citation guard found supported."
    )
    stats: RunStats = Field(default_factory=RunStats)
    run_dir: str | None = None
    created_at: datetime = Field(default_factory=lambda: datetime.now(UTC))
