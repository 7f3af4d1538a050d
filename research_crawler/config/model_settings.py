"""The models section of `Settings`: which model answers for each agent role, and how the endpoint is used.

`MODEL_ROLES` names every role with its default tier; `ModelSettings` holds the endpoint, retries, limits and prices.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, SecretStr, field_validator

from research_crawler.config.model_prices import ModelPrice, list_prices
from research_crawler.config.sections import SettingsSection
from research_crawler.errors import ConfigError

__all__ = ["MODEL_ROLES", "ModelSettings"]

#: Every agent role that calls a model, with the tier it uses by default: the paper gives the stronger
#: model to the roles that judge (choose sites and pages, extract items, review) and the cheaper one to
#: the roles that mostly read or write at length; an evaluation's LLM judge has its own.
MODEL_ROLES: dict[str, Literal["strong", "cheap", "judge"]] = {
    "web_selector": "strong",
    "planner": "strong",
    "crawler": "cheap",
    "collector": "strong",
    "supervisor": "strong",
    "presenter": "cheap",
    "critique": "strong",
    "judge": "judge",
}


class ModelSettings(SettingsSection):
    """Which models answer for each agent, how the endpoint is reached, retried and priced.

    `api_key` and `base_url` are also filled from the plain ``OPENAI_API_KEY`` and ``OPENAI_BASE_URL``
    variables that every OpenAI-compatible tool reads (see `Settings`).
    """

    base_url: str | None = Field(
        default=None,
        description="OpenAI-compatible endpoint (Ollama, vLLM, llama.cpp…); None means api.openai.com.",
    )
    api_key: SecretStr | None = Field(
        default=None, description="API key for the endpoint; never logged. Optional for a local base_url."
    )
    strong_model: str = Field(
        default="gpt-4.1-mini",
        min_length=1,
        description="Model of the roles that judge (the paper used gpt-4o, at about 6 times the price).",
    )
    cheap_model: str = Field(default="gpt-4o-mini", min_length=1, description="Crawler and Presenter model.")
    judge_model: str = Field(
        default="gpt-4o", min_length=1, description="The LLM judge of an evaluation (eval --judge-model)."
    )
    agent_models: dict[str, str] = Field(
        default_factory=dict,
        description=f"Per-role model overrides; roles: {', '.join(MODEL_ROLES)}.",
    )
    max_retries: int = Field(default=2, ge=0, description="Retries after the first try (429, 5xx, resets).")
    backoff_base_s: float = Field(default=0.5, ge=0, description="First retry backoff; doubles each retry.")
    backoff_max_s: float = Field(default=8.0, ge=0, description="Longest backoff between two retries.")
    request_timeout_s: float = Field(default=60.0, gt=0, description="Timeout of one request to the model.")
    max_total_retry_s: float = Field(
        default=120.0, ge=0, description="Longest time one model call may spend on retries; longer gives up."
    )
    max_concurrent_requests: int | None = Field(
        None,
        ge=1,
        description="Requests sent to the endpoint at once, by all agents and sites of the process; the others wait "
        "their turn before they are sent (the wait does not count against request_timeout_s). None: 1 for a local "
        "base_url (localhost, a loopback or private address: llama.cpp and Ollama serve one at a time), else no bound.",
    )
    requests_per_minute: int | None = Field(
        None, ge=1, description="The endpoint's request limit, shared by all agents and sites (None: no limit)."
    )
    tokens_per_minute: int | None = Field(
        None, ge=1, description="The endpoint's input-token limit per minute, shared by all agents and sites."
    )
    max_reasks: int = Field(
        default=2,
        ge=0,
        description="Times an unusable reply is asked again (empty, cut off, a call to a tool the agent does not "
        "have, arguments that are not JSON or miss fields, text where a tool call was needed).",
    )
    max_output_tokens: dict[str, int] = Field(
        default_factory=lambda: {
            "web_selector": 300,
            "planner": 300,
            "crawler": 800,
            "collector": 1500,
            "supervisor": 400,
            "presenter": 3000,
            "critique": 600,
        },
        description="Most tokens one reply of each role may have (sent as max_tokens): a model that runs on "
        "stops there and is asked again for a shorter answer. A role left out has no bound.",
    )
    force_tool_call: bool = Field(
        default=True,
        description="An agent whose task is its one tool (Crawler, Collector, Web Selector) is asked for that call "
        "with tool_choice naming it, until the tool has answered (local servers then constrain the reply).",
    )
    parallel_tool_calls: bool | None = Field(
        default=False,
        description="Sent with requests that offer tools: false asks for one tool call per turn (a turn with "
        "several is still handled call by call); None sends nothing, for endpoints that refuse the parameter.",
    )
    prices_per_million: dict[str, ModelPrice] = Field(
        default_factory=list_prices,
        description="USD per million tokens by model name — input, cached input, output (as a table or a list "
        "[input, cached_input, output] or [input, output]) — over the list prices of config/prices.toml (models "
        "not named keep those); dated variants use their base name's price; unknown models cost 0 and are noted.",
    )
    temperature: float | None = Field(
        default=0.0, ge=0, le=2, description="Temperature sent with each request; None leaves the server's."
    )

    @field_validator("base_url")
    @classmethod
    def _check_base_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        value = value.strip().rstrip("/")
        if not value.startswith(("http://", "https://")):
            raise ValueError(f"base_url must start with http:// or https://, got {value!r}")
        return value

    @field_validator("api_key")
    @classmethod
    def _empty_key_is_none(cls, value: SecretStr | None) -> SecretStr | None:
        return value if value is not None and value.get_secret_value().strip() else None

    @field_validator("agent_models")
    @classmethod
    def _check_roles(cls, value: dict[str, str]) -> dict[str, str]:
        unknown = sorted(set(value) - set(MODEL_ROLES))
        if unknown:
            raise ValueError(f"unknown agent role(s) {unknown}; known roles: {', '.join(MODEL_ROLES)}")
        empty = sorted(role for role, model in value.items() if not model.strip())
        if empty:
            raise ValueError(f"empty model name for role(s) {empty}")
        return value

    @field_validator("max_output_tokens")
    @classmethod
    def _check_output_bounds(cls, value: dict[str, int]) -> dict[str, int]:
        unknown = sorted(set(value) - set(MODEL_ROLES))
        if unknown:
            raise ValueError(f"unknown agent role(s) {unknown}; known roles: {', '.join(MODEL_ROLES)}")
        small = sorted(role for role, tokens in value.items() if tokens < 16)
        if small:
            raise ValueError(f"max_output_tokens must be at least 16 for role(s) {small}")
        return value

    @field_validator("prices_per_million", mode="before")
    @classmethod
    def _over_list_prices(cls, value: object) -> object:
        """Prices given in a settings file or the environment change or add models; the rest keep list prices."""
        return {**list_prices(), **value} if isinstance(value, dict) else value

    def model_for(self, role: str) -> str:
        """The model the agent playing `role` uses: its override, else its tier's (strong, cheap or judge)."""
        if role not in MODEL_ROLES:
            raise ConfigError(f"unknown agent role {role!r}; known roles: {', '.join(MODEL_ROLES)}")
        if role in self.agent_models:
            return self.agent_models[role]
        return {"strong": self.strong_model, "cheap": self.cheap_model, "judge": self.judge_model}[MODEL_ROLES[role]]
