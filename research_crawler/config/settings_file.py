"""Where the user's settings file ``research-crawler.toml`` is looked for.

The current directory's comes first, then the one in the user config directory (Typer's app dir).
"""

from __future__ import annotations

from pathlib import Path

import typer

from research_crawler.errors import ConfigError

__all__ = ["CONFIG_FILE_NAME", "find_config_file"]

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
