"""The agents' tools: only links a page really has can enter the queue or the collected items."""

from __future__ import annotations

import pytest

from research_crawler.context.graph import NavigationGraph
from research_crawler.context.web_context import WebContext
from research_crawler.errors import ToolInputError
from research_crawler.pages.page import Determination, Link, Page
from research_crawler.tools.hints import HintState
from research_crawler.tools.items import collect_items, get_collected_items
from research_crawler.tools.navigation import LinkScore, get_top_urls, save_links

SITE = "http://papers.test/"
STATE = HintState(subpages_left=4, items_collected=0)


def make_page(url: str = "http://papers.test/list/cs", links: list[tuple[str, str, bool]] | None = None) -> Page:
    links = links or [
        ("http://papers.test/abs/1", "Graph neural networks for molecules", True),
        ("http://papers.test/abs/2", "Protein folding with diffusion", True),
        ("http://papers.test/list/cs?skip=25", "next page", True),
        ("http://elsewhere.test/paper", "An off-site paper", False),
    ]
    return Page(
        url=url,
        final_url=url,
        status=200,
        determination=Determination.OK,
        links=[Link(id=n, url=u, text=t, same_site=s) for n, (u, t, s) in enumerate(links, 1)],
    )


@pytest.fixture
def web() -> WebContext:
    return WebContext.for_site(SITE)


def test_save_links_queues_valid_numbers_and_rejects_the_rest(web: WebContext) -> None:
    page = make_page()
    graph = NavigationGraph()
    result = save_links(
        web,
        page,
        [
            {"id": 1, "score": 9},
            {"id": 3, "score": 4},
            {"id": 57, "score": 8},
            {"id": 2, "score": 11},
            "junk",
        ],
        state=STATE,
        graph=graph,
    )
    assert result.queued == ["http://papers.test/abs/1", "http://papers.test/list/cs?skip=25"]
    assert any("link 57 is not on this page (valid numbers: 1–4)" in r for r in result.rejected)
    assert any("score must be between 0 and 10" in r for r in result.rejected)
    assert len(result.rejected) == 3
    assert web.is_pending("http://papers.test/abs/1")
    assert not web.is_discovered("http://papers.test/abs/2")
    assert result.message.splitlines()[-1].startswith("Hint: ")
    assert graph.graph.has_edge(page.final_url, "http://papers.test/abs/1")


def test_save_links_keeps_off_site_links_out_unless_allowed(web: WebContext) -> None:
    page = make_page()
    result = save_links(web, page, [LinkScore(id=4, score=9)], state=STATE)
    assert result.off_site == ["http://elsewhere.test/paper"] and not result.queued
    assert not web.is_discovered("http://elsewhere.test/paper")
    allowed = save_links(web, page, [LinkScore(id=4, score=9)], state=STATE, allow_offsite=True)
    assert allowed.queued == ["http://elsewhere.test/paper"]


def test_save_links_twice_does_not_queue_twice(web: WebContext) -> None:
    page = make_page()
    save_links(web, page, [{"id": 1, "score": 5}], state=STATE)
    again = save_links(web, page, [{"id": 1, "score": 9}, {"id": 1, "score": 2}], state=STATE)
    assert again.raised == ["http://papers.test/abs/1"] and not again.queued, "judged higher: raised, not queued"
    assert [p.score for p in web.C if p.url == "http://papers.test/abs/1"] == [9.0]
    lower = save_links(web, page, [{"id": 1, "score": 4}], state=STATE)
    assert lower.already_known == ["http://papers.test/abs/1"] and not lower.queued and not lower.raised
    assert [p.score for p in web.C if p.url == "http://papers.test/abs/1"] == [9.0]


def test_save_links_refuses_a_non_list() -> None:
    with pytest.raises(ToolInputError):
        save_links(WebContext.for_site(SITE), make_page(), "1,2,3", state=STATE)  # type: ignore[arg-type]


def test_get_top_urls_hides_scores_and_hints(web: WebContext) -> None:
    page = make_page()
    save_links(web, page, [{"id": 1, "score": 3}, {"id": 2, "score": 9.5}], state=STATE)
    top = get_top_urls(web, 2, state=STATE)
    assert [p.url for p in top.urls] == ["http://papers.test/", "http://papers.test/abs/2"]
    assert "9.5" not in top.message and "Protein folding with diffusion" in top.message
    assert "4 subpages left" in top.message
    with pytest.raises(ToolInputError):
        get_top_urls(web, 0, state=STATE)


def test_get_top_urls_says_which_pages_hold_items_collected_already(web: WebContext) -> None:
    page = make_page()
    save_links(web, page, [{"id": 1, "score": 3}, {"id": 2, "score": 9.5}], state=STATE)
    web.add_item("http://papers.test/abs/2", title="Protein folding with diffusion", score=8, found_on=page.url)
    lines = get_top_urls(web, 3, state=STATE).message.splitlines()
    collected = [line for line in lines if line.endswith(" (collected)")]
    assert len(collected) == 1 and collected[0].startswith("3. /abs/2 — ")  # after the pages that may hold more
    assert not any("(collected)" in line for line in lines if "/abs/1" in line)


def test_get_top_urls_lists_pages_that_may_hold_something_new_before_items_collected(web: WebContext) -> None:
    # a search result's items collected from the listing rank highest in C, yet opening them adds nothing: the
    # Planner's short view shows the listing's next page and the other item first, the collected ones after
    web.take(SITE)
    page = make_page()
    save_links(web, page, [{"id": 1, "score": 9}, {"id": 2, "score": 9.5}, {"id": 3, "score": 4}], state=STATE)
    web.add_item("http://papers.test/abs/2", title="Protein folding with diffusion", score=8, found_on=page.url)
    web.add_item("http://papers.test/abs/1", title="Graph neural networks for molecules", score=8, found_on=page.url)
    assert web.top_urls(2)[0].url == "http://papers.test/abs/2"  # C's own order is unchanged
    top = get_top_urls(web, 2, state=STATE)
    assert [p.url for p in top.urls] == ["http://papers.test/list/cs?skip=25", "http://papers.test/abs/2"]
    lines = get_top_urls(web, 3, state=STATE).message.splitlines()
    assert lines[1:4] == ["1. /list/cs?skip=25 — next page", "2. /abs/2 — Protein folding with diffusion (collected)",
                          "3. /abs/1 — Graph neural networks for molecules (collected)"]  # fmt: skip


def test_a_collected_short_name_with_no_author_or_date_keeps_its_place_as_a_page_that_may_list_works(
    web: WebContext,
) -> None:
    # a series named by a word or two and stored with nothing a work's entry shows (no author, no date) may be a way
    # to works taken for one: it keeps its place; the same short name stored with a date, and a work's title of more
    # words stored with neither, go last
    web.take(SITE)
    links = [
        ("http://papers.test/series/ds", "Discussion series", True),
        ("http://papers.test/series/wp", "Working papers", True),
        ("http://papers.test/abs/1", "Graph neural networks for molecules", True),
        ("http://papers.test/list/cs?skip=25", "next page", True),
    ]
    page = make_page(links=links)
    save_links(web, page, [{"id": 1, "score": 9}, {"id": 2, "score": 9}, {"id": 3, "score": 9}, {"id": 4, "score": 5}],
               state=STATE)  # fmt: skip
    web.add_item("http://papers.test/series/ds", title="Research on graph neural networks", score=8, found_on=page.url)
    web.add_item("http://papers.test/series/wp", title="Working papers", score=8, found_on=page.url, date="2024")
    web.add_item("http://papers.test/abs/1", title="Graph neural networks for molecules", score=8, found_on=page.url)
    lines = get_top_urls(web, 4, state=STATE).message.splitlines()
    assert lines[1:5] == [
        "1. /series/ds — Discussion series (collected, may list works inside)",
        "2. /list/cs?skip=25 — next page",
        "3. /series/wp — Working papers (collected)",
        "4. /abs/1 — Graph neural networks for molecules (collected)",
    ]


def test_a_collected_volume_keeps_its_place_as_a_page_that_may_list_works(web: WebContext) -> None:
    # a volume's link stored as an item (no author read beside it) is a way to the works it holds, not a work read:
    # it keeps its place in C's order; a collected work (its authors read), or a paper on time series, goes last
    web.take(SITE)
    links = [
        ("http://papers.test/book/4", "Advances in Graph Learning, Volume 4", True),
        ("http://papers.test/abs/1", "Graph neural networks for molecules", True),
        ("http://papers.test/abs/2", "Graph models of time series", True),
        ("http://papers.test/list/cs?skip=25", "next page", True),
    ]
    page = make_page(links=links)
    save_links(web, page, [{"id": 1, "score": 9}, {"id": 2, "score": 9}, {"id": 3, "score": 9}, {"id": 4, "score": 5}],
               state=STATE)  # fmt: skip
    web.add_item("http://papers.test/book/4", title="Advances in Graph Learning, Volume 4", score=8, found_on=page.url)
    web.add_item("http://papers.test/abs/1", title="Graph neural networks for molecules", score=8, found_on=page.url,
                 authors=["Ana Ruiz"])  # fmt: skip
    web.add_item("http://papers.test/abs/2", title="Graph models of time series", score=8, found_on=page.url)
    lines = get_top_urls(web, 4, state=STATE).message.splitlines()
    assert lines[1:5] == [
        "1. /book/4 — Advances in Graph Learning, Volume 4 (collected, may list works inside)",
        "2. /list/cs?skip=25 — next page",
        "3. /abs/1 — Graph neural networks for molecules (collected)",
        "4. /abs/2 — Graph models of time series (collected)",
    ]


def test_a_collected_link_that_counts_what_it_holds_keeps_its_place_as_a_page_that_may_list_works(
    web: WebContext,
) -> None:
    # a category's link that ends by counting its contents ("Seminars 21 events", "Oceanography (35 papers)") stored
    # as an item is a way to what it holds, not a work: it keeps its place; a title with a number inside does not
    web.take(SITE)
    links = [
        ("http://papers.test/category/12/", "Edge Learning Seminars 21 events", True),
        ("http://papers.test/subject/ocean", "Oceanography (35 papers)", True),
        ("http://papers.test/abs/3", "Ranking 1000 papers by citations with graph models", True),
        ("http://papers.test/db/conf/fl/", "Workshop on Federated Learning at the Edge (FLEdge)", True),
        ("http://papers.test/list/cs?skip=25", "next page", True),
    ]
    page = make_page(links=links)
    scores = [{"id": 1, "score": 9}, {"id": 2, "score": 9}, {"id": 3, "score": 9}, {"id": 4, "score": 8}]
    save_links(web, page, [*scores, {"id": 5, "score": 5}], state=STATE)
    for url, title, _ in links[:4]:
        web.add_item(url, title=title, score=8, found_on=page.url)
    lines = get_top_urls(web, 5, state=STATE).message.splitlines()
    assert lines[1:6] == [
        "1. /subject/ocean — Oceanography (35 papers) (collected, may list works inside)",  # works before events
        "2. /category/12/ — Edge Learning Seminars 21 events (collected, may list works inside)",
        "3. /db/conf/fl/ — Workshop on Federated Learning at the Edge (FLEdge) (collected, may list works inside)",
        "4. /list/cs?skip=25 — next page",
        "5. /abs/3 — Ranking 1000 papers by citations with graph models (collected)",
    ]


def test_a_filter_naming_another_kind_of_record_comes_after_the_pages_that_may_hold_papers(web: WebContext) -> None:
    # a finder's type filters: for papers, "Guidance only" and "Datasets" are where none of them is; they come
    # after the other pending pages, even scored higher; for datasets, "Datasets" keeps its place
    web.take(SITE)
    links = [
        ("http://papers.test/find?type=guidance", "Guidance only", True),
        ("http://papers.test/find?type=data", "Datasets", True),
        ("http://papers.test/find?type=research", "Research and analysis only", True),
        ("http://papers.test/people/", "People", True),
    ]
    page = make_page(links=links)
    save_links(web, page, [{"id": 1, "score": 6}, {"id": 2, "score": 6}, {"id": 3, "score": 2}, {"id": 4, "score": 1}],
               state=STATE)  # fmt: skip
    top = get_top_urls(web, 4, state=STATE)
    assert [p.url.rsplit("/", 1)[1] for p in top.urls] == ["find?type=research", "", "find?type=guidance",
                                                          "find?type=data"]  # fmt: skip
    datasets = get_top_urls(web, 4, state=STATE.model_copy(update={"item_kind": "dataset"}))
    assert [p.url.rsplit("/", 1)[1] for p in datasets.urls][:2] == ["find?type=guidance", "find?type=data"]


def test_a_books_front_and_back_matter_come_after_the_pages_that_may_hold_works(web: WebContext) -> None:
    # a volume's table of contents lists its front matter, preface and back matter around its chapters: none is a
    # work, so they come after the other pending pages even scored alike; a chapter titled with such a word does not
    web.take(SITE)
    links = [
        ("http://papers.test/book/9/front-matter", "Front Matter — Pages i–xiv", True),
        ("http://papers.test/book/9/preface", "Preface", True),
        ("http://papers.test/book/9/back-matter", "Back Matter — Pages Index", True),
        ("http://papers.test/chapter/9-1", "Preface to a Theory of Whale Song", True),
        ("http://papers.test/book/8", "Advances in Bioacoustics, Volume 8", True),
    ]
    page = make_page(links=links)
    save_links(web, page, [{"id": n, "score": 3.5} for n in range(1, 6)], state=STATE)
    top = get_top_urls(web, 5, state=STATE)
    assert [p.url.rsplit("/", 1)[1] for p in top.urls] == ["9-1", "8", "front-matter", "preface", "back-matter"]


def test_the_sites_chrome_comes_after_the_pages_that_may_hold_works(web: WebContext) -> None:
    # a software archive's home lists its mirrors, FAQs and privacy statement beside its packages: none holds a
    # work, so they come after the other pending pages even scored higher, in their own order; a title that only
    # begins with such a word keeps its place
    web.take(SITE)
    links = [
        ("http://papers.test/mirrors.html", "Mirrors", True),
        ("http://papers.test/faqs.html", "FAQs", True),
        ("http://papers.test/packages/", "Packages", True),
        ("http://papers.test/about", "About the Journal", True),
        ("http://papers.test/paper/7", "About Face: Licence Plates in Traffic Cameras", True),
        ("http://papers.test/privacy", "Privacy Statement", True),
    ]
    page = make_page(links=links)
    scores = [{"id": 1, "score": 5}, {"id": 2, "score": 5}, *({"id": n, "score": 3.5} for n in range(3, 7))]
    save_links(web, page, scores, state=STATE)
    top = get_top_urls(web, 6, state=STATE)
    assert [p.url.rsplit("/", 1)[1] for p in top.urls] == ["", "7", "mirrors.html", "faqs.html", "about", "privacy"]


def test_get_top_urls_says_the_sites_search_is_unused_while_more_are_wanted(web: WebContext) -> None:
    save_links(web, make_page(), [{"id": 2, "score": 9.5}], state=STATE)
    unused = "search form has not been used yet"
    wanting = HintState(subpages_left=4, items_collected=1, items_wanted=10, search_unused=True)
    assert unused in get_top_urls(web, 2, state=wanting).message
    enough = wanting.model_copy(update={"items_collected": 10})
    assert unused not in get_top_urls(web, 2, state=enough).message
    used = wanting.model_copy(update={"search_unused": False})
    assert unused not in get_top_urls(web, 2, state=used).message


def test_get_top_urls_says_when_nothing_is_left() -> None:
    web = WebContext.for_site(SITE)
    web.take(web.top_urls(1)[0].url)
    assert "No pending URLs" in get_top_urls(web, 5, state=STATE).message
    no_budget = get_top_urls(web, 5, state=HintState(subpages_left=0, items_collected=2))
    assert "give the turn to the Supervisor now" in no_budget.message


def test_collect_items_accepts_only_what_the_page_has(web: WebContext) -> None:
    page = make_page()
    result = collect_items(
        web,
        page,
        [
            {"id": 1, "title": "Graph neural networks for molecules", "score": 9, "description": "GNNs."},
            {"url": "http://papers.test/abs/2", "title": "Protein folding with diffusion", "score": 6},
            {"url": "http://papers.test/abs/999", "title": "An invented paper", "score": 10},
            {"id": 42, "title": "Out of range", "score": 5},
            {"id": 2, "title": "   ", "score": 5},
            {"title": "No reference", "score": 5},
        ],
        state=STATE,
    )
    assert result.added == ["http://papers.test/abs/1", "http://papers.test/abs/2"]
    assert len(result.rejected) == 4
    assert "does not appear on this page" in " ".join(result.rejected)
    assert web.item_count == 2
    assert "2 papers collected" in result.message


def test_collect_items_on_an_abstract_page_collects_the_page_itself(web: WebContext) -> None:
    page = make_page(url="http://papers.test/abs/7", links=[("http://papers.test/pdf/7", "PDF", True)])
    result = collect_items(web, page, [{"url": "/abs/7", "title": "Paper seven", "score": 8}], state=STATE)
    assert result.added == ["http://papers.test/abs/7"]


def test_collect_items_updates_rather_than_duplicates(web: WebContext) -> None:
    page = make_page()
    collect_items(web, page, [{"id": 1, "title": "GNNs", "score": 5}], state=STATE)
    better = collect_items(web, page, [{"id": 1, "title": "GNNs", "score": 8, "description": "More."}], state=STATE)
    assert better.updated == ["http://papers.test/abs/1"] and web.item_count == 1


def test_get_collected_items_lists_query_and_items(web: WebContext) -> None:
    page = make_page()
    collect_items(web, page, [{"id": 2, "title": "Protein folding with diffusion", "score": 7}], state=STATE)
    view = get_collected_items(web, query="protein diffusion", state=STATE)
    assert view.message.startswith('Query: "protein diffusion"')
    assert "Protein folding with diffusion — http://papers.test/abs/2 (score 7/10)" in view.message
    assert "papers collected (1 of the 10 the report lists) answer the query" in view.message


def test_collect_items_refuses_off_site_items_unless_allowed(web: WebContext) -> None:
    page = make_page()
    refused = collect_items(web, page, [{"id": 4, "title": "An off-site paper here", "score": 9}], state=STATE)
    assert not refused.added and "leads off this site" in refused.rejected[0]
    allowed = collect_items(
        web, page, [{"id": 4, "title": "An off-site paper here", "score": 9}], state=STATE, allow_offsite=True
    )
    assert allowed.added == ["http://elsewhere.test/paper"]


def test_save_links_never_queues_what_robots_txt_forbids(web: WebContext) -> None:
    page = make_page()

    def refusal(url: str) -> str | None:
        return "robots.txt of papers.test disallows /list/" if "/list/" in url else None

    result = save_links(web, page, [{"id": 1, "score": 9}, {"id": 3, "score": 4}], state=STATE, robots_refusal=refusal)
    assert result.queued == ["http://papers.test/abs/1"]
    assert result.rejected == [
        "link 3 (http://papers.test/list/cs?skip=25): robots.txt of papers.test disallows /list/; not queued"
    ]
    assert not web.is_discovered("http://papers.test/list/cs?skip=25")


def test_collect_items_never_stores_a_link_robots_txt_forbids(web: WebContext) -> None:
    page = make_page(
        "http://papers.test/study/7",
        [
            ("http://papers.test/study/7/download?format=csv", "Download record (CSV)", True),
            ("http://papers.test/abs/2", "Protein folding with diffusion", True),
        ],
    )

    def refusal(url: str) -> str | None:
        return "robots.txt of papers.test disallows /study/*/download" if "/download" in url else None

    entries = [
        {"id": 1, "title": "Download record (CSV)", "score": 6},
        {"id": 2, "title": "Protein folding with diffusion", "score": 8},
        {"url": "http://papers.test/study/7", "title": "Study 7", "score": 8},
    ]
    result = collect_items(web, page, entries, state=STATE, robots_refusal=refusal)
    assert result.added == ["http://papers.test/abs/2", "http://papers.test/study/7"]
    assert len(result.rejected) == 1 and "robots.txt forbids crawlers its address" in result.rejected[0]
    assert "http://papers.test/study/7/download?format=csv" not in web.collected


def test_a_link_naming_only_what_it_opens_of_a_citation_is_listed_with_that_citation(web: WebContext) -> None:
    citation = "Okafor, B. and Arrow, T.. Nitrate Leaching from Tile-Drained Fields. Soil Use, 12:101–115, 2021."
    page = make_page().model_copy(
        update={
            "links": [
                Link(id=1, url="http://papers.test/p/a.html", text="Abstract", same_site=True, context=citation,
                     names_entry=True),
                Link(id=2, url="http://papers.test/teaching", text="Teaching", same_site=True, context="Home"),
            ]
        }
    )  # fmt: skip
    save_links(web, page, [{"id": 1, "score": 5}, {"id": 2, "score": 5}], state=STATE)
    anchors = {pending.url: pending.anchor_text for pending in web.top_urls(5)}
    assert anchors["http://papers.test/p/a.html"] == f"Abstract: {citation}"
    assert anchors["http://papers.test/teaching"] == "Teaching"


def test_a_facet_of_a_result_list_shown_whole_is_not_queued_but_of_a_paged_one_it_is(web: WebContext) -> None:
    search = "http://papers.test/search?q=coral"
    links = [
        ("http://papers.test/abs/1", "Coral bleaching in 2024", True),
        (f"{search}&year=2024", "2024", True),  # a facet: the same results, fewer of them
        ("http://papers.test/search?q=reef", "reef", True),  # another search
    ]
    scores = [{"id": 1, "score": 9}, {"id": 2, "score": 5}, {"id": 3, "score": 4}]
    result = save_links(web, make_page(search, links), scores, state=STATE)
    assert result.queued == ["http://papers.test/abs/1", "http://papers.test/search?q=reef"]
    assert any("narrows or re-orders this page's list, which it shows whole" in r for r in result.rejected)
    # with a next page, the facet may list entries this page does not show
    paged = WebContext.for_site(SITE)
    links.append((f"{search}&page=2", "Next", True))
    result = save_links(paged, make_page(search, links), scores, state=STATE)
    assert f"{search}&year=2024" in result.queued


def test_the_other_tabs_of_the_tab_a_page_shows_are_queued_not_taken_for_facets(web: WebContext) -> None:
    venue = "http://papers.test/venue?id=2025"
    tabs = [(f"{venue}&tab={name}", label, True) for name, label in [("oral", "Oral"), ("poster", "Poster")]]
    page = make_page(venue, [*tabs, ("http://papers.test/paper/1", "Coral bleaching in 2024", True)])
    page = page.model_copy(
        update={
            "html": f'<ul class="nav-tabs"><li class="active"><a href="{venue}&amp;tab=oral">Oral</a></li>'
            f'<li><a href="{venue}&amp;tab=poster">Poster</a></li></ul>'
            '<ul><li><a href="/paper/1">Coral bleaching in 2024</a></li></ul>'
        }
    )
    scores = [{"id": 1, "score": 5}, {"id": 2, "score": 5}, {"id": 3, "score": 9}]
    result = save_links(web, page, scores, state=STATE)
    assert f"{venue}&tab=poster" in result.queued  # another list, not a part of the one shown
    assert f"{venue}&tab=oral" not in result.queued  # the tab shown: this page's own list
    assert len(result.rejected) == 1
    # the same links with no tab marked as the one shown read as facets of the list shown whole
    plain = save_links(WebContext.for_site(SITE), page.model_copy(update={"html": ""}), scores, state=STATE)
    assert plain.queued == ["http://papers.test/paper/1"]


def test_a_link_to_another_version_of_the_pages_record_is_not_queued(web: WebContext) -> None:
    record = "http://papers.test/manuscript/2025.0033"
    links = [
        (f"{record}/v1", "v1 — 1 February 2025 Coral bleaching: preliminary results", True),  # the same work
        ("http://papers.test/manuscript/2025.0034", "Coral bleaching in the Red Sea", True),
        ("http://papers.test/journal/v12", "Volume 12", True),  # a volume, not a version
    ]
    result = save_links(web, make_page(record, links), [{"id": n, "score": 4} for n in (1, 2, 3)], state=STATE)
    assert result.queued == ["http://papers.test/manuscript/2025.0034", "http://papers.test/journal/v12"]
    assert "another version of this page's record" in result.rejected[0]


def test_a_collected_subject_facet_with_a_bare_count_keeps_its_place_but_a_year_does_not(web: WebContext) -> None:
    # a browse page's subject with its count in brackets ("Education and Literacy (15)") stored as an item is a way
    # to the works it holds; a title ending in a year in brackets is a work, and goes after the pages that may hold more
    web.take(SITE)
    links = [
        ("http://papers.test/browse/education", "Education and Literacy (15)", True),
        ("http://papers.test/abs/4", "Reading instruction in rural schools (2024)", True),
        ("http://papers.test/list/cs?skip=25", "next page", True),
    ]
    page = make_page(links=links)
    save_links(web, page, [{"id": 1, "score": 9}, {"id": 2, "score": 9}, {"id": 3, "score": 5}], state=STATE)
    for url, title, _ in links[:2]:
        web.add_item(url, title=title, score=8, found_on=page.url)
    lines = get_top_urls(web, 3, state=STATE).message.splitlines()
    assert lines[1:4] == [
        "1. /browse/education — Education and Literacy (15) (collected, may list works inside)",
        "2. /list/cs?skip=25 — next page",
        "3. /abs/4 — Reading instruction in rural schools (2024) (collected)",
    ]
