"""The unfamiliar web: testbed sites built as real publishers, repositories and archives are — a consent wall, a
POST-only search with "Load more", feeds and a sitemap, a deep browse hierarchy, a login wall, the same work on two
sites — with their items and requests, generated from a seed.

Their papers' titles mostly do not repeat the requests' words (a material, a language, a method: the abstract makes
the topic plain), near misses share the words and answer something else, and each request carries its ground truth
as item ids; a work on two sites (a preprint and its journal version) is one work in it. The held-out sites
(`heldout_web`) are generated here too, from their specs and plans, but their pages are drawn in their own module.
"""

from __future__ import annotations

import random
from collections import Counter
from datetime import date, timedelta
from typing import Any

from research_crawler.errors import ConfigError
from research_crawler.eval.testbed.fresh_batches import FRESH_BATCHES, FreshBatch
from research_crawler.eval.testbed.heldout_web import (
    HELDOUT_PLANS,
    HELDOUT_SHARED,
    HELDOUT_SITE_SPECS,
    heldout_identity,
)
from research_crawler.eval.testbed.markup import url_slug
from research_crawler.eval.testbed.models import Item, Query, SiteSpec, Testbed
from research_crawler.eval.testbed.unfamiliar_words import NearMiss, UnfamiliarTopic, testbed_topics, unfamiliar_topics
from research_crawler.eval.testbed.vocabulary import DOI_PREFIX, author_names, sentence_case

__all__ = ["UNFAMILIAR_PLANS", "UNFAMILIAR_SITE_SPECS", "generate_unfamiliar_web"]

_FIRST, _LAST = date(2022, 1, 1), date(2026, 10, 31)
_YEAR_ASKED = 2024
_ITEMS_PER_TOPIC = (6, 9)
#: Papers per topic where the default does not fit: a report lists 10 items unless asked for more, so a topic of
#: two sites that share works holds at most 10 works; the portal's subjects run past the 10 its listings show.
_PER_TOPIC = {
    "consent-journal": (4, 5),
    "feed-preprints": (4, 5),
    "heldout-society": (4, 5),
    "heldout-preprints": (4, 5),
    "loadmore-portal": (9, 10),
} | {site: count for batch in FRESH_BATCHES for site, count in batch.per_topic.items()}
#: Sites that deposit in batches: a topic's papers fall in three months (two of 2024, three or more of the newest),
#: so that a careful reader reaches "the 3 most recent" or "in 2024" in a few pages of a deep hierarchy.
_BATCHED = ("deep-archive",)
_SHARED_PER_TOPIC = 3
#: The share of titles that use the request's words (the others name a material, a language, a method).
_PLAIN_TITLES = 0.2
#: Sites whose house style writes titles in sentence case (their copy of a preprint's title differs in case only).
_SENTENCE_CASE = ("consent-journal",)

#: The visible sites. Each category is the section the site files a topic (and its near misses) under.
UNFAMILIAR_SITE_SPECS: tuple[SiteSpec, ...] = (
    SiteSpec(
        name="consent-journal",
        title="Meridian Letters",
        layout="consent-journal",
        tagline="Short, peer-reviewed letters across the physical and life sciences",
        categories={
            "electrolytes": "Energy Materials",
            "atoms": "Quantum Technology",
            "bleaching": "Marine Ecology",
            "electrolyte-drinks": "Energy Materials",
            "atom-economy": "Quantum Technology",
        },
    ),
    SiteSpec(
        name="loadmore-portal",
        title="OpenReach Research Portal",
        layout="loadmore-portal",
        tagline="Open-access research from publicly funded institutes",
        categories={
            "smoke": "Environment and Health",
            "antibiotics": "Infectious Disease",
            "lowres-asr": "Language Technology",
            "bleaching": "Oceans",
            "tobacco": "Environment and Health",
            "antibiotic-stewardship": "Infectious Disease",
            "handwriting": "Language Technology",
            "textile-bleaching": "Oceans",
        },
    ),
    SiteSpec(
        name="feed-preprints",
        title="Preprint Commons",
        layout="feed-preprints",
        tagline="Free distribution of preprints before peer review",
        categories={
            "electrolytes": "cond-mat.mtrl-sci",
            "atoms": "quant-ph",
            "lowres-asr": "cs.CL",
            "handwriting": "cs.CL",
            "atom-economy": "quant-ph",
        },
    ),
    SiteSpec(
        name="deep-archive",
        title="Cascadia Research Archive",
        layout="deep-archive",
        tagline="The institutional archive of the Cascadia universities",
        categories={
            "smoke": "Public Health",
            "bleaching": "Marine Biology",
            "electrolytes": "Materials Science",
            "tobacco": "Public Health",
            "textile-bleaching": "Marine Biology",
        },
    ),
    SiteSpec(
        name="paywall-press",
        title="Northgate Press",
        layout="paywall-press",
        tagline="Subscription journals for professionals",
        categories={"antibiotics": "Clinical Microbiology", "smoke": "Occupational Medicine"},
    ),
)

#: Each visible site's requests, in order: "topic", "recent" (the 3 most recent), "year" (published in 2024),
#: "author" (by a surname), "cross:<site>" (the topic across this site and another that shares works with it).
UNFAMILIAR_PLANS: dict[str, tuple[str, ...]] = {
    "consent-journal": ("topic", "topic", "year", "author", "cross:feed-preprints", "cross:feed-preprints"),
    "loadmore-portal": ("topic", "topic", "recent", "year"),
    "feed-preprints": ("topic", "recent", "recent", "author"),
    "deep-archive": ("recent", "year", "recent"),
    "paywall-press": ("topic",),
}

#: Works on two sites: (preprint site, journal site) → the topics whose works the journal also publishes.
UNFAMILIAR_SHARED: dict[tuple[str, str], tuple[str, ...]] = {
    ("feed-preprints", "consent-journal"): ("electrolytes", "atoms"),
}

_TOPIC_REQUESTS = (
    "Find papers on {name}",
    "What has been published on {name}?",
    "I am looking for research articles about {name}",
    "Collect studies of {name}",
)
_APPROACHES = (
    "We study {subject} with {method}.",
    "Here we combine {method} with measurements of {subject}.",
    "This work examines {effect} in {subject}, using {method}.",
    "We report {effect} in {subject} and explain it with {method}.",
)
_CLOSINGS = (
    "Data and code are available from the authors.",
    "We discuss what the results mean for practice.",
    "",
    "Limitations and next steps are discussed.",
)


def generate_unfamiliar_web(seed: int) -> Testbed:
    """The unfamiliar sites (the held-out ones included) for `seed`: items, works on two sites, requests."""
    rng = random.Random(f"unfamiliar-web-{seed}")
    topics, near_misses = unfamiliar_topics()
    specs = UNFAMILIAR_SITE_SPECS + HELDOUT_SITE_SPECS
    writer = _Writer(rng, {t.slug: t for t in topics}, {n.slug: n for n in near_misses})
    items: list[Item] = []
    for spec in specs:
        for slug, category in spec.categories.items():
            items.extend(writer.items(spec, slug, category))
    for (preprints, journal), shared in (UNFAMILIAR_SHARED | HELDOUT_SHARED).items():
        items = writer.publish(items, specs=specs, preprints=preprints, journal=journal, topics=shared)
    testbed = Testbed(
        seed=seed,
        topics=testbed_topics(topics, near_misses),
        sites=specs,
        items=tuple(items),
        queries=(),
    )
    plans = UNFAMILIAR_PLANS | HELDOUT_PLANS
    queries = [q for spec in specs for q in _requests(rng, testbed, spec, plans.get(spec.name, ()), topics)]
    web = testbed.model_copy(update={"queries": tuple(queries)})
    for batch in FRESH_BATCHES:  # each batch's own topics are held out with it
        own, own_near = unfamiliar_topics(batch.topics_file) if batch.topics_file else ((), ())
        web = _with_fresh_sites(web, seed, topics + own, near_misses + own_near, batch)
    return web


def _with_fresh_sites(testbed: Testbed, seed: int, topics: Any, near: Any, batch: FreshBatch) -> Testbed:
    """`testbed` and a fresh held-out batch, drawn from its own stream (others' items kept)."""
    specs, plans = batch.specs, batch.plans
    rng = random.Random(f"{batch.stream}-{seed}")
    writer = _Writer(rng, {t.slug: t for t in topics}, {n.slug: n for n in near})
    items = [i for spec in specs for slug, c in spec.categories.items() for i in writer.items(spec, slug, c)]
    for (preprints, journal), slugs in batch.shared.items():
        items = writer.publish(items, specs=specs, preprints=preprints, journal=journal, topics=slugs)
    items = [i.model_copy(update={"authors": i.authors[:1]}) if i.site in batch.solo else i for i in items]
    new = tuple(t for t in testbed_topics(topics, near) if t not in testbed.topics)
    web = testbed.model_copy(
        update={"sites": testbed.sites + specs, "items": testbed.items + tuple(items), "topics": testbed.topics + new}
    )
    queries = [q for spec in specs for q in _requests(rng, web, spec, plans[spec.name], topics)]
    return web.model_copy(update={"queries": testbed.queries + tuple(queries)})


class _Writer:
    """Writes items site by site, keeping titles, dates within a site and keys unique."""

    def __init__(self, rng: random.Random, topics: dict[str, UnfamiliarTopic], near: dict[str, NearMiss]) -> None:
        self._rng = rng
        self._topics = topics
        self._near = near
        self._titles: set[str] = set()
        self._near_used: set[str] = set()
        self._dates: dict[str, set[str]] = {}
        self._serial = 0
        self._given, self._surnames = author_names()

    def items(self, spec: SiteSpec, slug: str, category: str) -> list[Item]:
        if slug in self._near:
            near = self._near[slug]
            titles = [t for t in near.titles if t not in self._near_used][:2]
            self._near_used.update(titles)
            return [
                self._item(
                    spec, slug, category, title, f"{near.context} {title}: what we found.", authors=self._authors(None)
                )
                for title in titles
            ]
        topic = self._topics[slug]
        lead = self._name()
        count = self._rng.randint(*_PER_TOPIC.get(spec.name, _ITEMS_PER_TOPIC))
        days = self._batch_days(spec.name, count) if spec.name in _BATCHED else [None] * count
        years = [_YEAR_ASKED, _YEAR_ASKED] + [None] * (count - 2)  # every site holds two papers of 2024 per topic
        self._rng.shuffle(years)
        made = []
        for n, (year, day) in enumerate(zip(years, days, strict=True)):
            title, abstract, keywords = self._paper(topic)
            authors = self._authors(lead if n % 3 != 2 else None)
            made.append(
                self._item(
                    spec, slug, category, title, abstract, authors=authors, year=year, day=day, keywords=keywords
                )
            )
        return made

    def _batch_days(self, site: str, count: int) -> list[date | None]:
        """Days in three months: two in a month of 2024, three in a month of the last year, the rest between."""
        rng = self._rng
        months = [(_YEAR_ASKED, rng.randint(1, 12)), (2025, rng.randint(1, 12)), (_LAST.year, rng.randint(1, 10))]
        plan = [months[0]] * 2 + [months[2]] * 3 + [months[1]] * (count - 5)
        return [self._free_day(site, date(year, month, rng.randint(1, 26))) for year, month in plan]

    def publish(
        self, items: list[Item], *, specs: tuple[SiteSpec, ...], preprints: str, journal: str, topics: tuple[str, ...]
    ) -> list[Item]:
        """`items` with some preprints of `topics` published on `journal` as well: a copy each, one work."""
        journal_spec = next(spec for spec in specs if spec.name == journal)
        updated = list(items)
        for slug in topics:
            candidates = [i for i in items if i.site == preprints and i.topic == slug and i.date[5:7] <= "07"]
            for preprint in self._rng.sample(candidates, min(_SHARED_PER_TOPIC, len(candidates))):
                work = f"work:{preprint.id}"
                published = date.fromisoformat(preprint.date) + timedelta(days=self._rng.randint(40, 150))
                copy = self._item(
                    journal_spec,
                    slug,
                    journal_spec.categories[slug],
                    preprint.title,
                    preprint.abstract,
                    authors=preprint.authors,
                    day=self._free_day(journal, published),
                    keywords=preprint.keywords,
                )
                copy = copy.model_copy(update={"work": work, "arxiv_id": preprint.arxiv_id})
                updated[updated.index(preprint)] = preprint.model_copy(update={"work": work, "doi": copy.doi})
                updated.append(copy)
        return updated

    # ------------------------------------------------------------------ one paper

    def _paper(self, topic: UnfamiliarTopic) -> tuple[str, str, tuple[str, ...]]:
        rng = self._rng
        for _ in range(200):
            words = {
                "subject": rng.choice(topic.subjects),
                "effect": rng.choice(topic.effects),
                "method": rng.choice(topic.methods),
            }
            template = rng.choice(topic.plain_titles if rng.random() < _PLAIN_TITLES else topic.templates)
            title = template.format(**words)
            if title not in self._titles:
                break
        else:
            raise ConfigError(f"topic {topic.slug!r} has too few words for unique titles")
        self._titles.add(title)
        lowered = {key: sentence_case(value) for key, value in words.items()}
        sentences = [
            rng.choice(topic.contexts),
            rng.choice(_APPROACHES).format(**lowered),
            rng.choice(topic.findings).format(number=rng.randint(3, 95)),
            rng.choice(_CLOSINGS),
        ]
        abstract = " ".join(s[:1].upper() + s[1:] for s in sentences if s)
        return title, abstract, (lowered["subject"], lowered["method"])

    def _name(self) -> str:
        return f"{self._rng.choice(self._given)} {self._rng.choice(self._surnames)}"

    def _authors(self, lead: str | None) -> tuple[str, ...]:
        """Two to five authors; a lab's lead, when given, first or last as labs sign."""
        names: list[str] = []
        count = self._rng.choice((2, 3, 3, 4, 5))
        while len(names) < count:
            name = self._name()
            if name not in names and name != lead:
                names.append(name)
        if lead is not None:
            names.insert(0 if self._rng.random() < 0.5 else len(names), lead)
        return tuple(names)

    def _free_day(self, site: str, wanted: date) -> date:
        """`wanted`, or the next day no other paper of `site` has (so "the 3 most recent" is never a tie)."""
        taken = self._dates.setdefault(site, set())
        while wanted.isoformat() in taken:
            wanted += timedelta(days=1)
        taken.add(wanted.isoformat())
        return wanted

    def _item(
        self,
        spec: SiteSpec,
        slug: str,
        category: str,
        title: str,
        abstract: str,
        *,
        authors: tuple[str, ...],
        year: int | None = None,
        day: date | None = None,
        keywords: tuple[str, ...] = (),
    ) -> Item:
        rng = self._rng
        if day is None:
            low, high = (date(year, 1, 1), date(year, 12, 31)) if year else (_FIRST, _LAST)
            day = self._free_day(spec.name, low + timedelta(days=rng.randint(0, (high - low).days)))
        self._serial += 1
        if spec.name in _SENTENCE_CASE:
            title = sentence_case(title)
            title = title[:1].upper() + title[1:]
        key, path, pdf_path, doi, arxiv_id = _identity(spec, day, self._serial, title)
        return Item(
            id=f"{spec.name}:{key}",
            site=spec.name,
            key=key,
            path=path,
            pdf_path=pdf_path,
            title=title,
            authors=authors,
            date=day.isoformat(),
            abstract=abstract,
            doi=doi,
            topic=slug,
            category=category,
            keywords=keywords,
            arxiv_id=arxiv_id,
        )


def _identity(spec: SiteSpec, day: date, serial: int, title: str) -> tuple[str, str, str, str | None, str | None]:
    """(key, path, PDF path, DOI, arXiv-style id) in the site's own scheme."""
    layout = spec.layout
    schemes = {"heldout": heldout_identity} | {batch.layout: batch.identity for batch in FRESH_BATCHES}
    if layout.split("-")[0] in schemes:
        return schemes[layout.split("-")[0]](layout, day, serial, title)
    if layout == "consent-journal":
        key = f"mer.{day.year}.{serial:04d}"
        doi = f"{DOI_PREFIX}/{key}"
        return key, f"/doi/{doi}", f"/doi/pdf/{doi}", doi, None
    if layout == "loadmore-portal":
        key = f"{10000 + serial}"
        return key, f"/article/{key}/{url_slug(title)}", f"/article/{key}/download", None, None
    if layout == "feed-preprints":
        key = f"{day:%y%m}.{serial:05d}"
        return key, f"/abs/{key}", f"/pdf/{key}v1", None, key
    if layout == "deep-archive":
        key = f"cra-{day.year}-{serial:04d}"
        return key, f"/record/{serial}", f"/record/{serial}/files/paper.pdf", None, None
    if layout == "paywall-press":
        key = f"np.{day.year}.{serial}"
        doi = f"{DOI_PREFIX}/{key}"
        return key, f"/article/{key}", f"/article/{key}/pdf", doi, None
    raise ConfigError(f"no identity scheme for layout {layout!r}")


def _requests(
    rng: random.Random, testbed: Testbed, spec: SiteSpec, plan: tuple[str, ...], topics: tuple[UnfamiliarTopic, ...]
) -> list[Query]:
    """The site's requests, one per plan entry, each on a topic of the site that can answer it."""
    names = {t.slug: t.name for t in topics}
    own = [slug for slug in spec.categories if slug in names]
    order = own[:]
    rng.shuffle(order)
    used: Counter[str] = Counter()
    asked: Counter[tuple[str, str]] = Counter()
    queries = []
    for entry in plan:
        kind, _, other = entry.partition(":")
        candidates = [s for s in order if kind != "cross" or s in testbed.site(other).categories]
        slug = min(candidates, key=lambda s: (used[s], order.index(s)))
        used[slug] += 1
        asked[slug, kind] += 1
        on_topic = [i for i in testbed.items_on(spec.name) if i.topic == slug]  # newest first
        name = names[slug]
        fields: dict[str, Any] = {}
        if kind == "topic":
            text, relevant = rng.choice(_TOPIC_REQUESTS).format(name=name), on_topic
        elif kind == "recent":
            text, relevant = f"Find the 3 most recent papers on {name}", on_topic[:3]
            fields = {"count": 3, "most_recent": True}
        elif kind == "year":
            text, relevant = (
                f"Find papers on {name} published in {_YEAR_ASKED}",
                [i for i in on_topic if i.year == _YEAR_ASKED],
            )
            fields = {"year": _YEAR_ASKED}
        elif kind == "author":
            surname = Counter(a.split()[-1] for i in on_topic for a in i.authors).most_common(1)[0][0]
            text, relevant = (
                f"Find papers on {name} by {surname}",
                [i for i in on_topic if any(a.split()[-1] == surname for a in i.authors)],
            )
            fields = {"author": surname}
        elif kind == "cross":
            theirs = [i for i in testbed.items_on(other) if i.topic == slug]
            text, relevant = rng.choice(_TOPIC_REQUESTS).format(name=name), on_topic + theirs
            fields = {"also_sites": (other,)}
        else:
            raise ConfigError(f"unknown request kind {kind!r} in the plan of {spec.name}")
        queries.append(
            Query(
                id=f"{spec.name}/unfamiliar/{slug}-{kind}" + (f"-{asked[slug, kind]}" if asked[slug, kind] > 1 else ""),
                site=spec.name,
                kind="unfamiliar",
                text=text,
                keywords=name,
                topic=slug,
                relevant_item_ids=tuple(i.id for i in relevant),
                **fields,
            )
        )
    return queries
