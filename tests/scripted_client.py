"""A model client driven by a script, for tests of the shared client policy: each request gets the next step."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from research_crawler.config.settings import ModelSettings
from research_crawler.llm.client import BaseModelClient, ModelReply, ModelRequest
from research_crawler.llm.usage import UsageLedger

Step = ModelReply | Exception | Callable[[ModelRequest], ModelReply]


class FakeTime:
    """A clock that only moves when the client sleeps (or a step says it took time)."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


class ScriptedClient(BaseModelClient):
    """Answers each `_complete` with the next step: a reply, an exception to raise, or a function."""

    def __init__(self, config: dict[str, Any], *, steps: list[Step], **kwargs: Any) -> None:
        super().__init__(config, **kwargs)
        self.steps = list(steps)
        self.requests: list[ModelRequest] = []

    def _complete(self, request: ModelRequest) -> ModelReply:
        self.requests.append(request)
        step = self.steps.pop(0)
        if isinstance(step, Exception):
            raise step
        if callable(step):
            return step(request)
        return step


def make_client(
    steps: list[Step],
    *,
    fake_time: FakeTime | None = None,
    client_kwargs: dict[str, Any] | None = None,
    **settings: Any,
) -> tuple[ScriptedClient, UsageLedger, FakeTime]:
    """A scripted client of the Planner on gpt-4o; `settings` are its ModelSettings, `client_kwargs` what a run
    passes its clients (limits, max_output_tokens…)."""
    ledger = UsageLedger()
    fake_time = fake_time or FakeTime()
    client = ScriptedClient(
        {"model": "gpt-4o", "model_client_cls": "ScriptedClient"},
        steps=steps,
        agent_name="planner",
        ledger=ledger,
        settings=ModelSettings(**settings),
        sleep=fake_time.sleep,
        clock=fake_time.clock,
        **(client_kwargs or {}),
    )
    return client, ledger, fake_time
