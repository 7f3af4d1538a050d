"""The README's local-model recipe as the live suite and its replay run it: the same query, site and settings (read off
the README's own command, so the two cannot drift apart), and the guards that must hold on a real model's output,
whatever it answers — bounded calls and replies, no request the server refused, a reason for each site's end, a
report made of the items or none at all, no title stored that its page does not show."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from research_crawler.config.overrides import apply_overrides, parse_assignment
from research_crawler.config.settings import Settings
from research_crawler.context.store import RunStore
from research_crawler.eval.testbed import TestbedServer
from research_crawler.report.models import Report
from research_crawler.run.run_dir import PAGES_DIR
from research_crawler.run.session import ResearchSession
from research_crawler.run.trace import read_trace
from research_crawler.tools.page_evidence import PageEvidence
from research_crawler.web.page_store import PageArchive

__all__ = ["Recipe", "check_guards", "readme_recipe", "run_recipe"]

REPO = Path(__file__).resolve().parents[1]
#: The testbed site the recipe explores (the README serves the testbed's first site on its --port).
RECIPE_SITE = "arxiv-like"


@dataclass
class Recipe:
    """The README recipe's `ask`: its query, model, and the settings its flags set."""

    query: str
    model: str
    preset: str | None = None
    overrides: dict[str, Any] = field(default_factory=dict)


def readme_recipe() -> Recipe:
    """The `research-crawler … ask …` command of the README's "With a local model" block, read as settings."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("## With a local model", 1)[1].split("\n## ", 1)[0]
    block = re.findall(r"```\n(.*?)```", section, re.DOTALL)[0]
    command = next(line for line in block.replace("\\\n", " ").splitlines() if " ask " in line)
    words = shlex.split(command.split("#", 1)[0])
    words = words[next(i for i, word in enumerate(words) if word.endswith("research-crawler")) + 1 :]
    overrides: dict[str, Any] = {}
    query, model, preset = "", "", None
    flags = {"--max-subpages": "explore.max_subpages", "--reranker": "rerank.kind"}
    index = 0
    while index < len(words):
        word = words[index]
        if word == "--set":
            name, value = parse_assignment(words[index + 1])
            overrides[name] = value
            index += 2
        elif word in flags:
            overrides[flags[word]] = words[index + 1]
            index += 2
        elif word == "--model":
            model = words[index + 1]
            index += 2
        elif word == "--preset":
            preset = words[index + 1]
            index += 2
        elif word == "--site":
            index += 2
        elif word == "ask":
            query = words[index + 1]
            index += 2
        else:
            raise AssertionError(f"the README recipe has a word the live suite does not know: {word!r}")
    return Recipe(query=query, model=model, preset=preset, overrides=overrides)


def run_recipe(
    recipe: Recipe, *, base_url: str, server: TestbedServer, runs_dir: Path
) -> tuple[Report, list[dict[str, Any]], Settings]:
    """The recipe's query on the testbed through the endpoint at `base_url`, with the recipe's settings."""
    base = Settings.from_preset(recipe.preset) if recipe.preset else Settings()
    settings = apply_overrides(base, recipe.overrides)
    settings.runs_dir = runs_dir
    settings.fetch.allowed_hosts = server.allowed_hosts()
    settings.models.base_url = base_url
    settings.models.api_key = None
    settings.models.strong_model = settings.models.cheap_model = recipe.model
    report = ResearchSession(settings, backend="openai").run(recipe.query, sites=[server.base_url(RECIPE_SITE)])
    return report, read_trace(Path(report.run_dir or "") / "trace.jsonl"), settings


def check_guards(report: Report, trace: list[dict[str, Any]], settings: Settings) -> None:
    """Every guard that must hold on a real model's output, whatever it answered."""
    calls = [event for event in trace if event["event"] == "model_call"]
    assert calls and len(calls) <= settings.run.max_model_calls
    assert not [call for call in calls if "HTTP 5" in str(call.get("error"))], "the endpoint refused a request"
    bounds = settings.models.max_output_tokens
    for call in calls:
        role = call["agent"].lower().replace("webselector", "web_selector")
        assert call["output_tokens"] <= bounds.get(role, 10**6) + 16, call
    assert report.sites, "the site has no recorded end"
    approved = any(event["event"] == "tool_call" and event["tool"] == "approve_site" for event in trace)
    for site in report.sites:
        assert site.reason and (site.reason != "completed" or approved), site
    markdown = (Path(report.run_dir or "") / "report.md").read_text(encoding="utf-8")
    assert "You are the Presenter" not in markdown and "&#39;" not in markdown
    if not report.items:
        assert markdown.startswith(("No papers were found", "No written report"))
    run_dir = Path(report.run_dir or "")
    archive = PageArchive(run_dir / PAGES_DIR)
    for web in RunStore(run_dir).load().web_contexts.values():
        for item in web.items():  # what the model said it read, checked against the page it read it on
            page = archive.get(item.found_on)
            assert page is not None, item
            assert PageEvidence(page).shows(item.title), f"{item.title!r} is not on {item.found_on}"
            assert all(PageEvidence(page).shows(name) for name in item.authors), item
