"""The model side of one run: which client answers each agent, and what every call shares — the usage
ledger, the run's limits (messages, calls, tokens, cost, cancellation), the rate limit and the simulated model's
fault log.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from research_crawler.agents.ag2 import ModelSpec
from research_crawler.agents.roles import Role
from research_crawler.config.settings import Settings
from research_crawler.llm.client import BaseModelClient
from research_crawler.llm.openai_client import OpenAICompatibleClient
from research_crawler.llm.prompt_cache import PromptCacheEstimate
from research_crawler.llm.rate_limit import ModelRateLimiter, RequestLimiter
from research_crawler.llm.run_limits import RunLimits
from research_crawler.llm.simulated import SIMULATED_MODEL_NAME, FaultLog, SimulatedModelClient
from research_crawler.llm.simulated_encoder import double_judge
from research_crawler.llm.usage import ModelCall, UsageLedger, cost_of
from research_crawler.run.run_dir import ModelBackend
from research_crawler.run.trace import Trace

__all__ = ["RunModels"]

#: Roles whose task is a tool call: a text answer before their call is asked again (`llm/reply_checks.py`).
#: The Planner may answer in text (it hands the site to the Supervisor), the Presenter and Critique write.
_ACTING_ROLES = frozenset({Role.WEB_SELECTOR, Role.CRAWLER, Role.COLLECTOR, Role.SUPERVISOR})
_ROLE_OF_AGENT = {role.agent_name: role for role in Role}


class RunModels:
    """Model clients for every role of one run (sites explored in parallel share one `RunModels`)."""

    def __init__(
        self,
        settings: Settings,
        *,
        backend: ModelBackend,
        cancelled: threading.Event,
        trace: Trace,
        adjust: Callable[[Role, ModelSpec], ModelSpec] | None = None,
        rate_limiter: RequestLimiter | None = None,
    ) -> None:
        """`rate_limiter`: the endpoint's limits shared with other queries (a batch's, a cluster's); by default
        this run's own, from `models.requests_per_minute` and `models.tokens_per_minute`."""
        self.settings = settings
        self._adjust = adjust
        self.backend: ModelBackend = backend
        self.trace = trace
        self.ledger = UsageLedger()
        self.fault_log = FaultLog()
        self.prompt_cache = PromptCacheEstimate()
        run, models = settings.run, settings.models
        #: One for the run, shared by every lane: the report's writers are exempt, so a stopped run still reports.
        self.limits = RunLimits(
            max_messages=run.max_rounds,
            max_calls=run.max_model_calls,
            max_tokens=run.max_tokens,
            max_cost_usd=run.max_cost_usd,
            exempt_agents={Role.PRESENTER.agent_name, Role.CRITIQUE.agent_name},
            finish_page_agents={Role.CRAWLER.agent_name, Role.COLLECTOR.agent_name},
            cancelled=cancelled,
        )
        self.rate_limiter = rate_limiter or (
            ModelRateLimiter(requests_per_minute=models.requests_per_minute, tokens_per_minute=models.tokens_per_minute)
            if models.requests_per_minute or models.tokens_per_minute
            else None
        )
        self.ledger.subscribe(self._trace_call)

    @property
    def simulated(self) -> bool:
        return self.backend == "simulated"

    def model_name(self, role: Role) -> str:
        """The model that answers `role` in this run."""
        return SIMULATED_MODEL_NAME if self.simulated else self.settings.models.model_for(role.value)

    def spec(self, role: Role) -> ModelSpec:
        """The model client of `role` for this run's backend."""
        kwargs: dict[str, Any] = {
            "agent_name": role.agent_name,
            "ledger": self.ledger,
            "settings": self.settings.models,
            "limits": self.limits,
            "must_call_tool": role in _ACTING_ROLES,
            "max_output_tokens": self.settings.models.max_output_tokens.get(role.value),
            "prompt_cache": self.prompt_cache,
        }
        client_cls: type[BaseModelClient]
        if self.simulated:
            client_cls = SimulatedModelClient
            kwargs.update(simulated=self.settings.simulated, fault_log=self.fault_log)
            if self.settings.simulated.judge == "meaning":
                kwargs["meaning"] = double_judge()
        else:
            client_cls = OpenAICompatibleClient
        if self.rate_limiter is not None:
            kwargs["rate_limiter"] = self.rate_limiter
        spec = ModelSpec(client_cls=client_cls, model=self.model_name(role), client_kwargs=kwargs)
        return self._adjust(role, spec) if self._adjust is not None else spec

    def list_price_model(self, agent: str) -> str | None:
        """The model whose list price prices `agent`'s calls: the one configured for its role (also when the
        simulated model answers for it: what the run would cost with the configured models)."""
        role = _ROLE_OF_AGENT.get(agent)
        return self.settings.models.model_for(role.value) if role is not None else None

    def list_cost(self, call: ModelCall) -> float:
        """USD `call` costs at list prices with the configured model of its agent (its own cost when a real
        model answered; for the simulated model, what the configured one would have cost)."""
        if not self.simulated:
            return call.cost_usd
        model = self.list_price_model(call.agent)
        if model is None:
            return 0.0
        return cost_of(
            model,
            call.input_tokens,
            call.output_tokens,
            self.settings.models.prices_per_million,
            cached_input_tokens=call.cached_input_tokens,
        )

    def _trace_call(self, call: ModelCall) -> None:
        self.trace.emit(
            "model_call",
            agent=call.agent,
            model=call.model,
            input_tokens=call.input_tokens,
            cached_input_tokens=call.cached_input_tokens,
            output_tokens=call.output_tokens,
            cost_usd=call.cost_usd,
            list_cost_usd=round(self.list_cost(call), 8),
            ok=call.ok,
            error=call.error,
            attempts=call.attempts,
            latency_s=round(call.latency_s, 3),
            reply=call.reply,
            outcome=call.outcome,
        )
