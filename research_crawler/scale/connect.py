"""Ray, joined or started, for `--backend ray`; when Ray is not installed, a one-line error that says how to get it
(this module imports Ray only when asked to)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from research_crawler.config.settings import Settings
from research_crawler.errors import extra_needed

if TYPE_CHECKING:
    from research_crawler.scale.ray_queries import RayQueries

__all__ = ["connect_ray"]


def connect_ray(settings: Settings, *, address: str | None) -> RayQueries:
    """The queries' way onto the cluster at `address` ("auto": this machine's; None: a local Ray instance)."""
    with extra_needed("ray", "--backend ray"):
        from research_crawler.scale.ray_queries import RayQueries
    return RayQueries(settings, address=address)
