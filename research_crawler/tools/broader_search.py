"""A site search that found little, offered again with fewer words, as a person tries a shorter search.

Most site searches match every word typed: "phonics instruction in early reading" finds only the works that use all
four, while the works on the subject say "phonics" or "early reading" in their own words. A person who sees one or two
results for a long phrase searches again for a part of it: each phrase the request's linking words ("of", "on", "in",
"for", "to" …) separate, of two words or more ("phonics instruction", "early reading"), or, for a term of three words
with no linking word, the term without its first word ("automated program repair" → "program repair"). A search that
found nothing is left to the Planner, who is told so and searches again itself.

Those searches are queued in C like links, named for what they are ("site search: early reading — the same search
with fewer words"), so the Planner sees them among the pending pages and opens one if it is worth a page. Bounded: only
after a results page that says how few it found, at most `_MAX_OFFERED` a search, through a search sent by GET (the
only kind a queued URL can repeat); each one is the same search as the Planner's but for its words, so it goes
through the same URL guard, robots.txt and pace as any page.
"""

from __future__ import annotations

import re

from research_crawler.errors import ToolInputError
from research_crawler.pages.page import Page
from research_crawler.pages.search_forms import build_search_submission
from research_crawler.tools.exploration import Exploration
from research_crawler.tools.site_offers import offer_page
from research_crawler.tools.site_search import found_nothing

__all__ = ["BROADER_SEARCH_SCORE", "broader_queries", "offer_broader_search", "results_count"]

#: Where a shorter search stands among the Crawler's scores (0-10): above a listing's next page, below the links judged
#: on the topic.
BROADER_SEARCH_SCORE = 5.5
#: A results page that says it found this many or fewer found little for a phrase of several words.
_FEW_RESULTS = 2
_MAX_OFFERED = 2
#: A phrase with no linking word is shortened only when it is a term of this many words ("automated program repair"):
#: a longer one is a list of keywords, where no word is the one to drop.
_ONE_PHRASE_WORDS = 3
_MAX_LOOK_CHARS = 4000
#: The words that link the phrases of a request's topic ("fire resistance OF mass timber buildings").
_LINKING = frozenset({
    "of", "on", "in", "for", "to", "with", "by", "about", "and", "or", "at", "from", "among", "across", "under", "into",
    "via", "against", "during", "between", "without", "after", "before", "through", "using", "over", "within",
})  # fmt: skip
_ARTICLES = frozenset({"a", "an", "the"})
_WORD = re.compile(r"[\w’'-]+")
#: How a results page states its count: "1 studies found", "Showing 3 results", "1–10 of 245 results", "Found 2",
#: or in the names of what it lists: "2 releases", "3 records", "1 article".
_COUNT = re.compile(
    r"\b(\d[\d,]*)\s+(?:[a-z]+\s+){0,2}(?:results?|matches|hits|found)\b|\bfound\s+(\d[\d,]*)\b|"
    r"(?:^|\n)\s*(\d[\d,]*)\s+(?:articles?|papers?|records?|documents?|items?|publications?|releases?|entries|entry"
    r"|works?|preprints?|datasets?|theses|thesis|reports?|stories|story|posts?)\s*(?:\n|$)",
    re.IGNORECASE,
)


def results_count(markdown: str) -> int | None:
    """How many results a results page says it found (read near its top, where pages say it); 0 when it says it
    found nothing, None when it says neither."""
    if found_nothing(markdown):
        return 0
    match = _COUNT.search(markdown[:_MAX_LOOK_CHARS])
    if match is None:
        return None
    return int((match.group(1) or match.group(2) or match.group(3)).replace(",", ""))


def broader_queries(query: str) -> list[str]:
    """The shorter searches a person tries after `query` found little (the rule of the module docstring): its
    phrases of two words or more between linking words, longest first, or its one term of three words without its
    first word; none for a query with no linking word of any other length."""
    words = _WORD.findall(query)
    phrases: list[list[str]] = [[]]
    for word in words:
        lower = word.lower()
        if lower in _LINKING:
            phrases.append([])
        elif lower not in _ARTICLES:
            phrases[-1].append(word)
    phrases = [phrase for phrase in phrases if phrase]
    if len(phrases) == 1:
        shorter = [" ".join(phrases[0][1:])] if len(phrases[0]) == _ONE_PHRASE_WORDS else []
    else:
        shorter = [" ".join(phrase) for phrase in sorted(phrases, key=len, reverse=True) if len(phrase) >= 2]
    whole = " ".join(w.lower() for w in words)
    return [text for text in dict.fromkeys(shorter) if text.lower() != whole]


def offer_broader_search(x: Exploration, page: Page, query: str) -> int:
    """Queue the shorter searches of `query` (`broader_queries`) after its results `page` said it found little, through
    the site's first search sent by GET; how many were new."""
    count = results_count(page.markdown)
    if count is None or not 1 <= count <= _FEW_RESULTS:
        return 0  # none found: the Planner is told so and searches again itself
    mechanism = next(
        (m for m in x.findings.site_search.get(x.site.url, []) if m.usable and m.method == "GET" and m.url_template),
        None,
    )
    if mechanism is None:
        return 0
    offered = 0
    for words in broader_queries(query)[:_MAX_OFFERED]:
        try:
            url = build_search_submission(mechanism, words).url
        except ToolInputError:
            continue
        anchor = f"site search: {words} — the same search with fewer words (“{query.strip()}” found {count})"
        offered += offer_page(x, url, BROADER_SEARCH_SCORE, anchor, page, kind="broader_search")
    return offered
