"""Generates a whole testbed — items on every site and queries with their ground truth — from one seed.

Everything is drawn from a single `random.Random(seed)` in a fixed order, so the same seed always gives
the same testbed (byte-identical pages and answers) and another seed a different one.
"""

from __future__ import annotations

import random
from collections import Counter
from datetime import date, timedelta
from typing import TypeVar

from research_crawler.errors import ConfigError
from research_crawler.eval.testbed.models import Aspect, Item, Query, SiteSpec, Testbed, Topic
from research_crawler.eval.testbed.site_specs import SITE_SPECS
from research_crawler.eval.testbed.unfamiliar_corpus import generate_unfamiliar_web
from research_crawler.eval.testbed.vocabulary import (
    DOI_PREFIX,
    AspectVocabulary,
    TopicVocabulary,
    author_names,
    sentence_case,
    topic_vocabularies,
)

__all__ = ["DEFAULT_SEED", "FIRST_DATE", "LAST_DATE", "generate_testbed", "sentence_case"]

DEFAULT_SEED = 2024
FIRST_DATE = date(2021, 1, 1)
LAST_DATE = date(2026, 10, 31)
ITEMS_PER_TOPIC = (6, 9)
SPECIFIC_QUERIES_PER_SITE = 6

_TITLE_TEMPLATES = (
    "{method}: {technique} for {task}",
    "{technique} Improves {subject} for {task}",
    "Towards Reliable {task} with {subject}",
    "{method}: Scalable {subject} via {technique}",
    "On the Limits of {technique} in {subject}",
    "A Benchmark of {subject} for {task}",
    "Revisiting {technique} for {task}",
    "{method}: Rethinking {task} through {technique}",
    "Learning {task} with {technique} and {technique2}",
)
_APPROACH_SENTENCES = (
    "We propose {method}, which combines {technique} with {technique2}.",
    "We introduce {method}, a framework built on {technique} for {task}.",
    "This paper presents {method}, an approach based on {technique} and {technique2}.",
    "Here we describe {method}, which uses {technique} to make {task} tractable.",
)
_RESULT_SENTENCES = (
    "On {setting}, {method} improves {metric} by {gain}% over the strongest competing method.",
    "Experiments on {setting} show a {gain}% gain in {metric}.",
    "Evaluated on {setting}, {method} matches prior work in {metric} while running {speed} times faster.",
)
_CLOSING_SENTENCES = (
    "Code and data are publicly available.",
    "We discuss limitations and directions for future work.",
    "These results suggest a practical route towards deployment.",
    "An ablation study isolates the contribution of each component.",
    "",
)
_GENERAL_QUERY_TEMPLATES = (
    "Find papers on {name}",
    "What papers are there about {name}?",
    "Collect research articles on {name}",
    "I am looking for papers about {name}",
)
_T = TypeVar("_T")


def generate_testbed(seed: int = DEFAULT_SEED, *, unfamiliar: bool = False) -> Testbed:
    """The testbed for `seed`: topics, five sites with their items, and queries with their ground truth; with
    `unfamiliar`, followed by the unfamiliar web's sites (`unfamiliar_corpus`), the five unchanged."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ConfigError(f"the testbed seed must be an integer, not {seed!r}")
    if unfamiliar:
        return generate_testbed(seed).joined(generate_unfamiliar_web(seed))
    rng = random.Random(seed)
    vocabularies = {v.slug: v for v in topic_vocabularies()}
    topics = tuple(
        Topic(
            slug=v.slug,
            name=v.name,
            keywords=v.keywords,
            aspects=tuple(Aspect(slug=a.slug, phrase=a.phrase) for a in v.aspects),
        )
        for v in topic_vocabularies()
    )
    writer = _ItemWriter(rng)
    items: list[Item] = []
    for spec in SITE_SPECS:
        for topic_slug, category in spec.categories.items():
            vocabulary = vocabularies[topic_slug]
            for aspect in _plan_aspects(rng, vocabulary):
                items.append(writer.write(spec, vocabulary, category, aspect))
    queries: list[Query] = []
    for spec in SITE_SPECS:
        queries.extend(_queries_for_site(rng, spec, vocabularies, items))
    return Testbed(seed=seed, topics=topics, sites=SITE_SPECS, items=tuple(items), queries=tuple(queries))


def _plan_aspects(rng: random.Random, vocabulary: TopicVocabulary) -> list[AspectVocabulary | None]:
    """One entry per item of a (site, topic): most carry an aspect (each once or twice), two carry none."""
    count = rng.randint(*ITEMS_PER_TOPIC)
    order = list(vocabulary.aspects)
    rng.shuffle(order)
    plan: list[AspectVocabulary | None] = [order[i % len(order)] for i in range(count - 2)]
    plan += [None, None]
    rng.shuffle(plan)
    return plan


class _ItemWriter:
    """Writes items one at a time, keeping titles and site keys unique across the testbed."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self._titles: set[str] = set()
        self._keys: set[tuple[str, str]] = set()
        self._span_days = (LAST_DATE - FIRST_DATE).days

    def write(
        self, spec: SiteSpec, vocabulary: TopicVocabulary, category: str, aspect: AspectVocabulary | None
    ) -> Item:
        rng = self._rng
        published = FIRST_DATE + timedelta(days=rng.randint(0, self._span_days))
        words = {
            "method": rng.choice(vocabulary.method_prefixes) + rng.choice(vocabulary.method_suffixes),
            "subject": rng.choice(vocabulary.subjects),
            "task": rng.choice(vocabulary.tasks),
        }
        first, second = rng.sample(vocabulary.techniques, 2)
        words["technique"], words["technique2"] = first, second
        title = self._title(vocabulary, aspect, words)
        abstract = self._abstract(vocabulary, aspect, words)
        key, path, pdf_path, doi = self._identity(spec, category, published)
        keywords = [*rng.sample(vocabulary.keywords, 2), sentence_case(first)]
        if aspect is not None:
            keywords.append(aspect.phrase)
        return Item(
            id=f"{spec.name}:{key}",
            site=spec.name,
            key=key,
            path=path,
            pdf_path=pdf_path,
            title=title,
            authors=self._authors(),
            date=published.isoformat(),
            abstract=abstract,
            doi=doi,
            topic=vocabulary.slug,
            category=category,
            aspect=aspect.slug if aspect else None,
            keywords=tuple(keywords),
        )

    def _title(self, vocabulary: TopicVocabulary, aspect: AspectVocabulary | None, words: dict[str, str]) -> str:
        rng = self._rng
        for attempt in range(40):
            template = aspect.title if aspect is not None else rng.choice(_TITLE_TEMPLATES)
            title = template.format(**words)
            if attempt >= 20:  # the template space is crowded: make the title specific to a setting
                title = f"{title} on {rng.choice(vocabulary.settings)}"
            if title not in self._titles:
                self._titles.add(title)
                return title
            words["method"] = rng.choice(vocabulary.method_prefixes) + rng.choice(vocabulary.method_suffixes)
            words["subject"] = rng.choice(vocabulary.subjects)
            words["task"] = rng.choice(vocabulary.tasks)
        title = f"{title} ({len(self._titles)})"
        self._titles.add(title)
        return title

    def _abstract(self, vocabulary: TopicVocabulary, aspect: AspectVocabulary | None, words: dict[str, str]) -> str:
        rng = self._rng
        filled = {
            "method": words["method"],
            "task": sentence_case(words["task"]),
            "technique": sentence_case(words["technique"]),
            "technique2": sentence_case(words["technique2"]),
            "setting": rng.choice(vocabulary.settings),
            "metric": rng.choice(vocabulary.metrics),
            "gain": str(rng.randint(3, 41)),
            "speed": str(rng.randint(2, 12)),
        }
        sentences = [
            rng.choice(vocabulary.contexts),
            rng.choice(vocabulary.problems).format(**filled),
            rng.choice(_APPROACH_SENTENCES).format(**filled),
        ]
        if aspect is not None:
            sentences.append(aspect.sentence.format(**filled))
        sentences.append(rng.choice(_RESULT_SENTENCES).format(**filled))
        sentences.append(rng.choice(_CLOSING_SENTENCES))
        return " ".join(s[:1].upper() + s[1:] for s in sentences if s)

    def _authors(self) -> tuple[str, ...]:
        rng = self._rng
        count = rng.choice((2, 3, 3, 4, 4, 5, 6))
        given_names, surnames = author_names()
        names: list[str] = []
        while len(names) < count:
            name = f"{rng.choice(given_names)} {rng.choice(surnames)}"
            if name not in names:
                names.append(name)
        return tuple(names)

    def _identity(self, spec: SiteSpec, category: str, published: date) -> tuple[str, str, str, str | None]:
        """(key, path, pdf path, DOI) in the site's own identifier scheme."""
        rng = self._rng
        while True:
            if spec.layout == "arxiv":
                key = f"{published:%y%m}.{rng.randint(1, 99999):05d}"
                path, pdf, doi = f"/abs/{key}", f"/pdf/{key}", None
            elif spec.layout == "biorxiv":
                key = f"{published:%Y.%m.%d}.{rng.randint(500000, 699999):06d}"
                version = rng.choice((1, 1, 1, 2, 3))
                doi = f"{DOI_PREFIX}/{key}"
                path, pdf = f"/content/{doi}v{version}", f"/content/{doi}v{version}.full.pdf"
            elif spec.layout == "journal":
                journal_code = 40013 + 37 * sorted(set(spec.categories.values())).index(category)
                serial = f"{rng.randint(1000, 99999):05d}-{rng.randint(0, 9)}"
                key = f"s{journal_code:05d}-{published.year % 1000:03d}-{serial}"
                doi = f"{DOI_PREFIX}/{key}"
                path, pdf = f"/article/{doi}", f"/content/pdf/{doi}.pdf"
            elif spec.layout == "js":
                key = f"PS-{published.year}-{rng.randint(1, 9999):04d}"
                path, pdf, doi = f"/paper/{key}", f"/paper/{key}.pdf", None
            else:
                key = f"hal-0{rng.randint(1000000, 4999999)}"
                path, pdf = f"/{key}", f"/{key}/document"
                doi = f"{DOI_PREFIX}/hal.{published.year}.{rng.randint(100, 999)}" if rng.random() < 0.5 else None
            if (spec.name, key) not in self._keys:
                self._keys.add((spec.name, key))
                return key, path, pdf, doi


def _queries_for_site(
    rng: random.Random, spec: SiteSpec, vocabularies: dict[str, TopicVocabulary], items: list[Item]
) -> list[Query]:
    """A general query per topic of the site, then six specific ones: three by year, three by aspect."""
    site_items = [i for i in items if i.site == spec.name]
    queries: list[Query] = []
    for slug in spec.topics:
        name = vocabularies[slug].name
        relevant = tuple(i.id for i in site_items if i.topic == slug)
        queries.append(
            Query(
                id=f"{spec.name}/general/{slug}",
                site=spec.name,
                kind="general",
                text=rng.choice(_GENERAL_QUERY_TEMPLATES).format(name=name),
                keywords=name,
                topic=slug,
                relevant_item_ids=relevant,
            )
        )
    order = list(spec.topics)
    rng.shuffle(order)
    half = SPECIFIC_QUERIES_PER_SITE // 2
    for slug in order[:half]:
        of_topic = [i for i in site_items if i.topic == slug]
        year = _pick_common(rng, Counter(i.year for i in of_topic))
        name = vocabularies[slug].name
        queries.append(
            Query(
                id=f"{spec.name}/specific/{slug}-{year}",
                site=spec.name,
                kind="specific",
                text=f"Find papers on {name} published in {year}",
                keywords=name,
                topic=slug,
                year=year,
                relevant_item_ids=tuple(i.id for i in of_topic if i.year == year),
            )
        )
    for slug in order[half:SPECIFIC_QUERIES_PER_SITE]:
        of_topic = [i for i in site_items if i.topic == slug]
        aspect_slug = _pick_common(rng, Counter(i.aspect for i in of_topic if i.aspect))
        phrase = next(a.phrase for a in vocabularies[slug].aspects if a.slug == aspect_slug)
        name = vocabularies[slug].name
        queries.append(
            Query(
                id=f"{spec.name}/specific/{slug}-{aspect_slug}",
                site=spec.name,
                kind="specific",
                text=f"Find papers on {name} that deal with {phrase}",
                keywords=f"{name} {phrase}",
                topic=slug,
                aspect=aspect_slug,
                relevant_item_ids=tuple(i.id for i in of_topic if i.aspect == aspect_slug),
            )
        )
    return queries


def _pick_common(rng: random.Random, counts: Counter[_T]) -> _T:
    """A value shared by at least two items when there is one (a query with one answer is a weak test)."""
    best = max(counts.values())
    pool = sorted((v for v, n in counts.items() if n >= min(2, best)), key=str)
    return rng.choice(pool)
