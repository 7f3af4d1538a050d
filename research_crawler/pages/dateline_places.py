"""The place a dateline names ("BAAR, SWITZERLAND", "GENEVA, Switzerland"): the town a story or a press release was
filed from and its country, written on a line of its own where a byline might stand. Read as a name written surname
first it would be a person ("Baar, Switzerland" as "Doe, Jane"); a reader knows the country's name and reads a place.
The countries are CLDR's territory names (through babel) in the languages of the page corpus."""

from __future__ import annotations

from functools import lru_cache

from research_crawler.pages.given_names import is_given_name

__all__ = ["names_a_dateline_place"]

# the languages whose country names a dateline is written in ("ZÜRICH, Schweiz", "PARIS, France", "MADRID, España")
_LANGUAGES = ("en", "de", "fr", "es", "it", "pt", "nl", "sv", "da", "nb", "fi", "pl", "tr", "id")
_PLACE_WORDS = 3  # "SAN JOSÉ DEL CABO, Mexico": a town's name is short


def names_a_dateline_place(text: str) -> bool:
    """Whether `text` is "<town>, <country>": a short name, a comma, then a country's name. A country's name that is
    also someone's given name ("Jordan", "India", "Kenya") reads as a place only after a town written in capitals, as
    datelines write it ("AMMAN, Jordan"); "Smith, Jordan" stays a person's name written surname first."""
    town, comma, country = " ".join(text.split()).partition(",")
    town, country = town.strip(), country.strip(" .")
    if not comma or not town or "," in country or len(town.split()) > _PLACE_WORDS:
        return False
    if country.casefold() not in _country_names():
        return False
    return town.isupper() or not any(is_given_name(word) for word in country.split())


@lru_cache(maxsize=1)
def _country_names() -> frozenset[str]:
    from babel import Locale, UnknownLocaleError

    names: set[str] = set()
    for code in _LANGUAGES:
        try:
            territories = Locale.parse(code).territories
        except (UnknownLocaleError, ValueError):
            continue
        # countries only ("CH", "US"), not the world's regions ("150" Europe, "419" Latin America)
        names.update(name.casefold() for key, name in territories.items() if key.isalpha())
    return frozenset(names)
