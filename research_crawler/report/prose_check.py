"""Whether a written report is a report at all: the model's text must be about the items found, not an echo
of the instructions it was given (a small model pasting its system prompt back) or text from nowhere.

The citation guard (`guard.py`) checks each claim of a report; this check looks at the whole text first, so
a reply that is no report is asked again, then replaced by the deterministic listing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from research_crawler.report.models import ReportItem

__all__ = ["ECHO_WORDS", "prose_problem", "quotes_unescaped"]

#: A run of this many words shared with an instruction is an echo, not a coincidence.
ECHO_WORDS = 10
#: The words of a title that must appear together for the report to name the item.
_TITLE_WORDS = 5
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
#: HTML entities of quotes that some models write into Markdown; shown as entities, they mean nothing to a reader.
_QUOTE_ENTITIES = re.compile(r"&(#0*39|#x0*27|apos|#0*34|#x0*22|quot);", re.IGNORECASE)
_SINGLE = {"39", "27", "apos"}


def quotes_unescaped(markdown: str) -> str:
    """`markdown` with HTML-escaped quotes (`&#39;`, `&quot;`…) written as the quotes they stand for. Only quotes:
    `&lt;` and the like stay, so no markup appears that the model did not write as such."""

    def quote(match: re.Match[str]) -> str:
        name = match.group(1).lower().lstrip("#x0")
        return "'" if name in _SINGLE else '"'

    return _QUOTE_ENTITIES.sub(quote, markdown)


def prose_problem(markdown: str, *, items: Sequence[ReportItem], instructions: Iterable[str]) -> str | None:
    """Why `markdown` is not a usable report of `items`, or None when it is.

    It is not when it repeats `ECHO_WORDS` consecutive words of one of the `instructions` (system prompts,
    tool descriptions), or when there are items and it names none of them (by title or link).
    """
    words = _words(markdown)
    text = " ".join(words)
    shingles = {" ".join(words[i : i + ECHO_WORDS]) for i in range(len(words) - ECHO_WORDS + 1)}
    for instruction in instructions:
        said = _words(instruction)
        for i in range(len(said) - ECHO_WORDS + 1):
            if " ".join(said[i : i + ECHO_WORDS]) in shingles:
                return "it repeats the instructions given to the model instead of reporting the items"
    if items and not any(_names(item, text, markdown) for item in items):
        return "it names none of the items found (no title and no link of theirs appears in it)"
    return None


def _words(text: str) -> list[str]:
    return [word.lower() for word in _WORD.findall(text)]


def _names(item: ReportItem, text: str, markdown: str) -> bool:
    """Whether the report names `item`: its link, or the first words of its title, appear in it."""
    if item.url and item.url in markdown:
        return True
    title = _words(item.title)[:_TITLE_WORDS]
    return bool(title) and f" {' '.join(title)} " in f" {text} "
