"""The run options (--model, --reranker, --max-subpages, --parallel-sites, --item-kind, --preset) are declared once
(`cli.options.RunOptions`) and reach every command that runs the agents, as one `RunOptions`."""

from __future__ import annotations

from typing import Annotated

import pytest
import typer
from typer.testing import CliRunner

from research_crawler.cli.app import app
from research_crawler.cli.options import NO_RUN_OPTIONS, Reranker, RunOptions, with_run_options

runner = CliRunner()
RUN_OPTIONS = ("--model", "--reranker", "--max-subpages", "--parallel-sites", "--item-kind", "--preset")


def test_a_command_gets_the_options_given_as_one_value_and_keeps_its_own() -> None:
    seen: list[tuple[str, RunOptions, bool]] = []
    tiny = typer.Typer()

    @tiny.command()
    @with_run_options
    def go(
        query: Annotated[str, typer.Argument()],
        run: RunOptions = NO_RUN_OPTIONS,
        loud: Annotated[bool, typer.Option("--loud")] = False,
    ) -> None:
        seen.append((query, run, loud))

    result = runner.invoke(tiny, ["q", "--model", "m1", "--reranker", "bm25", "--max-subpages", "4", "--loud"])
    assert result.exit_code == 0, result.output
    assert seen == [("q", RunOptions(model="m1", reranker=Reranker.bm25, max_subpages=4), True)]
    assert seen[0][1].backend_and_flags()[1] == {
        "models.strong_model": "m1",
        "models.cheap_model": "m1",
        "models.judge_model": "m1",
        "rerank.kind": "bm25",
        "explore.max_subpages": 4,
    }
    bad = runner.invoke(tiny, ["q", "--max-subpages", "0"])
    assert bad.exit_code == 2 and "--max-subpages" in bad.output  # the option's own rule still holds


@pytest.mark.parametrize("command", [["ask"], ["chat"], ["batch"], ["watch"], ["resume"], ["eval"], ["serve"]])
def test_every_command_that_runs_the_agents_takes_the_run_options(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    missing = [option for option in RUN_OPTIONS if option not in result.output]
    assert not missing, f"{command[0]} --help lacks {missing}"


@pytest.mark.parametrize(
    ("arguments", "says"),
    [
        (["aks", "graph neural networks"], "No such command 'aks'. Did you mean 'ask'? (see: research-crawler --help)"),
        (["ask", "q", "--sites", "http://a.example/"], "No such option: --sites"),
        (["ask", "q", "--max-subpages", "many"], "Invalid value for '--max-subpages'"),
        (["library", "export", "--format", "xml"], "(see: research-crawler library export --help)"),
        (["watch"], "Missing argument 'query'. (see: research-crawler watch --help)"),
    ],
)
def test_a_mistyped_command_line_is_one_line_naming_the_help_to_read(arguments: list[str], says: str) -> None:
    result = CliRunner().invoke(app, arguments, prog_name="research-crawler")
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], result.output


def test_a_site_that_is_no_url_is_refused_before_the_reranker_is_loaded() -> None:
    # bge is the default reranker and its weights are not on this machine: the mistyped site is what must be said
    result = CliRunner().invoke(app, ["ask", "graph neural networks", "--site", "ftp://arxiv.org/", "--model",
                                      "simulated", "--set", "rerank.bge_model=/no/such/weights"])
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "--site 'ftp://arxiv.org/' is not a usable http(s) URL" in lines[0], result.output
    assert lines[0].endswith("e.g. --site https://arxiv.org/")
