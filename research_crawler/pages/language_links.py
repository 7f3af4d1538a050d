"""Links that switch a site's language: "English", "Español (España)", "Deutsch" in a page's menu, or an address
that sets the locale (``/user/setLocale/es_ES``, ``?lang=de``). They lead to the same pages in another language,
so a reader who can read the page already never follows them; each one opened costs a page of the site's budget.

Language names come from the CLDR (Babel), each language's name as written in the common languages of the web.
"""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import parse_qsl, unquote, urlsplit

__all__ = ["switches_language"]

# The languages whose names of every language are known: a switcher names a language in its own language (or the
# page's), and these are the languages most sites are written in.
_DISPLAY_LANGUAGES = (
    "en", "de", "fr", "es", "it", "pt", "nl", "sv", "da", "nb", "fi", "pl", "cs", "sk", "hu", "ro", "el", "tr", "ru",
    "uk", "bg", "hr", "sl", "sr", "et", "lv", "lt", "ca", "eu", "gl", "ga", "cy", "is", "ar", "he", "fa", "hi", "bn",
    "ur", "id", "ms", "vi", "th", "zh", "ja", "ko",
)  # fmt: skip
# A path segment or query key that sets the locale; "language" alone is not one (a search facet narrows by it).
_LOCALE_SEGMENT = re.compile(r"^(?:set[-_]?)(?:locale|lang|language)$|^locale$", re.I)
_LOCALE_KEY = re.compile(r"^(?:(?:set[-_]?)?(?:locale|lang)|hl)$", re.I)
_REGION = re.compile(r"\s*[(\[][^)\]]*[)\]]\s*$")


def switches_language(url: str, text: str, *, in_menu: bool) -> bool:
    """Whether the link `text` → `url` switches the site's language: its address sets the locale, or it is a link of
    the page's menu (header, navigation, footer) named only by a language ("English", "Español (España)", "DE")."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    if any(_LOCALE_SEGMENT.match(unquote(segment)) for segment in parts.path.split("/") if segment):
        return True
    if any(_LOCALE_KEY.match(key) for key, _ in parse_qsl(parts.query, keep_blank_values=True)):
        return True
    if not in_menu:
        return False  # "German" in a page's own list may be a subject, a facet, a department
    name = _REGION.sub("", " ".join(text.split())).casefold()
    return bool(name) and name in _language_names()


@lru_cache(maxsize=1)
def _language_names() -> frozenset[str]:
    from babel import Locale, UnknownLocaleError

    names: set[str] = set()
    for code in _DISPLAY_LANGUAGES:
        try:
            languages = Locale.parse(code).languages
        except (UnknownLocaleError, ValueError):
            continue
        # only languages proper ("de", "pt_BR"), not names of scripts or groups of languages
        names.update(name.casefold() for key, name in languages.items() if len(key.split("_")[0]) in (2, 3))
    return frozenset(names)
