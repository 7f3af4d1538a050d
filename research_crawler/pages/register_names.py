"""People as patent registers write them: in capitals, surname first, each with the two-letter code of the country
they live in ("OKAFOR ADA [GB]; VAN DEN BERG JAN PIETER [NL]"). A reader turns each into "Surname, Given" — the
surname its first word, with the particles that begin it ("VAN DEN BERG") — so that it is read the right way round.
"""

from __future__ import annotations

import re

__all__ = ["surname_first"]

_REGISTER_NAME = re.compile(r"^(?P<name>[^\W\d_][\w'’.-]*(?:\s+[^\W\d_][\w'’.-]*)+)\s*\[(?P<country>[A-Z]{2})\]$")
_TRAILING_MORE = re.compile(r"\s*(?:\.\.\.|…)\s*$")  # a list a results row cuts short ("…; BERG ANNA [US] ...")
_PARTICLES = frozenset({"VAN", "VON", "DER", "DEN", "DE", "DI", "DA", "DEL", "DELLA", "DOS", "DU", "LA", "LE", "TER"})


def surname_first(text: str) -> str:
    """`text` with the register's names written "SURNAME, GIVEN" ("OKAFOR ADA [GB]; LEE MIN [KR]" → "OKAFOR, ADA;
    LEE, MIN") where every name of it, split at semicolons, is so written: in capitals, with a country's code in
    brackets after it. Any other text is returned as it is."""
    parts = [part.strip() for part in _TRAILING_MORE.sub("", text).split(";") if part.strip()]
    found = [_REGISTER_NAME.match(part) for part in parts]
    if not found or not all(m is not None and m.group("name").isupper() for m in found):
        return text
    names = []
    for match in found:
        assert match is not None
        words = match.group("name").split()
        cut = 1
        while cut < len(words) - 1 and words[cut - 1] in _PARTICLES:
            cut += 1
        names.append(f"{' '.join(words[:cut])}, {' '.join(words[cut:])}")
    return "; ".join(names)
