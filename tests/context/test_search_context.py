"""The Search Context S = ⟨Q, P, α, β, γ⟩: the order of P, the moves of α and β, and γ."""

from __future__ import annotations

import math
from typing import get_args

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from research_crawler.config.settings import RenderMode
from research_crawler.context.search_context import (
    Completion,
    FinishedSite,
    SearchContext,
    SiteRef,
    StopReason,
)
from research_crawler.errors import StateError, ToolInputError


def site(name: str) -> SiteRef:
    return SiteRef(name=name, url=f"https://{name.lower()}.org")


ARXIV, BIORXIV, MEDRXIV = site("arXiv"), site("bioRxiv"), site("medRxiv")


def test_query_is_stripped_and_must_not_be_empty() -> None:
    assert SearchContext(query="  diffusion models \n").Q == "diffusion models"
    for empty in ["", "   \n\t"]:
        with pytest.raises(ValueError, match="must not be empty"):
            SearchContext(query=empty)


def test_site_ref_canonicalises_its_url_and_needs_a_name() -> None:
    ref = SiteRef(name=" arXiv ", url="HTTPS://arXiv.org:443/?utm_source=x")
    assert (ref.name, ref.url, ref.render) == ("arXiv", "https://arxiv.org/", None)  # None: the fetch settings decide
    with pytest.raises(ValidationError):
        SiteRef(name="  ", url="https://x.org")
    with pytest.raises(ValidationError):
        SiteRef(name="x", url="ftp://x.org")
    with pytest.raises(ValidationError):
        SiteRef(name="x", url="https://x.org", render="curl")  # type: ignore[arg-type]


def test_p_pops_by_priority_then_insertion_order() -> None:
    s = SearchContext(query="q")
    assert s.add_site(ARXIV, priority=1)
    assert s.add_site(BIORXIV, priority=5)
    assert s.add_site(MEDRXIV, priority=1)
    assert s.add_site(site("ChemRxiv"))
    assert s.pending_sites[0].site == BIORXIV
    assert s.P == [BIORXIV, ARXIV, MEDRXIV, site("ChemRxiv")]  # noqa: SIM300 - P is the paper's symbol
    assert [s.next_site() for _ in range(4)] == [BIORXIV, ARXIV, MEDRXIV, site("ChemRxiv")]
    assert s.next_site() is None
    assert not s.has_pending_sites


@given(st.lists(st.sampled_from([0.0, 1.0, 2.5, -3.0, 9.0]), max_size=12))
def test_p_order_property(priorities: list[float]) -> None:
    s = SearchContext(query="q")
    sites = [SiteRef(name=f"s{i}", url=f"https://s{i}.org") for i in range(len(priorities))]
    for ref, priority in zip(sites, priorities, strict=True):
        s.add_site(ref, priority=priority)
    keys = [(-priority, seq) for seq, priority in enumerate(priorities)]
    expected = [ref for _, ref in sorted(zip(keys, sites, strict=True))]
    assert [entry.site for entry in s.pending_sites] == expected
    popped = []
    while (current := s.next_site()) is not None:
        popped.append(current)
    assert popped == expected
    assert [record.site for record in s.finished_sites] == expected
    assert SearchContext.model_validate_json(s.model_dump_json()) == s


def test_add_site_refuses_duplicates_wherever_they_are() -> None:
    s = SearchContext(query="q")
    assert s.add_site(ARXIV)
    assert not s.add_site(SiteRef(name="arXiv again", url="https://ARXIV.org/#x"), priority=99)
    s.next_site()
    assert not s.add_site(ARXIV), "not while it is the current site"
    s.add_site(BIORXIV)
    s.next_site()
    assert not s.add_site(ARXIV), "not once it is finished"
    assert s.P == []


@pytest.mark.parametrize("priority", [math.nan, math.inf, "high", True])
def test_add_site_rejects_bad_priorities(priority: object) -> None:
    s = SearchContext(query="q")
    with pytest.raises(ToolInputError):
        s.add_site(ARXIV, priority=priority)  # type: ignore[arg-type]
    assert s.P == []


def test_alpha_and_beta_move_and_finished_sites_keep_the_first_reason() -> None:
    s = SearchContext(query="q")
    for ref in (ARXIV, BIORXIV, MEDRXIV):
        s.add_site(ref)
    assert (s.alpha, s.beta) == (None, None)
    assert s.next_site() == ARXIV
    assert (s.alpha, s.beta) == (ARXIV, None)
    s.finish_current_site(StopReason.LIMIT_REACHED, "5 subpages")
    s.finish_current_site(StopReason.STUCK)  # the first reason stands
    assert s.alpha == ARXIV, "α stays current until next_site"
    assert s.next_site() == BIORXIV
    assert (s.alpha, s.beta) == (BIORXIV, ARXIV)
    assert s.next_site() == MEDRXIV  # bioRxiv left without an explicit reason
    assert s.next_site() is None
    assert (s.alpha, s.beta) == (None, MEDRXIV)
    assert s.next_site() is None
    assert s.beta == MEDRXIV, "β keeps the last site explored"
    assert s.finished_sites == [
        FinishedSite(site=ARXIV, reason=StopReason.LIMIT_REACHED, detail="5 subpages"),
        FinishedSite(site=BIORXIV, reason=StopReason.COMPLETED, detail="moved on to the next site"),
        FinishedSite(site=MEDRXIV, reason=StopReason.COMPLETED, detail="moved on to the next site"),
    ]
    assert s.finish_reason("https://arxiv.org") is StopReason.LIMIT_REACHED
    assert s.finish_reason("https://unknown.org") is None


def test_finish_current_site_needs_a_current_site() -> None:
    with pytest.raises(StateError, match="no current site"):
        SearchContext(query="q").finish_current_site(StopReason.STUCK)


def test_gamma_is_set_once_and_stops_further_sites() -> None:
    s = SearchContext(query="q")
    s.add_site(ARXIV)
    s.add_site(BIORXIV)
    assert not s.gamma and not s.is_complete
    s.next_site()
    s.complete(StopReason.INTERRUPTED, "Ctrl-C")
    s.complete(StopReason.ERROR, "later")  # ignored: the first reason wins
    assert s.gamma == Completion(done=True, reason=StopReason.INTERRUPTED, detail="Ctrl-C")
    assert bool(s.gamma) and s.is_complete
    assert s.finish_reason(ARXIV.url) is StopReason.INTERRUPTED, "the current site ends with the search"
    with pytest.raises(StateError, match="complete"):
        s.next_site()
    assert s.alpha == ARXIV and s.P == [BIORXIV]


def test_completion_must_have_a_reason_exactly_when_done() -> None:
    with pytest.raises(ValidationError):
        Completion(done=True)
    with pytest.raises(ValidationError):
        Completion(done=False, reason=StopReason.STUCK)


def test_json_round_trip_is_exact_and_keeps_working() -> None:
    s = SearchContext(query="protein design")
    s.add_site(ARXIV, priority=2)
    s.add_site(BIORXIV, priority=3)
    s.add_site(MEDRXIV, priority=2)
    s.next_site()
    s.finish_current_site(StopReason.STUCK, "same URL twice")
    loaded = SearchContext.model_validate_json(s.model_dump_json())
    assert loaded == s
    assert loaded.next_site() == ARXIV and loaded.beta == BIORXIV
    assert loaded.add_site(site("New"), priority=2)
    queue = [entry.site for entry in loaded.pending_sites]
    assert queue == [MEDRXIV, site("New")], "sequence numbers continue after a reload"


def test_loading_an_inconsistent_search_context_fails() -> None:
    s = SearchContext(query="q")
    s.add_site(ARXIV)
    s.next_site()
    document = s.model_dump(mode="json")
    document["pending_sites"] = [{"site": ARXIV.model_dump(), "priority": 0.0, "seq": 0}]
    with pytest.raises(ValidationError, match="current site is still pending"):
        SearchContext.model_validate(document)
    s.check_invariants()


def test_a_site_is_fetched_with_exactly_the_render_modes_the_settings_know() -> None:
    """SiteRef spells the modes out (the context layer does not import the settings); they must not drift."""
    field = SiteRef.model_fields["render"].annotation
    (literal,) = [arg for arg in get_args(field) if arg is not type(None)]
    assert get_args(literal) == get_args(RenderMode)
