"""Whether a page is the record of a film or a series — a film's or a TV series' page on a database, a review
aggregator or a streaming site — as the page itself declares it: Open Graph's ``og:type`` ("video.movie",
"video.tv_show", "video.episode") or the schema.org type of an outermost microdata item or JSON-LD node (Movie,
TVSeries, TVSeason, TVEpisode).

On such a page the credits ("Creators:", "Directed By:", "Written By:") name the makers of the work it describes,
not anyone who wrote the page: a reader takes no writer from them (a critic's byline over a review is another
matter: it is shown as the page's byline, not in the credits)."""

from __future__ import annotations

from typing import Any

from research_crawler.pages.declared_kind import json_ld_types
from research_crawler.pages.html_tree import meta_content

__all__ = ["describes_a_screen_work"]

_SCREEN_OPEN_GRAPH = frozenset({"video.movie", "video.tv_show", "video.episode"})
_SCREEN_TYPES = frozenset({"movie", "tvseries", "tvseason", "tvepisode", "episode", "movieseries"})


def describes_a_screen_work(tree: Any) -> bool:
    """Whether the page declares itself the record of a film, a series or one of its episodes."""
    if (meta_content(tree, "og:type") or "").casefold() in _SCREEN_OPEN_GRAPH:
        return True
    outermost = tree.xpath("//*[@itemscope][@itemtype][not(ancestor::*[@itemscope])]/@itemtype")
    if any(_type_name(str(value)) in _SCREEN_TYPES for value in outermost):
        return True
    return any(_type_name(kind) in _SCREEN_TYPES for kind in json_ld_types(tree))


def _type_name(value: str) -> str:
    """ "http://schema.org/Movie" → "movie"."""
    return value.strip().rstrip("/").rsplit("/", 1)[-1].casefold()
