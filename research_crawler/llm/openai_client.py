"""The production model client: any OpenAI-compatible chat endpoint (OpenAI, Ollama, vLLM, llama.cpp).

The `openai` library sends one request per attempt (its own retries are off) and its errors are
translated here into `TransientModelError` (retried, model_retries.py) or a `ModelError` whose
message says what to fix. The API key is never put in a message, a log line or a repr.
"""

from __future__ import annotations

import logging
import math
import re
import uuid
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import openai

from research_crawler.config.settings import ModelSettings
from research_crawler.errors import ModelError
from research_crawler.llm.chat_messages import portable_messages
from research_crawler.llm.client import (
    BaseModelClient,
    ModelReply,
    ModelRequest,
    ToolCallSpec,
)
from research_crawler.llm.endpoint_slots import endpoint_slots
from research_crawler.llm.model_retries import TransientModelError
from research_crawler.llm.usage import UsageLedger
from research_crawler.web.retries import parse_retry_after

__all__ = ["DEFAULT_BASE_URL", "OpenAICompatibleClient", "endpoint_label"]

logger = logging.getLogger(__name__)

DEFAULT_BASE_URL = "https://api.openai.com/v1"
#: Sent when a local server (Ollama, llama.cpp) needs no key: the openai library insists on one.
_PLACEHOLDER_KEY = "no-key-needed"
_RETRYABLE_STATUSES = frozenset({408, 409, 429})
_MAX_DETAIL_CHARS = 300
#: Statuses that answer a request the server could not take as it was (with 5xx, judged by what the body says).
_REQUEST_STATUSES = frozenset({400, 413, 422})
#: What servers say when a request does not fit the model's context (OpenAI, vLLM, llama.cpp, llama-cpp-python).
_CONTEXT_EXCEEDED = re.compile(
    r"context_length_exceeded|maximum context length|exceeds? (the )?(available )?context|context window of",
    re.IGNORECASE,
)
#: What servers say of a request they could not read: pydantic's messages (llama-cpp-python, vLLM), Ollama's,
#: OpenAI's. Said with a 5xx too (llama-cpp-python answers a validation error with HTTP 500).
_MALFORMED = re.compile(
    r"validation error|input should be|field required|extra inputs are not permitted|unprocessable"
    r"|invalid message|invalid tool call|invalid_request_error|is not of type|does not match"
    r"|must be followed by tool messages|must be a response to a preced",
    re.IGNORECASE,
)
_MALFORMED_TYPES = frozenset({"invalid_request_error", "BadRequestError", "bad_request", "validation_error"})


def endpoint_label(base_url: str | None) -> str:
    """The endpoint as it may be shown to a user: the base URL without any user:password part."""
    parts = urlsplit(base_url or DEFAULT_BASE_URL)
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def _is_openai_cloud(base_url: str | None) -> bool:
    return base_url is None or (urlsplit(base_url).hostname or "").lower() == "api.openai.com"


class OpenAICompatibleClient(BaseModelClient):
    """AG2 model client for an OpenAI-compatible endpoint, configured by `ModelSettings`.

    Raises `ModelError` at construction when the endpoint is OpenAI's and no key is set; a local
    `base_url` without a key is allowed (Ollama needs none).
    """

    def __init__(
        self,
        config: dict[str, Any],
        *,
        agent_name: str,
        ledger: UsageLedger,
        settings: ModelSettings,
        **kwargs: Any,
    ) -> None:
        super().__init__(config, agent_name=agent_name, ledger=ledger, settings=settings, **kwargs)
        key = settings.api_key.get_secret_value() if settings.api_key is not None else None
        if key is None:
            if _is_openai_cloud(settings.base_url):
                raise ModelError(
                    "no model endpoint configured: set OPENAI_API_KEY (and OPENAI_BASE_URL for other "
                    "OpenAI-compatible servers) or use --model simulated"
                )
            key = _PLACEHOLDER_KEY
        self._secret = key
        self._endpoint = endpoint_label(settings.base_url)
        if self.slots is None:
            self.slots = endpoint_slots(settings.base_url, settings.max_concurrent_requests)
        self._openai = openai.OpenAI(
            api_key=key,
            base_url=settings.base_url or DEFAULT_BASE_URL,
            max_retries=0,
            timeout=settings.request_timeout_s,
        )

    def _complete(self, request: ModelRequest) -> ModelReply:
        messages = portable_messages(request.messages)
        arguments: dict[str, Any] = {"model": request.model, "messages": messages, **request.options}
        if request.tools:
            arguments["tools"] = request.tools
        if request.temperature is not None:
            arguments["temperature"] = request.temperature
        # Errors are raised outside the except blocks so that no openai exception stays attached as
        # __context__: a server may echo the credential in its error text.
        failure: ModelError
        try:
            completion = self._openai.chat.completions.create(**arguments)
        except openai.OpenAIError as exc:
            failure = self._translate(exc, request)
        except ValueError:  # a 200 whose body is not JSON: a proxy page, or a base_url missing its /v1
            failure = TransientModelError(
                f"the model endpoint {self._endpoint} answered with something that is not JSON "
                "(check OPENAI_BASE_URL; it usually ends in /v1)"
            )
        else:
            return self._reply_of(completion, request)
        raise failure

    def _reply_of(self, completion: Any, request: ModelRequest) -> ModelReply:
        """Our `ModelReply` from whatever the endpoint sent, tolerating servers that bend the format."""
        choices = getattr(completion, "choices", None)
        if not isinstance(choices, list):
            raise TransientModelError(
                f"the model endpoint {self._endpoint} sent a reply that is not a chat completion"
            )
        usage = getattr(completion, "usage", None)
        input_tokens = _count(getattr(usage, "prompt_tokens", None))
        output_tokens = _count(getattr(usage, "completion_tokens", None))
        # OpenAI's usage.prompt_tokens_details.cached_tokens: the input its prompt cache served
        cached_input_tokens = _count(getattr(getattr(usage, "prompt_tokens_details", None), "cached_tokens", None))
        model = getattr(completion, "model", None)
        model = model if isinstance(model, str) else ""
        if not choices:
            return ModelReply(
                content=None,
                finish_reason="no_choices",
                input_tokens=input_tokens,
                output_tokens=output_tokens,
                cached_input_tokens=cached_input_tokens,
                model=model,
            )
        choice = choices[0]
        message = getattr(choice, "message", None)
        content = getattr(message, "content", None)
        tool_calls: list[ToolCallSpec] = []
        for call in getattr(message, "tool_calls", None) or []:
            function = getattr(call, "function", None)
            name = getattr(function, "name", None)
            if not isinstance(name, str):
                logger.warning("ignored a tool call without a function name from %s", self._endpoint)
                continue
            raw_arguments = getattr(function, "arguments", None)
            tool_calls.append(
                ToolCallSpec(
                    id=getattr(call, "id", None) or f"call_{uuid.uuid4().hex[:24]}",
                    name=name,
                    arguments=raw_arguments if isinstance(raw_arguments, str) else "",
                )
            )
        finish_reason = getattr(choice, "finish_reason", None)
        return ModelReply(
            content=content if isinstance(content, str) else None,
            tool_calls=tool_calls,
            finish_reason=finish_reason if isinstance(finish_reason, str) else "stop",
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            cached_input_tokens=cached_input_tokens,
            model=model,
        )

    def _translate(self, exc: openai.OpenAIError, request: ModelRequest) -> ModelError:
        """Our error for an `openai` one, with the server's text scrubbed of the key."""
        endpoint = self._endpoint
        if isinstance(exc, openai.APITimeoutError):
            return TransientModelError(
                f"the model endpoint {endpoint} did not answer within {self.settings.request_timeout_s:g} s"
            )
        if isinstance(exc, openai.APIConnectionError):
            cause = exc.__cause__ or exc.__context__
            detail = f": {self._scrub(str(cause))}" if cause is not None and str(cause) else ""
            fix = (
                "check this machine's network"
                if _is_openai_cloud(self.settings.base_url)
                else f"start its server (check with: curl -sf {endpoint}/models), or set OPENAI_BASE_URL to the one "
                "that runs"
            )
            return TransientModelError(f"the connection to the model endpoint {endpoint} failed{detail}; {fix}")
        if isinstance(exc, openai.APIStatusError):
            status = exc.status_code
            detail = self._detail(exc)
            judged = status in _REQUEST_STATUSES or status >= 500  # 401, 403, 404 and 429 say something else
            if judged and _CONTEXT_EXCEEDED.search(detail):
                return ModelError(
                    f"the prompt of {request.agent} does not fit the context of model {request.model!r} at {endpoint} "
                    f"(HTTP {status}: {detail}): give the server a larger context (llama.cpp: --n_ctx) or lower "
                    "page_view.chunk_tokens"
                )
            if judged and _names_malformed_request(exc.body, detail):
                # a 5xx that names a malformed request (llama-cpp-python answers its validation errors with 500)
                # would fail the same way every time: one line that says so, not three retries
                return ModelError(
                    f"the model endpoint {endpoint} refused the request of {request.agent} to {request.model!r} as "
                    f"malformed (HTTP {status}: {detail}); not retried: this is a bug in research-crawler, please "
                    "report this line"
                )
            if status in _RETRYABLE_STATUSES or status >= 500:
                return TransientModelError(
                    f"HTTP {status} from the model endpoint {endpoint}: {detail}",
                    retry_after=_retry_after(exc.response.headers),
                    status=status,
                )
            if status == 401:
                return ModelError(
                    f"the API key was refused by {endpoint} (HTTP 401): set OPENAI_API_KEY to a valid key "
                    "for this endpoint (and OPENAI_BASE_URL if it is not OpenAI's)"
                )
            if status == 403:
                return ModelError(
                    f"{endpoint} denied access (HTTP 403): the API key may lack access to model "
                    f"{request.model!r} or to this project"
                )
            if status == 404:
                return ModelError(
                    f"model {request.model!r} or the chat endpoint was not found at {endpoint} (HTTP 404): "
                    f"check the model name and OPENAI_BASE_URL; the server said: {detail}"
                )
            return ModelError(f"the model endpoint {endpoint} refused the request (HTTP {status}): {detail}")
        if isinstance(exc, openai.APIResponseValidationError):
            return TransientModelError(f"the model endpoint {endpoint} sent a malformed reply")
        return ModelError(f"the model endpoint {endpoint} could not be used: {self._scrub(str(exc))}")

    def _detail(self, exc: openai.APIStatusError) -> str:
        """The server's own error message, shortened and with the key blanked out."""
        body = exc.body
        message = body.get("message") if isinstance(body, dict) else None
        text = message if isinstance(message, str) and message else (body if isinstance(body, str) else "")
        text = self._scrub(" ".join(str(text).split()))
        if len(text) > _MAX_DETAIL_CHARS:
            text = text[: _MAX_DETAIL_CHARS - 1] + "…"
        return text or "no details"

    def _scrub(self, text: str) -> str:
        secret = self._secret
        return text.replace(secret, "[redacted]") if secret and secret != _PLACEHOLDER_KEY else text


def _names_malformed_request(body: object, detail: str) -> bool:
    """Whether an error answer says the request itself is malformed (by its type, or by what its message says)."""
    kind = body.get("type") if isinstance(body, dict) else None
    return (isinstance(kind, str) and kind in _MALFORMED_TYPES) or bool(_MALFORMED.search(detail))


def _count(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _retry_after(headers: Any) -> float | None:
    """Seconds the server asked to wait: OpenAI's ``retry-after-ms``, else the standard ``Retry-After``."""
    milliseconds = headers.get("retry-after-ms")
    if milliseconds is not None:
        try:
            value = float(milliseconds) / 1000
        except ValueError:
            value = math.nan
        if math.isfinite(value) and value >= 0:
            return value
    return parse_retry_after(headers.get("retry-after"))
