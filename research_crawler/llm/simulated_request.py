"""How the simulated model reads a request, as a model filling `record_request` would: its own reading, written
apart from the product's rules (`context/request_rules.py`), so that a run's contract is never the product's parser
graded against itself. It reads only the request's words, today's date from its system prompt, and, for a
follow-up, the earlier reading the task shows as JSON.

Each reader below takes what it understands out of the text (a count, dates, an order, fields, sites, authors),
and what is left, less the request's own wording, is the topic.
"""

from __future__ import annotations

import calendar
import re
from datetime import date, timedelta
from typing import Any

__all__ = ["follow_up_reading", "read_count", "request_reading"]

_UNITS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
_NUMBERS = {
    **{word: n for n, word in enumerate(_UNITS, 1)},
    **{"fifteen": 15, "twenty": 20, "thirty": 30, "fifty": 50},
    **{"a couple of": 2, "a few": 3, "a dozen": 12, "dozen": 12},
}
_N = r"(\d{1,3}|" + "|".join(re.escape(word) for word in _NUMBERS) + ")"
_NOUNS = (
    r"papers?|preprints?|articles?|publications?|studies|works?|items?|results?|entries|documents?|manuscripts?|"
    r"datasets?|data\s*sets?|reviews?|surveys?|sources?|references?|jobs?|job\s+posts?|positions?|products?"
)
_KIND_OF = (
    ("dataset", r"datasets?|data\s*sets?"),
    ("review", r"reviews?|surveys?"),
    ("job post", r"jobs?|job\s+posts?|positions?|vacancies"),
    ("product", r"products?"),
    ("paper", r"papers?|preprints?|articles?|publications?|studies|manuscripts?"),
)
_YEAR = r"((?:19|20)\d\d)"
_MONTHS = {name.lower(): n for n, name in enumerate(calendar.month_name) if name}
_SPANS = {"day": 1, "week": 7, "month": 30, "year": 365}
_SITE_NAMES = (
    "arxiv",
    "biorxiv",
    "medrxiv",
    "chemrxiv",
    "pubmed",
    "springer",
    "nature",
    "plos",
    "acl anthology",
    "semantic scholar",
)
_FIELD_NAMES = {
    "titles": "title",
    "title": "title",
    "authors": "authors",
    "author": "authors",
    "dates": "date",
    "date": "date",
    "years": "date",
    "year": "date",
    "abstracts": "abstract",
    "abstract": "abstract",
    "summaries": "abstract",
    "summary": "abstract",
    "links": "link",
    "link": "link",
    "urls": "link",
    "url": "link",
    "dois": "doi",
    "doi": "doi",
    "pdfs": "pdf",
    "pdf": "pdf",
}
_FIELD = "|".join(sorted(_FIELD_NAMES, key=len, reverse=True))
_FIELD_LIST = rf"(?:{_FIELD})(?:\s*(?:,|and|&|\+|,\s*and)\s*(?:{_FIELD}))*"
#: The request's own wording around its subject: a model leaves it out of the topic.
_WORDING = re.compile(
    r"^(?:please\s+)?(?:can you\s+)?(?:find|search(?:\s+for)?|look\s+for|looking\s+for|list|show|give|get|collect|"
    r"gather|fetch|recommend|suggest|i\s+(?:need|want|would like|am\s+looking\s+for)|what\s+(?:papers\s+)?"
    r"(?:are|is|were|was|has\s+been|have\s+been)(?:\s+there)?(?:\s+(?:published|written|posted))?(?:\s+about|\s+on)?"
    r"|are\s+there\s+any|which)\b(?:\s+me\b)?"
    r"|\b(?:some|any|all|the|recent(?:ly)?|latest|newest|new|current|up[- ]to[- ]date|published|research|"
    r"scientific|please|me|only|now|then|rather)\b",
    re.IGNORECASE,
)
_DANGLING = re.compile(r"^(?:on|about|regarding|concerning|for|of|in|into|related\s+to|that|which|are|is)\b\s*", re.I)


def _number(word: str) -> int:
    return int(word) if word.isdigit() else _NUMBERS[word.lower()]


def _take(pattern: str, text: str) -> tuple[re.Match[str] | None, str]:
    """The first match of `pattern` in `text`, and `text` without it."""
    match = re.search(pattern, text, re.IGNORECASE)
    if match is None:
        return None, text
    return match, text[: match.start()] + " " + text[match.end() :]


def read_count(text: str) -> int | None:
    """How many items the words ask for: "five papers", "top 3 preprints", "the 2 most recent"; None if no number."""
    match = re.search(
        rf"\b{_N}\s+(?:(?:[\w-]+\s+){{0,5}}?)(?:{_NOUNS})\b|\b(?:top|best|first)\s+{_N}\b"
        rf"|\b{_N}\s+(?:most\s+recent|newest|latest)\b",
        text,
        re.IGNORECASE,
    )
    if match is None:
        return None
    value = _number(next(group for group in match.groups() if group))
    return value if 0 < value <= 200 else None


def _dates(text: str, today: date) -> tuple[dict[str, Any], str]:
    """date_from / date_to (ISO) or recent, and the text without the words that said them."""
    pub = r"(?:(?:published|posted|released|appeared|dated|written)\s+)?"
    match, rest = _take(rf"\b{pub}(?:between|from)\s+{_YEAR}\s+(?:and|to|until|through)\s+{_YEAR}\b", text)
    if match is None:
        match, rest = _take(rf"\b{_YEAR}\s*(?:-|–|to)\s*{_YEAR}\b", text)
    if match is not None:
        low, high = sorted(int(year) for year in match.groups() if year)
        return {"date_from": f"{low}-01-01", "date_to": f"{high}-12-31"}, rest
    match, rest = _take(
        rf"\b(?:in|over|during|within|from)?\s*the\s+(?:last|past|previous)\s+{_N}?\s*(day|week|month|year)s?\b", text
    )
    if match is not None:
        days = (_number(match.group(1)) if match.group(1) else 1) * _SPANS[match.group(2).lower()]
        return {"date_from": (today - timedelta(days=days)).isoformat(), "date_to": today.isoformat()}, rest
    match, rest = _take(r"\bthis\s+year\b", text)
    if match is not None:
        return {"date_from": f"{today.year}-01-01", "date_to": today.isoformat()}, rest
    month_names = "|".join(_MONTHS)
    match, rest = _take(rf"\b{pub}(?:in|during|of)\s+({month_names})\s+{_YEAR}\b", text)
    if match is not None:
        year, month = int(match.group(2)), _MONTHS[match.group(1).lower()]
        last = calendar.monthrange(year, month)[1]
        return {"date_from": f"{year}-{month:02d}-01", "date_to": f"{year}-{month:02d}-{last:02d}"}, rest
    match, rest = _take(
        rf"\b{pub}(?:in|during|of|from)\s+{_YEAR}\b|\b(?:only\s+)?{_YEAR}\s+only\b|\bonly\s+(?:from\s+)?{_YEAR}\b"
        rf"|\b{_YEAR}(?=\s+(?:{_NOUNS})\b)",
        text,
    )
    if match is not None:
        said = next(group for group in match.groups() if group)
        return {"date_from": f"{said}-01-01", "date_to": f"{said}-12-31"}, rest
    found: dict[str, Any] = {}
    match, rest = _take(
        rf"\b{pub}(?:since|after|from|starting(?:\s+in)?)\s+{_YEAR}\b|\b{_YEAR}\s+(?:or|and)\s+later\b", text
    )
    if match is not None:
        year = int(next(group for group in match.groups() if group))
        found["date_from"] = f"{year + 1 if match.group(0).lower().lstrip().startswith('after') else year}-01-01"
        text = rest
    match, rest = _take(rf"\b{pub}(before|until|up\s+to|prior\s+to|through)\s+{_YEAR}\b", text)
    if match is not None:
        year = int(match.group(2))
        found["date_to"] = f"{year - 1 if match.group(1).lower() in ('before', 'prior to') else year}-12-31"
        text = rest
    return found, text


def request_reading(text: str, *, today: date) -> dict[str, Any]:
    """The arguments of `record_request` for the request `text`, as the double reads it (defaults left out)."""
    reading: dict[str, Any] = {}
    rest = f" {text.strip()} "
    newest, rest = _take(
        rf"\b(?:newest|latest|most\s+recent)\s+first\b|\bsort(?:ed)?\s+by\s+(?:date|year)\b|\bby\s+date\b"
        rf"|\bthe\s+(?:{_N}\s+)?(?:most\s+recent|newest|latest)\b",
        rest,
    )
    if newest is not None:
        reading["order"] = "newest"
    count = read_count(text)
    if count is not None:
        reading["count"] = count
        rest = re.sub(
            rf"\b(?:top|best|first)\s+{_N}\b|\b{_N}\b(?=\s+(?:[\w-]+\s+){{0,5}}?(?:{_NOUNS})\b)",
            " ",
            rest,
            count=1,
            flags=re.I,
        )
    elif bare := re.fullmatch(
        rf"\s*(?:(?:show|give|list|get)\s+(?:me\s+)?)?{_N}(?:\s+(?:items?|results?|instead(?:\s+of\s+{_N})?))?\s*",
        rest,
        re.I,
    ):
        reading["count"] = _number(bare.group(1))
        rest = " "
    dates, rest = _dates(rest, today)
    reading.update(dates)
    if not dates and re.search(r"\b(?:recent(?:ly)?|latest|newest|new|current|up[- ]to[- ]date)\b", rest, re.I):
        reading["recent"] = True
    only, rest = _take(rf"\b({_FIELD_LIST})\s+only\b|\bonly\s+(?:the\s+)?({_FIELD_LIST})\b", rest)
    shown, rest = (
        (only, rest)
        if only
        else _take(rf"\b(?:with|add|include|including|show)\s+(?:their\s+|the\s+)?({_FIELD_LIST})\b", rest)
    )
    if shown is not None:
        words = re.findall(_FIELD, next(group for group in shown.groups() if group), re.I)
        fields = list(dict.fromkeys(_FIELD_NAMES[word.lower()] for word in words))
        reading["fields"] = fields
        if only:
            reading["fields_only"] = True
    sites = [m.rstrip("./,") for m in re.findall(r"https?://[^\s,;)\"']+", rest)]
    rest = re.sub(r"\b(?:on|from|at|in|search)?\s*https?://[^\s,;)\"']+", " ", rest, flags=re.I)
    for domain in re.findall(r"\b(?:www\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:org|com|net|edu|io|ai)\b", rest, re.I):
        sites.append(domain)
    rest = re.sub(r"\b(?:on|from|at|in|search)?\s*(?:www\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:org|com|net|edu|io|ai)\b",
                  " ", rest, flags=re.I)  # fmt: skip
    names = "|".join(re.escape(name) for name in _SITE_NAMES)
    for match in re.finditer(rf"\b(?:on|from|at|in|search)\s+(?:the\s+)?({names})\b", rest, re.I):
        sites.append(match.group(1))
    rest = re.sub(rf"\b(?:on|from|at|in|search)\s+(?:the\s+)?(?:{names})\b", " ", rest, flags=re.I)
    if sites:
        reading["sites"] = list(dict.fromkeys(sites))
    authors = re.findall(r"\b(?:by|authored\s+by|written\s+by|from\s+author)\s+((?:[A-Z][\w'’-]+\.?\s?){1,3})", rest)
    if authors:
        reading["authors"] = [name.strip() for name in authors]
        rest = re.sub(r"\b(?:by|authored\s+by|written\s+by|from\s+author)\s+(?:[A-Z][\w'’-]+\.?\s?){1,3}", " ", rest)
    kind = next((name for name, words in _KIND_OF if re.search(rf"\b(?:{words})\b", rest, re.I)), None)
    if kind is not None:
        reading["item_kind"] = kind
    reading["topic"] = _topic(rest)
    return reading


def _topic(rest: str) -> str:
    """The subject: what is left, less the request's wording and the kind of item, clause by clause (a request
    such as "Find 3 papers: find papers on X" says its wording twice)."""
    subjects = []
    for clause in re.split(r"[:;]", re.sub(rf"\b(?:{_NOUNS})\b", " ", rest, flags=re.I)):
        words = _WORDING.sub(" ", " ".join(clause.split()))
        words = " ".join(words.replace("?", " ").split()).strip(" ,.;:-!")
        while (trimmed := _DANGLING.sub("", words)) != words:
            words = trimmed
        words = re.sub(r"\s+(?:on|from|at|in|for|of|about|and|with|published|that|are)$", "", words, flags=re.I)
        if words.strip(" ,.;:-!"):
            subjects.append(words.strip(" ,.;:-!"))
    return " ".join(subjects)


_LIKE = re.compile(r"\bmore\s+like\b.*?[(\"“]+\s*[\"“]?(.+?)[\"”]?\s*\)?\s*$", re.IGNORECASE)
_ONLY_A_CHANGE = re.compile(
    r"\b(?:instead|of|and|with|add|include|show|sort|sorted|order|them|those|these|items?|results?|please|also|too)\b",
    re.IGNORECASE,
)
_SEARCH_WORDS = re.compile(
    r"\b(?:continue|further|search|look|again|more|explore|crawl|find|there|it|on|at|as\s+well)\b", re.IGNORECASE
)


def follow_up_reading(earlier: dict[str, Any], follow_up: str, *, today: date) -> dict[str, Any]:
    """The `record_request` arguments for `earlier` (the reading shown as JSON) as `follow_up` changes it, with
    `new_search`: true only for another topic or other sites ("also search bioRxiv", "continue on arXiv")."""
    text = follow_up.split("follow-up:", 1)[-1].strip()
    reading = {key: value for key, value in earlier.items() if value not in (None, "", [], False)}
    if like := _LIKE.search(text):
        title = " ".join(like.group(1).split())
        return {**reading, "topic": title, "like": title, "new_search": True}
    change = request_reading(text, today=today)
    searches = bool(re.search(r"\b(?:search|look|crawl|explore|find\s+more|also|again|continue)\b", text, re.I))
    for key in ("count", "order", "authors", "sites"):
        if key in change:
            reading[key] = change[key]
    if "date_from" in change or "date_to" in change:
        reading.pop("recent", None)
        reading.pop("date_from", None)
        reading.pop("date_to", None)
        reading.update({key: change[key] for key in ("date_from", "date_to") if key in change})
    elif change.get("recent"):
        reading["recent"] = True
    if "fields" in change:
        reading["fields"] = list(dict.fromkeys([*reading.get("fields", []), *change["fields"]]))
        reading["fields_only"] = bool(change.get("fields_only"))
    subject = _SEARCH_WORDS.sub(" ", _ONLY_A_CHANGE.sub(" ", change["topic"]))
    subject = " ".join(re.sub(rf"\b{_N}\b", " ", subject, flags=re.I).split()).strip(" ,.;:!?-")
    if searches and "sites" not in change and re.fullmatch(r"[A-Z][\w.-]*", subject):
        reading["sites"] = [subject]  # "also search bioRxiv": a site's name, not a subject
        subject = ""
    if subject:
        reading["topic"] = subject
    reading["new_search"] = searches or "sites" in change or bool(subject)
    return reading
