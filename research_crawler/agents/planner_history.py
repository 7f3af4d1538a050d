"""What the Planner reads of its conversation: every report, but only its most recent tool exchanges.

The Planner's history grows by a URL listing and a tool acknowledgement for every page, and it reads all
of it again before each move. What it needs is what the Scraper, the Supervisor and the user told it (the
page reports, verdicts and the request), plus the last few tool results it is acting on; the pending URLs
are listed afresh by get_top_urls whenever it asks. So older tool calls are dropped, each together with
its results: a tool result without the call it answers is refused by OpenAI-compatible endpoints, and a
call without its result is too. Calls that record a decision the Planner must not repeat (the keywords it
already searched the site for) can be kept whatever their age.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable
from typing import Any

__all__ = ["keep_reports", "planner_history_hook"]

Message = dict[str, Any]


def planner_history_hook(
    *, recent_tool_calls: int, always_keep: Collection[str] = ()
) -> Callable[[list[Message]], list[Message]]:
    """An AG2 ``process_all_messages_before_reply`` hook applying `keep_reports`."""
    if recent_tool_calls < 1:
        raise ValueError(f"recent_tool_calls must be at least 1, not {recent_tool_calls}")
    kept_tools = frozenset(always_keep)

    def hook(messages: list[Message]) -> list[Message]:
        kept = keep_reports(messages, recent_tool_calls=recent_tool_calls, always_keep=kept_tools)
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
