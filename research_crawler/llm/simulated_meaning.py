"""How the simulated model judges relevance by meaning: cosine similarity of sentence embeddings of the request
and of a link's or an item's text, instead of the words they share (`simulated.judge = "meaning"`).

The encoder is handed in (llm/simulated_encoder.py loads all-mpnet-base-v2, a model the product never loads, once per
process), so this module holds only the judging and the cache of embeddings; the double still reads nothing but
messages.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Protocol

from research_crawler.llm.simulated_words import STOPWORDS

__all__ = [
    "ITEM_RELEVANT",
    "LINK_ON_TOPIC",
    "SITE_MARGIN",
    "MeaningJudge",
    "TextEncoder",
    "item_score",
    "link_score",
    "site_fits",
    "topic_of",
]

_WORD = re.compile(r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*")


class TextEncoder(Protocol):
    """Turns texts into unit-length embeddings (one list of floats per text, in order)."""

    def encode(self, texts: Sequence[str]) -> list[list[float]]: ...


def topic_of(request: str) -> str:
    """What a request is about, as a reader would shorten it: its words in order, without the request's own
    wording ("find five recent papers on … titles only"), which would pull every text towards "papers"."""
    words = [w for w in _WORD.findall(request) if len(w) > 1 and w.lower() not in STOPWORDS]
    return " ".join(words) or request.strip()


class MeaningJudge:
    """Scores texts against a request by the cosine similarity of their embeddings, in [-1, 1].

    Embeddings are cached by text (the same request and the same link texts recur on every page), up to
    `cache_size` texts, oldest dropped first; the judge may be shared by the threads of parallel sites.
    """

    def __init__(self, encoder: TextEncoder, *, cache_size: int = 50_000) -> None:
        self._encoder = encoder
        self._cache: OrderedDict[str, list[float]] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

    def similarity(self, request: str, texts: Sequence[str]) -> list[float]:
        """How close in meaning each of `texts` is to the topic of `request` (`topic_of`)."""
        if not texts:
            return []
        topic = topic_of(request)
        embeddings = self._embeddings([topic, *texts])
        query = embeddings[0]
        return [round(sum(a * b for a, b in zip(query, vector, strict=True)), 4) for vector in embeddings[1:]]

    def _embeddings(self, texts: Sequence[str]) -> list[list[float]]:
        keys = [" ".join(text.split()) for text in texts]
        with self._lock:
            missing = list(dict.fromkeys(key for key in keys if key not in self._cache))
            if missing:
                for key, vector in zip(missing, self._encoder.encode(missing), strict=True):
                    self._cache[key] = vector
            for key in keys:
                self._cache.move_to_end(key)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
            return [self._cache[key] for key in keys]


#: Similarities (cosine of all-mpnet-base-v2 embeddings of the request's topic and the text) at which the double calls
#: a link on the topic and an entry a relevant item. Fitted by `benchmarks/double_calibration.py` on the calibration
#: split only (`eval/query_splits.py`: the testbed's calibration topics, 750 pairs, and 397 real arXiv astrophysics
#: titles under 8 subject requests, 3 176 pairs), as the thresholds of best F1 averaged over the two: 0.41 for items
#: (the closer of title and title with its abstract's start), 0.43 for links (the anchor). On the evaluation split,
#: which nothing was fitted on, items agree with the ground truth at F1 0.840 on the testbed (1 767 pairs) and 0.250
#: on 200 real arXiv search results under 10 other subject requests (precision 0.78, recall 0.15: a title rarely names
#: its field as broadly as a request does); the script prints the rest.
LINK_ON_TOPIC = 0.43
ITEM_RELEVANT = 0.41
#: Site descriptions are short and general ("Preprints in the life sciences: …"), so similarities stay low
#: (0.0–0.4) and only their order means something: the sites within this margin of the closest are taken. Not
#: fitted (the testbed's queries name their sites; no split holds site choices to fit it on).
SITE_MARGIN = 0.08


def link_score(similarity: float) -> float | None:
    """The Crawler's 0–10 score of a link this close to the request, or None when it is not on the topic
    (then navigation and other links get the low scores of the words rules)."""
    if similarity < LINK_ON_TOPIC:
        return None
    return round(min(10.0, 4.0 + 6.0 * (similarity - LINK_ON_TOPIC) / (0.8 - LINK_ON_TOPIC)), 1)


def item_score(similarity: float) -> float | None:
    """The Collector's 0–10 score of an entry this close to the request, or None when it is not relevant."""
    if similarity < ITEM_RELEVANT:
        return None
    return round(min(10.0, 5.0 + 5.0 * (similarity - ITEM_RELEVANT) / (0.85 - ITEM_RELEVANT)), 1)


def site_fits(similarity: float, closest: float) -> bool:
    """Whether the Web Selector takes a site whose description is this close to the request, when the
    closest candidate is `closest` (that one is always taken)."""
    return similarity >= closest - SITE_MARGIN
