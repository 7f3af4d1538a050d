"""The settings file (current directory, then the user config directory), its precedence under the environment
and flags, and `config show` with each setting's source and secrets masked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from research_crawler.cli.app import app
from research_crawler.config.overrides import apply_overrides, parse_assignment
from research_crawler.config.settings import Settings, find_config_file
from research_crawler.errors import ConfigError

runner = CliRunner()
SECRET = "sk-test-0123456789abcdef"


def _show(*arguments: str) -> dict[str, dict[str, object]]:
    result = runner.invoke(app, [*arguments, "config", "show", "--json"])
    assert result.exit_code == 0, result.output
    return {row["name"]: row for row in json.loads(result.stdout)}


def test_each_setting_shows_where_it_came_from(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (home / "research-crawler.toml").write_text(
        f'[explore]\nmax_subpages = 7\nmax_sites = 2\n[models]\napi_key = "{SECRET}"\nstrong_model = "file-model"\n',
        encoding="utf-8",
    )
    monkeypatch.setenv("RESEARCH_CRAWLER_EXPLORE__MAX_SITES", "4")
    rows = _show("--set", "explore.top_k_urls=3")
    assert (rows["explore.max_subpages"]["value"], rows["explore.max_subpages"]["source"]) == (7, "file")
    assert (rows["explore.max_sites"]["value"], rows["explore.max_sites"]["source"]) == (4, "env")
    assert (rows["explore.top_k_urls"]["value"], rows["explore.top_k_urls"]["source"]) == (3, "flag")
    assert (rows["fetch.render"]["value"], rows["fetch.render"]["source"]) == ("auto", "default")
    assert rows["fetch.per_host_delay_s"]["source"] == "env"  # from the test environment
    assert rows["models.strong_model"]["value"] == "file-model"
    assert rows["models.api_key"] == {**rows["models.api_key"], "value": "********", "source": "file"}
    assert rows["explore.max_subpages"]["description"]

    table = runner.invoke(app, ["config", "show"])
    assert table.exit_code == 0
    assert SECRET not in table.output and SECRET not in json.dumps(rows)
    assert "research-crawler.toml" in table.stdout


def test_config_show_masks_secrets_only_not_every_name_with_token_in_it(home: Path) -> None:
    rows = _show("--set", f"serve.token={SECRET}", "--set", "run.max_tokens=200000")
    assert rows["serve.token"]["value"] == "********"
    assert rows["run.max_tokens"]["value"] == 200000
    assert rows["page_view.chunk_tokens"]["value"] == Settings().page_view.chunk_tokens
    assert rows["models.max_output_tokens"]["value"] == Settings().models.max_output_tokens
    assert rows["models.tokens_per_minute"]["value"] is None


def test_the_environment_beats_the_file_and_openai_variables_count_as_environment(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine = home / "research-crawler.toml"  # named with --config: the user's own, which may choose the endpoint
    mine.write_text('[models]\napi_key = "from-file-key"\nbase_url = "http://file.example/v1"\n', encoding="utf-8")
    monkeypatch.setenv("OPENAI_API_KEY", "from-env-key")
    settings = Settings.load(mine)
    assert settings.models.api_key is not None and settings.models.api_key.get_secret_value() == "from-env-key"
    assert settings.models.base_url == "http://file.example/v1"
    monkeypatch.setenv("RESEARCH_CRAWLER_MODELS__API_KEY", "prefixed-key")
    assert Settings.load(mine).models.api_key.get_secret_value() == "prefixed-key"  # type: ignore[union-attr]
    assert _show("--config", str(mine))["models.api_key"]["source"] == "env"


def test_the_user_config_directory_is_read_when_the_current_one_has_no_file(home: Path) -> None:
    user_file = home.parent / "config" / "research-crawler" / "research-crawler.toml"
    user_file.parent.mkdir(parents=True)
    user_file.write_text("[report]\ntop_k = 4\n", encoding="utf-8")
    assert find_config_file() == user_file
    assert Settings.load().report.top_k == 4
    (home / "research-crawler.toml").write_text("[report]\ntop_k = 6\n", encoding="utf-8")
    assert find_config_file() == home / "research-crawler.toml"
    assert Settings.load().report.top_k == 6
    assert Settings().report.top_k == 10, "plain Settings() must not read files lying around"


def test_config_option_names_the_file(home: Path, tmp_path: Path) -> None:
    other = tmp_path / "elsewhere.toml"
    other.write_text("[report]\ntop_k = 3\n", encoding="utf-8")
    (home / "research-crawler.toml").write_text("[report]\ntop_k = 8\n", encoding="utf-8")
    rows = _show("--config", str(other))
    assert (rows["report.top_k"]["value"], rows["report.top_k"]["source"]) == (3, "file")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[explore\n", "is not valid TOML"),
        ("[explore]\nmax_subpages = 0\n", "explore.max_subpages"),
        ("[fetch]\ncolour = 'red'\n", "fetch.colour"),
    ],
)
def test_a_bad_settings_file_is_a_one_line_error(home: Path, text: str, message: str) -> None:
    (home / "research-crawler.toml").write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["config", "show"])
    assert result.exit_code == 1
    assert message in result.stderr and "research-crawler.toml" in result.stderr
    assert "Traceback" not in result.output


def test_a_missing_config_file_is_an_error(home: Path) -> None:
    result = runner.invoke(app, ["--config", "nope.toml", "config", "show"])
    assert result.exit_code == 1
    assert "nope.toml does not exist: check its path (ls .)" in result.stderr


def test_overrides_by_dotted_or_nested_name() -> None:
    base = Settings()
    changed = apply_overrides(base, {"fetch.per_host_delay_s": 0, "explore": {"max_subpages": 2}, "runs_dir": "x"})
    assert (changed.fetch.per_host_delay_s, changed.explore.max_subpages, str(changed.runs_dir)) == (0, 2, "x")
    assert base.explore.max_subpages == 5, "overrides must not change the original"
    with pytest.raises(ConfigError, match=r"did you mean fetch\.per_host_delay_s"):
        apply_overrides(base, {"fetch.per_host_delay": 1})
    with pytest.raises(ConfigError, match=r"explore\.max_subpages"):
        apply_overrides(base, {"explore.max_subpages": 0})
    assert parse_assignment("explore.max_subpages=3") == ("explore.max_subpages", 3)
    assert parse_assignment("models.strong_model=gpt-4.1") == ("models.strong_model", "gpt-4.1")
    assert parse_assignment("simulated.fault_kinds=['api_error']") == ("simulated.fault_kinds", ["api_error"])
    with pytest.raises(ConfigError, match="NAME=VALUE"):
        parse_assignment("=3")


def test_a_preset_sits_between_the_environment_and_the_file(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (home / "research-crawler.toml").write_text('[page_view]\ncrawler_view = "links"\n', encoding="utf-8")
    rows = _show("--preset", "paper")
    assert (rows["page_view.crawler_view"]["value"], rows["page_view.crawler_view"]["source"]) == ("markdown", "preset")
    monkeypatch.setenv("RESEARCH_CRAWLER_PAGE_VIEW__CRAWLER_VIEW", "links")
    rows = _show("--preset", "paper")
    assert (rows["page_view.crawler_view"]["value"], rows["page_view.crawler_view"]["source"]) == ("links", "env")
    unknown = runner.invoke(app, ["--preset", "nope", "config", "show"])
    assert unknown.exit_code == 2 and "unknown preset 'nope'" in unknown.stderr


def test_credentials_in_an_endpoint_url_are_masked_in_config_show_and_run_json(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "https://alice:s3cr3t-pw@llm.example.org:8443/v1?api-key=k3y-value&x=1")
    monkeypatch.setenv("RESEARCH_CRAWLER_EVAL__JUDGE_BASE_URL", "https://bob:judge-pw@judge.example.org/v1")
    table = runner.invoke(app, ["config", "show"])
    shown = runner.invoke(app, ["config", "show", "--json"])
    assert table.exit_code == 0 and shown.exit_code == 0, table.output
    for output in (table.stdout, shown.stdout):
        assert "s3cr3t-pw" not in output and "k3y-value" not in output and "judge-pw" not in output
        assert "alice" not in output and "bob" not in output
    values = {row["name"]: row["value"] for row in json.loads(shown.stdout)}
    assert values["models.base_url"] == "https://********@llm.example.org:8443/v1?api-key=********&x=1"
    from research_crawler.config.recorded import record_settings

    recorded = json.dumps(record_settings(Settings.load()))
    assert "s3cr3t-pw" not in recorded and "k3y-value" not in recorded and "judge-pw" not in recorded


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        ('[models]\nbase_url = "http://key.example/v1"\n', "models.base_url (the endpoint that gets your API key)"),
        ('[fetch]\nchromium_path = "./not-chromium.sh"\n', "fetch.chromium_path (a program to run)"),
        ('[fetch]\nallowed_hosts = ["169.254.169.254"]\n', "fetch.allowed_hosts (what the URL guard allows)"),
        ('[rerank]\nbge_model = "./weights"\n', "rerank.bge_model (model weights to load (they may run code))"),
    ],
)
def test_a_settings_file_that_merely_lies_in_the_current_directory_never_chooses_an_endpoint_program_or_guard(
    home: Path, monkeypatch: pytest.MonkeyPatch, text: str, refused: str
) -> None:
    # A folder from elsewhere (a clone, an archive) may hold research-crawler.toml: cd there and run, and the key in
    # your environment must not go to its endpoint, nor its program run, nor its guard widen.
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    (home / "research-crawler.toml").write_text(f"[report]\ntop_k = 6\n{text}", encoding="utf-8")
    result = runner.invoke(app, ["config", "show"])
    assert result.exit_code == 1
    line = " ".join(result.stderr.split())
    assert "lies in the current directory" in line and refused in line
    assert "if you wrote it, name it: research-crawler --config research-crawler.toml" in line
    with pytest.raises(ConfigError, match="lies in the current directory"):
        Settings.load()
    rows = _show("--config", "research-crawler.toml")  # named by the user: theirs, taken whole
    assert rows["report.top_k"]["value"] == 6
    assert (home / "research-crawler.toml").read_text(encoding="utf-8").endswith(text), "the file is left as it was"


def test_a_settings_file_in_the_current_directory_still_sets_everything_else(home: Path) -> None:
    (home / "research-crawler.toml").write_text('[report]\ntop_k = 6\n[models]\napi_key = "k"\n', encoding="utf-8")
    assert Settings.load().report.top_k == 6


def test_config_show_never_writes_a_values_control_bytes_to_the_terminal(home: Path) -> None:
    # A settings file (TOML spells ESC \u001b) or a variable holds text: the table shows it, the terminal never runs it
    (home / "research-crawler.toml").write_text(
        '[models]\nstrong_model = "gpt\\u001b]0;owned\\u0007\\u001b[2J[link=http://evil.example/]x[/link]"\n',
        encoding="utf-8",
    )
    result = runner.invoke(app, ["config", "show"])
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout
    assert "gpt]0;owned[2J[link=" in result.stdout, "shown literally, markup included"
