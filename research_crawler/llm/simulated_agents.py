"""The simulated model's rules: how it plays each agent, from the conversation and the tools it is offered.

One function per role (`RULES`); each answers with a tool call (through `Player.call`) or a text reply.
"""

from __future__ import annotations

import json
import random
import re
from calendar import month_abbr, month_name
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any

from research_crawler.llm.client import ModelReply
from research_crawler.llm.simulated_conversation import Conversation, calls_made, last_int, request_of, text_of
from research_crawler.llm.simulated_meaning import MeaningJudge, item_score, link_score, site_fits
from research_crawler.llm.simulated_page_reading import (
    abstract_shown,
    authors_shown,
    entries,
    link_lines,
    year_cited,
)
from research_crawler.llm.simulated_request import follow_up_reading, read_count, request_reading
from research_crawler.llm.simulated_words import BOILERPLATE_WORDS, NAVIGATION_WORDS, content_words

__all__ = ["RULES", "Player", "Rule", "text_reply"]

_SEARCH_WORDS = re.compile(r'Search words: "([^"]+)"')
#: An archive's calendar link: a year, or a month's name ("May (3)", "March 2025"), as a model reads them.
_CALENDAR = re.compile(
    r"\s*(?:\d{4}\b|\d+\s*$|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b(?:\s+\d{4})?\W*(?:\(\d+\))?\s*$)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Player:
    """What a rule needs besides the messages and the tools: how to answer with a tool call, how many
    items are enough for a site when the request names no number, how relevance is judged: by meaning
    with `meaning` (simulated.judge = "meaning"), else by the content words shared with the request; and the share
    of drafts the Critique asks to revise, seeded by `seed`."""

    call: Callable[[str, dict[str, Any]], ModelReply]
    enough_items: int
    meaning: MeaningJudge | None = None
    revision_rate: float = 0.0
    seed: int = 0


Rule = Callable[[Conversation, set[str], Player], ModelReply]


def text_reply(content: str) -> ModelReply:
    """A plain text answer (no tool call)."""
    return ModelReply(content=content, finish_reason="stop")


def play_request_reader(chat: Conversation, player: Player) -> ModelReply:
    """The Web Selector reading the request into its contract (`simulated_request.py`: the double's own reading),
    with today's date as its system prompt gives it."""
    if chat.tool_results_since_task():
        return text_reply("The request is recorded.")
    task = chat.task()
    said = re.search(r"Today is (\d{4}-\d{2}-\d{2})", chat.system())
    today = date.fromisoformat(said.group(1)) if said else date.today()
    earlier = re.search(r"^Earlier request, as read: (\{.*\})$", task, re.MULTILINE)
    follow_up = re.search(r'^Follow-up: "(.*)"$', task, re.MULTILINE)
    if earlier and follow_up:
        arguments = follow_up_reading(json.loads(earlier.group(1)), follow_up.group(1), today=today)
    else:
        arguments = {**request_reading(request_of(task) or task, today=today), "new_search": True}
    return player.call("record_request", arguments)


def play_web_selector(chat: Conversation, tools: set[str], player: Player) -> ModelReply:
    if "record_request" in tools:
        return play_request_reader(chat, player)
    if chat.tool_results_since_task():
        return text_reply("The sites are chosen.")
    task = chat.task()
    query = content_words(request_of(task))
    limit = int(m.group(1)) if (m := re.search(r"at most (\d+) sites", task)) else 2
    candidates = re.findall(r"^- ([\w-]+): (.+)$", task, re.MULTILINE)
    if player.meaning is not None:
        closeness = player.meaning.similarity(request_of(task), [text for _, text in candidates])
        fits = [site_fits(value, max(closeness, default=0.0)) for value in closeness]
    else:
        closeness = [float(len(query & content_words(text))) for _, text in candidates]
        fits = [value > 0 for value in closeness]
    ranked = sorted(range(len(candidates)), key=lambda n: (-closeness[n], n))
    chosen = [candidates[n][0] for n in ranked if fits[n]][:limit]
    named = [site_id for site_id, text in candidates if "[named by the user" in text]
    return player.call(
        "select_sites", {"site_ids": named + [c for c in chosen if c not in named] or [candidates[0][0]]}
    )


def play_planner(chat: Conversation, tools: set[str], player: Player) -> ModelReply:
    query = chat.query()
    site_part = chat.since_last("Now exploring")
    last = site_part[-1] if site_part else {}
    last_text = text_of(last)
    target = _items_wanted(site_part) or read_count(query) or player.enough_items
    # What the Scraper's reports since the site was announced say was collected (the announcement's own
    # count may hold an earlier request's items).
    collected = last_int(
        r"(\d+) (?:item\(s\) collected here|of \d+ \w+ collected so far|\w+ collected so far)", site_part[1:]
    )
    if collected is not None and collected >= target:
        return player.call("finish_site", {})
    has_search = any("this site has a search form" in text_of(m) for m in site_part)
    searches = [str(a.get("query", "")) for a in calls_made(site_part, "search_site")]
    listing = "Pending URLs on" in last_text or "No pending URLs" in last_text
    # nothing collected yet, or the hint says the site's search is still unused while more are wanted
    offered = "search form has not been used yet" in last_text
    if listing and has_search and not searches and (not collected or offered) and "search_site" in tools:
        words = next((m.group(1) for m in map(_SEARCH_WORDS.search, map(text_of, site_part)) if m), None)
        return player.call("search_site", {"query": words or " ".join(sorted(content_words(query)))})
    if listing and len(searches) == 1 and "the search found nothing" in last_text and "search_site" in tools:
        # told that fewer words may find something, a model searches again with the subject's key words only
        keywords = [w for w in re.findall(r"[\w-]+", searches[0]) if w.lower() in content_words(searches[0])]
        if keywords and " ".join(keywords) != searches[0]:
            return player.call("search_site", {"query": " ".join(keywords)})
    if "Pending URLs on" in last_text:
        tried = {a.get("url") for a in calls_made(site_part, "scrape_url")}
        # the view marks an item's page "(collected)": opening it finds no new item, so a model looking for more
        # leaves it
        listed = re.findall(r"^\d+\. (\S+) — (.*?)(?<! \(collected\))$", last_text, re.MULTILINE)
        by_author = bool(re.search(r"\bby [A-Z]", query))
        choices = [url for url, anchor in listed if url not in tried and _promising(url, anchor, by_author=by_author)]
        if last_int(r"(\d+) subpages? left", [last]) == 1:
            # the last page: an index (a year, a month, a section) would only give links no page is left to open,
            # so an item's own page (its anchor a title) comes first
            titled = [url for url, anchor in listed if url in choices and _is_title(anchor)]
            choices = titled + [url for url in choices if url not in titled]
        if choices:
            return player.call("scrape_url", {"url": choices[0]})
        return player.call("finish_site", {})
    if "No pending URLs" in last_text or "No subpages" in last_text:
        return player.call("finish_site", {})
    return player.call("get_top_urls", {"k": 10})


def _items_wanted(messages: list[dict[str, Any]]) -> int | None:
    """How many items the run's messages say the report lists ("up to 10 papers", "3 of 10 papers collected")."""
    return last_int(r"\bof (\d+) \w+ collected so far", messages) or last_int(r"\blists up to (\d+) ", messages)


#: Site chrome a reader looking for papers does not open (besides the words of `BOILERPLATE_WORDS`).
_CHROME_WORDS = frozenset({"deposit", "submit", "submission", "submissions", "policies", "home", "faq", "imprint"})


def _promising(url: str, anchor: str, *, by_author: bool) -> bool:
    """Whether a pending URL is worth a page to a reader looking for items: anything but site chrome, and a person's
    page or a search for a person's name (an author link) only when the request asks for someone's works."""
    words = content_words(re.sub(r"\s*\(on: .*\)$", "", anchor))
    if not words or words <= BOILERPLATE_WORDS | _CHROME_WORDS:
        return False
    return by_author or not re.search(r"author|person|people|profile", url, re.IGNORECASE)


def _is_title(anchor: str) -> bool:
    """Whether an anchor reads as an item's title (four words or more), not an index's name ("2025", "Oceans")."""
    return len(re.sub(r"\s*\(on: .*\)$", "", anchor).split()) >= 4


def play_crawler(chat: Conversation, tools: set[str], player: Player) -> ModelReply:
    if chat.tool_results_since_task():
        return text_reply("Links saved.")
    task = chat.task()
    request = request_of(task)
    query = content_words(request)
    lines = link_lines(task)
    topical = _link_closeness(player.meaning, request, lines) if player.meaning is not None else None
    calendar = _calendar_scores(request, lines, _today(chat))
    links = []
    for index, (number, text, context) in enumerate(lines):
        words = content_words(text)
        if topical is not None:
            score = link_score(topical[index])
        else:
            overlap = len(query & (words | content_words(context)))
            score = min(10.0, 4.0 + 6.0 * overlap / max(1, len(query))) if overlap else None
        if score is None and number in calendar:
            score = calendar[number]
        elif score is None and (words & NAVIGATION_WORDS or _CALENDAR.match(text)):
            score = 3.0
        elif score is None and words and not words & BOILERPLATE_WORDS:
            score = 1.0
        if score is None:
            continue
        links.append({"id": number, "score": round(score, 1)})
    if topical is not None and not any(link["score"] >= 4.0 for link in links):
        menu = _menu_links(task)  # a menu's "Venue" or "Organisers" is the site's, not a subject of its content
        _closest_subjects(links, lines, topical, menu=menu)
    return player.call("save_links", {"links": links[:40]})


#: The line of the Crawler's view above the links a page shows only in its header, navigation or footer.
_MENU_HEADING = "Site menu (only in the page's header, navigation or footer):"


def _menu_links(task: str) -> set[int]:
    """The numbers of the links the view lists under its site-menu line."""
    if _MENU_HEADING not in task:
        return set()
    below = task.split(_MENU_HEADING, 1)[1].split("</page-content>", 1)[0]
    return {int(number) for number in re.findall(r"\[(\d+)\]", below)}


def _today(chat: Conversation) -> date:
    said = re.search(r"Today is (\d{4}-\d{2}-\d{2})", chat.system())
    return date.fromisoformat(said.group(1)) if said else date.today()


def _calendar_scores(request: str, lines: list[tuple[int, str, str]], today: date) -> dict[int, float]:
    """An archive's calendar links as a model weighs them against the request's dates: a year the request asks for
    above the rest (3.0) and a year outside its dates below them; for the newest items, the latest year and the
    latest month of the page first, whatever order the page lists them in. Links it has no reason to tell apart
    are left out (they keep the navigation score)."""
    reading = request_reading(request, today=today)
    years = {n: int(m.group(1)) for n, text, _ in lines if (m := re.fullmatch(r"\s*((?:19|20)\d\d)\W*(?:\(\d+\))?\s*",
                                                                            text))}  # fmt: skip
    months = {n: _MONTHS[m.group(1).lower()] for n, text, _ in lines
              if (m := re.fullmatch(r"\s*([a-z]+)\.?(?:\s+\d{4})?\W*(?:\(\d+\))?\s*", text, re.I))
              and m.group(1).lower() in _MONTHS}  # fmt: skip
    scores: dict[int, float] = {}
    if "date_from" in reading or "date_to" in reading:
        low = int(str(reading.get("date_from", "0001"))[:4])
        high = int(str(reading.get("date_to", "9999"))[:4])
        scores.update({n: 5.0 if low <= year <= high else 1.0 for n, year in years.items()})
    elif reading.get("order") == "newest" or reading.get("recent"):
        for calendar in (years, months):
            for rank, n in enumerate(sorted(calendar, key=lambda n: -calendar[n])[:2]):
                scores[n] = 4.0 - rank / 2
    return scores


#: A month by its name or its usual abbreviation ("March", "Mar", "Sept"), as an English reader knows them.
_MONTHS = {name.lower(): n for names in (month_name, month_abbr) for n, name in enumerate(names) if n} | {"sept": 9}


def _closest_subjects(
    links: list[dict[str, Any]], lines: list[tuple[int, str, str]], closeness: list[float], *, menu: set[int]
) -> None:
    """On a page with no link on the topic, the short links closest to it (a subject, a section: "Machine Learning"
    for graph neural networks) are the way on, as a reader browsing by subject takes them: they are scored above
    the page's other links and its navigation. Short link texts are general, so only their order means something
    (the same margin as the Web Selector's sites). The page's own short links come first: the site's `menu` is
    browsed by subject only on a page that offers none of its own (a menu of subjects, not one of "Venue")."""
    short = {
        number: closeness[index]
        for index, (number, text, _) in enumerate(lines)
        if 1 <= len(text.split()) <= 4 and not text.strip().isdigit()
        and not content_words(text) & (NAVIGATION_WORDS | BOILERPLATE_WORDS)
    }  # fmt: skip
    saved = {link["id"] for link in links}
    if any(number not in menu and number in saved for number in short):
        short = {number: value for number, value in short.items() if number not in menu}
    if not short:
        return
    best = max(short.values())
    for link in links:
        if link["id"] in short and site_fits(short[link["id"]], best):
            link["score"] = 3.5


def _link_closeness(meaning: MeaningJudge, request: str, lines: list[tuple[int, str, str]]) -> list[float]:
    """How close each link is to the request in meaning: its anchor, or the line around it when that says more."""
    texts = [text for _, text, _ in lines]
    contexts = [context if context.strip() and context != text else text for _, text, context in lines]
    by_anchor = meaning.similarity(request, texts)
    by_context = meaning.similarity(request, contexts)
    return [max(a, c) for a, c in zip(by_anchor, by_context, strict=True)]


def play_collector(chat: Conversation, tools: set[str], player: Player) -> ModelReply:
    results = chat.tool_results_since_task()
    task = chat.task()
    request = request_of(task)
    query = content_words(request)
    if results:
        stored = re.search(r"Added (\d+) item", text_of(results[-1]))
        count = int(stored.group(1)) if stored else 0
        if count:
            return text_reply(f"Stored {count} relevant item(s) from this page.")
        return text_reply("No relevant items on this page; it holds navigation and listings to explore further.")
    need = max(1, (len(query) + 1) // 2)
    items = []
    listed = [(number, title, block) for number, title, block in entries(task) if len(title.split()) >= 4]
    if player.meaning is not None:
        closeness = _item_closeness(player.meaning, request, listed)
    for index, (number, title, block) in enumerate(listed):
        if player.meaning is not None:
            # A section heading under a short link ("### Similar content …") names no item, however close the
            # titles listed under it are.
            score = None if title.startswith("#") else item_score(closeness[index])
        else:
            overlap = len(query & content_words(block))
            relevant = overlap >= need and len(query & content_words(title)) >= 1
            score = round(min(10.0, 5.0 + 5.0 * overlap / max(1, len(query))), 1) if relevant else None
        if score is not None:
            item: dict[str, Any] = {"id": number, "title": title, "score": score, "description": title}
            if (shown := _DATE_SHOWN.search(block.replace(title, " "))) is not None:
                item["date"] = shown.group(0)  # the tool asks for the date "as the page shows it"
            elif (year := year_cited(block)) is not None:
                item["date"] = year  # a citation names only its year
            if names := authors_shown(block):
                item["authors"] = names  # and the authors as it shows them
            items.append(item)
    marker = re.search(r'<page-content url="([^"]*)" title="([^"]*)">', task)
    page_url, title = (marker.group(1), marker.group(2)) if marker else (None, "")
    # a page that lists several papers is a listing, however close its title and whatever abstracts it shows
    if page_url and title and re.search(r"\babstract\b", task, re.I) and len(listed) < _LISTING_ENTRIES:
        if player.meaning is not None:  # the title, or the title with the abstract's start: what it is about
            about = [title, f"{title}. {abstract}"] if (abstract := abstract_shown(task)) else [title]
            page_is_item = item_score(max(player.meaning.similarity(request, about))) is not None
        else:
            page_is_item = len(query & content_words(title)) >= need
        if page_is_item:
            items.append({"url": page_url, "title": title, "score": 9.0, "description": title})
    return player.call("collect_items", {"items": items[:25]})  # an empty list when none is relevant


#: Entries from which a page is a listing of items rather than one item's page.
_LISTING_ENTRIES = 3
_MONTH = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?"
#: A date as an entry of a listing shows it: 2025-02-01, 1 February 2025, Feb 1, 2025.
_DATE_SHOWN = re.compile(
    rf"\b(?:(?:19|20)\d\d-\d\d-\d\d|\d{{1,2}} {_MONTH} (?:19|20)\d\d|{_MONTH} \d{{1,2}}, (?:19|20)\d\d)\b"
)


def _item_closeness(meaning: MeaningJudge, request: str, listed: list[tuple[int, str, str]]) -> list[float]:
    """How close each listed entry is to the request in meaning: its title, or its whole entry (with the
    snippet or abstract under it) when that is closer."""
    by_title = meaning.similarity(request, [title for _, title, _ in listed])
    by_block = meaning.similarity(request, [block for _, _, block in listed])
    return [max(t, b) for t, b in zip(by_title, by_block, strict=True)]


def play_supervisor(chat: Conversation, tools: set[str], player: Player) -> ModelReply:
    results = chat.tool_results_since_task()
    if not results and "get_collected_items" in tools:
        return player.call("get_collected_items", {})
    if results and text_of(results[-1]).startswith("Recorded:"):
        return text_reply("Verdict given.")
    listing = next(
        (text_of(r) for r in [*reversed(results), {"content": chat.task()}] if "collected on" in text_of(r)), ""
    )
    found = last_int(r"(\d+) item\(s\) collected on", [{"content": listing}]) or 0
    request = request_of(listing) or chat.query()
    wanted = last_int(r"\bof the (\d+) \w* ?the report lists", [{"content": listing}])
    target = wanted or read_count(request) or player.enough_items
    left = last_int(r"\((\d+) subpages left\)", [{"content": listing}])
    # the Planner handed over: it found nothing more worth opening, so a report's usual share is enough
    if found >= target or left == 0 or (not read_count(request) and found >= player.enough_items):
        return player.call("approve_site", {"reason": f"{found} relevant item(s) collected."})
    return player.call(
        "request_more",
        {"feedback": f"Only {found} of {target} items so far: open more listings or search."},
    )


def play_presenter(chat: Conversation, tools: set[str], player: Player) -> ModelReply:
    results = chat.tool_results_since_task()
    task = chat.task()
    review = m.group(1) if (m := re.search(r"\nReview:\n(.*?)\n\nDraft:\n", task, re.DOTALL)) else None
    listed_in_task = bool(_PRESENTER_ITEM.search(task))
    if not results and "get_top_items" in tools and not listed_in_task:
        k = read_count(chat.query()) or 10
        return player.call("get_top_items", {"k": k})
    listing = text_of(results[-1]) if results else task
    query = chat.query()
    brief = bool(re.search(r"titles?( and dates?)? only", query, re.I))
    why = review is not None and "why it is relevant" in review
    found = _PRESENTER_ITEM.findall(listing)
    lines = [f"# Results for: {query}", ""]
    if review is not None and "how many" in review:
        lines += [f"{len(found)} item(s) found for this request, best first.", ""]
    for number, title, link, rest in found:
        date = m.group(1) if (m := re.search(r"date: (.+)", rest)) else None
        authors = m.group(1) if (m := re.search(r"authors: (.+)", rest)) else None
        if authors and len(authors.split("; ")) > 3:
            authors = "; ".join(authors.split("; ")[:3]) + " et al."
        if brief:
            lines.append(f"{number}. [{title}]({link})" + (f" — {date}" if date else ""))
        else:
            details = ", ".join(part for part in (authors, date) if part)
            lines.append(f"{number}. [{title}]({link})" + (f" — {details}" if details else ""))
        if why and (about := re.search(r"about: (.+)", rest)) is not None:
            lines.append(f"   {_first_sentence(about.group(1))}")
    if len(lines) == 2:
        lines.append("No relevant items were found.")
    if (m := re.search(r"Only (\d+) of the (\d+) requested were found", listing)) is not None:
        lines += ["", f"Found {m.group(1)} of the {m.group(2)} requested."]
    return text_reply("\n".join(lines))


_PRESENTER_ITEM = re.compile(r"^(\d+)\. (.+)\n   link: (\S+)((?:\n   .+)*)", re.MULTILINE)


def _first_sentence(text: str) -> str:
    match = re.match(r"(.+?[.!?])(?:\s|$)", text.strip())
    return match.group(1) if match else text.strip()


def play_critique(chat: Conversation, tools: set[str], player: Player) -> ModelReply:
    """Asks for a revision of a share of drafts (`Player.revision_rate`, seeded by the draft), naming one thing
    its instructions ask for that the draft lacks; otherwise "No changes needed."."""
    task = chat.task()
    draft = task.split("Review this draft report:", 1)[-1].strip()
    if player.revision_rate <= 0 or random.Random(f"{player.seed}:{draft}").random() >= player.revision_rate:
        return text_reply("No changes needed.")
    request = chat.query()
    listed = len(re.findall(r"^\d+\. \[", draft, re.MULTILINE))
    asked = read_count(request)
    if asked is not None and listed < asked and not re.search(rf"\bof the {asked} requested\b", draft):
        return text_reply(f"- Say plainly that only {listed} of the {asked} requested were found.")
    brief = bool(re.search(r"titles?( and dates?)? only", request, re.I))
    if listed and not brief and not re.search(r"^   \S", draft, re.MULTILINE):
        return text_reply("- Add one sentence to each item saying why it is relevant to the request.")
    return text_reply("- Begin with one line saying how many items were found.")


#: The rule of each role `role_of` recognises.
RULES: dict[str, Rule] = {
    "web_selector": play_web_selector,
    "planner": play_planner,
    "crawler": play_crawler,
    "collector": play_collector,
    "supervisor": play_supervisor,
    "presenter": play_presenter,
    "critique": play_critique,
}
