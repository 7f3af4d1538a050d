"""The words the testbed's papers are made of, read from `topics.toml` (data, not code).

Each topic has its own subjects, tasks, techniques and results so that generated titles and abstracts
read plausibly and differ between topics; each *aspect* phrase marks the only items a specific query wants.
The file is checked when read, so a broken edit fails loudly instead of producing a wrong ground truth.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from research_crawler.errors import ConfigError

__all__ = ["DOI_PREFIX", "AspectVocabulary", "TopicVocabulary", "author_names", "sentence_case", "topic_vocabularies"]

DOI_PREFIX = "10.5555"  # the DOI prefix reserved for examples: no real paper is ever named
_DATA_FILE = "topics.toml"
_ACRONYM_LIKE = re.compile(r".[A-Z0-9]")
_TEXT_FIELDS = (
    "subjects",
    "tasks",
    "techniques",
    "method_prefixes",
    "method_suffixes",
    "settings",
    "metrics",
    "contexts",
    "problems",
    "keywords",
)


@dataclass(frozen=True)
class AspectVocabulary:
    """A sub-aspect only some items of a topic carry; `phrase` appears in those items and nowhere else."""

    slug: str
    phrase: str
    title: str  # may use {subject}, {task}, {method}
    sentence: str  # contains `phrase`; may use {method}, {task}


@dataclass(frozen=True)
class TopicVocabulary:
    """Everything needed to write plausible, topic-specific titles and abstracts."""

    slug: str
    name: str  # every abstract of the topic contains it (case-insensitive)
    subjects: tuple[str, ...]
    tasks: tuple[str, ...]
    techniques: tuple[str, ...]
    method_prefixes: tuple[str, ...]
    method_suffixes: tuple[str, ...]
    settings: tuple[str, ...]  # datasets, organisms, hardware: "on {setting}"
    metrics: tuple[str, ...]
    contexts: tuple[str, ...]  # opening sentences; each contains `name`
    problems: tuple[str, ...]  # may use {task}
    keywords: tuple[str, ...]
    aspects: tuple[AspectVocabulary, ...]


def topic_vocabularies() -> tuple[TopicVocabulary, ...]:
    """All topics, in file order."""
    return _load()[0]


def author_names() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(given names, surnames) that authors are drawn from."""
    return _load()[1]


@cache
def _load() -> tuple[tuple[TopicVocabulary, ...], tuple[tuple[str, ...], tuple[str, ...]]]:
    raw = tomllib.loads(resources.files(__package__).joinpath(_DATA_FILE).read_text(encoding="utf-8"))
    try:
        topics = tuple(_topic(entry) for entry in raw["topic"])
        given, surnames = tuple(raw["authors"]["given_names"]), tuple(raw["authors"]["surnames"])
    except (KeyError, TypeError) as exc:
        raise ConfigError(f"{_DATA_FILE} is missing a required entry: {exc}") from exc
    if len({t.slug for t in topics}) != len(topics) or len(given) < 10 or len(surnames) < 10:
        raise ConfigError(f"{_DATA_FILE} needs unique topic slugs and at least 10 given names and surnames")
    return topics, (given, surnames)


def _topic(entry: dict[str, Any]) -> TopicVocabulary:
    name = entry["name"]
    aspects = tuple(
        AspectVocabulary(slug=a["slug"], phrase=a["phrase"], title=a["title"], sentence=a["sentence"])
        for a in entry["aspect"]
    )
    fields = {key: tuple(entry[key]) for key in _TEXT_FIELDS}
    if any(len(values) < 2 for key, values in fields.items() if key != "keywords"):
        raise ConfigError(f"{_DATA_FILE}: topic {entry['slug']!r} needs at least two entries per word list")
    if not aspects or any(a.phrase.lower() not in a.sentence.lower() for a in aspects):
        raise ConfigError(f"{_DATA_FILE}: every aspect sentence of {entry['slug']!r} must contain its phrase")
    if any(name.lower() not in context.lower() for context in fields["contexts"]):
        raise ConfigError(f"{_DATA_FILE}: every context sentence of {entry['slug']!r} must contain {name!r}")
    return TopicVocabulary(slug=entry["slug"], name=name, aspects=aspects, **fields)


def sentence_case(phrase: str) -> str:
    """Lower-case the words of a title-case phrase, keeping acronyms and names such as 'RNA' or 'Cas12a'."""
    return " ".join("-".join(_lower_unless_acronym(part) for part in word.split("-")) for word in phrase.split(" "))


def _lower_unless_acronym(word: str) -> str:
    return word if _ACRONYM_LIKE.search(word) or word[:1].isdigit() else word.lower()
