"""The files settings come from: the user's ``research-crawler.toml`` (`find_config_file`: the current directory's
first, then the one in the user config directory, Typer's app dir) and the presets shipped with the package, named
configurations in ``research_crawler/config/presets/<name>.toml`` (`preset_file`: ``paper`` reproduces the paper's
configuration, ``default`` is ours).
"""

from __future__ import annotations

from pathlib import Path

import typer

from research_crawler.errors import ConfigError

__all__ = ["CONFIG_FILE_NAME", "PRESETS_DIR", "find_config_file", "preset_file", "preset_names"]

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


CONFIG_FILE_NAME = "research-crawler.toml"


def find_config_file() -> Path | None:
    """The settings file in use: ``./research-crawler.toml``, else the one in the user config directory.

    Something by that name that is not a file (a directory, say) is a ConfigError, never passed over in silence.
    """
    for candidate in (Path.cwd() / CONFIG_FILE_NAME, Path(typer.get_app_dir("research-crawler")) / CONFIG_FILE_NAME):
        if candidate.is_file():
            return candidate
        if candidate.exists():
            raise ConfigError(
                f"the settings file {candidate} is not a file (a directory?): remove or rename it, or choose a file "
                "with --config FILE"
            )
    return None
