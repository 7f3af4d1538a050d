"""A core install (`pip install research-crawler`, no extra) imitated in a child process: the packages that only the
`serve` and `eval` extras bring are hidden, so that importing one fails exactly as when it is not installed.

    python tests/cli/core_install.py ask "…" --model simulated     # research-crawler, as a core install runs it
    python tests/cli/core_install.py --import research_crawler.api …  # import these modules, print how many

The hiding wraps the path finder (the one that finds installed packages): for a hidden name it finds nothing, so
`import fastapi` raises ModuleNotFoundError and `importlib.util.find_spec("fastapi")` returns None, as they do on a
machine without it; `importlib.metadata` finds no distribution of it either.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import runpy
import sys
from collections.abc import Iterable, Sequence
from typing import Any

#: The import names of what the `serve` and `eval` extras install (FastAPI brings Starlette), and two that a core
#: install does have (torch requires Jinja2, FlagEmbedding requires datasets) but that `ask` must not need either.
HIDDEN = ("fastapi", "starlette", "sse_starlette", "uvicorn", "jinja2", "langsmith", "datasets")
#: The same as distribution names, for `importlib.metadata`.
HIDDEN_DISTRIBUTIONS = ("fastapi", "starlette", "sse-starlette", "uvicorn", "jinja2", "langsmith", "datasets")


def _hidden(name: str) -> bool:
    return name.partition(".")[0] in HIDDEN


class _CoreInstallFinder:
    """The path finder, blind to the packages of the extras."""

    @classmethod
    def find_spec(cls, name: str, path: Sequence[str] | None = None, target: Any = None) -> Any:
        if _hidden(name):
            return None
        return importlib.machinery.PathFinder.find_spec(name, path, target)

    @classmethod
    def find_distributions(cls, *args: Any, **kwargs: Any) -> Iterable[Any]:
        for found in importlib.machinery.PathFinder.find_distributions(*args, **kwargs):
            if found.metadata["Name"].lower().replace("_", "-") not in HIDDEN_DISTRIBUTIONS:
                yield found

    @classmethod
    def invalidate_caches(cls) -> None:
        importlib.machinery.PathFinder.invalidate_caches()


def hide_extras() -> None:
    """From now on, this process imports as a core install would."""
    loaded = sorted(name for name in sys.modules if _hidden(name))
    assert not loaded, f"already imported, too late to hide: {loaded}"
    sys.meta_path[:] = [
        _CoreInstallFinder if finder is importlib.machinery.PathFinder else finder for finder in sys.meta_path
    ]


def main(arguments: list[str]) -> None:
    hide_extras()
    if arguments[:1] == ["--import"]:
        for name in arguments[1:]:
            importlib.import_module(name)
        print(len(arguments) - 1)
        return
    sys.argv = ["research-crawler", *arguments]
    runpy.run_module("research_crawler", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main(sys.argv[1:])
