"""Two disjoint splits of the requests the project measures itself on: **calibration** (what the simulated model's
thresholds were fitted on) and **evaluation** (what every benchmark and evaluation table reports on).

The testbed is split by topic, not by query: its queries on one topic share their words and their items, so a query
split would leak. The calibration topics are listed here; every other topic, including any topic added later, is
evaluation. The real saved pages are split by page: the astrophysics listing calibrates, arXiv's search results
(other fields) evaluate, each with requests by arXiv subject category, whose labels are the ground truth.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal, Protocol, TypeVar

from research_crawler.errors import ConfigError
from research_crawler.eval.testbed.models import Query, QueryKind, Testbed

__all__ = [
    "CALIBRATION_REAL_PAGES",
    "CALIBRATION_TOPICS",
    "EVALUATION_REAL_PAGES",
    "REAL_CALIBRATION_REQUESTS",
    "REAL_EVALUATION_REQUESTS",
    "Split",
    "benchmark_queries",
    "calibration_queries",
    "evaluation_queries",
    "evaluation_query",
    "split_of_text",
    "split_of_topic",
]

Split = Literal["calibration", "evaluation"]

#: Testbed topic slugs whose queries and items calibrate the double (single-cell RNA sequencing, quantum error
#: correction, antibiotic resistance): three of ten, chosen so that every testbed site keeps four or more
#: evaluation topics.
CALIBRATION_TOPICS: frozenset[str] = frozenset({"scrna", "qec", "amr"})
#: The testbed names of those topics, as a request words them (a request naming one is a calibration request).
_CALIBRATION_TOPIC_NAMES = ("single-cell RNA sequencing", "quantum error correction", "antibiotic resistance")

#: Saved real pages (shared/realweb/pages) whose titles calibrate, and those whose titles evaluate.
CALIBRATION_REAL_PAGES: tuple[str, ...] = ("arxiv__listing__1.html",)
EVALUATION_REAL_PAGES: tuple[str, ...] = ("arxiv__search__1.html",)
#: (request, arXiv subject categories that make a listed paper relevant) on the calibration page (astrophysics).
REAL_CALIBRATION_REQUESTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Find papers on galaxy formation and evolution", ("astro-ph.GA",)),
    ("Find papers on high-energy astrophysics: neutron stars, black holes, gamma-ray bursts", ("astro-ph.HE",)),
    ("Find papers on stars and the Sun", ("astro-ph.SR",)),
    ("Find papers on cosmology and the large-scale structure of the universe", ("astro-ph.CO",)),
    ("Find papers on exoplanets and planetary science", ("astro-ph.EP",)),
    ("Find papers on telescopes, instruments and methods for astronomy", ("astro-ph.IM",)),
    ("Find papers on general relativity and gravitational waves", ("gr-qc",)),
    ("Find papers on particle physics phenomenology", ("hep-ph",)),
)
#: The same on the evaluation page (arXiv search results across fields); no category is shared with calibration.
REAL_EVALUATION_REQUESTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Find papers on machine learning", ("cs.LG", "stat.ML")),
    ("Find papers on robotics", ("cs.RO",)),
    ("Find papers on quantum computing and quantum information", ("quant-ph",)),
    ("Find papers on computer vision", ("cs.CV",)),
    ("Find papers on distributed and parallel computing", ("cs.DC",)),
    ("Find papers on multi-agent systems", ("cs.MA",)),
    ("Find papers on natural language processing", ("cs.CL",)),
    ("Find papers on computer security and cryptography", ("cs.CR",)),
    ("Find papers on signal processing", ("eess.SP",)),
    ("Find papers on control systems", ("eess.SY",)),
)


class _TopicQuery(Protocol):
    @property
    def topic(self) -> str: ...


Q = TypeVar("Q", bound=_TopicQuery)


def split_of_topic(slug: str) -> Split:
    """The split of a testbed topic (any topic not listed for calibration is evaluation)."""
    return "calibration" if slug in CALIBRATION_TOPICS else "evaluation"


def split_of_text(request: str) -> Split:
    """The split of a request by its words: calibration when it names a calibration topic (for dataset queries,
    which carry text and no topic slug)."""
    lowered = request.lower()
    return "calibration" if any(name.lower() in lowered for name in _CALIBRATION_TOPIC_NAMES) else "evaluation"


def evaluation_queries(queries: Iterable[Q]) -> list[Q]:
    """The testbed queries of the evaluation split, in their order."""
    return [query for query in queries if split_of_topic(query.topic) == "evaluation"]


def calibration_queries(queries: Iterable[Q]) -> list[Q]:
    """The testbed queries of the calibration split, in their order."""
    return [query for query in queries if split_of_topic(query.topic) == "calibration"]


def benchmark_queries(
    testbed: Testbed, *, per_site: int, kind: QueryKind | None = None, sites: Sequence[str] | None = None
) -> list[Query]:
    """What a benchmark runs: the first `per_site` evaluation queries (of `kind`) of each of `sites` (default: every
    testbed site), in the testbed's order."""
    chosen = []
    for site in sites if sites is not None else testbed.site_names():
        chosen += evaluation_queries(testbed.queries_for(site, kind=kind))[:per_site]
    return chosen


def evaluation_query(testbed: Testbed, query_id: str) -> Query:
    """The testbed query `query_id`, refused when it belongs to the calibration split.

    Raises:
        ConfigError: the query is unknown, or is a calibration query (nothing may report on those).
    """
    query = testbed.query(query_id)
    if split_of_topic(query.topic) != "evaluation":
        raise ConfigError(f"testbed query {query_id} is in the calibration split; report only on evaluation queries")
    return query
