"""Fixtures of the evaluation tests: the testbed and one local LangSmith evaluation shared by the tests that read
its results (and by the notebook test)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from eval_helpers import LocalEvaluation, fast_settings, no_internet, write_subset
from mock_openai_server import MockOpenAIServer

from research_crawler.config.settings import Settings
from research_crawler.eval.runner import run_evaluation
from research_crawler.eval.testbed import Testbed, TestbedServer, generate_testbed


@pytest.fixture(scope="module")
def web() -> Testbed:
    """The testbed with the unfamiliar web (the sites built unlike ours, the held-out batches among them)."""
    return generate_testbed(unfamiliar=True)


@pytest.fixture(scope="module")
def get(web: Testbed) -> Iterator[tuple[TestbedServer, httpx.Client]]:
    """`web` served on loopback, and the client that visits it."""
    with TestbedServer(web, slow_seconds=0.1) as server, httpx.Client(timeout=10) as client:
        yield server, client


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return fast_settings(tmp_path)


@pytest.fixture
def judge_endpoint() -> Iterator[MockOpenAIServer]:
    """A loopback OpenAI-compatible server answering the judge from scripted replies."""
    with MockOpenAIServer() as server:
        yield server


@pytest.fixture(scope="session")
def local_evaluation(tmp_path_factory: pytest.TempPathFactory, testbed_server: TestbedServer) -> LocalEvaluation:
    """The local LangSmith path end to end: 2 sites × 2 queries, simulated model and simulated judge."""
    root = tmp_path_factory.mktemp("local-evaluation")
    settings = fast_settings(root)
    settings.eval.upload = "auto"
    settings.eval.langsmith_api_key = None  # whatever the environment holds: without a key, auto means local
    dataset = write_subset(root / "subset.yaml")
    out = root / "out"
    with no_internet() as network:
        result = run_evaluation(
            dataset,
            settings=settings,
            backend="simulated",
            judge="simulated",
            out=out,
            concurrency=2,
            testbed_server=testbed_server,
        )
    return LocalEvaluation(result=result, out=out, dataset=dataset, settings=settings, network=network)
