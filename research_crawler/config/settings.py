"""One `Settings` object holding every tunable, built from the section models; the only reader of environment variables.

`Settings.load()` adds the settings file and a preset; each section lives in its own module and is re-exported here.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from pydantic import Field, ValidationError, model_validator
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from research_crawler.config.fetch_settings import FetchSettings, PageViewSettings
from research_crawler.config.fetch_settings import RenderMode as RenderMode
from research_crawler.config.model_settings import MODEL_ROLES, ModelSettings
from research_crawler.config.run_settings import RunSettings
from research_crawler.config.sections import (
    EvalSettings,
    ExploreSettings,
    LibrarySettings,
    ReportSettings,
    RerankSettings,
    ServeSettings,
    SimulatedModelSettings,
)
from research_crawler.config.sections import FaultKind as FaultKind
from research_crawler.config.sections import RerankerKind as RerankerKind
from research_crawler.config.settings_files import CONFIG_FILE_NAME, find_config_file, preset_file, preset_names
from research_crawler.config.settings_files import PRESETS_DIR as PRESETS_DIR
from research_crawler.config.settings_sources import (
    OpenAIEnvironmentSource,
    file_sources,
    reading_config_file,
    reading_preset,
)
from research_crawler.config.user_files import load_toml, read_user_file
from research_crawler.config.user_only import user_only_names
from research_crawler.errors import ConfigError

#: A settings file is a few KiB; anything near this is not one.
MAX_SETTINGS_FILE_BYTES = 1024 * 1024

__all__ = [
    "CONFIG_FILE_NAME",
    "MODEL_ROLES",
    "EvalSettings",
    "ExploreSettings",
    "FetchSettings",
    "LibrarySettings",
    "ModelSettings",
    "PageViewSettings",
    "ReportSettings",
    "RerankSettings",
    "RunSettings",
    "ServeSettings",
    "Settings",
    "SimulatedModelSettings",
    "find_config_file",
    "preset_file",
    "preset_names",
]


class Settings(BaseSettings):
    """Every tunable of research-crawler."""

    # Environment variables use the prefix RESEARCH_CRAWLER_ and "__" between levels, e.g.
    # RESEARCH_CRAWLER_FETCH__PER_HOST_DELAY_S=2. Components receive the section they need.
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
    serve: ServeSettings = Field(default_factory=ServeSettings)
    library: LibrarySettings = Field(default_factory=LibrarySettings)
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
        sources.extend(file_sources(settings_cls))
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
            with reading_preset(path):
                return cls(**overrides)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"the preset file {path} is not valid TOML: {exc}") from exc
        except ValidationError as exc:
            raise ConfigError(f"invalid settings with preset {name!r}: {_describe(exc)}") from exc

    @classmethod
    def load(cls, config_file: Path | None = None, *, preset: str | None = None) -> Settings:
        """Settings from the defaults, the settings file, the preset (if named), then the environment.

        Precedence, highest first: arguments, ``RESEARCH_CRAWLER_*`` variables, ``OPENAI_API_KEY`` and
        ``OPENAI_BASE_URL``, the preset, the settings file, the defaults. `config_file` replaces the search for
        ``research-crawler.toml`` (current directory, then the user config directory). Raises ConfigError,
        naming the file or variable, for anything that does not fit.
        """
        chosen = config_file or find_config_file()
        if chosen is not None:  # a file, UTF-8, within the size limit; one line naming it otherwise
            text = read_user_file(chosen, what="the settings file", max_bytes=MAX_SETTINGS_FILE_BYTES)
            data = load_toml(text, path=chosen, what="the settings file")  # not TOML, or a number no setting takes
            if config_file is None and chosen.parent == Path.cwd():
                _refuse_user_only(data, chosen)
        preset_path = preset_file(preset) if preset is not None else None
        try:
            with reading_config_file(chosen), reading_preset(preset_path):
                return cls()
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"the settings file {chosen} is not valid TOML: {exc}") from exc
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"cannot read the settings file {chosen}: {exc}") from exc
        except RecursionError:
            raise ConfigError(f"the settings file {chosen} is nested too deeply to be read") from None
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


def _refuse_user_only(data: dict[str, Any], path: Path) -> None:
    """ConfigError when the settings file `path`, found in the current directory rather than named by the user or
    kept in their config directory, sets what only the user chooses: it may have come with a folder from elsewhere."""
    refused = user_only_names(data)
    if refused:
        raise ConfigError(
            f"the settings file {path} lies in the current directory, which may have come from elsewhere, and sets "
            f"{', '.join(refused)}: if you wrote it, name it: research-crawler --config {CONFIG_FILE_NAME} …"
        )


def _describe(exc: ValidationError) -> str:
    """One line per problem: the dotted setting name and what is wrong with it."""
    return "; ".join(f"{'.'.join(str(p) for p in error['loc'])}: {error['msg']}" for error in exc.errors())
