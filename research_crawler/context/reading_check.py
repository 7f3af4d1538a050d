"""Whether a model's reading of a request can be believed: checked against the request's own words.

A weak model fills every field of `record_request`: the topic ``search_topics`` (a word of its tool's schema) for
"Find papers on graph neural networks", or today's date as both ends of a window nobody asked for. Such a reading
is not shown as the request: the run reads it by rules instead, and says why. Two checks, both on what the request
says, never on a model:

- the topic shares a word with the request (a word's first letters, so "network" meets "networks"; or the initials
  of consecutive words, so "GNN" meets "graph neural networks"), unless the request has no content words at all;
- every year of the reading's dates is written in the request, or the rules reading found dates too (a relative
  phrase: "since last year", "the past 2 years").
"""

from __future__ import annotations

import re

from research_crawler.context.request import ResearchRequest

__all__ = ["reading_doubts"]

_WORD = re.compile(r"[^\W\d_]{2,}")
_YEAR = re.compile(r"(?<!\d)(\d{4})(?!\d)")
#: Letters two words must share at their start to count as one word ("network"/"networks", "protein"/"proteins").
_STEM = 5
#: Words of the request's frame, not of its subject: a topic made of these shares nothing with the subject.
_FRAME_WORDS = """a an the and or of on in for to by with about from into over at as is are be me my i we us our any
    some all find search searching look looking show give get list want need fetch recent latest newest new old top best
    paper papers article articles work works item items publication publications preprint preprints result results
    topic topics query request subject field fields title titles date dates author authors only please more most
    dataset datasets study studies"""
_FRAME = frozenset(_FRAME_WORDS.split())


def reading_doubts(reading: ResearchRequest, *, text: str, rules: ResearchRequest) -> list[str]:
    """Why `reading` (a model's reading of the request `text`) cannot be believed; empty when nothing is wrong.
    `rules` is the same request read by rules."""
    doubts = []
    topic = reading.topic.strip()
    asked = _content_words(text)
    if topic and asked and not _shares_a_word(_content_words(topic), asked, text):
        doubts.append(f"its topic {topic!r} shares no word with the request")
    years = sorted({day.year for day in (reading.date_from, reading.date_to) if day is not None})
    written = set(_YEAR.findall(text))
    unsaid = [year for year in years if str(year) not in written]
    if unsaid and not (rules.date_from or rules.date_to or rules.recent):
        window = f"{reading.date_from or '…'} to {reading.date_to or '…'}"
        doubts.append(f"its dates ({window}) are not in the request")
    return doubts


def _content_words(text: str) -> list[str]:
    return [word for word in (w.casefold() for w in _WORD.findall(text)) if word not in _FRAME]


def _shares_a_word(topic: list[str], asked: list[str], text: str) -> bool:
    stems = {word[:_STEM] for word in asked}
    if any(word[:_STEM] in stems for word in topic):
        return True
    initials = "".join(word[0] for word in (w.casefold() for w in _WORD.findall(text)))
    return any(len(word) >= 2 and word.rstrip("s") in initials for word in topic)
