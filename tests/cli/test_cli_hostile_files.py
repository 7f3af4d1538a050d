"""Hostile and careless files and settings through the command line: an alias bomb, text that is not UTF-8, a
settings path that is a directory or a device, a number no setting can mean, `page` on a directory. Each is one
line, exit 1 (2 for a bad argument), before anything runs or is written."""

from __future__ import annotations

import json
import resource
import socket
from pathlib import Path

import pytest
from typer.testing import CliRunner

from research_crawler.cli.app import app
from research_crawler.eval.testbed import TestbedServer
from research_crawler.report.models import Report
from research_crawler.run.presenting import Presenting

runner = CliRunner()

BOMB = "\n".join(
    [
        "- query: graph neural networks",
        "  settings:",
        '    a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
        *[f"    {n}: &{n} [{','.join([f'*{p}'] * 9)}]" for p, n in zip("abcdefgh", "bcdefghi", strict=True)],
    ]
)


def _one_line_error(output: str) -> str:
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:") and "Traceback" not in output, output
    return lines[0]


def test_a_batch_alias_bomb_is_one_line_before_anything_expands(home: Path) -> None:
    (home / "bomb.yaml").write_text(BOMB, encoding="utf-8")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result = runner.invoke(app, ["batch", "bomb.yaml", "--out", "out", "--model", "simulated"])
    assert result.exit_code == 1
    assert "aliases (*a) are not accepted" in _one_line_error(result.output)
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 50 * 1024
    assert not (home / "out").exists()


def test_a_dataset_alias_bomb_is_one_line(home: Path) -> None:
    (home / "bomb.yaml").write_text(BOMB.replace("- query", "queries:\n- query"), encoding="utf-8")
    result = runner.invoke(app, ["eval", "bomb.yaml", "--model", "simulated", "--judge-model", "simulated"])
    assert result.exit_code == 1
    assert "the dataset bomb.yaml is not valid YAML" in _one_line_error(result.output)


@pytest.mark.parametrize("name", ["q.yaml", "q.jsonl"])
def test_a_batch_file_that_is_not_utf8_names_the_offset(home: Path, name: str) -> None:
    (home / name).write_bytes(b'{"query": "caf\xe9"}\n' if name.endswith("jsonl") else b"- caf\xe9\n")
    result = runner.invoke(app, ["batch", name, "--out", "out", "--model", "simulated"])
    assert result.exit_code == 1
    error = _one_line_error(result.output)
    assert f"the batch file {name} is not UTF-8 text: byte 0xe9 at offset" in error, error


def test_a_settings_file_that_is_not_utf8_is_one_line(home: Path) -> None:
    (home / "research-crawler.toml").write_bytes(b'runs_dir = "caf\xe9"\n')
    result = runner.invoke(app, ["config", "show"])
    assert result.exit_code == 1
    assert "research-crawler.toml is not UTF-8 text: byte 0xe9 at offset 15" in _one_line_error(result.output)


def test_a_settings_path_that_is_a_directory_is_not_ignored(home: Path) -> None:
    (home / "research-crawler.toml").mkdir()
    result = runner.invoke(app, ["config", "show"])
    assert result.exit_code == 1
    assert "is not a file (a directory?): remove or rename it" in _one_line_error(result.output)


def test_config_on_a_device_says_what_it_is(home: Path) -> None:
    result = runner.invoke(app, ["--config", "/dev/zero", "config", "show"])
    assert result.exit_code == 1
    assert "the settings file /dev/zero is not a regular file" in _one_line_error(result.output)


@pytest.mark.parametrize(
    ("value", "expected"), [("inf", "finite number"), ("nan", "finite number"), ("1e300", "at most 1e+09")]
)
def test_a_number_no_setting_can_mean_is_refused_before_the_run(home: Path, value: str, expected: str) -> None:
    result = runner.invoke(
        app, ["--set", f"fetch.page_deadline_s={value}", "ask", "graph neural networks", "--model", "simulated",
              "--out", "out"],
    )
    assert result.exit_code == 2
    assert expected in _one_line_error(result.output)
    assert not (home / "out").exists(), "nothing was started"


HUGE = "9" * 5000  # past CPython's 4 300 digits for reading an integer


@pytest.mark.parametrize(
    ("where", "expected"),
    [
        ("--set", "explore.max_subpages: Unable to parse input string as an integer, exceeded maximum size"),
        ("file", "research-crawler.toml holds a number of more than 4 300 digits: no setting takes one"),
        ("environment", "explore.max_subpages: Unable to parse input string as an integer"),
        ("batch.yaml", "the batch file q.yaml holds a number of more than 4 300 digits"),
        ("batch.jsonl", "q.jsonl, line 1: a number of more than 4 300 digits"),
    ],
)
def test_a_number_of_thousands_of_digits_is_one_line(
    home: Path, monkeypatch: pytest.MonkeyPatch, where: str, expected: str
) -> None:
    arguments = ["ask", "graph neural networks", "--model", "simulated", "--out", "out"]
    if where == "--set":
        arguments = ["--set", f"explore.max_subpages={HUGE}", *arguments]
    elif where == "file":
        (home / "research-crawler.toml").write_text(f"[explore]\nmax_subpages = {HUGE}\n", encoding="utf-8")
    elif where == "environment":
        monkeypatch.setenv("RESEARCH_CRAWLER_EXPLORE__MAX_SUBPAGES", HUGE)
    elif where == "batch.yaml":
        (home / "q.yaml").write_text(f"- {{query: x, settings: {{explore: {{max_subpages: {HUGE}}}}}}}\n")
        arguments = ["batch", "q.yaml", "--out", "out", "--model", "simulated"]
    else:
        (home / "q.jsonl").write_text(f'{{"query": "x", "settings": {{"explore.max_subpages": {HUGE}}}}}\n')
        arguments = ["batch", "q.jsonl", "--out", "out", "--model", "simulated"]
    result = runner.invoke(app, arguments)
    assert result.exit_code in (1, 2)
    assert expected in _one_line_error(result.output)
    assert HUGE not in result.output, "the number is not printed back"
    assert not (home / "out").exists(), "nothing was started"


def test_page_on_a_directory_or_a_missing_file_is_one_line(home: Path) -> None:
    (home / "saved").mkdir()
    result = runner.invoke(app, ["page", "saved"])
    assert result.exit_code == 1 and "saved is a directory" in _one_line_error(result.output)
    missing = runner.invoke(app, ["page", "example.org"])
    assert missing.exit_code == 1
    assert "no such file, and not an http(s) URL" in _one_line_error(missing.output)
    assert "https://example.org/" in missing.output


def test_a_run_that_fails_mid_way_still_writes_a_report_from_what_it_had(
    home: Path, testbed_server: TestbedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    def failing_presenter(self: Presenting) -> None:  # the exploration is done, the report not yet written
        raise OverflowError("timestamp out of range for platform time_t")

    monkeypatch.setattr(Presenting, "present", failing_presenter)
    result = runner.invoke(
        app, ["ask", "graph neural networks", "--site", testbed_server.base_url("arxiv-like"), "--model", "simulated",
              "--out", "out", "--quiet"],
    )
    assert result.exit_code == 1
    error = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(error) == 1 and "the run failed (OverflowError: timestamp out of range" in error[0], result.stderr
    assert "Traceback" not in result.output
    report = Report.model_validate_json((home / "out" / "report.json").read_text(encoding="utf-8"))
    assert report.stop_reason == "error" and report.items, "the report holds what was collected before the failure"
    assert (home / "out" / "report.md").is_file()


def test_a_file_that_cannot_be_written_mid_command_is_one_line(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from research_crawler.cli import inspect_commands

    def full_disk(*_: object, **__: object) -> None:
        raise OSError(28, "No space left on device", "/tmp/somewhere")

    monkeypatch.setattr(inspect_commands, "_show_inspection", full_disk)
    (home / "saved.html").write_text("<html><title>t</title><body>x</body></html>", encoding="utf-8")
    result = runner.invoke(app, ["page", "saved.html"])
    assert result.exit_code == 1
    assert _one_line_error(result.output) == "error: /tmp/somewhere: no space left on device"


def test_a_disk_that_fills_up_mid_run_is_one_line_with_the_command_that_continues(
    home: Path, testbed_server: TestbedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from research_crawler.context import durable_files, graph

    writes = 0

    def filling_up(path: Path, text: str) -> None:
        nonlocal writes
        writes += 1
        if writes > 4:  # the disk is full from the fifth save of the graph on, as a file's flush finds it
            raise OSError(28, "No space left on device")
        durable_files.atomic_write_text(path, text)

    site = testbed_server.base_url("arxiv-like")
    ask = ["ask", "Find papers on graph neural networks", "--site", site, "--model", "simulated", "--out", "out"]
    with monkeypatch.context() as full:
        full.setattr(graph, "atomic_write_text", filling_up)
        result = runner.invoke(app, [*ask, "--quiet"])
    assert result.exit_code == 1 and writes > 4
    assert "Traceback" not in result.output and "During handling" not in result.output
    last = [line for line in result.stderr.splitlines() if line.strip()][-1]
    assert last.startswith("error: ") and "no space left on device: free some space" in last, last
    assert last.endswith(", then continue with: research-crawler resume out"), last
    resumed = runner.invoke(app, ["resume", "out", "--model", "simulated", "--quiet"])  # space was freed
    assert resumed.exit_code == 0, resumed.output
    assert Report.model_validate_json((home / "out" / "report.json").read_text(encoding="utf-8")).items


@pytest.mark.parametrize("host", ["no-such-host.invalid", "a refused port"])
def test_page_on_a_host_that_cannot_be_reached_says_so_and_exits_1(home: Path, host: str) -> None:
    arguments = []
    if host == "a refused port":
        with socket.socket() as probe:  # a port that was free a moment ago: nothing listens there
            probe.bind(("127.0.0.1", 0))
            host = f"127.0.0.1:{probe.getsockname()[1]}"
        arguments = ["--set", f"fetch.allowed_hosts={host}"]
    result = runner.invoke(app, [*arguments, "page", f"http://{host}/paper", "--json"])
    assert result.exit_code == 1, result.output
    assert json.loads(result.stdout)["determination"] == "network_error"
    error = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(error) == 1 and f"error: http://{host}/paper could not be read: connection failed: " in error[0]
    assert error[0].endswith("check the address and that the site is up") and "blocked_by_robots" not in result.output
    if host.endswith(".invalid"):
        assert f"cannot resolve {host}" in error[0]


def test_a_page_that_never_answers_says_how_to_wait_longer(home: Path) -> None:
    with socket.socket() as silent:  # accepts the connection (the kernel's backlog) and never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        host = f"127.0.0.1:{silent.getsockname()[1]}"
        settings = ["--set", f"fetch.allowed_hosts={host}", "--set", "fetch.page_deadline_s=0.5"]
        result = runner.invoke(app, [*settings, "page", f"http://{host}/paper"])
    assert result.exit_code == 1, result.output
    error = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(error) == 1 and "could not be read (the deadline of 0.5 s passed" in error[0], result.stderr
    assert error[0].endswith(
        "; its robots.txt did not answer in time: check that it is up, or give a page longer with "
        "--set fetch.page_deadline_s=1"
    ), error[0]


def test_page_on_a_redirect_to_a_refused_address_prints_no_setting_that_allows_it(home: Path) -> None:
    import http.server
    import threading

    class Redirect(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # every page sends the crawler to the cloud's metadata address
            self.send_response(404 if self.path == "/robots.txt" else 302)
            self.send_header("Location", "http://169.254.169.254/latest/meta-data/")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Redirect)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        host = f"127.0.0.1:{server.server_address[1]}"
        result = runner.invoke(app, ["--set", f"fetch.allowed_hosts={host}", "page", f"http://{host}/paper"])
        asked = runner.invoke(
            app,
            ["--set", f"fetch.allowed_hosts={host}", "ask", "papers on x", "--site", f"http://{host}/", "--model",
             "simulated", "--reranker", "bm25", "--quiet", "--out", "run"],
        )
    finally:
        server.shutdown()
    assert result.exit_code == 1, result.output
    error = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(error) == 1 and "169.254.169.254" in error[0], result.stderr
    assert "fetch.allowed_hosts" not in error[0] and error[0].endswith("try another site"), error[0]
    assert asked.exit_code == 1 and "169.254.169.254:80 is where the site redirected" in asked.stderr, asked.output
    for written in (asked.stderr, (home / "run" / "report.md").read_text(encoding="utf-8")):
        assert "allowed_hosts=169.254" not in written, written


def test_an_export_to_a_directory_that_does_not_exist_says_how_to_check_it(home: Path) -> None:
    from research_crawler.library.database import open_library

    open_library(home / "library.sqlite3").close()
    result = runner.invoke(
        app, ["library", "export", "--format", "csv", "--out", "no/such/dir/items.csv", "--library", "library.sqlite3"]
    )
    assert result.exit_code == 1, result.output
    error = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(error) == 1 and error[0].startswith("error: "), result.stderr
    assert error[0].endswith("no such file or directory; check the path (ls no/such/dir)"), error[0]
