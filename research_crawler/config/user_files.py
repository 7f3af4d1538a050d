"""Files a user hands us — settings, batch files, datasets — read as data that may be hostile or simply wrong.

Each is read whole, within a size limit, as UTF-8 (a BOM is allowed), or line by line (`user_file_lines`, each line
within a limit, the file as long as it likes); YAML is parsed by a safe loader that refuses aliases, so an alias
bomb fails before anything is expanded. Every problem is one ConfigError line naming the file and, where it helps,
the line or byte.
"""

from __future__ import annotations

import json
import shlex
import stat
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from research_crawler.errors import ConfigError

__all__ = [
    "MAX_LINE_BYTES",
    "MAX_USER_FILE_BYTES",
    "load_json",
    "load_toml",
    "load_yaml",
    "read_user_file",
    "user_file_lines",
]

#: Far above any real settings, batch or dataset file (the built-in datasets are a few KiB).
MAX_USER_FILE_BYTES = 8 * 1024 * 1024
#: Far above any line of a file read line by line (a batch file's query is at most 2 000 characters).
MAX_LINE_BYTES = 1024 * 1024


def read_user_file(path: Path, *, what: str, max_bytes: int = MAX_USER_FILE_BYTES) -> str:
    """The text of `path`, described to the user as `what` ("the batch file"); ConfigError when it is missing, not a
    file (a directory, a device, a socket), larger than `max_bytes`, or not UTF-8."""
    _file_mode(path, what=what)
    try:
        with path.open("rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise ConfigError(f"cannot read {what} {path}: {_reason(exc)}") from None
    if len(data) > max_bytes:
        raise ConfigError(f"{what} {path} is larger than {max_bytes // (1024 * 1024)} MiB: split it into smaller files")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise _not_utf8(what, path, data[exc.start], offset=exc.start, line=line) from None


def user_file_lines(path: Path, *, what: str, max_line_bytes: int = MAX_LINE_BYTES) -> Iterator[tuple[int, str]]:
    """The lines of `path` (numbered from 1, without their line ends) as they are read: the file is never in memory
    whole, however long it is. ConfigError as `read_user_file`'s, and for a line longer than `max_line_bytes`. A pipe
    is read whole, within `read_user_file`'s limit (it cannot be read twice)."""
    if not stat.S_ISREG(_file_mode(path, what=what)):
        yield from enumerate(read_user_file(path, what=what).splitlines(), 1)
        return
    offset = 0
    try:
        with path.open("rb") as handle:
            for number in range(1, 2**63):
                data = handle.readline(max_line_bytes + 1)
                if not data:
                    return
                if len(data) > max_line_bytes and not data.endswith(b"\n"):
                    longest = f"{max_line_bytes // 1024} KiB"
                    raise ConfigError(f"{what} {path}, line {number}: longer than {longest}, more than any entry holds")
                try:
                    text = data.decode("utf-8-sig" if number == 1 else "utf-8")
                except UnicodeDecodeError as exc:
                    raise _not_utf8(what, path, data[exc.start], offset=offset + exc.start, line=number) from None
                offset += len(data)
                yield number, text.rstrip("\r\n")
    except OSError as exc:
        raise ConfigError(f"cannot read {what} {path}: {_reason(exc)}") from None


def _file_mode(path: Path, *, what: str) -> int:
    """The file's mode once it is known to be a file that can be read (a regular file or a pipe)."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        where = shlex.quote(str(path.parent))
        raise ConfigError(f"{what} {path} does not exist: check its path (ls {where})") from None
    except OSError as exc:
        raise ConfigError(f"cannot read {what} {path}: {_reason(exc)}") from None
    if stat.S_ISDIR(mode):
        raise ConfigError(f"{what} {path} is a directory, not a file: name the file itself")
    if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode)):  # a pipe (`<(…)`) is read like a file, within the limit
        raise ConfigError(f"{what} {path} is not a regular file (a device or a socket): name a file")
    return mode


def _not_utf8(what: str, path: Path, byte: int, *, offset: int, line: int) -> ConfigError:
    return ConfigError(
        f"{what} {path} is not UTF-8 text: byte 0x{byte:02x} at offset {offset} (line {line}) "
        f"cannot be decoded; save it as UTF-8 (e.g. `iconv -f latin1 -t utf-8 {path} > {path}.utf8`)"
    )


class _NoAliasLoader(yaml.SafeLoader):
    """PyYAML's safe loader, refusing aliases (``*name``, merge keys included) before they are resolved: a file of
    a few hundred bytes can otherwise expand to gigabytes (the "billion laughs")."""

    def compose_node(self, parent: yaml.Node | None, index: object) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.composer.ComposerError(
                None, None, f"aliases (*{event.anchor}) are not accepted: write the value out", event.start_mark
            )
        return super().compose_node(parent, index)


def load_yaml(text: str, *, path: Path, what: str) -> Any:
    """The YAML document `text` (read from `path`, shown as `what`) as plain data; ConfigError in one line when it is
    not valid YAML or uses aliases."""
    try:
        return yaml.load(text, Loader=_NoAliasLoader)  # a SafeLoader that also refuses aliases
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = " ".join(str(exc.problem or exc.context or "invalid YAML").split())
        raise ConfigError(f"{what} {path} is not valid YAML{where}: {problem}") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{what} {path} is not valid YAML: {' '.join(str(exc).split())}") from None
    except ValueError:
        raise ConfigError(f"{what} {path} holds {_HUGE_NUMBER}") from None
    except RecursionError:
        raise ConfigError(f"{what} {path} is nested too deeply to be read") from None


def load_toml(text: str, *, path: Path, what: str) -> dict[str, Any]:
    """The TOML document `text` (read from `path`, shown as `what`); ConfigError in one line when it is not valid
    TOML or holds a number Python will not read (over 4 300 digits: no setting takes one)."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{what} {path} is not valid TOML: {exc}") from None
    except ValueError:
        raise ConfigError(f"{what} {path} holds {_HUGE_NUMBER}") from None
    except RecursionError:
        raise ConfigError(f"{what} {path} is nested too deeply to be read") from None


def load_json(text: str, *, where: str) -> Any:
    """The JSON value `text` (`where` names it: "q.jsonl, line 3"); ConfigError in one line when it is not JSON,
    nested too deeply, or holds a number Python will not read."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{where}: not valid JSON ({exc.msg})") from None
    except ValueError:
        raise ConfigError(f"{where}: {_HUGE_NUMBER}") from None
    except RecursionError:
        raise ConfigError(f"{where}: nested too deeply to be read") from None


#: What a number of thousands of digits is (CPython refuses to read more than 4 300 digits, and says so at length).
_HUGE_NUMBER = "a number of more than 4 300 digits: no setting takes one; write the value you mean"


def _reason(exc: OSError) -> str:
    return (exc.strerror or type(exc).__name__).lower()
