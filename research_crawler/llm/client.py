"""The AG2 model-client seam that every model we use goes through, real or simulated: one code path.

`BaseModelClient` owns the policy (retries, in model_retries.py, re-asking empty or
cut-off replies, token counting, the usage ledger); a subclass only implements `_complete`, one
request to its model. AG2 names the class in an agent's config list and instantiates it through
`agent.register_model_client(...)` (see `research_crawler.llm.ag2_setup`).
"""

from __future__ import annotations

import copy
import logging
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Literal, cast, get_args

from openai.types.chat import ChatCompletion, ChatCompletionMessage, ChatCompletionMessageToolCallUnion
from openai.types.chat.chat_completion import Choice
from openai.types.chat.chat_completion_message_function_tool_call import (
    ChatCompletionMessageFunctionToolCall,
    Function,
)
from openai.types.completion_usage import CompletionUsage, PromptTokensDetails
from pydantic import BaseModel, ConfigDict, Field

from research_crawler.config.settings import ModelSettings
from research_crawler.errors import ConfigError, ModelError
from research_crawler.llm.endpoint_slots import EndpointSlots
from research_crawler.llm.model_retries import call_with_retries
from research_crawler.llm.prompt_cache import PromptCacheEstimate
from research_crawler.llm.rate_limit import RequestLimiter
from research_crawler.llm.reply_checks import ASKED_AGAIN, GAVE_UP, PASSED_ON, STOPPED, check_reply, tool_answered
from research_crawler.llm.run_limits import Reservation, RunLimits
from research_crawler.llm.usage import (
    ModelCall,
    UsageLedger,
    cost_of,
    estimate_prompt_tokens,
    estimate_reply_tokens,
    price_for,
)

__all__ = [
    "NO_USABLE_REPLY_PREFIX",
    "REASK_NAME",
    "BaseModelClient",
    "ModelReply",
    "ModelRequest",
    "ToolCallSpec",
]

logger = logging.getLogger(__name__)

#: The `name` of the message that asks a model again after an unusable reply.
REASK_NAME = "correction"
#: Start of the text reply given to the agent when every re-ask still gave nothing usable.
NO_USABLE_REPLY_PREFIX = "(no usable reply from the model: "

#: OpenAI chat parameters a config-list entry may carry through to the endpoint; everything else
#: (AG2's `model_client_cls`, `stream`, made-up keys) is dropped so a strict server does not refuse it.
_PASSTHROUGH_OPTIONS = frozenset(
    {"max_tokens", "max_completion_tokens", "top_p", "seed", "stop", "tool_choice", "parallel_tool_calls"}
    | {"presence_penalty", "frequency_penalty", "logit_bias", "reasoning_effort", "user"}
)
_HANDLED_PARAMS = frozenset({"messages", "tools", "temperature", "model", "model_client_cls", "stream"})

_FinishReason = Literal["stop", "length", "tool_calls", "content_filter", "function_call"]
_FINISH_REASONS: frozenset[str] = frozenset(get_args(_FinishReason))

class ToolCallSpec(BaseModel):
    """One tool call as the model wrote it; `arguments` is the raw string (it may be malformed JSON)."""

    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    arguments: str


class ModelReply(BaseModel):
    """What one request to a model gave back. Token counts are None when the endpoint did not say."""

    content: str | None = None
    tool_calls: list[ToolCallSpec] = Field(default_factory=list)
    finish_reason: str = "stop"
    input_tokens: int | None = Field(default=None, ge=0)
    output_tokens: int | None = Field(default=None, ge=0)
    cached_input_tokens: int | None = Field(
        default=None, ge=0, description="Input tokens the endpoint served from its prompt cache, when it said."
    )
    model: str = Field(
        default="", description="Model name the endpoint reported; empty means the requested one."
    )


class ModelRequest(BaseModel):
    """One request, built from AG2's params; `messages` and `tools` are our own deep copies."""

    model: str
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] | None = None
    temperature: float | None = None
    agent: str
    options: dict[str, Any] = Field(
        default_factory=dict, description="Other OpenAI chat parameters from the config entry (max_tokens…)."
    )


class BaseModelClient:
    """AG2 custom model client: named by `model_client_cls` in config_list, built by register_model_client.

    AG2 passes the config-list entry as `config` and the `register_model_client` keyword arguments as
    the rest: `agent_name` (AG2 does not tell the client which agent calls it), the shared `ledger`
    and the `settings`. `sleep` and `clock` are injectable so tests need not wait; keyword arguments a
    subclass does not consume are kept in `extra_options`.
    """

    def __init__(
        self,
        config: dict[str, Any],
        *,
        agent_name: str,
        ledger: UsageLedger,
        settings: ModelSettings,
        sleep: Callable[[float], None] | None = None,
        clock: Callable[[], float] | None = None,
        **kwargs: Any,
    ) -> None:
        model = config.get("model")
        if not isinstance(model, str) or not model.strip():
            raise ConfigError(f"the model client of {agent_name!r} needs a 'model' in its config entry")
        self.config = dict(config)
        self.model = model
        self.agent_name = agent_name
        self.ledger = ledger
        self.settings = settings
        self.sleep: Callable[[float], None] = sleep or time.sleep
        self.clock: Callable[[], float] = clock or time.monotonic
        #: The run's limits, shared by every client of the run: each round trip reserves before it is sent.
        self.limits: RunLimits = kwargs.pop("limits", None) or RunLimits()
        self.rate_limiter: RequestLimiter | None = kwargs.pop("rate_limiter", None)
        #: The agent's task is a tool call: a text reply before any of its calls was answered is asked again.
        self.must_call_tool: bool = bool(kwargs.pop("must_call_tool", False))
        #: Told of every round trip once it is in the ledger (the exploration counts a site's calls with it).
        self.on_call: Callable[[ModelCall], None] | None = kwargs.pop("on_call", None)
        #: Most tokens a reply may have (sent as max_tokens unless the agent's config sets its own).
        self.max_output_tokens: int | None = kwargs.pop("max_output_tokens", None)
        #: The endpoint's queue: requests wait here for a free slot before they are sent (None: no bound).
        self.slots: EndpointSlots | None = kwargs.pop("slots", None)
        #: Estimates the input tokens a provider's prompt cache would serve when the endpoint does not say
        #: (shared by a run's clients: a cache serves every agent of one model).
        self.prompt_cache: PromptCacheEstimate = kwargs.pop("prompt_cache", None) or PromptCacheEstimate()
        self.extra_options: dict[str, Any] = kwargs

    def __repr__(self) -> str:
        return f"{type(self).__name__}(agent={self.agent_name!r}, model={self.model!r})"

    # -- what subclasses implement -----------------------------------------------------------------

    def _complete(self, request: ModelRequest) -> ModelReply:
        """Send `request` to the model once. Raise `TransientModelError` for retryable failures and
        `ModelError` (with a message that says how to fix it) for the others."""
        raise NotImplementedError(f"{type(self).__name__} must implement _complete")

    # -- the AG2 ModelClient protocol -------------------------------------------------------------

    def create(self, params: dict[str, Any]) -> ChatCompletion:
        """Answer AG2's request: retries, re-asks and accounting around `_complete`.

        Raises `ModelError` when the endpoint cannot be used (retries exhausted, bad key…); the
        failure is in the ledger first. Never raises for an empty or cut-off reply: after
        `max_reasks` it answers with a text that says no usable reply came. Raises `RunLimitReached` when the
        run's limits leave no room for a round trip (a re-ask included): nothing is sent then.
        """
        request = self.build_request(params)
        original_messages = request.messages
        input_total = output_total = cached_total = 0
        reasks = 0
        while True:
            prompt_tokens = estimate_prompt_tokens(request.messages, request.tools)
            with self._reserve(request, prompt_tokens) as held:
                reply, attempts, latency = self._complete_with_retries(request, held)
                checked = check_reply(
                    content=reply.content,
                    tool_calls=[(call.name, call.arguments) for call in reply.tool_calls],
                    finish_reason=reply.finish_reason,
                    tools=request.tools,
                    messages=original_messages,
                    must_call_tool=self.must_call_tool,
                    output_tokens=reply.output_tokens,
                    max_tokens=_max_tokens(request.options),
                )
                problem = checked.what if checked is not None else None
                if problem is None:
                    outcome = PASSED_ON
                elif reasks >= self.settings.max_reasks:
                    outcome = GAVE_UP
                else:
                    outcome = ASKED_AGAIN
                call = self._account(
                    request,
                    reply,
                    held,
                    prompt_tokens,
                    attempts=attempts,
                    latency=latency,
                    problem=problem,
                    outcome=outcome,
                )
            input_total += call.input_tokens
            output_total += call.output_tokens
            cached_total += call.cached_input_tokens
            model = call.model
            totals = {"input_tokens": input_total, "output_tokens": output_total, "cached_input_tokens": cached_total}
            if checked is None:
                return self._completion(reply, model=model, **totals)
            if reasks >= self.settings.max_reasks:
                logger.warning(
                    "no usable reply for %s after %d re-ask(s): %s", self.agent_name, reasks, problem
                )
                fallback = ModelReply(content=f"{NO_USABLE_REPLY_PREFIX}{problem})", finish_reason="stop")
                return self._completion(fallback, model=model, **totals)
            reasks += 1
            logger.info("unusable reply for %s (%s): asking again (%d)", self.agent_name, problem, reasks)
            correction = {"role": "user", "name": REASK_NAME, "content": checked.nudge}
            request = request.model_copy(update={"messages": [*original_messages, correction]})

    def _reserve(self, request: ModelRequest, prompt_tokens: int) -> Reservation:
        """Hold the most one round trip of `request` may take in the run's limits: its prompt counted offline
        (`prompt_tokens`) plus its output bound (the max_tokens it is sent with), at list price with no input
        cached. Raises `RunLimitReached` when they leave no room."""
        most = prompt_tokens + (_max_tokens(request.options) or 0)
        cost, _ = self._cost(request.model, prompt_tokens, _max_tokens(request.options) or 0)
        return self.limits.reserve(self.agent_name, tokens=most, cost_usd=cost)

    def _account(
        self,
        request: ModelRequest,
        reply: ModelReply,
        held: Reservation,
        prompt_tokens: int,
        *,
        attempts: int,
        latency: float,
        problem: str | None,
        outcome: str = PASSED_ON,
    ) -> ModelCall:
        """Record one round trip in the ledger and settle its reservation; tokens the endpoint did not report are
        counted offline (`prompt_tokens`, and the input a prompt cache would serve estimated, when it reported
        no usage at all)."""
        input_tokens = reply.input_tokens if reply.input_tokens is not None else prompt_tokens
        if reply.cached_input_tokens is not None:
            cached = min(reply.cached_input_tokens, input_tokens)
        elif reply.input_tokens is None:
            cached = min(self.prompt_cache.cached_tokens(request.model, request.messages, request.tools), input_tokens)
        else:  # the endpoint counted the input but said nothing of a cache: none
            cached = 0
        output_tokens = (
            reply.output_tokens
            if reply.output_tokens is not None
            else estimate_reply_tokens(reply.content, [(c.name, c.arguments) for c in reply.tool_calls])
        )
        model = reply.model or request.model
        cost, priced = self._cost(model, input_tokens, output_tokens, cached_input_tokens=cached)
        call = ModelCall(
            agent=self.agent_name,
            model=model,
            input_tokens=input_tokens,
            cached_input_tokens=cached,
            output_tokens=output_tokens,
            cost_usd=cost,
            latency_s=latency,
            ok=problem is None,
            error=problem or "",
            finish_reason=reply.finish_reason,
            attempts=attempts,
            priced=priced,
            at=datetime.now(UTC),
            reply=_reply_kind(reply),
            outcome=outcome,
        )
        held.settle(tokens=input_tokens + output_tokens, cost_usd=cost)
        self.ledger.record(call)
        logger.debug("model call of %s: %s", self.agent_name, call)
        if self.on_call is not None:
            self.on_call(call)
        return call

    def message_retrieval(self, response: ChatCompletion) -> list[Any]:
        """The message object when it has tool calls (AG2 dumps it), else its text; as AG2's own client."""
        return [
            choice.message if choice.message.tool_calls else (choice.message.content or "")
            for choice in response.choices
        ]

    def cost(self, response: ChatCompletion) -> float:
        """USD cost of `response` (all re-asks of one `create` included), from the settings' prices."""
        usage = response.usage
        if usage is None:
            return 0.0
        details = usage.prompt_tokens_details
        cached = details.cached_tokens or 0 if details is not None else 0
        return self._cost(response.model, usage.prompt_tokens, usage.completion_tokens, cached_input_tokens=cached)[0]

    @staticmethod
    def get_usage(response: ChatCompletion) -> dict[str, Any]:
        """Usage in AG2's keys, which it sums per agent."""
        usage = response.usage
        prompt = usage.prompt_tokens if usage else 0
        completion = usage.completion_tokens if usage else 0
        return {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
            "cost": getattr(response, "cost", 0.0),
            "model": response.model,
        }

    # -- the policy ---------------------------------------------------------------------------------

    def build_request(self, params: dict[str, Any]) -> ModelRequest:
        """Our request from AG2's params: deep copies (AG2's message dicts are live), known options only."""
        messages = params.get("messages")
        if not isinstance(messages, list) or not all(isinstance(message, dict) for message in messages):
            raise ModelError(f"the model request of {self.agent_name} has no list of messages")
        tools = params.get("tools") or None
        temperature = params.get("temperature", self.settings.temperature)
        if temperature is not None and not isinstance(temperature, int | float):
            raise ConfigError(f"temperature must be a number, got {temperature!r}")
        options = {key: copy.deepcopy(value) for key, value in params.items() if key in _PASSTHROUGH_OPTIONS}
        if self.max_output_tokens is not None and not {"max_tokens", "max_completion_tokens"} & options.keys():
            options["max_tokens"] = self.max_output_tokens
        if tools and self.settings.parallel_tool_calls is not None:
            options.setdefault("parallel_tool_calls", self.settings.parallel_tool_calls)
        if (
            self.must_call_tool
            and self.settings.force_tool_call
            and tools
            and len(tools) == 1
            and not tool_answered(messages)
            and "tool_choice" not in options
        ):  # an agent whose task is its one tool: the endpoint is asked to call it (a grammar, on local servers)
            options["tool_choice"] = {"type": "function", "function": {"name": tools[0]["function"]["name"]}}
        dropped = sorted(set(params) - _HANDLED_PARAMS - _PASSTHROUGH_OPTIONS)
        if dropped:
            logger.debug("not sent to the model endpoint for %s: %s", self.agent_name, dropped)
        model = params.get("model") or self.model
        return ModelRequest(
            model=str(model),
            messages=copy.deepcopy(messages),
            tools=copy.deepcopy(tools),
            temperature=temperature,
            agent=self.agent_name,
            options=options,
        )

    def _complete_with_retries(self, request: ModelRequest, held: Reservation) -> tuple[ModelReply, int, float]:
        """`_complete` with retries on transient failures: (reply, attempts, seconds spent). The time spent
        waiting for the endpoint's queue (`slots`) is not counted: neither in the seconds nor in the retry budget."""
        started = self.clock()
        queued = 0.0
        attempts = 0

        def spent() -> float:
            return self.clock() - started - queued

        def attempt() -> ModelReply:
            nonlocal queued, attempts
            attempts += 1
            if self.rate_limiter is not None:
                self.rate_limiter.acquire(estimate_prompt_tokens(request.messages, request.tools))
            if self.slots is None:
                return self._complete(request)
            with self.slots.turn(self.clock) as waited:
                queued += waited
                return self._complete(request)

        caller = f"{self.agent_name} ({request.model})"
        try:
            reply = call_with_retries(attempt, settings=self.settings, spent=spent, sleep=self.sleep, caller=caller)
        except Exception as exc:
            # retries given up, ModelError (bad key, refused request) and bugs alike: recorded, then raised unchanged
            error = str(exc) if isinstance(exc, ModelError) else f"{type(exc).__name__}: {exc}"
            self._record_failure(request, held, attempts=attempts, latency=spent(), error=error)
            raise
        return reply, attempts, spent()

    def _record_failure(
        self, request: ModelRequest, held: Reservation, *, attempts: int, latency: float, error: str
    ) -> None:
        held.settle(tokens=0, cost_usd=0.0)  # a request sent that failed: a call, with no usage reported
        self.ledger.record(
            ModelCall(
                agent=self.agent_name,
                model=request.model,
                input_tokens=0,
                output_tokens=0,
                cost_usd=0.0,
                latency_s=latency,
                ok=False,
                error=error,
                finish_reason=None,
                attempts=attempts,
                priced=price_for(request.model, self.settings.prices_per_million) is not None,
                at=datetime.now(UTC),
                outcome=STOPPED,
            )
        )

    def _cost(
        self, model: str, input_tokens: int, output_tokens: int, *, cached_input_tokens: int = 0
    ) -> tuple[float, bool]:
        """Cost and whether it is priced; an unknown reported name falls back to the configured model."""
        prices = self.settings.prices_per_million
        for name in (model, self.model):
            if price_for(name, prices) is not None:
                cost = cost_of(name, input_tokens, output_tokens, prices, cached_input_tokens=cached_input_tokens)
                return cost, True
        return cost_of(model, input_tokens, output_tokens, prices, cached_input_tokens=cached_input_tokens), False

    @staticmethod
    def _completion(
        reply: ModelReply, *, model: str, input_tokens: int, output_tokens: int, cached_input_tokens: int = 0
    ) -> ChatCompletion:
        tool_calls: list[ChatCompletionMessageToolCallUnion] = [
            ChatCompletionMessageFunctionToolCall(
                id=call.id, type="function", function=Function(name=call.name, arguments=call.arguments)
            )
            for call in reply.tool_calls
        ]
        finish_reason: _FinishReason
        if tool_calls:
            finish_reason = "tool_calls"
        elif reply.finish_reason in _FINISH_REASONS:
            finish_reason = cast(_FinishReason, reply.finish_reason)
        else:
            finish_reason = "stop"
        message = ChatCompletionMessage(
            role="assistant", content=reply.content, tool_calls=tool_calls or None
        )
        return ChatCompletion(
            id=f"rc-{uuid.uuid4().hex}",
            object="chat.completion",
            created=int(time.time()),
            model=model,
            choices=[Choice(index=0, finish_reason=finish_reason, message=message)],
            usage=CompletionUsage(
                prompt_tokens=input_tokens,
                completion_tokens=output_tokens,
                total_tokens=input_tokens + output_tokens,
                prompt_tokens_details=PromptTokensDetails(cached_tokens=cached_input_tokens),
            ),
        )


def _max_tokens(options: dict[str, Any]) -> int | None:
    """The output bound a request was sent with (``max_completion_tokens`` or ``max_tokens``), if any."""
    value = options.get("max_completion_tokens", options.get("max_tokens"))
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _reply_kind(reply: ModelReply) -> str:
    """A reply in a few words, for the ledger: the tools it calls, else text or nothing."""
    if reply.tool_calls:
        return "calls " + ", ".join(call.name for call in reply.tool_calls)
    return "text" if (reply.content or "").strip() else "empty"

