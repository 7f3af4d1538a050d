"""The experiment's one name: ``langsmith.evaluate`` prints a start line with a name of its own and, when nothing
is uploaded, then reports a different, random one. The start line is taken off stdout and its name kept, so the
name logged, printed and written to ``results.json`` is one and the same."""

from __future__ import annotations

import io
import re
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stdout
from typing import TextIO

__all__ = ["StartLine", "langsmith_start_line"]

_START = re.compile(
    r"^(?:Starting evaluation of experiment:(?: %s)?|View the evaluation results for experiment:)\s*'?([^'\s]+)'?"
)


class StartLine(io.TextIOBase):
    """A stdout that forwards every line to `target` except LangSmith's start line, whose experiment name it keeps."""

    def __init__(self, target: TextIO) -> None:
        self.target = target
        self.name: str | None = None
        self._line = ""
        self._lock = threading.Lock()

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        with self._lock:
            self._line += text
            while "\n" in self._line:
                line, self._line = self._line.split("\n", 1)
                self._take(line + "\n")
        return len(text)

    def flush(self) -> None:
        with self._lock:
            if self._line:
                self._take(self._line)
                self._line = ""
        self.target.flush()

    def _take(self, line: str) -> None:
        match = _START.match(line)
        if match and self.name is None:
            self.name = match.group(1)
            return
        if self.name is not None and match is None and line.strip().startswith("http") and "/compare?" in line:
            return  # the start line's URL, on the line after it (our own output names the experiment's URL)
        self.target.write(line)


@contextmanager
def langsmith_start_line() -> Iterator[StartLine]:
    """Within the block, LangSmith's start line is kept off stdout; the yielded object holds its name."""
    line = StartLine(sys.stdout)
    with redirect_stdout(line):
        try:
            yield line
        finally:
            line.flush()
