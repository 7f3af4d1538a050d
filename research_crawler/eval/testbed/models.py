"""The testbed's data: topics, sites, items and queries with their ground truth, as immutable models.

Everything here is generated from a seed by `corpus.generate_testbed`; item URLs are site-relative paths
because ports are only known once `TestbedServer` has started (it resolves them to absolute URLs).
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from research_crawler.errors import ConfigError

__all__ = ["Aspect", "Item", "Layout", "Query", "QueryKind", "SiteSpec", "Testbed", "Topic"]

QueryKind = Literal["general", "specific", "unfamiliar"]
#: How each site draws its pages (`layouts.SITE_CLASSES`): the first five are the original testbed's; the others are
#: the unfamiliar web's (`unfamiliar_corpus`), sites built as real publishers, repositories and archives are.
Layout = Literal[
    "arxiv",
    "biorxiv",
    "journal",
    "js",
    "repo",
    "consent-journal",
    "loadmore-portal",
    "feed-preprints",
    "deep-archive",
    "paywall-press",
    "heldout-society",
    "heldout-preprints",
    "fresh-bulletin",
    "fresh-lang",
    "fresh2-journal",
    "fresh2-repository",
    "fresh2-proceedings",
    "fresh3-preprints",
    "fresh3-society",
    "fresh3-repository",
    "fresh4-theses",
    "fresh4-lab",
    "fresh4-journal",
    "fresh5-colloquium",
    "fresh5-homepage",
    "fresh5-reports",
    "fresh6-catalogue",
    "fresh6-datarepo",
    "fresh6-news",
    "fresh7-proceedings",
    "fresh7-books",
    "fresh7-wiki",
    "fresh8-portal",
    "fresh8-review",
    "fresh8-preprints",
    "fresh9-funder",
    "fresh9-agency",
    "fresh9-group",
    "fresh10-index",
    "fresh10-events",
    "fresh10-discovery",
    "fresh11-standards",
    "fresh11-archive",
    "fresh11-registry",
    "fresh12-theses",
    "fresh12-newsletter",
    "fresh12-library",
    "fresh13-collections",
    "fresh13-readinglists",
    "fresh13-lectures",
    "fresh14-cris",
    "fresh14-forum",
    "fresh14-wikibase",
    "fresh15-ojs",
    "fresh15-cran",
    "fresh15-confluence",
    "fresh16-hal",
    "fresh16-blog",
    "fresh16-lists",
    "fresh17-papers",
    "fresh17-pubpub",
    "fresh17-commons",
    "fresh18-literature",
    "fresh18-department",
    "fresh18-patents",
    "fresh19-portal",
    "fresh19-hep",
    "fresh19-library",
    "fresh20-econ",
    "fresh20-scielo",
    "fresh20-philbib",
    "fresh21-forge",
    "fresh21-reviews",
    "fresh21-social",
    "fresh22-osf",
    "fresh22-handbook",
    "fresh22-press",
    "fresh23-daily",
    "fresh23-herbarium",
    "fresh23-planet",
    "fresh24-pmc",
    "fresh24-overlay",
    "fresh24-newsroom",
]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Aspect(_Frozen):
    """A sub-aspect of a topic that only some items carry (the target of some specific queries)."""

    slug: str
    phrase: str = Field(description="Appears in the title or abstract of exactly the items with this aspect.")


class Topic(_Frozen):
    """A research topic; its `name` is what a general query asks for."""

    slug: str
    name: str
    keywords: tuple[str, ...]
    aspects: tuple[Aspect, ...]


class SiteSpec(_Frozen):
    """One testbed site: its name (used in URLs and APIs), its look, and the topics it holds."""

    name: str = Field(description="Stable identifier, e.g. 'arxiv-like'.")
    title: str = Field(description="Display name shown in the site's pages.")
    layout: Layout
    tagline: str
    categories: dict[str, str] = Field(description="Topic slug → the site's subject category for it.")

    @property
    def topics(self) -> tuple[str, ...]:
        return tuple(self.categories)


class Item(_Frozen):
    """A paper on one site. `path` is the site-relative URL of its page (absolute once served)."""

    id: str = Field(description="Globally unique: '<site>:<key>'.")
    site: str
    key: str = Field(description="The site's own identifier (arXiv-style id, DOI suffix, HAL id…).")
    path: str = Field(description="Site-relative URL of the item page, starting with '/'.")
    pdf_path: str
    title: str
    authors: tuple[str, ...]
    date: str = Field(pattern=r"^\d{4}-\d{2}-\d{2}$")
    abstract: str
    doi: str | None = None
    topic: str
    category: str
    aspect: str | None = Field(default=None, description="Aspect slug, when the item carries one.")
    keywords: tuple[str, ...] = ()
    work: str | None = Field(
        default=None,
        description="The work this item is one copy of, when another site holds another (a preprint "
        "and its journal version share it); None for an item that is its own work.",
    )
    arxiv_id: str | None = Field(default=None, description="The preprint identifier a page shows ('2403.01234').")

    @property
    def work_id(self) -> str:
        """The work this item is a copy of: its `work`, else itself."""
        return self.work or self.id

    @property
    def year(self) -> int:
        return int(self.date[:4])


class Query(_Frozen):
    """A research request with its ground truth on one site."""

    id: str
    site: str
    kind: QueryKind
    text: str = Field(description="The request as a user would type it.")
    keywords: str = Field(description="Search-box words for the request.")
    topic: str
    year: int | None = None
    aspect: str | None = None
    relevant_item_ids: tuple[str, ...]
    count: int | None = Field(default=None, description='At most this many items ("the 3 most recent").')
    most_recent: bool = Field(default=False, description="The newest first, exactly the `count` newest relevant.")
    author: str | None = Field(default=None, description='The surname the request names ("by Okafor").')
    also_sites: tuple[str, ...] = Field(default=(), description="Sites the request also runs on, besides `site`.")


class Testbed(_Frozen):
    """A whole testbed web: what each site holds and which items answer which query."""

    __test__: ClassVar[bool] = False  # not a pytest test class despite the name

    seed: int
    topics: tuple[Topic, ...]
    sites: tuple[SiteSpec, ...]
    items: tuple[Item, ...]
    queries: tuple[Query, ...]

    def joined(self, other: Testbed) -> Testbed:
        """This testbed and `other` as one web (`other`'s sites after this one's): names and ids must not clash."""
        clash = sorted(set(self.site_names()) & set(other.site_names())) or sorted(
            {t.slug for t in self.topics} & {t.slug for t in other.topics}
        )
        if clash:
            raise ConfigError(f"the testbeds to join share {clash}")
        return Testbed(
            seed=self.seed,
            topics=self.topics + other.topics,
            sites=self.sites + other.sites,
            items=self.items + other.items,
            queries=self.queries + other.queries,
        )

    def copies_of(self, item: Item) -> list[Item]:
        """Every item that is a copy of `item`'s work (itself included), in the testbed's order."""
        return [i for i in self.items if i.work_id == item.work_id]

    def site(self, name: str) -> SiteSpec:
        for spec in self.sites:
            if spec.name == name:
                return spec
        raise ConfigError(f"unknown testbed site {name!r}; the testbed has: {', '.join(self.site_names())}")

    def site_names(self) -> list[str]:
        return [spec.name for spec in self.sites]

    def topic(self, slug: str) -> Topic:
        for topic in self.topics:
            if topic.slug == slug:
                return topic
        raise ConfigError(f"unknown testbed topic {slug!r}; known: {', '.join(t.slug for t in self.topics)}")

    def items_on(self, site: str) -> list[Item]:
        """The items of one site, newest first (the order listings show them in)."""
        self.site(site)
        return sorted((i for i in self.items if i.site == site), key=lambda i: (i.date, i.id), reverse=True)

    def item(self, item_id: str) -> Item:
        for candidate in self.items:
            if candidate.id == item_id:
                return candidate
        raise ConfigError(f"unknown testbed item {item_id!r}")

    def query(self, query_id: str) -> Query:
        for candidate in self.queries:
            if candidate.id == query_id:
                return candidate
        raise ConfigError(f"unknown testbed query {query_id!r}")

    def queries_for(self, site: str, *, kind: QueryKind | None = None) -> list[Query]:
        self.site(site)
        return [q for q in self.queries if q.site == site and (kind is None or q.kind == kind)]

    def relevant_items(self, query_id: str) -> list[Item]:
        """The ground truth of a query: the items that answer it."""
        return [self.item(item_id) for item_id in self.query(query_id).relevant_item_ids]

    def matching_items(
        self,
        *,
        topic: str,
        site: str | None = None,
        year: int | None = None,
        aspect: str | None = None,
    ) -> list[Item]:
        """Ground truth for any combination (e.g. a query over several sites): the items that fit."""
        self.topic(topic)
        if site is not None:
            self.site(site)
        return [
            i
            for i in self.items
            if i.topic == topic
            and (site is None or i.site == site)
            and (year is None or i.year == year)
            and (aspect is None or i.aspect == aspect)
        ]
