"""The run's limits — group messages, model calls, tokens, cost — in one object shared by every lane of a run.

A model call reserves what it may take before it is sent (one call, its prompt counted offline plus the most its
reply may have, their cost at list price) and settles with what it took once it is back, or releases the
reservation when it was never sent: a call that could pass a limit beside the calls made and those in flight is not
sent. Each group message is counted the same way, across every lane's chat, before its speaker is chosen. The
roles that write the report from what was collected are exempt (counted, never refused), so a stopped run still
ends with a written report.
"""

from __future__ import annotations

import threading
from collections.abc import Collection
from dataclasses import dataclass

from research_crawler.errors import ModelError

__all__ = ["STOPPED_BY_USER", "Reservation", "RunInterrupted", "RunLimitReached", "RunLimits"]

#: Why a run the user stopped ended, as the report and the trace say it.
STOPPED_BY_USER = "stopped by the user"
#: How long a call that fits beside the calls made, but not beside those in flight, waits between looks at the
#: user's stop (a settling call wakes it at once).
_WAIT_S = 0.25


class RunLimitReached(ModelError):
    """A run limit leaves no room for the next call or turn: the exploration stops and the report is written."""


class RunInterrupted(RunLimitReached):
    """The user stopped the run: the exploration stops and the report is written from what was collected."""


@dataclass
class _Usage:
    calls: int = 0
    tokens: int = 0
    cost_usd: float = 0.0

    def add(self, calls: int, tokens: int, cost_usd: float, sign: int = 1) -> None:
        self.calls += sign * calls
        self.tokens += sign * tokens
        self.cost_usd += sign * cost_usd


class Reservation:
    """What one model call holds until it settles with its real usage, or is released because it was not sent.

    As a context manager it is released on leaving unless it settled (a call that failed before it was sent).
    """

    def __init__(self, limits: RunLimits, *, tokens: int, cost_usd: float) -> None:
        self._limits = limits
        self.tokens = tokens
        self.cost_usd = cost_usd
        self._open = True

    def __enter__(self) -> Reservation:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.release()

    def settle(self, *, tokens: int, cost_usd: float) -> None:
        """The call was made and took `tokens` (input plus output) and `cost_usd`: counted, the hold given up."""
        self._end(made=True, tokens=tokens, cost_usd=cost_usd)

    def release(self) -> None:
        """The call was not made: nothing counted. No-op once settled or released."""
        self._end(made=False, tokens=0, cost_usd=0.0)

    def _end(self, *, made: bool, tokens: int, cost_usd: float) -> None:
        with self._limits._changed:
            if not self._open:
                return
            self._open = False
            self._limits._held.add(1, self.tokens, self.cost_usd, sign=-1)
            if made:
                self._limits._made.add(1, tokens, cost_usd)
            self._limits._changed.notify_all()


class RunLimits:
    """The run's limits (None: no limit), shared by every lane: what was made, what is held, and the turns taken.

    `exempt_agents` are never refused (what they take is counted); `finish_page_agents` are not stopped by the
    user's stop (set `cancelled`), so a page being read is read whole; the run stops at its next turn.
    """

    def __init__(
        self,
        *,
        max_messages: int | None = None,
        max_calls: int | None = None,
        max_tokens: int | None = None,
        max_cost_usd: float | None = None,
        exempt_agents: Collection[str] = frozenset(),
        finish_page_agents: Collection[str] = frozenset(),
        cancelled: threading.Event | None = None,
    ) -> None:
        self.max_messages = max_messages
        self.max_calls = max_calls
        self.max_tokens = max_tokens
        self.max_cost_usd = max_cost_usd
        self.exempt_agents = frozenset(exempt_agents)
        self.finish_page_agents = frozenset(finish_page_agents)
        self.cancelled = cancelled or threading.Event()
        self._changed = threading.Condition()
        self._made = _Usage()
        self._held = _Usage()
        self._messages = 0

    # -- model calls ------------------------------------------------------------------------------------

    def reserve(self, agent: str, *, tokens: int, cost_usd: float) -> Reservation:
        """Hold one call of `agent` that may take up to `tokens` and `cost_usd`, or raise why it may not be made.

        A call that fits beside the calls made but not beside those in flight waits for them to settle (they may
        take less than they hold); one that does not fit beside the calls made raises `RunLimitReached`, and the
        user's stop `RunInterrupted`.
        """
        with self._changed:
            while agent not in self.exempt_agents:
                if self.cancelled.is_set() and agent not in self.finish_page_agents:
                    raise RunInterrupted(STOPPED_BY_USER)
                beside_made = self._passed(self._made, tokens=tokens, cost_usd=cost_usd)
                if beside_made is not None:
                    raise RunLimitReached(beside_made)
                if self._passed(self._in_use(), tokens=tokens, cost_usd=cost_usd) is None:
                    break
                self._changed.wait(_WAIT_S)
            self._held.add(1, tokens, cost_usd)
            return Reservation(self, tokens=tokens, cost_usd=cost_usd)

    def _passed(self, usage: _Usage, *, tokens: int, cost_usd: float) -> str | None:
        """The limit one more call of `tokens` and `cost_usd` would pass on top of `usage`, in words, or None."""
        if self.max_calls is not None and usage.calls + 1 > self.max_calls:
            return f"the run limit of {self.max_calls} model calls is reached"
        if self.max_tokens is not None and usage.tokens + tokens > self.max_tokens:
            return (
                f"the run limit of {self.max_tokens} tokens is reached "
                f"({usage.tokens} taken, and the next call may take up to {tokens})"
            )
        if self.max_cost_usd is not None and usage.cost_usd + cost_usd > self.max_cost_usd:
            return f"the run limit of ${self.max_cost_usd:g} is reached (${usage.cost_usd:.4f} spent)"
        return None

    def _in_use(self) -> _Usage:
        return _Usage(
            self._made.calls + self._held.calls,
            self._made.tokens + self._held.tokens,
            self._made.cost_usd + self._held.cost_usd,
        )

    # -- group messages -------------------------------------------------------------------------------

    def next_turn(self) -> str | None:
        """Count the next group message of any lane, or say why the run stops instead: the user stopped it, or a
        limit leaves no room (every message, call, token or dollar made or held)."""
        with self._changed:
            if self.cancelled.is_set():
                return STOPPED_BY_USER
            if self.max_messages is not None and self._messages >= self.max_messages:
                return f"the run limit of {self.max_messages} group messages is reached"
            in_use = self._in_use()
            if self.max_calls is not None and in_use.calls >= self.max_calls:
                return f"the run limit of {self.max_calls} model calls is reached"
            if self.max_tokens is not None and in_use.tokens >= self.max_tokens:
                return f"the run limit of {self.max_tokens} tokens is reached"
            if self.max_cost_usd is not None and in_use.cost_usd >= self.max_cost_usd:
                return f"the run limit of ${self.max_cost_usd:g} is reached"
            self._messages += 1
            return None

    def count_turn(self) -> None:
        """Count a group message that is never refused: a tool call's answer, or the report's turn."""
        with self._changed:
            self._messages += 1

    def return_turn(self) -> None:
        """Give back a turn `next_turn` counted that no speaker took (the chat ended)."""
        with self._changed:
            self._messages -= 1

    @property
    def messages(self) -> int:
        """Group messages counted so far, every lane's together."""
        with self._changed:
            return self._messages
