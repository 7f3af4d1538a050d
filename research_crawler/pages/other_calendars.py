"""Days a page writes in a calendar other than the Gregorian, as the Gregorian days they are: the Solar Hijri
(Iranian) calendar's "31 اردیبهشت 1403", the Hijri calendar's "12 ذو القعدة 1445 هـ" and the Minguo (Taiwanese)
calendar's "民國113年5月20日". dateparser's calendars (its `calendars` extra: convertdate and hijridate) read and
convert them; this module only finds where a text writes one.
"""

from __future__ import annotations

import logging
import re
from functools import lru_cache
from typing import Any

__all__ = ["calendar_days"]

logger = logging.getLogger(__name__)

_DIGIT = r"[0-9۰-۹٠-٩]"  # Western, Persian and Arabic-Indic digits
_ARABIC_LETTER = r"[\u0621-\u064A\u0671-\u06D3\u06F0-\u06FF\u200c]"
# a day, one to three words of Arabic script (the month's name) and a four-digit year of the 14th or 15th century
# of either era, perhaps followed by the Hijri era's sign: "31 اردیبهشت 1403", "۱۲ ذو القعدة ۱۴۴۵ هـ"
_NAMED = re.compile(
    rf"(?<!{_DIGIT}){_DIGIT}{{1,2}}\s+{_ARABIC_LETTER}+(?:\s+{_ARABIC_LETTER}+){{0,2}}\s+(?:1|۱|١)(?:3|4|۳|۴|٣|٤)"
    rf"{_DIGIT}{{2}}(?!{_DIGIT})(?P<era>\s*هـ?)?"
)
# the Hijri era's numeric date: "17-01-1437 هـ", "1437/01/17هـ"
_NUMERIC_HIJRI = re.compile(
    rf"(?<!{_DIGIT})(?:{_DIGIT}{{1,2}}[-/.]{_DIGIT}{{1,2}}[-/.]{_DIGIT}{{4}}|{_DIGIT}{{4}}[-/.]{_DIGIT}{{1,2}}[-/.]"
    rf"{_DIGIT}{{1,2}})\s*هـ"
)
_MINGUO = re.compile(r"民國\s*\d{1,3}\s*年\s*\d{1,2}\s*月\s*\d{1,2}\s*日")


def calendar_days(text: str) -> list[str]:
    """The days (YYYY-MM-DD) written in `text` in the Solar Hijri, Hijri or Minguo calendar, in order."""
    found: list[tuple[int, str]] = []
    for match in _NAMED.finditer(text):
        # a Solar Hijri month's name is read as such; any other, with the Hijri era's sign or not, as a Hijri month
        day = _converted("jalali", match.group(0).removesuffix(match["era"] or "")) or _converted(
            "hijri", match.group(0)
        )
        if day:
            found.append((match.start(), day))
    for pattern, calendar in ((_NUMERIC_HIJRI, "hijri"), (_MINGUO, "minguo")):
        found += [(match.start(), day) for match in pattern.finditer(text) if (day := _converted(calendar, match[0]))]
    return [day for _, day in sorted(found)]


@lru_cache(maxsize=1024)
def _converted(calendar: str, written: str) -> str | None:
    """The Gregorian day `written` names in `calendar`, when the calendar's parser reads it as a whole day."""
    try:
        data: Any = _calendars()[calendar](written).get_date()
    except Exception as exc:  # a run of words that is no date of the calendar: the parser rejects it by raising
        logger.debug("%s calendar could not read %r: %s", calendar, written, exc)
        return None
    if data is None or data.date_obj is None or data.period != "day":
        return None
    return str(data.date_obj.date().isoformat())


@lru_cache(maxsize=1)
def _calendars() -> dict[str, Any]:
    from dateparser.calendars.hijri import HijriCalendar
    from dateparser.calendars.jalali import JalaliCalendar
    from dateparser.calendars.minguo import MinguoCalendar

    return {"jalali": JalaliCalendar, "hijri": HijriCalendar, "minguo": MinguoCalendar}
