"""How the evaluation decides that a reported title, first author or year is the ground truth's: its own rules,
written apart from the product's readers (`report/identity.py`, `pages/person_names.py`) so that a misreading there
shows in the figures instead of being repeated by the instrument that measures it.

- Titles match when their words are the same: Unicode NFKC, casefolded, every run of punctuation, symbols and
  spacing one space. Letters of every script are kept, accents too ("Müller" is not "Muller": a reader that drops
  them has changed the title), so two titles in Japanese are compared by their characters, not both folded away.
- Authors (a first author, the author a request names) match by surname. A name with a comma is "Surname,
  Given" (the part before the comma). Otherwise it is "Given Surname", whose surname is its last word with the
  lower-case particles before it ("van der Berg", "de la Cruz"); and where its last word is made only of one to
  three capitals, each with or without a full stop, it may also be "Surname GI", the initials of a reference
  list's style ("Petrova R", "van der Berg J.H."), whose surname is all before them. Two names match when a surname
  of the one is a surname of the other (either reading of "Jun LI" may be meant; a name with no surname in common
  with the truth matches under neither). Surnames are compared as titles are, and the particles may be left out on
  one side ("Berg" is "van der Berg"). A name with no space (山田太郎) is compared whole.
- Years match when the reported date begins with the truth's year.

The rules use no library: the comparison is a few lines of string handling, and a name-parsing library would be the
product's own (nameparser reads names in `pages/person_names.py`).
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["authors_match", "match_words", "surname_readings", "titles_match", "years_match"]

#: One to three capitals, each with or without a full stop or hyphen: a name's initials ("R", "JH", "J.-H.").
_INITIALS = re.compile(r"^(?:[A-Z]\.?-?){1,3}$")
#: A run of what is not a letter or a digit (punctuation, symbols, spaces, underscores).
_NOT_WORD = re.compile(r"[\W_]+")


def match_words(text: str) -> str:
    """`text` as the evaluation compares it: NFKC, casefolded, its words (letters and digits of any script, accents
    kept) separated by one space."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(_NOT_WORD.sub(" ", folded).split())


def titles_match(reported: str, truth: str) -> bool:
    """Whether a reported title is the true title: the same words (`match_words`), and some words at all."""
    words = match_words(truth)
    return bool(words) and match_words(reported) == words


def surname_readings(name: str) -> list[list[str]]:
    """The words (`match_words` each) of each surname `name` may have, read as the module's docstring says."""
    name = " ".join(name.split())
    if "," in name:
        return [match_words(name.split(",", 1)[0]).split()]
    words = name.split()
    if not words:
        return []
    start = len(words) - 1
    while start > 0 and words[start - 1].islower():  # the particles before the surname: "van der", "de la"
        start -= 1
    readings = [match_words(" ".join(words[start:])).split()]
    if len(words) >= 2 and _INITIALS.match(words[-1]) and not _INITIALS.match(words[0]):
        readings.append(match_words(" ".join(words[:-1])).split())  # "Surname GI"
    return [reading for reading in readings if reading]


def authors_match(reported: str, truth: str) -> bool:
    """Whether a reported author is the true one (or has the surname asked for), by surname: a reading of the one's
    surname that is a reading of the other's, or ends it (a particle left out on one side: "Berg", "van der Berg")."""
    for got in surname_readings(reported):
        for expected in surname_readings(truth):
            shorter, longer = sorted((got, expected), key=len)
            if longer[len(longer) - len(shorter) :] == shorter:
                return True
    return False


def years_match(reported_date: str | None, year: int) -> bool:
    """Whether a reported date ("2024-03-05", "2024") is in the true year."""
    return (reported_date or "").strip().startswith(str(year))
