"""The Web Selector's tool: choose the sites of the pool to explore, best first, into P."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from research_crawler.config.site_pool import PoolSite, SitePool
from research_crawler.tools.exploration import Exploration

__all__ = ["SiteSelectionTools", "pool_listing", "select_named_sites"]


def pool_listing(pool: SitePool) -> str:
    """The numbered pool the Web Selector reads."""
    lines = []
    for site in pool.sites:
        named = " [named by the user: include it]" if site.named_by_user else ""
        lines.append(f"- {site.id}: {site.name} — {site.description or site.url}{named}")
    return "\n".join(lines)


def _add(exploration: Exploration, sites: list[PoolSite]) -> None:
    for rank, site in enumerate(sites):
        exploration.search.add_site(site.to_site_ref(), priority=float(len(sites) - rank))
    exploration.flow.sites_selected = True
    exploration.trace.emit("sites", chosen=[site.url for site in sites])
    exploration.save()


def select_named_sites(exploration: Exploration, pool: SitePool) -> list[PoolSite]:
    """Put the sites the user named into P, in the order given (no model needed)."""
    named = pool.named
    _add(exploration, named)
    return named


class SiteSelectionTools:
    """The Web Selector's tool."""

    def __init__(self, exploration: Exploration, pool: SitePool) -> None:
        self._x = exploration
        self._pool = pool
        self.chosen: list[PoolSite] = []

    def select_sites(
        self, site_ids: Annotated[list[str], "Ids of the sites to explore, best first, from the list given."]
    ) -> str:
        """Choose the sites on which to search, best first. Only ids from the candidate list are accepted;
        sites the user named are always included."""
        limit = self._x.settings.explore.max_sites
        unknown = [site_id for site_id in site_ids if self._pool.by_id(str(site_id)) is None]
        chosen: list[PoolSite] = list(self._pool.named)
        for site_id in site_ids:
            site = self._pool.by_id(str(site_id))
            if site is not None and site not in chosen and len(chosen) < max(limit, len(self._pool.named)):
                chosen.append(site)
        if not chosen:
            known = ", ".join(site.id for site in self._pool.sites)
            return f"Error: none of {site_ids!r} is a candidate site. Choose ids from: {known}."
        if self.chosen:
            return "Error: the sites were already selected."
        self.chosen = chosen
        _add(self._x, chosen)
        text = "Selected: " + ", ".join(f"{site.name} ({site.url})" for site in chosen) + "."
        if unknown:
            text += f" Ignored unknown ids: {', '.join(map(str, unknown))}."
        return text

    def tools(self) -> list[Callable[..., str]]:
        return [self.select_sites]
