"""The simulated section of `Settings`: the deterministic test double that plays every agent.

How it judges relevance (by meaning or by shared words), its added latency, the faults it may inject
(`FaultKind`) and their seed, and when it stops browsing a site.
"""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import Field

from research_crawler.config.settings_section import SettingsSection

__all__ = ["FaultKind", "SimulatedModelSettings"]

FaultKind = Literal["malformed_json", "unknown_tool", "bad_link", "empty_reply", "api_error"]


def _all_fault_kinds() -> list[FaultKind]:
    return list(get_args(FaultKind))


class SimulatedModelSettings(SettingsSection):
    """The simulated model, a deterministic test double that plays every agent (tests, benchmarks, demo)."""

    latency_s: float = Field(0.0, ge=0, description="Seconds added to every simulated model call.")
    fault_rate: float = Field(0.0, ge=0, le=1, description="Share of calls answered with an injected fault.")
    fault_kinds: list[FaultKind] = Field(
        default_factory=_all_fault_kinds,
        description="Which faults may be injected.",
    )
    seed: int = Field(0, description="Seed of the fault injection (same seed, same faults).")
    enough_items: int = Field(5, ge=1, description="Items per site at which it stops browsing when no count is asked.")
    judge: Literal["meaning", "words"] = Field(
        "meaning",
        description="How it judges the relevance of links, items and sites to the request. meaning: cosine "
        "similarity of all-mpnet-base-v2 embeddings (its own model, which the product never loads; installed by the "
        "set-up from requirements/simulated-judge.txt), as a model reads a title that says the same in other words. "
        "words: the content words they share (no model to load; fast unit tests).",
    )
    revision_rate: float = Field(
        0.5,
        ge=0,
        le=1,
        description="Share of draft reports for which the Critique asks a concrete revision (seeded by the draft and "
        "`seed`), so that the Presenter's revision runs as it does with a real model; 0: it never asks.",
    )
    behaviour: Literal["careful", "unruly"] = Field(
        "careful",
        description="careful: one well-formed tool call per turn, pages never obeyed. unruly: what real models "
        "do — parallel calls, unknown tools, malformed or invalid arguments, bad link numbers, text instead of "
        "a call, padded reports, and orders found on pages obeyed (llm/simulated_unruly.py). Seeded.",
    )
    unruly_rate: float = Field(
        0.3, ge=0, le=1, description="With behaviour=unruly: share of replies that misbehave in one way."
    )
    obey_rate: float = Field(
        1.0,
        ge=0,
        le=1,
        description="With behaviour=unruly: chance that an order found in page text is obeyed (once per turn).",
    )
