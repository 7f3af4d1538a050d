"""A number with its unit after it is a quantity, not a year: "1694 kcal", "11 min read" glued to a date's day
("Mar 17" and "11 min read" set side by side read "Mar 1711 min"), "2000 km", "1500 mg".

A year is never written with a unit of measure or of time after it, so a four-digit number followed by one is a
count of that unit, however much it looks like a year. Counts of things ("2015 views") are left out: a dateline's
year is often followed by its counters' labels ("May 3, 2015 Views: 120").
"""

from __future__ import annotations

import re

__all__ = ["is_quantity"]

# units of duration (a reading or running time), of energy (a recipe's or a diet's calories), of length, mass and
# volume, in English, German, French and Russian abbreviations; a unit is a whole word and is not a label (no
# colon or number right after it: "Min: 3" labels something else)
_UNITS = (
    r"min|mins|minutes?|minuten|sec|secs|seconds?|hrs?|hours?|std|"
    r"kcal|cal|kj|ккал|кал|мин|"
    r"km|mi|miles?|kg|mg|µg|lbs?|oz|ml|cl|mm|cm|"
    r"км|кг|мг|мл|мм|см"
)
# a lookahead fragment: the unit of a quantity right after a number.
_UNIT_AFTER = rf"\s?(?i:{_UNITS})\.?(?![^\W\d_])(?!\s*[:\d])"
_UNIT = re.compile(_UNIT_AFTER)


def is_quantity(text: str, end: int) -> bool:
    """Whether the number that ends at `end` in `text` is followed by a unit: a quantity, not a date's part."""
    return _UNIT.match(text, end) is not None
