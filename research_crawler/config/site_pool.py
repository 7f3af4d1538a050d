"""The pool of sites the Web Selector may choose from (a data file), and the sites a user names.

The Web Selector can only choose among these: a site that is neither in the pool nor named by the user
cannot enter the Search Context, whatever a model says.
"""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from research_crawler.config.settings import RenderMode
from research_crawler.context.search_context import SiteRef
from research_crawler.context.urls import canonicalize_url, host_of, is_same_site
from research_crawler.errors import ConfigError, InvalidURLError

__all__ = ["PoolSite", "SitePool", "load_site_pool"]


class PoolSite(BaseModel):
    """One entry of the site pool."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]*$")
    name: str
    url: str
    description: str = ""
    render: RenderMode | None = None
    named_by_user: bool = False

    def to_site_ref(self) -> SiteRef:
        return SiteRef(name=self.name, url=self.url, description=self.description, render=self.render)


class SitePool(BaseModel):
    """The candidate sites of one query: the configured pool plus the sites the user named."""

    sites: list[PoolSite]

    def by_id(self, site_id: str) -> PoolSite | None:
        return next((site for site in self.sites if site.id == site_id), None)

    def find(self, name: str) -> PoolSite | None:
        """The pool site a request names: by id ("arxiv"), name ("bioRxiv") or host ("arxiv.org"), any case."""
        wanted = name.strip().lower().removeprefix("www.")
        for site in self.sites:
            host = host_of(site.url).lower().removeprefix("www.")
            if wanted in (site.id, site.name.lower(), host) or host.split(".")[0] == wanted:
                return site
        return None

    def with_request_sites(self, names: list[str]) -> tuple[SitePool, list[str]]:
        """This pool with the sites a request names marked as named (URLs as with `with_named_sites`, names
        found in the pool), and the names that match no site."""
        urls: list[str] = []
        unknown: list[str] = []
        for name in names:
            site = self.find(name)
            if site is not None:
                urls.append(site.url)
            elif "." in name or "://" in name:
                urls.append(name)
            else:
                unknown.append(name)
        try:
            return self.with_named_sites(urls), unknown
        except ConfigError:  # a named "site" that is no usable URL is reported, not fatal
            return self, names

    @property
    def named(self) -> list[PoolSite]:
        return [site for site in self.sites if site.named_by_user]

    def with_named_sites(
        self, urls: list[str], *, render: RenderMode | None = None
    ) -> SitePool:
        """This pool plus the sites of `urls` (the user's ``--site``), each marked as named by the user.

        A URL on a pool site marks that entry (keeping the user's start URL); any other becomes a new entry,
        fetched with `render` (None: the fetch settings' render, by default auto).
        Raises ConfigError for a URL that is not http(s).
        """
        sites = list(self.sites)
        for raw in urls:
            try:
                url = canonicalize_url(raw if "://" in raw else f"https://{raw}")
            except InvalidURLError as exc:
                raise ConfigError(
                    f"--site {raw!r} is not a usable http(s) URL ({exc}): give a site's address, e.g. "
                    f"--site https://arxiv.org/"
                ) from exc
            index = next((i for i, s in enumerate(sites) if is_same_site(url, s.url)), None)
            if index is not None:
                sites[index] = sites[index].model_copy(update={"named_by_user": True, "url": url})
                continue
            site_id = "".join(c if c.isalnum() else "-" for c in host_of(url)).strip("-").lower() or "site"
            taken = {s.id for s in sites}
            base, number = site_id, 1
            while site_id in taken:
                number += 1
                site_id = f"{base}-{number}"
            sites.append(PoolSite(id=site_id, name=host_of(url), url=url, render=render, named_by_user=True))
        return SitePool(sites=sites)


def load_site_pool(path: Path | None = None) -> SitePool:
    """The site pool from `path`, or the packaged default pool. ConfigError names the problem in a bad file."""
    try:
        if path is None:
            text = resources.files("research_crawler.config").joinpath("sites.toml").read_text(encoding="utf-8")
        else:
            text = Path(path).read_text(encoding="utf-8")
        data = tomllib.loads(text)
        sites = [PoolSite.model_validate(entry) for entry in data.get("site", [])]
        sites = [site.model_copy(update={"url": canonicalize_url(site.url)}) for site in sites]
    except (OSError, tomllib.TOMLDecodeError, ValidationError, InvalidURLError) as exc:
        raise ConfigError(f"cannot read the site pool {path or '(default)'}: {exc}") from exc
    ids = [site.id for site in sites]
    if len(set(ids)) != len(ids):
        raise ConfigError(f"the site pool {path or '(default)'} repeats an id: {sorted(ids)}")
    return SitePool(sites=sites)
