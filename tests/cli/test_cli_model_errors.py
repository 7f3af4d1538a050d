"""A run stopped by its model endpoint, as the user sees it: the error said once on stderr (the closing error line)
and once in the report on stdout, never "the model endpoint failed: the model endpoint failed for…"; the site named
with --site still given its end and reason; the table of model calls; a request read by rules says so."""

from __future__ import annotations

from pathlib import Path

import pytest
from mock_openai_server import MockOpenAIServer, error
from typer.testing import CliRunner

from research_crawler.cli.app import app
from research_crawler.eval.testbed import TestbedServer
from research_crawler.report.models import Report
from research_crawler.run.progress import RunProgress

runner = CliRunner()


@pytest.mark.parametrize("retries", [0, 2])
def test_an_endpoint_error_is_said_once_and_the_site_still_gets_its_end(
    home: Path, testbed_server: TestbedServer, monkeypatch: pytest.MonkeyPatch, retries: int
) -> None:
    with MockOpenAIServer(fallback=lambda _request: error(503, "server overloaded")) as endpoint:
        monkeypatch.setenv("OPENAI_BASE_URL", endpoint.base_url)
        out = home / "failed"
        result = runner.invoke(
            app,
            ["--set", f"models.max_retries={retries}", "--set", "models.backoff_base_s=0.01",
             "ask", "graph neural networks", "--site", testbed_server.base_url("arxiv-like"),
             "--model", "gemma3-270m", "--out", str(out)],
        )
    assert result.exit_code == 1, result.output
    report = Report.model_validate_json((out / "report.json").read_text())
    detail = report.stop_detail
    assert "server overloaded" in detail and detail.count("the model endpoint") == 1
    assert result.stderr.count(detail) == 1, result.stderr
    assert result.stderr.strip().splitlines()[-1].startswith("error: the search stopped on an error: ")
    assert result.stdout.count("server overloaded") == 1, result.stdout
    assert [(site.url, site.reason) for site in report.sites] == [(testbed_server.base_url("arxiv-like"), "error")]
    table = result.stderr.split("Model calls (agent, reply valid or not, what the project did):", 1)[1]
    assert "WebSelector  invalid" in table and "the run stopped" in table


def test_a_reading_by_rules_says_so_and_why() -> None:
    progress = RunProgress(subpage_limit=2)
    doubted = {
        "event": "request",
        "source": "rules (the model's reading was not kept: its topic 'x' shares no word with the request)",
        "summary": "papers on graph neural networks",
    }
    assert progress.apply(doubted) == (
        "Read as: papers on graph neural networks — read by rules: the model's reading was not kept: its topic 'x' "
        "shares no word with the request"
    )
    asked = {"event": "request", "source": "rules", "summary": "papers on graph neural networks"}
    assert progress.apply(asked) == "Read as: papers on graph neural networks — read by rules"
    believed = {"event": "request", "source": "model", "summary": "papers on graph neural networks"}
    assert progress.apply(believed) == "Read as: papers on graph neural networks"
