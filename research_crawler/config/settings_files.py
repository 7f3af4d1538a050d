"""The presets shipped with the package: named configurations in ``research_crawler/config/presets/<name>.toml``.

``paper`` reproduces the paper's configuration, ``default`` is ours; `preset_file` finds one by name.
"""

from __future__ import annotations

from pathlib import Path

from research_crawler.errors import ConfigError

__all__ = ["PRESETS_DIR", "preset_file", "preset_names"]

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
