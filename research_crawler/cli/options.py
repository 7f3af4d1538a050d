"""The options several commands share (--site, --model, --quiet, …) and how the root options, ``--set`` and
a command's own flags become the Settings it runs with. Imported at start: the settings load when a command runs.
"""

from __future__ import annotations

import functools
import inspect
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, ParamSpec, TypeVar, get_type_hints

import typer

from research_crawler.cli.output import fail
from research_crawler.config.settings_files import preset_file
from research_crawler.errors import ConfigError

if TYPE_CHECKING:
    from research_crawler.config.settings import Settings
    from research_crawler.run.run_dir import ModelBackend as Backend


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
MaxSubpagesOption = Annotated[
    int | None, typer.Option("--max-subpages", min=1, help="Pages read per site before it earns more by yielding.")
]
OutOption = Annotated[Path | None, typer.Option("--out", "-o", help="Run directory (default: a new one in runs_dir).")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print report.json instead of the rendered report.")]
# The run options every command that runs the agents takes (ask, chat, batch, resume, eval, serve):
RerankerOption = Annotated[
    Reranker | None, typer.Option("--reranker", help="How items are ranked: bge (default), minilm, or bm25.")
]
ParallelSitesOption = Annotated[
    int | None,
    typer.Option("--parallel-sites", min=1, help="Sites explored at once (default 3; 1: one after another)."),
]
ItemKindOption = Annotated[
    str | None, typer.Option("--item-kind", help="What to collect: paper (default), dataset, product…")
]
PresetOption = Annotated[
    str | None, typer.Option("--preset", help="A named configuration: default or paper (as the global --preset).")
]
ScaleBackend = Literal["local", "ray"]
ScaleBackendOption = Annotated[
    ScaleBackend,
    typer.Option("--backend", help="Where the queries run: local (this process) or ray (Ray tasks)."),
]
RayAddressOption = Annotated[
    str | None,
    typer.Option("--ray-address", help="The Ray cluster to join ('auto': this machine's); default: start a local one."),
]


@dataclass(frozen=True)
class RunOptions:
    """The run options every command that runs the agents takes (ask, chat, batch, watch, resume, eval, serve), as
    given (None: not given). A command declares one parameter ``run: RunOptions`` and `with_run_options` gives it
    the six options below: each is declared here once."""

    model: ModelOption = None
    reranker: RerankerOption = None
    max_subpages: MaxSubpagesOption = None
    parallel_sites: ParallelSitesOption = None
    item_kind: ItemKindOption = None
    preset: PresetOption = None

    def backend_and_flags(self) -> tuple[Backend, dict[str, Any]]:
        """The backend `--model` names, and the settings the options stand for (dotted names)."""
        backend, flags = model_flags(self.model)
        flags.update(
            {
                "explore.item_kind": self.item_kind,
                "rerank.kind": self.reranker.value if self.reranker is not None else None,
                "explore.max_subpages": self.max_subpages,
                "explore.parallel_sites": self.parallel_sites,
            }
        )
        return backend, {name: value for name, value in flags.items() if value is not None}


#: What a command's ``run`` parameter is declared with (Python needs a default there; `with_run_options` puts the
#: options in its place, so Typer never hands this over).
NO_RUN_OPTIONS = RunOptions()

_P = ParamSpec("_P")
_R = TypeVar("_R")


def with_run_options(command: Callable[_P, _R]) -> Callable[..., _R]:
    """`command`, whose parameter ``run: RunOptions`` Typer sees as the six run options in its place (Typer reads
    a command's options from its signature; this one is rewritten, and the values given are handed over as one
    `RunOptions`)."""
    signature = inspect.signature(command, eval_str=True)
    hints = get_type_hints(RunOptions, include_extras=True)
    options = [
        inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None, annotation=annotation)
        for name, annotation in hints.items()
    ]
    parameters: list[inspect.Parameter] = []
    for parameter in signature.parameters.values():
        parameters.extend(options if parameter.name == "run" else [parameter])

    @functools.wraps(command)
    def run_command(*args: Any, **kwargs: Any) -> _R:
        given = RunOptions(**{name: kwargs.pop(name) for name in hints})
        return command(*args, run=given, **kwargs)  # type: ignore[arg-type]

    run_command.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    run_command.__annotations__ = {p.name: p.annotation for p in parameters if p.annotation is not p.empty}
    return run_command


def global_options(ctx: typer.Context) -> GlobalOptions:
    """The root options the app's callback stored (the defaults when it did not run)."""
    return ctx.obj if isinstance(ctx.obj, GlobalOptions) else GlobalOptions()


def load_settings(ctx: typer.Context, flags: dict[str, Any] | None = None, *, preset: str | None = None) -> Settings:
    """Settings from the file and environment, then ``--set`` and the command's own flags (a bad flag value
    is a usage error: exit 2). A command's `preset` wins over the global one."""
    from research_crawler.config.overrides import apply_overrides
    from research_crawler.config.settings import Settings

    options = global_options(ctx)
    settings = Settings.load(options.config_file, preset=preset or options.preset)
    given = {**options.assignments, **{name: value for name, value in (flags or {}).items() if value is not None}}
    try:
        return apply_overrides(settings, given)
    except ConfigError as exc:
        fail(str(exc), code=2)


def explicit_overrides(ctx: typer.Context, flags: dict[str, Any], *, preset: str | None) -> dict[str, Any]:
    """What a command was told explicitly, as overrides: a preset's values, then ``--set``, then its flags
    (``resume`` applies them over what the run directory restores)."""
    from research_crawler.config.overrides import flatten_overrides

    options = global_options(ctx)
    given: dict[str, Any] = {}
    name = preset or options.preset
    if name is not None:
        try:
            given.update(flatten_overrides(tomllib.loads(preset_file(name).read_text(encoding="utf-8"))))
        except ConfigError as exc:
            fail(str(exc), code=2)
    return {**given, **options.assignments, **flags}


def model_flags(model: str | None) -> tuple[Backend, dict[str, Any]]:
    """The backend and the settings that ``--model`` stands for."""
    if model is None:
        return "openai", {}
    if not model.strip():
        fail("--model needs a model name, or 'simulated'")
    if model == "simulated":
        return "simulated", {}
    return "openai", {"models.strong_model": model, "models.cheap_model": model, "models.judge_model": model}
