"""Link pre-ranking: the local embedding model keeps the links closest to the request, in the page's order; a page
with few links is left alone (and loads no model); a model that cannot load names the setting that turns it off."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from research_crawler.config.settings import RerankSettings, Settings
from research_crawler.errors import ConfigError
from research_crawler.pages.page import Link
from research_crawler.rank import link_prerank
from research_crawler.rank.link_prerank import OFF_SETTING, check_link_ranker, link_text, top_links

REQUEST = "Find papers on graph neural networks for molecules"
TEXTS = [
    ("Home", ""),
    ("Privacy policy", "cookies and your data"),
    ("Message passing graph neural networks for molecular property prediction", "cs.LG, 2025"),
    ("Contact us", ""),
    ("A recipe for lemon cake", "baking"),
    ("Graph networks on molecules", "chemistry listing"),
    ("Careers", "join our team"),
    ("Next page", ""),
]
LINKS = [
    Link(id=number, url=f"https://example.org/{number}", text=text, context=context, same_site=True)
    for number, (text, context) in enumerate(TEXTS, 1)
]


@pytest.fixture(autouse=True)
def offline_hub(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    import huggingface_hub.constants

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)
    yield


def test_the_links_closest_to_the_request_are_kept_in_the_pages_order() -> None:
    kept = top_links(REQUEST, LINKS, 2, RerankSettings(device="cpu"))
    assert [link.id for link in kept] == [3, 6]
    kept = top_links("lemon cake recipes", LINKS, 1, RerankSettings(device="cpu"))
    assert [link.id for link in kept] == [5]


def test_a_page_with_no_more_links_than_the_limit_is_left_alone_without_a_model(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_model(settings: RerankSettings) -> None:
        raise AssertionError("the model was loaded for a page that needs no ranking")

    monkeypatch.setattr(link_prerank, "load_minilm", no_model)
    assert top_links(REQUEST, LINKS, len(LINKS), RerankSettings()) == LINKS
    assert top_links(REQUEST, [], 3, RerankSettings()) == []
    with pytest.raises(ValueError, match="at least 1"):
        top_links(REQUEST, LINKS, 0, RerankSettings())


def test_a_link_is_read_by_its_text_and_context_bounded() -> None:
    assert link_text(LINKS[2]) == f"{TEXTS[2][0]} — cs.LG, 2025"
    assert link_text(LINKS[0]) == "Home"
    long = Link(id=1, url="https://example.org/", text="x" * 500, same_site=True)
    assert len(link_text(long)) == 300


def test_a_model_that_cannot_load_is_one_line_naming_the_setting_that_turns_it_off(tmp_path: object) -> None:
    settings = RerankSettings(minilm_model=f"{tmp_path}/absent", device="cpu")
    for attempt in (lambda: top_links(REQUEST, LINKS, 2, settings), lambda: check_link_ranker(settings)):
        with pytest.raises(ConfigError) as refused:
            attempt()
        message = str(refused.value)
        assert message.startswith("link pre-ranking (the Crawler's links): ") and message.endswith(OFF_SETTING)
        assert "\n" not in message and "--reranker" not in message


def test_on_by_default_and_off_in_the_paper_preset() -> None:
    assert Settings.from_preset("default").page_view.crawler_top_links > 0
    assert Settings().page_view.crawler_top_links == Settings.from_preset("default").page_view.crawler_top_links
    assert Settings.from_preset("paper").page_view.crawler_top_links == 0


def test_the_best_links_by_score_ties_going_to_the_earlier() -> None:
    scores = [0.1, 0.9, 0.5, 0.9, -0.2, 0.0, 0.3, 0.5]
    assert [link.id for link in link_prerank.best_links(LINKS, scores, 3)] == [2, 3, 4]
    assert [link.id for link in link_prerank.best_links(LINKS, scores, 4)] == [2, 3, 4, 8]
    with pytest.raises(ValueError, match="7 scores for 8 links"):
        link_prerank.best_links(LINKS, scores[:7], 3)


def test_the_links_of_one_entry_are_ranked_as_one() -> None:
    citation = "Okafor, B. and Arrow, T.. Nitrate Leaching from Tile-Drained Fields. Soil Use, 2021."
    entry = [
        Link(id=n, url=f"https://example.org/p/{n}", text=text, context=citation, same_site=True)
        for n, text in ((1, "Abstract"), (2, "PDF"), (3, "BibTeX"))
    ]
    other = Link(id=4, url="https://example.org/teaching", text="Teaching", context="", same_site=True)
    alone = Link(id=5, url="https://example.org/abstract", text="Abstract", context="", same_site=True)
    links = [*entry, other, alone]
    # the entry's BibTeX scored best: its Abstract and PDF rank with it; links with no context or another keep theirs
    assert link_prerank.entry_scores(links, [0.1, 0.2, 0.6, 0.3, 0.1]) == [0.6, 0.6, 0.6, 0.3, 0.1]
    kept = link_prerank.best_links(links, link_prerank.entry_scores(links, [0.1, 0.2, 0.6, 0.3, 0.1]), 3)
    assert [link.id for link in kept] == [1, 2, 3]
    # the same context further down the page is another entry's run, ranked on its own
    apart = [entry[0], other, entry[1]]
    assert link_prerank.entry_scores(apart, [0.1, 0.3, 0.5]) == [0.1, 0.3, 0.5]
