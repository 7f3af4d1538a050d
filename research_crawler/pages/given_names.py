"""Whether a word opening a name is someone's given name, or an ordinary word of the language that opens no one's
name: what tells "Rose Hill" and "JOHN SMITH" from "Printer-Friendly Version", "Recent Activity" or "FONT SIZE".

A word is read as a given name where gender-guesser's list of given names (about 40,000 names of many countries)
holds it; otherwise it is an ordinary word where wordfreq counts it among a language's common words. A rare word
("Jemele", "Avianne", "Chien-Ming") is never called ordinary: a name nobody lists is still a name.
"""

from __future__ import annotations

import functools
from typing import Any

__all__ = ["is_given_name", "is_ordinary_word"]

#: Languages whose common words are looked up (the corpus's Latin-script languages).
_LANGUAGES = ("en", "de", "fr", "es")
#: How common a word must be to be ordinary: wordfreq's Zipf scale (3.5 ≈ once in 300,000 words; "font" 3.8,
#: "printer" 3.9, "recent" 5.0; rare given names such as "Conover" 2.4, "Chien-Ming" 2.7).
_ORDINARY_ZIPF = 3.5


def is_ordinary_word(word: str) -> bool:
    """Whether `word` (any case, three letters or more) is a common word of the language and nobody's given name."""
    bare = word.strip(".,;:'’\"()").casefold()
    # a compound is ordinary only where each of its parts is ("Printer-Friendly"; "In-Sue", "Jean-Marc" are names)
    return all(
        len(part) >= 3 and any(ch.isalpha() for ch in part) and _ordinary(part)  # "Os Keyes": short names are many
        for part in bare.split("-")
    )


def is_given_name(word: str) -> bool:
    """Whether `word` (any case) is in the list of given names ("Gregory", "Steph"; not "Archaeogenetics")."""
    bare = word.strip(".,;:'’\"()").casefold()
    return bool(bare) and _given_names().get_gender(bare) != "unknown"


@functools.lru_cache(maxsize=4096)
def _ordinary(bare: str) -> bool:
    if _given_names().get_gender(bare) != "unknown":
        return False
    from wordfreq import zipf_frequency

    # (wordfreq's "small" lists: the common words are all there, and they load in a fraction of the time)
    return max(zipf_frequency(bare, language, wordlist="small") for language in _LANGUAGES) >= _ORDINARY_ZIPF


@functools.cache
def _given_names() -> Any:
    """gender-guesser's detector (its list loads in about a second, so only when a name is first checked)."""
    from gender_guesser.detector import Detector

    return Detector(case_sensitive=False)
