"""The judge's model: the OpenAI-compatible judge model from the settings, or the simulated judge (a test double)."""

from __future__ import annotations

from typing import Literal

from pydantic import ValidationError

from research_crawler.config.settings import ModelSettings, Settings
from research_crawler.errors import ConfigError
from research_crawler.eval.judges import Judge
from research_crawler.eval.simulated_judge import SimulatedJudgeClient
from research_crawler.llm.client import BaseModelClient
from research_crawler.llm.openai_client import OpenAICompatibleClient
from research_crawler.llm.usage import UsageLedger

__all__ = ["JUDGE_AGENT_NAME", "judge_endpoint", "make_judge"]

#: How judge calls are named in the usage ledger (they are not one of the agents).
JUDGE_AGENT_NAME = "Judge"


def judge_endpoint(settings: Settings) -> ModelSettings:
    """The agents' model settings with the judge's own endpoint and key, when `eval` names them."""
    overrides: dict[str, object] = {}
    if settings.eval.judge_base_url is not None:
        overrides["base_url"] = settings.eval.judge_base_url
        overrides["api_key"] = settings.eval.judge_api_key  # a key for the agents' endpoint is not sent elsewhere
    elif settings.eval.judge_api_key is not None:
        overrides["api_key"] = settings.eval.judge_api_key
    if not overrides:
        return settings.models
    try:
        return ModelSettings.model_validate({**settings.models.model_dump(), **overrides})
    except ValidationError as exc:
        raise ConfigError(f"invalid judge endpoint: {exc.errors()[0]['msg']}") from exc


def make_judge(settings: Settings, kind: Literal["llm", "simulated"], *, ledger: UsageLedger | None = None) -> Judge:
    """A Judge on `settings.models.model_for("judge")` (default gpt-4o, as in the paper), or on the simulated
    judge. Raises ModelError at once when the LLM judge has no usable endpoint (no key for OpenAI)."""
    client: BaseModelClient
    ledger = ledger if ledger is not None else UsageLedger()
    if kind == "llm":
        model = settings.models.model_for("judge")
        client = OpenAICompatibleClient(
            {"model": model}, agent_name=JUDGE_AGENT_NAME, ledger=ledger, settings=judge_endpoint(settings)
        )
    elif kind == "simulated":
        client = SimulatedJudgeClient({}, agent_name=JUDGE_AGENT_NAME, ledger=ledger, settings=settings.models)
    else:
        raise ConfigError(f"unknown judge {kind!r}: use 'llm' or 'simulated'")
    return Judge(
        client,
        parse_retries=settings.eval.judge_parse_retries,
        max_evidence_chars=settings.eval.judge_max_evidence_chars,
        simulated=kind == "simulated",
    )
