"""Titles as a report writes them matched to the collected items' titles: normalised, then fuzzy.

Normalising (Unicode NFKC, case-folded, every run of punctuation, markup or whitespace made one space)
makes "**Protein Design: A Survey.**" equal "protein design a survey". What is left is compared with
difflib's `SequenceMatcher.ratio`, and counts as the same title at `TITLE_MATCH_RATIO` or above.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from difflib import SequenceMatcher
from functools import lru_cache

__all__ = ["TITLE_MATCH_RATIO", "TitleMatcher", "normalise_title", "title_pattern"]

#: Similarity (difflib ratio, 0–1) at which two normalised titles count as one. 0.9 absorbs what a writer
#: changes by accident — a typo, a dropped plural "s", an "and" for "&", a missing subtitle word in a long
#: title — while two different titles that share a stem ("Diffusion models for protein design" vs
#: "Diffusion models for drug design", ratio 0.87) stay apart. Below 0.9 sibling titles of one series
#: start to merge; above 0.95 a single typo in a short title breaks the match.
TITLE_MATCH_RATIO = 0.9

#: Normalised candidates shorter than this are never compared: "pdf", "link", "here" are not titles.
_MIN_TITLE_CHARS = 6
_NON_WORD = re.compile(r"[\W_]+")
_WORD = re.compile(r"[^\W_]+")


@lru_cache(maxsize=4096)
def normalise_title(text: str) -> str:
    """`text` in NFKC, case-folded, with punctuation, Markdown marks and whitespace collapsed to one space."""
    return _NON_WORD.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()


def title_pattern(title: str) -> re.Pattern[str] | None:
    """A pattern that finds `title` in raw Markdown whatever the punctuation, emphasis or case between its
    words; None for a title without words."""
    words = _WORD.findall(unicodedata.normalize("NFKC", title))
    if not words:
        return None
    return re.compile(r"[\W_]+".join(re.escape(word) for word in words), re.IGNORECASE)


class TitleMatcher:
    """Matches text against a fixed list of titles; `match` gives the index of the title it matches."""

    def __init__(self, titles: Sequence[str], *, ratio: float = TITLE_MATCH_RATIO) -> None:
        self._titles = [normalise_title(title) for title in titles]
        self._ratio = ratio

    def match(self, text: str) -> int | None:
        """The index of the title `text` is (normalised equal, or at least the threshold similar), or None.

        Where several titles pass, the most similar wins; on a tie, the first.
        """
        candidate = normalise_title(text)
        if len(candidate) < _MIN_TITLE_CHARS:
            return None
        best: tuple[float, int] | None = None
        for index, title in enumerate(self._titles):
            if len(title) < _MIN_TITLE_CHARS:
                continue
            if candidate == title:
                return index
            # ratio <= 2*min/(a+b): skip pairs whose lengths alone rule the threshold out.
            if 2 * min(len(candidate), len(title)) / (len(candidate) + len(title)) < self._ratio:
                continue
            matcher = SequenceMatcher(None, candidate, title, autojunk=False)
            if matcher.quick_ratio() < self._ratio:
                continue
            score = matcher.ratio()
            if score >= self._ratio and (best is None or score > best[0]):
                best = (score, index)
        return None if best is None else best[1]

    def contained_in(self, text: str) -> int | None:
        """The index of the first title that occurs whole in `text` (normalised, on word boundaries)."""
        haystack = f" {normalise_title(text)} "
        for index, title in enumerate(self._titles):
            if len(title) >= 2 * _MIN_TITLE_CHARS and f" {title} " in haystack:
                return index
        return None
