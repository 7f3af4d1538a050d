"""The Web Context W = ⟨C, CP, DP, DU, VU⟩: queue order, visit-once, no duplicate items, invariants."""

from __future__ import annotations

import json
import math

import pytest
from pydantic import ValidationError

from research_crawler.context.web_context import (
    EMPTY_PAGES_FREE,
    CollectedItem,
    ItemUpdate,
    PendingURL,
    WebContext,
)
from research_crawler.errors import InvalidURLError, StateError, ToolInputError

SITE = "https://ex.org/"


def take_best(w: WebContext) -> PendingURL | None:
    """The Planner's usual choice: the best pending URL (C's order), taken; None when C is empty."""
    top = w.top_urls(1)
    return w.take(top[0].url) if top else None


def fresh() -> WebContext:
    return WebContext.for_site("HTTPS://EX.org:443/?utm_source=newsletter#top", name=" Example ")


def test_for_site_canonicalises_and_queues_the_start_url_with_the_top_score() -> None:
    w = fresh()
    assert w.site_url == SITE
    assert w.name == "Example"
    start = PendingURL(url=SITE, score=10.0, anchor_text="Example", found_on=None, seq=0)
    assert w.top_urls(5) == [start]
    assert w.C == [start]  # noqa: SIM300 - C, DU, VU are the paper's symbols
    assert w.discovered_urls == {SITE} and w.DU == frozenset({SITE})  # noqa: SIM300
    assert w.visited_urls == set() and w.VU == frozenset()  # noqa: SIM300
    assert (w.pending_count, w.visited_count, w.item_count) == (1, 0, 0)


def test_add_url_queues_only_urls_never_discovered_and_keeps_the_first_sighting() -> None:
    w = fresh()
    assert w.add_url("https://ex.org/a?b=2&a=1", 4, anchor_text="  Alpha ", found_on="https://EX.org/")
    assert not w.add_url("https://ex.org/a?a=1&b=2#x", 9, anchor_text="again")
    (entry,) = [p for p in w.C if p.url == "https://ex.org/a?a=1&b=2"]
    assert (entry.score, entry.anchor_text, entry.found_on, entry.seq) == (4.0, "Alpha", SITE, 1)
    w.take(SITE)  # the start URL
    assert not w.add_url(SITE, 10), "a visited URL never re-enters C"


def test_raise_pending_lifts_a_waiting_url_judged_higher_and_nothing_else() -> None:
    w = fresh()
    w.take(SITE)
    w.add_url("https://ex.org/papers/2024", 0.0, anchor_text="Papers from 2024", found_on=SITE)  # a menu's place
    w.add_url("https://ex.org/guide", 1.0, anchor_text="Your first week", found_on=SITE)
    assert [p.url for p in w.top_urls(2)] == ["https://ex.org/guide", "https://ex.org/papers/2024"]
    assert not w.raise_pending("https://ex.org/papers/2024", 0.0, anchor_text="2024", found_on=SITE)
    assert w.raise_pending("https://ex.org/papers/2024", 3.0, anchor_text="2024 (6)", found_on="https://ex.org/papers")
    (entry,) = [p for p in w.C if p.url == "https://ex.org/papers/2024"]
    assert (entry.score, entry.anchor_text, entry.found_on) == (3.0, "2024 (6)", "https://ex.org/papers")
    assert [p.url for p in w.top_urls(1)] == ["https://ex.org/papers/2024"]
    assert not w.raise_pending("https://ex.org/papers/2024", 2.0, anchor_text="lower", found_on=SITE)
    assert not w.raise_pending(SITE, 10.0, anchor_text="visited", found_on=SITE), "a visited URL stays visited"
    assert not w.raise_pending("https://ex.org/never-seen", 9.0, anchor_text="new", found_on=SITE)
    assert not w.raise_pending("https://ex.org/guide", 2.0, anchor_text="again", found_on=SITE, margin=1.0)
    assert w.raise_pending("https://ex.org/guide", 2.5, anchor_text="again", found_on=SITE, margin=1.0)
    assert not w.is_discovered("https://ex.org/never-seen")
    assert w.invariant_violations() == []


@pytest.mark.parametrize("score", [math.nan, math.inf, -0.1, 10.01, "7", True, None])
def test_add_url_rejects_bad_scores_and_changes_nothing(score: object) -> None:
    w = fresh()
    before = w.model_copy(deep=True)
    with pytest.raises(ToolInputError, match="0 to 10"):
        w.add_url("https://ex.org/a", score)  # type: ignore[arg-type]
    assert w == before


@pytest.mark.parametrize("url", ["javascript:alert(1)", "ftp://ex.org/x", "", "/relative"])
def test_add_url_rejects_non_http_urls_and_changes_nothing(url: str) -> None:
    w = fresh()
    before = w.model_copy(deep=True)
    with pytest.raises(InvalidURLError):
        w.add_url(url, 5)
    assert w == before


def test_scores_at_the_bounds_are_accepted() -> None:
    w = fresh()
    assert w.add_url("https://ex.org/zero", 0)
    assert w.add_url("https://ex.org/ten", 10.0)


def test_pop_order_is_score_then_insertion_and_top_urls_does_not_remove() -> None:
    w = fresh()
    take_best(w)
    for path, score in [("a", 5), ("b", 7), ("c", 5), ("d", 7), ("e", 1)]:
        w.add_url(f"https://ex.org/{path}", score)
    expected = [f"https://ex.org/{p}" for p in "bdace"]
    assert [p.url for p in w.top_urls(3)] == expected[:3]
    assert [p.url for p in w.top_urls(100)] == expected
    assert w.top_urls(0) == []
    assert w.pending_count == 5
    assert [p.url for p in w.C] == expected
    assert [take_best(w).url for _ in range(5)] == expected
    assert take_best(w) is None
    with pytest.raises(ToolInputError):
        w.top_urls(-1)


def test_backtracking_returns_the_best_url_found_earlier_after_a_dead_end() -> None:
    w = fresh()
    root = take_best(w)
    assert root is not None and root.url == SITE
    w.add_url("https://ex.org/promising", 9, found_on=SITE)
    w.add_url("https://ex.org/second-best", 7, found_on=SITE)
    w.add_url("https://ex.org/weak", 2, found_on=SITE)
    dead_end = take_best(w)
    assert dead_end is not None and dead_end.url == "https://ex.org/promising"
    # The dead end holds only a weak link and no items.
    w.add_url("https://ex.org/promising/more", 3, found_on=dead_end.url)
    back = take_best(w)
    assert back is not None
    assert back.url == "https://ex.org/second-best"
    assert back.found_on == SITE


def test_take_removes_the_chosen_url_and_explains_why_others_cannot_be_taken() -> None:
    w = fresh()
    w.add_url("https://ex.org/a", 3)
    w.add_url("https://ex.org/b", 9)
    taken = w.take("https://EX.org/a#frag")
    assert taken.url == "https://ex.org/a"
    assert w.is_visited("https://ex.org/a") and not w.is_pending("https://ex.org/a")
    with pytest.raises(StateError, match="already visited"):
        w.take("https://ex.org/a")
    with pytest.raises(StateError, match="never discovered"):
        w.take("https://ex.org/unknown")
    assert not w.is_discovered("https://ex.org/unknown")
    with pytest.raises(InvalidURLError):
        w.take("mailto:x@ex.org")


def test_mark_visited_records_a_direct_visit_once() -> None:
    w = fresh()
    w.add_url("https://ex.org/search?q=x", 6)
    w.mark_visited("https://ex.org/search?q=x&utm_medium=email")
    assert not w.is_pending("https://ex.org/search?q=x")
    assert w.is_visited("https://ex.org/search?q=x")
    w.mark_visited("https://ex.org/search?q=y")
    assert w.is_discovered("https://ex.org/search?q=y") and w.is_visited("https://ex.org/search?q=y")
    with pytest.raises(StateError, match="already visited"):
        w.mark_visited("https://ex.org/search?q=y")
    w.check_invariants()


def test_membership_tests_on_garbage_are_false_not_errors() -> None:
    w = fresh()
    assert not w.is_pending("not a url")
    assert not w.is_visited("javascript:void(0)")
    assert not w.is_discovered("")


def test_add_item_adds_updates_and_never_duplicates() -> None:
    w = fresh()
    page = "https://ex.org/list"
    outcome = w.add_item("https://ex.org/p/1?utm_source=x", title=" Paper ", score=6, found_on=page)
    assert outcome is ItemUpdate.ADDED
    first = w.CP["https://ex.org/p/1"]
    assert (first.title, first.description, first.site, first.seq) == ("Paper", "", SITE, 0)
    assert first.found_on == page
    # lower score, nothing new: unchanged
    assert w.add_item("https://ex.org/p/1", title="Other", score=3, found_on=SITE) is ItemUpdate.UNCHANGED
    # higher score: updated, provenance kept
    assert w.add_item("https://ex.org/p/1", title="Other", score=8, found_on=SITE) is ItemUpdate.UPDATED
    # longer description: updated
    assert (
        w.add_item("https://ex.org/p/1#abs", title="", description="An abstract.", score=1, found_on=SITE)
        is ItemUpdate.UPDATED
    )
    # a shorter description changes nothing
    assert w.add_item("https://ex.org/p/1", title="", description="Short", score=1, found_on=SITE) is (
        ItemUpdate.UNCHANGED
    )
    item = w.CP["https://ex.org/p/1"]
    assert (item.title, item.description, item.score, item.found_on, item.seq) == (
        "Paper",
        "An abstract.",
        8.0,
        page,
        0,
    )
    assert w.item_count == 1 and w.discovered_items == {"https://ex.org/p/1"}


def test_add_item_fills_a_missing_title() -> None:
    w = fresh()
    assert w.add_item("https://ex.org/p/2", title="", score=5, found_on=SITE) is ItemUpdate.ADDED
    assert w.add_item("https://ex.org/p/2", title="Found it", score=5, found_on=SITE) is ItemUpdate.UPDATED
    assert w.CP["https://ex.org/p/2"].title == "Found it"
    again = w.add_item("https://ex.org/p/2", title="Another title", score=5, found_on=SITE)
    assert again is ItemUpdate.UNCHANGED


def test_the_items_own_page_decides_its_date_and_authors_over_a_listing_in_either_order() -> None:
    """A listing's line may show the issue's or the posting's year and a byline cut short; what the model reads on
    the work's own page stands, whether that page was read before or after the listing."""
    listing, work = "https://ex.org/list", "https://ex.org/p/7"
    w = fresh()
    w.add_item(work, title="Paper", score=6, found_on=listing, date="2025-11-30", authors=["Lima, Ana"])
    assert w.add_item(
        work, title="Paper", score=6, found_on=work, date="2024", authors=["Souza, Bruno", "Lima, Ana"]
    ) is (ItemUpdate.UPDATED)
    item = w.CP[work]
    assert (item.date, item.authors, item.read_on_own_page) == ("2024", ("Souza, Bruno", "Lima, Ana"), True)
    # a listing read later, with a longer date and another byline, changes neither
    w.add_item(work, title="Paper", score=6, found_on="https://ex.org/list?page=2", date="2025-11-30", authors=["X"])
    assert (w.CP[work].date, w.CP[work].authors) == ("2024", ("Souza, Bruno", "Lima, Ana"))
    # read on its own page first: the listing met afterwards changes nothing either
    other = fresh()
    other.add_item(work, title="Paper", score=6, found_on=work, date="2024-03", authors=["Souza, Bruno"])
    other.add_item(work, title="Paper", score=6, found_on=listing, date="2025-11-30", authors=["Z", "Y"])
    assert (other.CP[work].date, other.CP[work].authors) == ("2024-03", ("Souza, Bruno",))


def test_a_second_listings_authors_replace_those_stored_only_when_the_caller_says_they_are_the_fuller_byline() -> None:
    """Which of two readings of a byline is the fuller is the caller's judgement (it reads names, with
    `pages.person_names`); the context stores what it is told."""
    w = fresh()
    w.add_item("https://ex.org/p/8", title="Paper", score=6, found_on="https://ex.org/a", authors=["Ana Lima"])
    w.add_item(
        "https://ex.org/p/8",
        title="Paper",
        score=6,
        found_on="https://ex.org/b",
        authors=["Lima, Ana", "Bo Wu"],
        fuller_byline=True,
    )
    assert w.CP["https://ex.org/p/8"].authors == ("Lima, Ana", "Bo Wu")
    # not said to be fuller: the first reading stands
    w.add_item(
        "https://ex.org/p/8", title="Paper", score=6, found_on="https://ex.org/c", authors=["Bo Wu", "C D", "E F"]
    )
    assert w.CP["https://ex.org/p/8"].authors == ("Lima, Ana", "Bo Wu")
    assert not w.CP["https://ex.org/p/8"].read_on_own_page


def test_add_item_validates_its_input() -> None:
    w = fresh()
    with pytest.raises(ToolInputError):
        w.add_item("https://ex.org/p", title="t", score=math.nan, found_on=SITE)
    with pytest.raises(ToolInputError):
        w.add_item("https://ex.org/p", title=None, score=5, found_on=SITE)  # type: ignore[arg-type]
    with pytest.raises(InvalidURLError):
        w.add_item("https://ex.org/p", title="t", score=5, found_on="about:blank")
    assert w.item_count == 0 and not w.discovered_items


def test_items_are_ranked_by_score_then_collection_order() -> None:
    w = fresh()
    for name, score in [("a", 5), ("b", 9), ("c", 5), ("d", 9.5)]:
        w.add_item(f"https://ex.org/{name}", title=name, score=score, found_on=SITE)
    assert [i.title for i in w.items()] == ["d", "b", "a", "c"]
    with pytest.raises(ValidationError):
        w.items()[0].score = 0  # items are frozen: only add_item changes them


def test_views_are_copies() -> None:
    w = fresh()
    w.add_item("https://ex.org/x", title="x", score=5, found_on=SITE)
    w.CP.clear()
    w.C.clear()
    assert w.item_count == 1 and w.pending_count == 1
    assert isinstance(w.DU, frozenset) and isinstance(w.VU, frozenset) and isinstance(w.DP, frozenset)


def test_json_round_trip_is_exact_and_the_copy_keeps_working() -> None:
    w = fresh()
    take_best(w)
    for path, score in [("a", 5), ("b", 7), ("c", 5), ("d", 7)]:
        w.add_url(f"https://ex.org/{path}", score, anchor_text=path.upper(), found_on=SITE)
    w.add_item("https://ex.org/item", title="T", description="D", score=7.25, found_on=SITE)
    text = w.model_dump_json()
    document = json.loads(text)
    assert [entry["url"] for entry in document["pending"]] == [p.url for p in w.C], "C is saved in pop order"
    loaded = WebContext.model_validate_json(text)
    assert loaded == w
    assert WebContext.model_validate(w.model_dump()) == w
    assert [take_best(loaded).url for _ in range(4)] == [
        "https://ex.org/b",
        "https://ex.org/d",
        "https://ex.org/a",
        "https://ex.org/c",
    ]
    assert loaded.add_url("https://ex.org/new", 1)
    assert loaded.C[0].seq == w.next_url_seq, "sequence numbers continue after a reload"


def _saved(**changes: object) -> dict:
    w = fresh()
    take_best(w)
    w.add_url("https://ex.org/a", 5)
    w.add_item("https://ex.org/i", title="I", score=5, found_on=SITE)
    document = json.loads(w.model_dump_json())
    document.update(changes)
    return document


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"visited_urls": ["https://ex.org/never-seen"]}, "visited but not discovered"),
        ({"visited_urls": [SITE, "https://ex.org/a"]}, "pending and visited"),
        ({"discovered_urls": [SITE], "visited_urls": [SITE]}, "pending but not discovered"),
        ({"discovered_items": []}, "discovered item URLs differ"),
        ({"next_url_seq": 1}, "not yet issued"),
        ({"site_url": "javascript:alert(1)"}, "http"),
        ({"extra_field": 1}, "extra"),
    ],
)
def test_loading_an_inconsistent_context_fails(changes: dict, message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        WebContext.model_validate(_saved(**changes))


def test_loading_a_queue_that_lists_a_url_twice_fails() -> None:
    document = _saved()
    document["pending"] = document["pending"] * 2
    with pytest.raises(ValidationError, match="pending twice"):
        WebContext.model_validate(document)


def test_check_invariants_reports_tampering() -> None:
    w = fresh()
    w.visited_urls.add(SITE)  # bypassing the methods breaks C ∩ VU = ∅
    with pytest.raises(StateError, match="pending and visited"):
        w.check_invariants()


def test_collected_item_round_trips() -> None:
    item = CollectedItem(url="https://ex.org/i", title="t", score=3, found_on=SITE, site=SITE, seq=0)
    assert CollectedItem.model_validate_json(item.model_dump_json()) == item


def test_lone_surrogates_from_model_output_cannot_make_the_state_unsaveable() -> None:
    w = fresh()
    w.add_url("https://ex.org/a", 5, anchor_text="bad \ud800 text \ud83d\ude00")
    w.add_item("https://ex.org/i", title="T\udfff", description="D\ud800", score=5, found_on=SITE)
    assert w.top_urls(2)[1].anchor_text == "bad \ufffd text 😀"
    assert w.CP["https://ex.org/i"].title == "T\ufffd"
    assert WebContext.model_validate_json(w.model_dump_json()) == w


def test_a_scrape_is_recorded_from_its_start_to_its_end_and_survives_a_save() -> None:
    web = WebContext.for_site("https://x.org/")
    with pytest.raises(StateError, match="before it is visited"):
        web.begin_scrape("https://x.org/")
    web.take("https://x.org/")
    web.begin_scrape("https://x.org/?utm_source=feed")  # canonicalised like every URL
    assert web.unfinished_scrapes() == ["https://x.org/"]
    saved = web.model_dump_json()
    assert WebContext.model_validate_json(saved).unfinished_scrapes() == ["https://x.org/"]
    web.end_scrape("https://x.org/")
    web.end_scrape("https://x.org/")  # ending twice (or a scrape never begun) is harmless
    assert web.unfinished_scrapes() == []
    data = json.loads(saved)
    data["visited_urls"] = []
    with pytest.raises(ValueError, match="scraping but not visited"):
        WebContext.model_validate(data)
    del data["scraping"]  # a state file written before scrapes were recorded still loads
    assert WebContext.model_validate({**data, "visited_urls": ["https://x.org/"]}).unfinished_scrapes() == []


def test_searches_that_matched_nothing_cost_no_page_up_to_the_allowance_and_round_trip() -> None:
    w = WebContext.for_site("https://journal.example.org/")
    w.take("https://journal.example.org/")
    with pytest.raises(StateError):  # only a visited results page can be one that matched nothing
        w.note_empty_page("https://journal.example.org/search?q=a")
    for query in ("a+b+c", "a+b", "a"):
        w.mark_visited(f"https://journal.example.org/search?q={query}")
        w.note_empty_page(f"https://journal.example.org/search?q={query}")
    assert w.visited_count == 4 and w.pages_counted == 4 - EMPTY_PAGES_FREE
    assert WebContext.model_validate_json(w.model_dump_json()) == w
    broken = w.model_dump(mode="json")
    broken["empty_pages"].append("https://journal.example.org/never-visited")
    with pytest.raises(ValueError, match="an empty page not visited"):
        WebContext.model_validate(broken)


def test_the_links_of_a_dead_end_wait_behind_those_of_the_page_read_before() -> None:
    context = WebContext.for_site("https://example.org/")
    context.take("https://example.org/")
    context.add_url("https://example.org/outputs", 1.0, found_on="https://example.org/")
    context.add_url("https://example.org/unit", 5.0, found_on="https://example.org/")
    context.add_url("https://example.org/units", 5.0, found_on="https://example.org/")
    context.take("https://example.org/unit")
    context.add_url("https://example.org/unit/2025", 1.0, found_on="https://example.org/unit")
    assert context.top_urls(2)[1].url == "https://example.org/unit/2025"  # down the branch it is on
    context.take("https://example.org/units")
    off_topic = "https://example.org/units/off-topic"
    context.add_url(off_topic, 1.0, found_on="https://example.org/units", dead_end=True)
    # a page with no promising way on: back up a step, behind the links of the page read before it
    assert [p.url for p in context.top_urls(3)] == [
        "https://example.org/unit/2025",
        off_topic,
        "https://example.org/outputs",
    ]
