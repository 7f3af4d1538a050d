"""Every fresh held-out batch written to one shape (the fifth on): eleven requests with ground truth, each kind
asked, on topics no other site holds, six works on two of its sites. A batch's sites, as built, are checked in its
own test file (`test_fresh_heldout<N>.py`)."""

from __future__ import annotations

import pytest
from site_visitor import check_batch

from research_crawler.eval.testbed import Testbed
from research_crawler.eval.testbed.fresh_batches import FRESH_BATCHES, FreshBatch

#: The batches of one shape: the fifth and every later one.
SHAPED = list(FRESH_BATCHES[4:])


def test_the_batches_of_one_shape_are_every_batch_since_the_fifth() -> None:
    assert [batch.stream for batch in SHAPED[:2]] == ["fresh-heldout5", "fresh-heldout6"]


@pytest.mark.parametrize("batch", SHAPED, ids=lambda batch: batch.stream)
def test_eleven_requests_with_ground_truth_on_topics_no_other_site_holds(web: Testbed, batch: FreshBatch) -> None:
    assert sum(len(plan) for plan in batch.plans.values()) == 11
    check_batch(web, batch)


def test_a_batch_whose_works_on_two_sites_are_named_on_the_wrong_sites_fails_the_check(web: Testbed) -> None:
    batch = SHAPED[-1]
    first, second = (spec.name for spec in batch.specs[:2])
    named = next(iter(batch.shared))
    wrong = (first, second) if set(named) != {first, second} else (first, batch.specs[2].name)
    with pytest.raises(AssertionError):
        check_batch(web, FreshBatch(**{**batch.__dict__, "shared": {wrong: batch.shared[named]}}))
