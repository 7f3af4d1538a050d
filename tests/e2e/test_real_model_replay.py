"""A real model's turns in CI: the README recipe's run with Gemma 3 270M behind llama-cpp-python, recorded by the live
suite (tests/live), replayed through the real prompts and tools on every push — each agent's n-th request answered
with that agent's n-th recorded reply, by a server as strict as llama-cpp-python's — and every guard checked on that
real output (`real_model_run.check_guards`)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from mock_openai_server import MockOpenAIServer, text
from model_transcript import RecordingProxy, Transcript, agent_key, replayer
from real_model_run import check_guards, readme_recipe, run_recipe

from research_crawler.config.settings import ModelSettings
from research_crawler.eval.testbed import TestbedServer
from research_crawler.llm.openai_client import OpenAICompatibleClient
from research_crawler.llm.usage import UsageLedger

RECORDING = Path(__file__).parent / "fixtures" / "gemma3-270m-recipe.json"


def test_the_recorded_run_was_made_with_the_readmes_recipe() -> None:
    recorded = Transcript.load(RECORDING).recorded_with
    recipe = readme_recipe()
    assert (recorded["query"], recorded["model"]) == (recipe.query, recipe.model)
    assert (recorded["preset"], recorded["overrides"]) == (recipe.preset, recipe.overrides), (
        "the README's recipe changed: record the live suite again"
    )


def test_a_real_models_recorded_turns_hold_every_guard(tmp_path: Path, testbed_server: TestbedServer) -> None:
    transcript = Transcript.load(RECORDING)
    used: Counter[str] = Counter()
    with MockOpenAIServer(fallback=replayer(transcript, used)) as endpoint:
        report, trace, settings = run_recipe(
            readme_recipe(), base_url=endpoint.base_url, server=testbed_server, runs_dir=tmp_path
        )
    assert endpoint.refusals == [], "a request llama-cpp-python (or Ollama, vLLM, OpenAI) would refuse"
    recorded = Counter({agent: len(replies) for agent, replies in transcript.by_agent().items()})
    assert set(used) <= set(recorded), f"agents the recording never saw: {set(used) - set(recorded)}"
    assert sum(used.values()) >= len(transcript.exchanges) // 2, (used, recorded)
    check_guards(report, trace, settings)
    assert [site.reason for site in report.sites] == [reason for reason, _ in transcript.recorded_with["sites"]]


def test_the_proxy_records_what_the_endpoint_answered_and_the_replay_gives_it_back(tmp_path: Path) -> None:
    messages = [
        {"role": "system", "content": "You are the Planner of research-crawler."},
        {"role": "user", "content": "?"},
    ]
    with MockOpenAIServer() as upstream, RecordingProxy(upstream.base_url) as proxy:
        upstream.enqueue(text("first answer"), text("second answer"))
        client = OpenAICompatibleClient(
            {"model": "m"}, agent_name="Planner", ledger=UsageLedger(), settings=ModelSettings(base_url=proxy.base_url)
        )
        for _ in range(2):
            client.create({"messages": messages, "model": "m"})
    assert [e.agent for e in proxy.exchanges] == ["Planner[]", "Planner[]"] == [agent_key({"messages": messages})] * 2
    Transcript({"model": "m"}, proxy.exchanges).save(tmp_path / "deep" / "t.json")
    loaded = Transcript.load(tmp_path / "deep" / "t.json")
    used: Counter[str] = Counter()
    with MockOpenAIServer(fallback=replayer(loaded, used)) as replay:
        client = OpenAICompatibleClient(
            {"model": "m"}, agent_name="Planner", ledger=UsageLedger(), settings=ModelSettings(base_url=replay.base_url)
        )
        answers = [client.message_retrieval(client.create({"messages": messages, "model": "m"}))[0] for _ in range(3)]
    assert answers == ["first answer", "second answer", "second answer"] and used == {"Planner[]": 3}

