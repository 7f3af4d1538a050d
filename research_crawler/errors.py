"""The one exception tree of research-crawler.

Bugs and misconfiguration raise from here; expected outcomes of the web (404, timeout, robots.txt)
are data — a `Determination` on a fetched `Page` — because agents must read them::

    ResearchCrawlerError
    ├── ConfigError            bad settings, bad CLI arguments, unusable site pool
    │   └── MissingExtraError  a command whose extra (serve, eval, ray) is not installed
    ├── InvalidURLError        a URL that cannot be canonicalised or uses a scheme other than http(s)
    ├── StateError             a Web/Search Context operation that would break an invariant
    │   ├── CorruptStateError  a run directory whose saved state cannot be read back
    │   └── RunDirectoryInUseError  a run directory another run (process) is writing to
    ├── ToolInputError         an agent's tool call with arguments that do not fit (message goes back to the LLM)
    ├── BrowserError           the system Chromium cannot be found, started or reached over CDP
    ├── LibraryError           the library of items found across runs cannot be used (not SQLite, a newer schema)
    └── ModelError             the model endpoint cannot be used (missing key, unreachable, bad reply after retries)
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

__all__ = [
    "BrowserError",
    "ConfigError",
    "CorruptStateError",
    "InvalidURLError",
    "LibraryError",
    "MissingExtraError",
    "ModelError",
    "ResearchCrawlerError",
    "RunDirectoryInUseError",
    "StateError",
    "ToolInputError",
    "extra_needed",
]


class ResearchCrawlerError(Exception):
    """Root of every error research-crawler raises on purpose."""


class ConfigError(ResearchCrawlerError):
    """Settings, arguments or data files that cannot be used as given; the message says how to fix it."""


class MissingExtraError(ConfigError):
    """A command that needs an optional part of the package (an extra) which is not installed; the message gives
    the pip command that installs it."""


@contextmanager
def extra_needed(extra: str, needs: str) -> Iterator[None]:
    """Imports made inside raise `MissingExtraError` (one line: what needs the extra, the module missing and the
    pip command) when a module from outside the package is missing; an import error of our own is a bug and goes
    through as it is."""
    try:
        yield
    except ImportError as exc:
        missing = (exc.name or "").partition(".")[0]
        if not missing or missing == __name__.partition(".")[0]:
            raise
        raise MissingExtraError(
            f"{needs} needs the {extra} extra ({missing} is not installed): pip install 'research-crawler[{extra}]'"
        ) from exc


class InvalidURLError(ResearchCrawlerError, ValueError):
    """A URL that is malformed, too long, or not http(s)."""


class StateError(ResearchCrawlerError):
    """An operation on the Web or Search Context that would break one of its invariants."""


class CorruptStateError(StateError):
    """Saved state in a run directory that cannot be read back exactly."""


class RunDirectoryInUseError(StateError):
    """A run directory held by another run: one writer per run directory (the message names the holder)."""


class ToolInputError(ResearchCrawlerError, ValueError):
    """Tool arguments from an agent that do not fit; the message is written for the LLM to correct itself."""


class BrowserError(ResearchCrawlerError):
    """The system Chromium is missing, failed to start, or its CDP endpoint cannot be reached."""


class LibraryError(ResearchCrawlerError):
    """The library file (SQLite) cannot be opened, read or migrated; the message names it and the fix."""


class ModelError(ResearchCrawlerError):
    """The model endpoint cannot be used: missing key, unreachable, or unusable replies after retries."""
