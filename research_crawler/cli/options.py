"""The options several commands share (--site, --model, --quiet, …) and how the root options, ``--set`` and
a command's own flags become the Settings it runs with.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from research_crawler.api import Backend
from research_crawler.cli.output import fail
from research_crawler.config.overrides import apply_overrides
from research_crawler.config.settings import Settings
from research_crawler.errors import ConfigError


class Reranker(StrEnum):
    bge = "bge"
    minilm = "minilm"
    bm25 = "bm25"


@dataclass
class GlobalOptions:
    """What the root options say, for every command."""

    config_file: Path | None = None
    preset: str | None = None
    assignments: dict[str, Any] = field(default_factory=dict)


SiteOption = Annotated[
    list[str] | None,
    typer.Option("--site", "-s", help="A site to explore (URL); repeat for several. Default: the Web Selector picks."),
]
ModelOption = Annotated[
    str | None,
    typer.Option("--model", "-m", help="Model for every agent, or 'simulated' (an offline test double, not an LLM)."),
]
QuietOption = Annotated[bool, typer.Option("--quiet", "-q", help="No progress display.")]
MaxSubpagesOption = Annotated[int | None, typer.Option("--max-subpages", min=1, help="Pages read per site.")]
OutOption = Annotated[Path | None, typer.Option("--out", "-o", help="Run directory (default: a new one in runs_dir).")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print report.json instead of the rendered report.")]


def global_options(ctx: typer.Context) -> GlobalOptions:
    """The root options the app's callback stored (the defaults when it did not run)."""
    return ctx.obj if isinstance(ctx.obj, GlobalOptions) else GlobalOptions()


def load_settings(ctx: typer.Context, flags: dict[str, Any] | None = None) -> Settings:
    """Settings from the file and environment, then ``--set`` and the command's own flags (a bad flag value
    is a usage error: exit 2)."""
    options = global_options(ctx)
    settings = Settings.load(options.config_file, preset=options.preset)
    given = {**options.assignments, **{name: value for name, value in (flags or {}).items() if value is not None}}
    try:
        return apply_overrides(settings, given)
    except ConfigError as exc:
        fail(str(exc), code=2)


def model_flags(model: str | None) -> tuple[Backend, dict[str, Any]]:
    """The backend and the settings that ``--model`` stands for."""
    if model is None:
        return "openai", {}
    if not model.strip():
        fail("--model needs a model name, or 'simulated'")
    if model == "simulated":
        return "simulated", {}
    return "openai", {"models.strong_model": model, "models.cheap_model": model}
