"""One writer per run directory: a lock file, naming the process that holds it, kept while a run writes there.

filelock's SoftFileLock writes the holder's PID and host into ``run.lock`` and breaks a lock whose process is gone
(killed with SIGKILL, say), so a crash never leaves a run directory that cannot be resumed.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import SoftFileLock, Timeout

from research_crawler.errors import ConfigError, RunDirectoryInUseError
from research_crawler.text.untrusted import untrusted

__all__ = ["LOCK_FILE", "holding_run_dir"]

LOCK_FILE = "run.lock"


@contextmanager
def holding_run_dir(run_dir: Path) -> Iterator[None]:
    """Hold `run_dir` for this process while the block runs; RunDirectoryInUseError, naming the holder, when another
    run (this process's or another's) already holds it."""
    lock = SoftFileLock(run_dir / LOCK_FILE, timeout=0, thread_local=False, is_singleton=False)
    try:
        lock.acquire()
    except Timeout:
        raise RunDirectoryInUseError(_in_use_message(run_dir, lock.pid, _holder_host(run_dir / LOCK_FILE))) from None
    except OSError as exc:
        raise ConfigError(f"cannot write in the run directory {run_dir}: {exc.strerror or exc}") from None
    try:
        yield
    finally:
        lock.release()


def _holder_host(lock_file: Path) -> str | None:
    """The host the lock file names (its second line, after the PID), if it can be read."""
    try:
        lines = lock_file.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    if len(lines) < 2:
        return None
    # filelock adds "?pidns-…" to the host name of a process in a PID namespace (a container).
    return untrusted(lines[1].strip().split("?", 1)[0])[:255] or None


def _in_use_message(run_dir: Path, pid: int | None, host: str | None) -> str:
    if pid is None:
        holder, stop = "another process", "Ctrl-C in its terminal"
    else:
        holder = f"process {pid} on {host or socket.gethostname()}"
        stop = f"`kill {pid}`" if host in (None, socket.gethostname()) else f"`kill {pid}` on {host}"
    return (
        f"{run_dir} is in use by {holder} (another ask, resume or chat on this run directory): wait for it to "
        f"finish, or stop it ({stop}) and then run `research-crawler resume {run_dir}`"
    )
