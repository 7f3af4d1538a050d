"""The run's limits that the group chat checks between turns: messages, model calls, tokens and cost."""

from __future__ import annotations

from research_crawler.config.settings import RunSettings
from research_crawler.llm.usage import UsageLedger

__all__ = ["reached_limit"]


def reached_limit(settings: RunSettings, *, messages: int, ledger: UsageLedger) -> str | None:
    """Which run limit is reached, in words ("run limit of 40 model calls reached"), or None."""
    totals = ledger.totals()
    checks = [
        (messages >= settings.max_rounds, f"{settings.max_rounds} group messages"),
        (totals.calls >= settings.max_model_calls, f"{settings.max_model_calls} model calls"),
        (totals.input_tokens + totals.output_tokens >= settings.max_tokens, f"{settings.max_tokens} tokens"),
        (
            settings.max_cost_usd is not None and totals.cost_usd >= settings.max_cost_usd,
            f"${settings.max_cost_usd} cost",
        ),
    ]
    return next((f"run limit of {what} reached" for reached, what in checks if reached), None)
