"""What the Planner reads of its conversation: every report, but only its most recent tool exchanges — or,
bounded whatever the number of pages, the current site's latest reports after a summary of the older ones.

The Planner's history grows by a URL listing and a tool acknowledgement for every page, and it reads all
of it again before each move. What it needs is what the Scraper, the Supervisor and the user told it (the
page reports, verdicts and the request), plus the last few tool results it is acting on; the pending URLs
are listed afresh by get_top_urls whenever it asks. So older tool calls are dropped, each together with
its results: a tool result without the call it answers is refused by OpenAI-compatible endpoints, and a
call without its result is too. Calls that record a decision the Planner must not repeat (the keywords it
already searched the site for) can be kept whatever their age.

Even so, every page adds a report that each later move reads again: a site of n pages costs the Planner n²
report readings. `summarise_old_reports` bounds it: earlier sites' messages go, and the current site's older
reports are folded into one summary line (pages read, pages that could not be read, items stored, whether
the site has a search form), a block of reports at a time so that what comes before the latest block stays
the same from one move to the next (a provider's prompt cache keeps applying to it).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable
from typing import Any

__all__ = ["keep_reports", "planner_history_hook", "summarise_old_reports"]

Message = dict[str, Any]


def planner_history_hook(
    *, recent_tool_calls: int, always_keep: Collection[str] = (), recent_reports: int | None = None
) -> Callable[[list[Message]], list[Message]]:
    """An AG2 ``process_all_messages_before_reply`` hook applying `keep_reports` (and, given `recent_reports`,
    `summarise_old_reports`)."""
    if recent_tool_calls < 1:
        raise ValueError(f"recent_tool_calls must be at least 1, not {recent_tool_calls}")
    if recent_reports is not None and recent_reports < 1:
        raise ValueError(f"recent_reports must be at least 1, not {recent_reports}")
    kept_tools = frozenset(always_keep)

    def hook(messages: list[Message]) -> list[Message]:
        kept = keep_reports(messages, recent_tool_calls=recent_tool_calls, always_keep=kept_tools)
        if recent_reports is not None:
            kept = summarise_old_reports(kept, recent_reports=recent_reports)
        return drop_old_listings(kept)

    return hook


def keep_reports(
    messages: list[Message], *, recent_tool_calls: int, always_keep: Collection[str] = ()
) -> list[Message]:
    """`messages` without the tool exchanges older than the last `recent_tool_calls`.

    A tool exchange is one assistant message with ``tool_calls`` and the tool messages answering all of its
    call ids (AG2 keeps them as ``role: tool`` messages with ``tool_responses``, or one per ``tool_call_id``).
    Only complete exchanges are dropped, whole, and never one that calls a tool named in `always_keep`;
    every other message — the request, page reports, verdicts, text replies, and any call or result that
    does not pair up cleanly — is kept in its place. The messages
    themselves are not changed (AG2 owns them); a new list is returned.
    """
    if recent_tool_calls < 1:
        raise ValueError(f"recent_tool_calls must be at least 1, not {recent_tool_calls}")
    call_owner: dict[str, int] = {}
    for index, message in enumerate(messages):
        for call_id in _call_ids(message):
            call_owner[call_id] = index
    answers: dict[int, list[int]] = {}
    answered: dict[int, set[str]] = {}
    entangled: set[int] = set()
    for index, message in enumerate(messages):
        if message.get("tool_calls"):
            continue
        ids = _answered_ids(message)
        if not ids:
            continue
        owners = {call_owner.get(call_id) for call_id in ids}
        owner = next(iter(owners))
        if len(owners) == 1 and owner is not None and owner < index:
            answers.setdefault(owner, []).append(index)
            answered.setdefault(owner, set()).update(ids)
        else:  # answers several calls, or none that came before it: leave all of them alone
            entangled.update(owner for owner in owners if owner is not None)
    complete = [
        index
        for index, message in enumerate(messages)
        if message.get("tool_calls")
        and index not in entangled
        and set(_call_ids(message)) <= answered.get(index, set())
        and not _tool_names(message) & set(always_keep)
    ]
    dropped: set[int] = set()
    for index in complete[: max(0, len(complete) - recent_tool_calls)]:
        dropped.add(index)
        dropped.update(answers[index])
    return [message for index, message in enumerate(messages) if index not in dropped]


def _call_ids(message: Message) -> list[str]:
    return [str(call.get("id")) for call in message.get("tool_calls") or [] if isinstance(call, dict)]


def _tool_names(message: Message) -> set[str]:
    return {
        str((call.get("function") or {}).get("name"))
        for call in message.get("tool_calls") or []
        if isinstance(call, dict)
    }


def _answered_ids(message: Message) -> set[str]:
    if message.get("role") != "tool":
        return set()
    responses: Iterable[Any] = message.get("tool_responses") or []
    ids = {str(response.get("tool_call_id")) for response in responses if isinstance(response, dict)}
    if not ids and message.get("tool_call_id"):
        ids = {str(message["tool_call_id"])}
    return ids


_LISTING = re.compile(r"\n\n(?:Pending URLs on |No pending URLs on ).*\Z", re.DOTALL)


def drop_old_listings(messages: list[Message]) -> list[Message]:
    """`messages` where only the latest page report or announcement keeps its list of pending URLs (and its
    hint): older lists are out of date (the queue has moved on) and the Planner needs only the current one.
    Changed messages are copies; the rest are the same objects."""
    latest = max(
        (i for i, m in enumerate(messages) if not m.get("tool_calls") and _LISTING.search(_content(m))), default=None
    )
    result = []
    for index, message in enumerate(messages):
        text = _content(message)
        if index != latest and not message.get("tool_calls") and _LISTING.search(text):
            message = {**message, "content": _LISTING.sub("", text)}
        result.append(message)
    return result


def _content(message: Message) -> str:
    content = message.get("content")
    return content if isinstance(content, str) else ""


#: Who writes what the summary folds: the page reports, and the Supervisor's verdicts (only the latest is read).
_SCRAPER = "ScraperProxy"
_SUPERVISOR = "SupervisorProxy"
_ANNOUNCEMENT = "Now exploring "
_COULD_NOT_READ = "Could not read "
_ITEMS_STORED = re.compile(r"(\d+) new item\(s\) stored")
_SEARCH_FORM = "this site has a search form (search_site can use it)"


def summarise_old_reports(messages: list[Message], *, recent_reports: int) -> list[Message]:
    """`messages` as the Planner reads them on a long site, at a size that does not grow with the pages.

    Kept: the first message (the request, unless the announcement quotes it), the current site's announcement,
    the Scraper's latest page reports (from `recent_reports` to twice that less one: older ones are folded
    `recent_reports` at a time), the Supervisor's latest verdict, and the tool exchanges after the announcement.
    The folded reports become one message right after the announcement. Messages before the announcement
    (earlier sites) are dropped with the tool exchanges among them, whole. Changed or added messages are new
    dicts; the rest are the same objects.
    """
    if recent_reports < 1:
        raise ValueError(f"recent_reports must be at least 1, not {recent_reports}")
    start = max(
        (i for i, m in enumerate(messages) if _plain(m) and _content(m).startswith(_ANNOUNCEMENT)), default=None
    )
    if start is None:
        return messages
    site = messages[start + 1 :]
    reports = [i for i, m in enumerate(site) if _plain(m) and m.get("name") == _SCRAPER]
    verdicts = [i for i, m in enumerate(site) if _plain(m) and m.get("name") == _SUPERVISOR]
    folded = reports[: max(0, (len(reports) - recent_reports) // recent_reports * recent_reports)]
    dropped = set(folded) | set(verdicts[:-1])
    kept = [message for index, message in enumerate(site) if index not in dropped]
    # The first message (the request) is kept unless the announcement already quotes it word for word.
    head = [messages[0]] if start > 0 and _content(messages[0]) not in _content(messages[start]) else []
    summary = [_summary([site[i] for i in folded])] if folded else []
    return _without_orphan_results([*head, messages[start], *summary, *kept])


def _summary(reports: list[Message]) -> Message:
    """One message standing for `reports`: how many pages they read and what those pages gave."""
    texts = [_content(report) for report in reports]
    unread = sum(text.startswith(_COULD_NOT_READ) for text in texts)
    items = sum(int(count) for text in texts for count in _ITEMS_STORED.findall(text))
    facts = [f"{len(texts) - unread} page(s) read", f"{unread} could not be read", f"{items} new item(s) stored"]
    if any(_SEARCH_FORM in text for text in texts):
        facts.append(_SEARCH_FORM)
    return {
        "content": f"Earlier on this site ({len(texts)} page reports, summarised): {'; '.join(facts)}.",
        "role": "user",
        "name": _SCRAPER,
    }


def _without_orphan_results(messages: list[Message]) -> list[Message]:
    """`messages` without tool results whose call is not among them (an endpoint refuses those)."""
    calls = {call_id for message in messages for call_id in _call_ids(message)}
    return [m for m in messages if not (_answered_ids(m) and not _answered_ids(m) <= calls)]


def _plain(message: Message) -> bool:
    return not message.get("tool_calls") and message.get("role") != "tool"
