"""`--set` and `--config` are read wherever they stand on the command line, so a fix a message prints ("allow it
with: --set fetch.allowed_hosts=…") works appended to the command as it was typed."""

from __future__ import annotations

import json
import shlex
import socket
from pathlib import Path

from typer.testing import CliRunner

from research_crawler.cli.app import app, root_options_first

runner = CliRunner()


def test_root_options_after_the_command_move_before_it() -> None:
    assert root_options_first(["ask", "q", "--set", "a.b=1", "--model", "simulated"]) == [
        "--set", "a.b=1", "ask", "q", "--model", "simulated"
    ]
    assert root_options_first(["page", "x.html", "--set=a.b=1", "--config", "c.toml"]) == [
        "--set=a.b=1", "--config", "c.toml", "page", "x.html"
    ]
    assert root_options_first(["ask", "--", "--set", "a=1"]) == ["ask", "--", "--set", "a=1"], "after -- is data"
    assert root_options_first(["ask", "q", "--set"]) == ["ask", "q", "--set"], "left for Click to say what is missing"


def test_set_after_the_command_is_taken(home: Path) -> None:
    result = runner.invoke(app, ["config", "show", "--json", "--set", "explore.max_subpages=7"])
    assert result.exit_code == 0, result.output
    [row] = [row for row in json.loads(result.stdout) if row["name"] == "explore.max_subpages"]
    assert (row["value"], row["source"]) == (7, "flag")


def test_the_guards_fix_works_appended_to_the_command_as_typed(home: Path) -> None:
    with socket.socket() as probe:  # a loopback port where nothing listens
        probe.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{probe.getsockname()[1]}/paper"
    refused = runner.invoke(app, ["page", url])
    assert refused.exit_code == 1, "nothing came back: a refusal is an error, not an empty page"
    [line] = [line for line in refused.stderr.splitlines() if line.startswith("error:")]
    assert f"error: {url} could not be read: refused by the URL guard" in line
    fix = shlex.split(line.partition("allow it with: ")[2])
    assert fix[0] == "--set"
    again = runner.invoke(app, ["page", url, *fix, "--json"])
    assert again.exit_code == 1
    assert json.loads(again.stdout)["determination"] == "network_error", "the guard let it through this time"
