"""The run's model budget: calls, tokens and cost, checked before every model call.

Checking before the call (not between group turns) makes the limits exact even inside nested chats.
The roles that write the report from what was collected are exempt, so a run stopped by its budget
still ends with a written report.
"""

from __future__ import annotations

import threading
from collections.abc import Collection
from dataclasses import dataclass, field

from research_crawler.errors import ModelError
from research_crawler.llm.usage import UsageLedger

__all__ = ["STOPPED_BY_USER", "RunBudget", "RunInterrupted", "RunLimitReached"]


class RunLimitReached(ModelError):
    """The run's model budget is spent: the exploration stops and the report is written."""


class RunInterrupted(RunLimitReached):
    """The user stopped the run: the exploration stops and the report is written from what was collected."""


#: Why a run the user stopped ended, as the report and the trace say it.
STOPPED_BY_USER = "stopped by the user"


@dataclass
class RunBudget:
    """Limits over every model call recorded in `ledger` (None: no limit)."""

    ledger: UsageLedger
    max_calls: int | None = None
    max_tokens: int | None = None
    max_cost_usd: float | None = None
    exempt_agents: Collection[str] = field(default_factory=frozenset)
    cancelled: threading.Event = field(default_factory=threading.Event)
    #: Agents that finish the page they are reading after a cancel, so no page is left half-processed
    #: (its links saved but not its items, or neither); the run stops at the next turn of the group chat.
    finish_page_agents: Collection[str] = field(default_factory=frozenset)

    def exhausted(self) -> str | None:
        """Which limit is reached ("" wording for the user), or None."""
        totals = self.ledger.totals()
        if self.max_calls is not None and totals.calls >= self.max_calls:
            return f"the run limit of {self.max_calls} model calls is reached"
        if self.max_tokens is not None and totals.input_tokens + totals.output_tokens >= self.max_tokens:
            return f"the run limit of {self.max_tokens} tokens is reached"
        if self.max_cost_usd is not None and totals.cost_usd >= self.max_cost_usd:
            return f"the run limit of ${self.max_cost_usd:g} is reached"
        return None

    def check(self, agent: str) -> None:
        """Raise RunLimitReached when a limit is reached and `agent` is not exempt."""
        if agent in self.exempt_agents:
            return
        if self.cancelled.is_set() and agent not in self.finish_page_agents:
            raise RunInterrupted(STOPPED_BY_USER)
        reason = self.exhausted()
        if reason is not None:
            raise RunLimitReached(reason)
