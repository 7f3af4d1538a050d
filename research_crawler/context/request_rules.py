"""Reading a request with simple rules: counts, years and ranges, 'since', 'last six months', 'recent',
'newest first', the item kind, 'titles and dates only', 'by Smith', named sites and URLs; the rest is the topic.

Used by the simulated model to fill the Web Selector's `record_request` call, and as the reading of last
resort when no model gives a valid one. A real model reads what these rules cannot ("since the pandemic").
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from research_crawler.context.request import COUNT_PATTERN, NUMBER_WORDS, ResearchRequest

__all__ = ["FOLLOW_UP", "KNOWN_SITE_NAMES", "constraint_only", "read_follow_up", "read_query", "read_request"]

_YEAR = r"((?:19|20)\d{2})"
_NUM = r"(\d{1,3}|" + "|".join(sorted(map(re.escape, NUMBER_WORDS), key=len, reverse=True)) + r")"
_UNITS = {"day": 1, "week": 7, "month": 30, "year": 365}
#: Names of well-known sites a request may name ("on arXiv"); matched against the site pool later.
KNOWN_SITE_NAMES = ("arxiv", "biorxiv", "medrxiv", "chemrxiv", "springer", "pubmed", "acl anthology", "nature", "plos")

_PUBLISHED = r"(?:(?:published|posted|released|appeared|dated|written)\s+)?"
_RANGE = re.compile(
    rf"\b{_PUBLISHED}(?:between|from)\s+{_YEAR}\s+(?:and|to|until|-|–)\s+{_YEAR}\b|\b{_YEAR}\s*[-–]\s*{_YEAR}\b", re.I
)
_SINCE = re.compile(
    rf"\b{_PUBLISHED}(?:since|after|from|starting(?: in)?)\s+{_YEAR}\b|\b{_YEAR}\s+(?:or|and)\s+later\b", re.I
)
_BEFORE = re.compile(rf"\b{_PUBLISHED}(?:before|until|up to|prior to|by)\s+{_YEAR}\b", re.I)
_IN_YEAR = re.compile(
    rf"\b(?:(?:published|posted|released|appeared|from|dated)\s+)?(?:in|during|of)\s+{_YEAR}\b|\b(?:only\s+)?{_YEAR}\s+only\b"
    rf"|\bonly\s+(?:from\s+)?{_YEAR}\b|\b{_YEAR}(?=\s+(?:papers?|preprints?|articles?|publications?|studies)\b)",
    re.I,
)
_LAST = re.compile(
    rf"\b(?:(?:in|from|within|over|during)\s+)?(?:the\s+)?(?:last|past|previous)\s+(?:{_NUM}\s+)?(day|week|month|year)s?\b",
    re.I,
)
_THIS_YEAR = re.compile(r"\bthis\s+year\b", re.I)
_RECENT = re.compile(r"\b(?:recent(?:ly)?|latest|newest|new|up[- ]to[- ]date|current)\b", re.I)
_NEWEST = re.compile(
    rf"\b(?:newest|latest|most recent)\s+first\b|\bsort(?:ed)?\s+by\s+date\b|\bby\s+date\b"
    rf"|\bthe\s+(?:{_NUM}\s+)?(?:most\s+recent|newest|latest)\b",
    re.I,
)
#: A kind named in the singular right after "the most recent" / "the latest": one item is asked for.
_ONE_OF_A_KIND = re.compile(
    r"\s+(?:\w+\s+)?(?:paper|preprint|article|publication|study|manuscript|dataset|data\s*set|review|survey|"
    r"job\s+post|position|product)\b(?!s)",
    re.I,
)
_KINDS = {
    "paper": r"papers?|preprints?|articles?|publications?|studies|manuscripts?",
    "dataset": r"datasets?|data\s*sets?",
    "review": r"reviews?|surveys?",
    "job post": r"jobs?|job\s+posts?|positions?|vacancies",
    "product": r"products?",
}
_FIELD_WORDS = {
    "title": r"titles?",
    "authors": r"authors?",
    "date": r"dates?|years?",
    "abstract": r"abstracts?|summar(?:y|ies)",
    "link": r"links?|urls?",
    "doi": r"dois?",
    "pdf": r"pdfs?",
}
_FIELD = "|".join(f"(?:{words})" for words in _FIELD_WORDS.values())
_FIELDS = re.compile(rf"\b((?:{_FIELD})(?:\s*(?:,|and|&|\+)\s*(?:{_FIELD}))*)(\s+only)?\b", re.I)
_WITH_FIELDS = re.compile(
    rf"\b(?:with|add|include|including|show)\s+(?:their\s+|the\s+)?((?:{_FIELD})(?:\s*(?:,|and|&)\s*(?:{_FIELD}))*)",
    re.I,
)
_AUTHOR = re.compile(r"\b(?:by|authored by|written by|from author)\s+((?:[A-Z][\w'’-]+\.?\s?){1,3})")
_URL = re.compile(
    r"(?:\b(?:on|from|at|in|search)\s+)?(https?://[^\s,;)\"']+|\b(?:www\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*"
    r"\.(?:org|com|net|edu|io|ai)(?:/[^\s,;)]*)?)",
    re.I,
)
_SITE_NAME = re.compile(rf"\b(?:on|from|at|in|search)\s+(?:the\s+)?({'|'.join(KNOWN_SITE_NAMES)})\b", re.I)
_LEAD = re.compile(
    r"^\s*(?:please\s+)?(?:find|search(?:\s+for)?|look\s+for|list|show(?:\s+me)?|give(?:\s+me)?|get|collect|"
    r"gather|what\s+are|which\s+are|i\s+(?:need|want|am\s+looking\s+for)|recommend|suggest|(?:now|instead)\s+(?:about|on))\b\s*"
    r"(?:me\s+)?(?:some\s+|the\s+|all\s+)?",
    re.I,
)
_KIND_LEAD = re.compile(
    rf"^\s*(?:(?:{'|'.join(_KINDS.values())})|research|scientific)(?:\s+(?:{'|'.join(_KINDS.values())}))?\s+"
    r"(?:on|about|regarding|concerning|in|for|of|related\s+to)\s+",
    re.I,
)
_BARE_COUNT = re.compile(
    rf"^\s*(?:(?:show|give|list|get)\s+(?:me\s+)?)?{_NUM}(?:\s+(?:instead(?:\s+of\s+{_NUM})?|items?|results?))?\s*$",
    re.I,
)
_MORE_LIKE = re.compile(r"\bmore\s+like\b[^(\"“]*[(\"“]+\s*[\"“]?(.+?)[\"”]?\s*\)?\s*$", re.I)
_NOT_A_TOPIC = re.compile(
    r"\b(?:continue(?:\s+(?:on|at))?|further|"
    r"also|search|look|again|more|explore|crawl|find|too|as well|there|it|them)\b",
    re.I,
)
_FILLER = re.compile(
    r"\b(?:recent(?:ly)?|latest|newest|new|only|please|some|any|the|me|what|which|are\s+there|is\s+there|exist|"
    r"ha(?:ve|s)\s+been\s+(?:published|written))\b",
    re.I,
)
#: How a question asks for a subject ("What is new on …", "What do we know about …", "Is there anything on …"):
#: its opening words are no part of the subject.
_QUESTION_LEAD = re.compile(
    r"^\s*(?:(?:what|which)(?:'s|\s+is|\s+are)?\s+(?:new|known|out\s+there|available)|"
    r"what\s+(?:do|does|did)\s+(?:we|you|they|people|researchers)\s+know|"
    r"(?:is|are)\s+there(?:\s+(?:anything|any|something))?|anything|something|do\s+you\s+(?:know|have))\b\s*",
    re.I,
)
#: That a work was published ("… that were published", "which papers … were written", "were published on …") says
#: nothing of its subject.
_WAS_PUBLISHED = re.compile(
    r"\b(?:(?:that|which)\s+)?(?:were|was|are|is|have\s+been|has\s+been|had\s+been)\s+"
    r"(?:published|written|released|posted|put\s+out)\b",
    re.I,
)
#: What is left of it once its dates are read ("… that were published in 2024"): "… that were".
_DANGLING_VERB = re.compile(r"\s+(?:(?:that|which)\s+)?(?:were|was|are|is|have\s+been|has\s+been)$", re.I)


def read_request(text: str, *, today: date) -> ResearchRequest:
    """The request in `text` as rules read it, dates relative to `today`."""
    rest = " " + text.strip() + " "
    newest = _NEWEST.search(rest)
    order = "newest" if newest else "relevance"
    count = _count_of(newest.group(1)) if newest is not None and newest.group(1) else None
    if newest is not None and count is None and _ONE_OF_A_KIND.match(rest, newest.end()):
        count = 1  # "the most recent paper on X" asks for one
    rest = _NEWEST.sub(" ", rest)
    said_recent = bool(_RECENT.search(rest))
    count = count or _count(rest) or _bare_count(rest)
    rest = COUNT_PATTERN.sub(lambda m: " " + _kind_word(m.group(0)) + " ", rest, count=1)
    rest = _BARE_COUNT.sub(" ", rest, count=1)
    date_from, date_to, rest = _dates(rest, today=today)
    recent = said_recent and date_from is None and date_to is None
    fields, only, rest = _fields(rest)
    sites = [m.group(1).rstrip("./") for m in _URL.finditer(rest)]
    rest = _URL.sub(" ", rest)
    sites += [m.group(1) for m in _SITE_NAME.finditer(rest)]
    rest = _SITE_NAME.sub(" ", rest)
    authors = [m.group(1).strip() for m in _AUTHOR.finditer(rest)]
    rest = _AUTHOR.sub(" ", rest)
    kind = next((name for name, words in _KINDS.items() if re.search(rf"\b(?:{words})\b", rest, re.I)), None)
    return ResearchRequest(
        text=text.strip(),
        topic=_topic(rest),
        count=count,
        date_from=date_from,
        date_to=date_to,
        recent=recent,
        order=order,
        item_kind=kind,
        fields=fields,
        fields_only=only,
        sites=list(dict.fromkeys(sites)),
        authors=authors,
    )


#: How a follow-up is written after the request it changes ("<request> — follow-up: only 2025"), as the chat does.
FOLLOW_UP = " — follow-up: "


def read_query(text: str, *, today: date) -> ResearchRequest:
    """A query as rules read it: a request, or a request followed by follow-ups that change it in turn."""
    first, *changes = text.split(FOLLOW_UP)
    request = read_request(first, today=today)
    for change in changes:
        request, _ = read_follow_up(request, change, today=today)
    return request


def constraint_only(follow_up: str, *, today: date) -> bool:
    """Whether a follow-up only changes how the items found are chosen or shown ("only 2025", "newest first",
    "ten instead of five", "add authors"), with no new topic or site: then no new search is needed."""
    if re.search(r"\b(?:search|look|crawl|explore|find more|also|again|continue)\b", follow_up, re.I):
        return False
    request = read_request(follow_up, today=today)
    leftover = re.sub(r"\b(?:instead|of|and|with|add|include|show|sort|them|those|these|items?)\b", " ", request.topic)
    leftover = re.sub(r"\b\d+\b|\b(?:" + "|".join(NUMBER_WORDS) + r")\b", " ", leftover, flags=re.I)
    changed = request.count or request.has_dates() or request.order == "newest" or request.fields or request.authors
    return bool(changed) and not request.sites and not leftover.strip(" ,.;:!?-")


def read_follow_up(previous: ResearchRequest, text: str, *, today: date) -> tuple[ResearchRequest, bool]:
    """The request as the follow-up `text` changes it (what it does not say stays), and whether it needs a
    new search (another topic or other sites) rather than only another choice among the items found.
    A follow-up written after the earlier request ("<request> — follow-up: only 2025") is read from its
    follow-up part; "more like item 2 (\"Title\")" searches around that item's title."""
    text = text.split("follow-up:", 1)[-1].strip()
    if like := _MORE_LIKE.search(text):
        topic = " ".join(like.group(1).split())
        updated = previous.model_copy(update={"text": f"{previous.text} — {text}", "topic": topic, "like": topic})
        return ResearchRequest.model_validate(updated.model_dump()), True
    change = read_request(text, today=today)
    only = constraint_only(text, today=today)
    updates: dict[str, object] = {"text": f"{previous.text} — {text.strip()}"}
    if change.count is not None:
        updates["count"] = change.count
    if change.date_from is not None or change.date_to is not None:
        updates.update(date_from=change.date_from, date_to=change.date_to, recent=False)
    elif change.recent:
        updates["recent"] = True
    if change.order != "relevance":
        updates["order"] = change.order
    if change.fields:
        updates.update(fields=sorted({*previous.fields, *change.fields}), fields_only=change.fields_only)
    if change.authors:
        updates["authors"] = change.authors
    if change.sites:
        updates["sites"] = change.sites
    topic = _NOT_A_TOPIC.sub(" ", change.topic)
    if not only and topic.strip(" ,.;:!?-"):  # a new subject; "also search bioRxiv" keeps the old one
        updates["topic"] = " ".join(topic.split())
    return ResearchRequest.model_validate({**previous.model_dump(), **updates}), not only


def _number(raw: str) -> int:
    return int(raw) if raw.isdigit() else NUMBER_WORDS[raw.lower()]


def _count_of(raw: str) -> int | None:
    """The count `raw` says, when a request can ask for it (1 to 200 items): "0" or "00" asks for none."""
    value = _number(raw)
    return value if 0 < value <= 200 else None


def _count(text: str) -> int | None:
    match = COUNT_PATTERN.search(text)
    return _count_of(match.group(1)) if match is not None else None


def _bare_count(text: str) -> int | None:
    """A count said alone, as follow-ups do: "ten instead of five", "show 3"."""
    match = _BARE_COUNT.match(text)
    return _count_of(match.group(1)) if match else None


def _kind_word(phrase: str) -> str:
    """What stays of a count phrase ("five recent papers on"): its kind word, so the topic keeps its shape."""
    words = phrase.split()
    return words[-1] if words else ""


def _dates(text: str, *, today: date) -> tuple[date | None, date | None, str]:
    if m := _RANGE.search(text):
        years = sorted(int(y) for y in m.groups() if y)
        return date(years[0], 1, 1), date(years[-1], 12, 31), _RANGE.sub(" ", text, count=1)
    if m := _LAST.search(text):
        amount = _number(m.group(1)) if m.group(1) else 1
        days = amount * _UNITS[m.group(2).lower()]
        return today - timedelta(days=days), today, _LAST.sub(" ", text, count=1)
    if _THIS_YEAR.search(text):
        return date(today.year, 1, 1), today, _THIS_YEAR.sub(" ", text, count=1)
    start = end = None
    if m := _IN_YEAR.search(text):
        year = int(next(y for y in m.groups() if y))
        return date(year, 1, 1), date(year, 12, 31), _IN_YEAR.sub(" ", text, count=1)
    if m := _SINCE.search(text):
        year = int(next(y for y in m.groups() if y))
        after = re.search(r"\bafter\b", m.group(0), re.I) is not None
        start = date(year + 1 if after else year, 1, 1)
        text = _SINCE.sub(" ", text, count=1)
    if m := _BEFORE.search(text):
        year = int(m.group(1))
        before = re.search(r"\b(?:before|prior)\b", m.group(0), re.I) is not None
        end = date(year - 1 if before else year, 12, 31)
        text = _BEFORE.sub(" ", text, count=1)
    return start, end, text


def _fields(text: str) -> tuple[list[str], bool, str]:
    """The fields asked for: 'titles and dates only' (only those), or 'with authors' (those too)."""
    only = [m for m in _FIELDS.finditer(text) if m.group(2)]
    if only:
        return _field_names(only[0].group(1)), True, text.replace(only[0].group(0), " ")
    if m := _WITH_FIELDS.search(text):
        return _field_names(m.group(1)), False, text.replace(m.group(0), " ")
    return [], False, text


def _field_names(phrase: str) -> list[str]:
    return [name for name, words in _FIELD_WORDS.items() if re.search(rf"\b(?:{words})\b", phrase, re.I)]


def _topic(text: str) -> str:
    """The subject: the request without its lead ("find me", "what is new on"), its kind ("papers on"), that works
    were published, and filler words."""
    leads = (_QUESTION_LEAD.sub(" ", clause) for clause in re.split(r"[:;]", text))
    clauses = [_KIND_LEAD.sub(" ", _LEAD.sub(" ", clause)) for clause in leads]
    topic = _WAS_PUBLISHED.sub(" ", " ".join(clauses))
    topic = re.sub(r"^[\s,;:]*(?:that|which)?\s*(?:are|is)?\s*", " ", topic)
    kinds = "|".join(_KINDS.values())
    topic = re.sub(rf"\b(?:{kinds})\b\s*(?:on|about|regarding|concerning|for|of)?", " ", topic, flags=re.I)
    topic = _FILLER.sub(" ", topic)
    topic = re.sub(r"^\s*(?:about|on|regarding|concerning)\s+", " ", topic, flags=re.I)
    topic = re.sub(r"\s*[,;:]\s*(?=[,;:.?!]|$)", " ", topic)
    topic = " ".join(topic.replace("?", " ").split()).strip(" ,.;:-")
    topic = _DANGLING_VERB.sub("", topic)
    return re.sub(r"\s+(?:on|from|at|in|for|of|about|and|with)$", "", topic, flags=re.I)
