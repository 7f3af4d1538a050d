"""Every batch of fresh held-out sites, in the order they were written: the one list the unfamiliar web, the
evaluation's table and the benchmarks read.

Each batch was written by an engineer who changed no crawler code and run once before anyone read its traces
(`benchmarks/records/fresh_heldout*_first_run.*`). A batch is its sites' specs, its requests' plans, the works two of
its sites share, the sites whose works have one author each, its own topics (held out with it, in a data file of
this package) and its papers per topic. A new batch is one more entry here, after the others: the earlier batches'
items and requests are drawn from their own random streams and do not move.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date

from research_crawler.eval.testbed import fresh_heldout as fresh1
from research_crawler.eval.testbed import fresh_heldout2 as fresh2
from research_crawler.eval.testbed import fresh_heldout3 as fresh3
from research_crawler.eval.testbed import fresh_heldout4 as fresh4
from research_crawler.eval.testbed import fresh_heldout5 as fresh5
from research_crawler.eval.testbed import fresh_heldout6 as fresh6
from research_crawler.eval.testbed import fresh_heldout7 as fresh7
from research_crawler.eval.testbed import fresh_heldout8 as fresh8
from research_crawler.eval.testbed import fresh_heldout9 as fresh9
from research_crawler.eval.testbed import fresh_heldout10 as fresh10
from research_crawler.eval.testbed import fresh_heldout11 as fresh11
from research_crawler.eval.testbed import fresh_heldout12 as fresh12
from research_crawler.eval.testbed import fresh_heldout13 as fresh13
from research_crawler.eval.testbed import fresh_heldout14 as fresh14
from research_crawler.eval.testbed import fresh_heldout15 as fresh15
from research_crawler.eval.testbed import fresh_heldout16 as fresh16
from research_crawler.eval.testbed import fresh_heldout17 as fresh17
from research_crawler.eval.testbed import fresh_heldout18 as fresh18
from research_crawler.eval.testbed import fresh_heldout19 as fresh19
from research_crawler.eval.testbed import fresh_heldout20 as fresh20
from research_crawler.eval.testbed import fresh_heldout21 as fresh21
from research_crawler.eval.testbed import fresh_heldout22 as fresh22
from research_crawler.eval.testbed import fresh_heldout23 as fresh23
from research_crawler.eval.testbed import fresh_heldout24 as fresh24
from research_crawler.eval.testbed.models import SiteSpec

__all__ = ["FRESH_BATCHES", "FreshBatch", "fresh_site_names"]


@dataclass(frozen=True)
class FreshBatch:
    """One batch of fresh held-out sites and what the unfamiliar web draws for it: `layout` is the first word of its
    sites' layouts, `identity` gives an item's (key, path, PDF path, DOI, arXiv-style id) in their own schemes."""

    layout: str
    identity: Callable[[str, date, int, str], tuple[str, str, str, str | None, str | None]]
    stream: str
    specs: tuple[SiteSpec, ...]
    plans: dict[str, tuple[str, ...]]
    shared: dict[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)
    solo: tuple[str, ...] = ()
    topics_file: str | None = None
    per_topic: dict[str, tuple[int, int]] = field(default_factory=dict)


def _batch(number: int, module: object, *, own_topics: bool = True) -> FreshBatch:
    """The batch a `fresh_heldout<number>` module declares (FRESH<n>_BATCH and the rest, as each module names them)."""
    prefix = f"FRESH{number}_"
    specs, plans, shared, *solo = getattr(module, prefix + "BATCH")
    return FreshBatch(
        layout=f"fresh{number}",
        identity=getattr(module, f"fresh{number}_identity"),
        stream=f"fresh-heldout{number}",
        specs=specs,
        plans=plans,
        shared=shared,
        solo=tuple(solo[0]) if solo else (),
        topics_file=getattr(module, prefix + "TOPICS_FILE") if own_topics else None,
        per_topic=getattr(module, prefix + "PER_TOPIC"),
    )


FRESH_BATCHES: tuple[FreshBatch, ...] = (
    FreshBatch(
        layout="fresh",
        identity=fresh1.fresh_identity,
        stream="fresh-heldout",
        specs=fresh1.FRESH_SITE_SPECS,
        plans=fresh1.FRESH_PLANS,
        per_topic=fresh1.FRESH_PER_TOPIC,
    ),
    _batch(2, fresh2, own_topics=False),
    _batch(3, fresh3),
    _batch(4, fresh4),
    _batch(5, fresh5),
    _batch(6, fresh6),
    _batch(7, fresh7),
    _batch(8, fresh8),
    _batch(9, fresh9),
    _batch(10, fresh10),
    _batch(11, fresh11),
    _batch(12, fresh12),
    _batch(13, fresh13),
    _batch(14, fresh14),
    _batch(15, fresh15),
    _batch(16, fresh16),
    _batch(17, fresh17),
    _batch(18, fresh18),
    _batch(19, fresh19),
    _batch(20, fresh20),
    _batch(21, fresh21),
    _batch(22, fresh22),
    _batch(23, fresh23),
    _batch(24, fresh24),
)


def fresh_site_names() -> frozenset[str]:
    """The names of every fresh batch's sites."""
    return frozenset(spec.name for batch in FRESH_BATCHES for spec in batch.specs)
