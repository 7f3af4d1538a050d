"""One writer per run directory: the lock names its holder, is released whatever happens, and a second run in the
same process is refused as one in another process is."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from research_crawler.errors import ConfigError, RunDirectoryInUseError
from research_crawler.run.run_lock import LOCK_FILE, holding_run_dir


def test_a_second_holder_is_refused_with_the_pid_and_the_command_that_continues(tmp_path: Path) -> None:
    with holding_run_dir(tmp_path):
        with pytest.raises(RunDirectoryInUseError) as refused, holding_run_dir(tmp_path):
            pass
        message = str(refused.value)
        assert f"process {os.getpid()}" in message and f"research-crawler resume {tmp_path}" in message
        assert "\n" not in message
    assert not (tmp_path / LOCK_FILE).exists()
    with holding_run_dir(tmp_path):  # free again
        pass


def test_the_lock_is_released_when_the_run_fails(tmp_path: Path) -> None:
    with pytest.raises(ValueError), holding_run_dir(tmp_path):
        raise ValueError("the run failed")
    with holding_run_dir(tmp_path):
        pass


def test_a_directory_that_cannot_be_written_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("")
    with pytest.raises(ConfigError, match="cannot write in the run directory"), holding_run_dir(tmp_path / "a-file"):
        pass
