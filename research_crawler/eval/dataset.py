"""An evaluation dataset: research requests in the paper's shape (per site, general and specific), read from YAML.

Two sources: ``testbed`` datasets name testbed sites and carry ground truth as testbed item ids (URLs depend on
the ports the testbed is served on); ``web`` datasets name real sites by URL and have no ground truth.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from research_crawler.config.user_files import load_yaml, read_user_file
from research_crawler.errors import ConfigError

__all__ = [
    "BUILTIN_DATASETS",
    "SITE_URL_PLACEHOLDER",
    "DatasetQuery",
    "DatasetSite",
    "EvalDataset",
    "QueryContract",
    "QueryKind",
    "builtin_dataset_path",
    "load_dataset",
    "resolve_dataset",
]

QueryKind = Literal["general", "specific", "constrained", "unfamiliar"]

#: In a query's text, the start URL of the query's own site (resolved when the evaluation runs): a request that
#: names its site only in the text, while the run is given another site (``start_sites``).
SITE_URL_PLACEHOLDER = "{site_url}"

#: Datasets shipped with the package, by the name the command line accepts instead of a path.
BUILTIN_DATASETS = ("testbed", "preprints")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class DatasetSite(_Strict):
    """A site the queries run on: a testbed site name, or a real site with its start URL."""

    name: str = Field(min_length=1, description="How queries refer to the site.")
    title: str = Field("", description="Display name (arXiv, bioRxiv…); the name when empty.")
    url: str | None = Field(None, description="Start URL of a real site; None for a testbed site.")

    @property
    def label(self) -> str:
        return self.title or self.name


class QueryContract(_Strict):
    """What the request asks of the report, as ground truth for the deterministic compliance metric
    (`eval/compliance.py`): the years its items must fall in, how many at most, newest first, exactly the N most
    recent relevant items, a site named only in the request's text that must be explored, and an author."""

    year_from: int | None = Field(None, ge=1900, le=2200)
    year_to: int | None = Field(None, ge=1900, le=2200)
    count: int | None = Field(None, ge=1, description="At most this many items (never padded beyond it).")
    newest_first: bool = False
    most_recent: int | None = Field(
        None, ge=1, description="The report must be exactly the N newest relevant items (the query's `relevant`)."
    )
    named_site: str | None = Field(None, description="A dataset site named only in the text: it must be explored.")
    author: str | None = Field(None, min_length=1, description="Every item must have an author of this surname.")

    @model_validator(mode="after")
    def _years_in_order(self) -> QueryContract:
        if self.year_from is not None and self.year_to is not None and self.year_from > self.year_to:
            raise ValueError(f"year_from {self.year_from} is after year_to {self.year_to}")
        return self


class DatasetQuery(_Strict):
    """One research request, run on one site only (the paper's per-site evaluation) — or, for a request that names
    its site only in its text, started on `start_sites` while its ground truth stays on `site`."""

    id: str = Field(min_length=1, pattern=r"^[A-Za-z0-9][A-Za-z0-9._/-]*$")
    site: str = Field(min_length=1)
    kind: QueryKind
    query: str = Field(min_length=3)
    relevant: tuple[str, ...] = Field((), description="Testbed item ids that answer the query (ground truth).")
    contract: QueryContract | None = Field(None, description="What the request asks of the report (constraints).")
    start_sites: tuple[str, ...] = Field(
        (), description="Dataset sites the run is given instead of `site` (which the text then names)."
    )
    also_sites: tuple[str, ...] = Field(
        (), description="Dataset sites the run is given besides `site` (a request across sites that share works)."
    )

    @model_validator(mode="after")
    def _site_named_in_text(self) -> DatasetQuery:
        if (SITE_URL_PLACEHOLDER in self.query) != bool(self.start_sites):
            raise ValueError(
                f"query {self.id}: a query names {SITE_URL_PLACEHOLDER} in its text exactly when it has start_sites"
            )
        if self.site in self.start_sites:
            raise ValueError(f"query {self.id}: start_sites must not include the query's own site {self.site}")
        if self.also_sites and (self.start_sites or self.site in self.also_sites):
            raise ValueError(f"query {self.id}: also_sites go with the query's own site, not with start_sites")
        return self

    @property
    def run_sites(self) -> tuple[str, ...]:
        """The dataset sites the run is given: `start_sites`, else its own site and `also_sites`."""
        return self.start_sites or (self.site, *self.also_sites)

    def text(self, site_url: str) -> str:
        """The request as the user types it, with its own site's start URL in place of the placeholder."""
        return self.query.replace(SITE_URL_PLACEHOLDER, site_url)


class EvalDataset(_Strict):
    """A whole dataset; validation checks that every query names a listed site and that ids are unique."""

    name: str = Field(min_length=1, pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
    description: str = ""
    source: Literal["testbed", "web"]
    seed: int | None = Field(None, description="Seed of the generated testbed (testbed datasets only).")
    sites: tuple[DatasetSite, ...] = Field(min_length=1)
    queries: tuple[DatasetQuery, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _consistent(self) -> EvalDataset:
        site_names = [site.name for site in self.sites]
        repeated = sorted(name for name, count in Counter(site_names).items() if count > 1)
        if repeated:
            raise ValueError(f"site(s) listed twice: {repeated}")
        repeated = sorted(qid for qid, count in Counter(q.id for q in self.queries).items() if count > 1)
        if repeated:
            raise ValueError(f"query id(s) used twice: {repeated}")
        unknown = sorted({q.site for q in self.queries}.union(*(q.run_sites for q in self.queries)) - set(site_names))
        if unknown:
            raise ValueError(f"queries name site(s) not listed under sites: {unknown}")
        if self.source == "testbed":
            if self.seed is None:
                raise ValueError("a testbed dataset needs the seed of its testbed")
            with_url = [site.name for site in self.sites if site.url]
            if with_url:
                raise ValueError(f"testbed sites get their URLs when served; remove url from {with_url}")
            without_truth = [q.id for q in self.queries if not q.relevant]
            if without_truth:
                raise ValueError(f"testbed queries without ground truth (relevant): {without_truth[:5]}")
        else:
            without_url = [site.name for site in self.sites if not site.url]
            if without_url:
                raise ValueError(f"web sites need a start url: {without_url}")
            bad = [s.name for s in self.sites if s.url and not s.url.startswith(("http://", "https://"))]
            if bad:
                raise ValueError(f"site urls must start with http:// or https://: {bad}")
        return self

    @property
    def has_ground_truth(self) -> bool:
        return self.source == "testbed"

    def site(self, name: str) -> DatasetSite:
        for site in self.sites:
            if site.name == name:
                return site
        raise ConfigError(f"dataset {self.name!r} has no site {name!r}; its sites: {', '.join(self.site_names())}")

    def site_names(self) -> list[str]:
        return [site.name for site in self.sites]

    def limited(self, per_site: int | None) -> EvalDataset:
        """The dataset with at most `per_site` queries of each site, in the file's order (all when None)."""
        if per_site is None:
            return self
        if per_site < 1:
            raise ConfigError(f"--limit must be at least 1, not {per_site}")
        kept: list[DatasetQuery] = []
        for site in self.site_names():
            kept += [q for q in self.queries if q.site == site][:per_site]
        order = {id(q): n for n, q in enumerate(self.queries)}
        return self.model_copy(update={"queries": tuple(sorted(kept, key=lambda q: order[id(q)]))})

    def of_kinds(self, kinds: Sequence[str] | None) -> EvalDataset:
        """The dataset's queries of `kinds` only (all when None); an unknown kind is a ConfigError."""
        if kinds is None:
            return self
        known = get_args(QueryKind)
        unknown = sorted(set(kinds) - set(known))
        if unknown:
            raise ConfigError(f"no query kind {', '.join(map(repr, unknown))}; the kinds are: {', '.join(known)}")
        return self.model_copy(update={"queries": tuple(q for q in self.queries if q.kind in kinds)})

    def select(self, sites: list[str] | None) -> EvalDataset:
        """The dataset restricted to `sites` (all when None); an unknown site name is a ConfigError."""
        if sites is None:
            return self
        for name in sites:
            self.site(name)
        queries = tuple(q for q in self.queries if q.site in sites)
        needed = set(sites).union(*(q.run_sites for q in queries))  # where requests naming a site start
        chosen = [site for site in self.sites if site.name in needed]
        return self.model_copy(update={"sites": tuple(chosen), "queries": queries})


def builtin_dataset_path(name: str) -> Path:
    """The file of a dataset shipped with the package (``testbed`` or ``preprints``)."""
    if name not in BUILTIN_DATASETS:
        raise ConfigError(f"no built-in dataset {name!r}; built-in: {', '.join(BUILTIN_DATASETS)}")
    return Path(str(resources.files("research_crawler.eval.datasets").joinpath(f"{name}.yaml")))


def resolve_dataset(name_or_path: str | Path) -> Path:
    """A dataset file from a path, or from a built-in name when no such file exists."""
    path = Path(name_or_path)
    if path.is_file():
        return path
    if str(name_or_path) in BUILTIN_DATASETS:
        return builtin_dataset_path(str(name_or_path))
    raise ConfigError(
        f"no dataset file {str(name_or_path)!r} (and it is not a built-in dataset: {', '.join(BUILTIN_DATASETS)})"
    )


def load_dataset(path: Path) -> EvalDataset:
    """Read and validate a dataset file; any problem is a ConfigError naming the file and the field."""
    data = load_yaml(read_user_file(Path(path), what="the dataset"), path=Path(path), what="the dataset")
    if not isinstance(data, dict):
        raise ConfigError(f"the dataset {path} must be a mapping with name, source, sites and queries")
    try:
        return EvalDataset.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(part) for part in error['loc']) or 'dataset'}: {error['msg']}" for error in exc.errors()
        )
        raise ConfigError(f"invalid dataset {path}: {problems}") from exc
