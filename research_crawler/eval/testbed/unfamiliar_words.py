"""The words the unfamiliar web's papers are made of: topics as requests name them and as their papers are written,
and near misses, read from a TOML file of this package (`unfamiliar_topics.toml`, or a held-out batch's own file in
the same format) and checked when read."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from research_crawler.errors import ConfigError
from research_crawler.eval.testbed.models import Topic

__all__ = ["UNFAMILIAR_TOPICS_FILE", "NearMiss", "UnfamiliarTopic", "testbed_topics", "unfamiliar_topics"]

UNFAMILIAR_TOPICS_FILE = "unfamiliar_topics.toml"


@dataclass(frozen=True)
class UnfamiliarTopic:
    """A topic as requests name it (`name`), and the words its papers are written in."""

    slug: str
    name: str
    plain: tuple[str, ...]
    subjects: tuple[str, ...]
    effects: tuple[str, ...]
    methods: tuple[str, ...]
    templates: tuple[str, ...]
    plain_titles: tuple[str, ...]
    contexts: tuple[str, ...]
    findings: tuple[str, ...]


@dataclass(frozen=True)
class NearMiss:
    """Papers that share a topic's words and answer something else."""

    slug: str
    mimics: str
    titles: tuple[str, ...]
    context: str


@cache
def unfamiliar_topics(
    data_file: str = UNFAMILIAR_TOPICS_FILE,
) -> tuple[tuple[UnfamiliarTopic, ...], tuple[NearMiss, ...]]:
    """The topics and near misses of `data_file` (a file of this package), checked when read."""
    raw = tomllib.loads(resources.files(__package__).joinpath(data_file).read_text(encoding="utf-8"))
    try:
        topics = tuple(_topic(entry, data_file) for entry in raw["topic"])
        near = tuple(
            NearMiss(slug=e["slug"], mimics=e["mimics"], titles=tuple(e["titles"]), context=e["context"])
            for e in raw["near_miss"]
        )
    except (KeyError, TypeError) as exc:
        raise ConfigError(f"{data_file} is missing a required entry: {exc}") from exc
    slugs = {t.slug for t in topics}
    if len(slugs | {n.slug for n in near}) != len(topics) + len(near) or any(n.mimics not in slugs for n in near):
        raise ConfigError(f"{data_file}: slugs must be unique and every near miss must mimic a topic")
    return topics, near


def _topic(entry: dict[str, Any], data_file: str) -> UnfamiliarTopic:
    fields = {key: tuple(value) for key, value in entry.items() if isinstance(value, list)}
    topic = UnfamiliarTopic(slug=entry["slug"], name=entry["name"], **fields)
    unplain = [c for c in topic.contexts if not any(p in c.lower() for p in topic.plain)]
    if unplain:
        raise ConfigError(f"{data_file}: a context of {topic.slug!r} makes none of its topic plain: {unplain[0]!r}")
    return topic


def testbed_topics(topics: tuple[UnfamiliarTopic, ...], near: tuple[NearMiss, ...]) -> tuple[Topic, ...]:
    """The testbed's topics for `topics` and `near` (a near miss is a topic of its own, named after what it mimics)."""
    return tuple(Topic(slug=t.slug, name=t.name, keywords=t.plain, aspects=()) for t in topics) + tuple(
        Topic(slug=n.slug, name=f"near misses of {n.mimics}", keywords=(), aspects=()) for n in near
    )
