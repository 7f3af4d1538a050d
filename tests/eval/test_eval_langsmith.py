"""LangSmith plumbing: when an evaluation uploads, the local client that cannot send, and keeping a LangSmith
dataset in step with the dataset file (against an in-memory stand-in for the LangSmith API)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import langsmith
import pytest
import requests
from langsmith import schemas
from pydantic import SecretStr

from research_crawler.config.settings import EvalSettings
from research_crawler.errors import ConfigError
from research_crawler.eval.langsmith_client import (
    RefusingAdapter,
    langsmith_client,
    local_examples,
    sync_dataset,
    uploads_enabled,
)


def test_upload_follows_the_key() -> None:
    assert uploads_enabled(EvalSettings(langsmith_api_key=None)) is False
    assert uploads_enabled(EvalSettings(langsmith_api_key=SecretStr("lsv2-x"))) is True
    assert uploads_enabled(EvalSettings(langsmith_api_key=SecretStr("lsv2-x"), upload="never")) is False
    with pytest.raises(ConfigError, match="LANGSMITH_API_KEY"):
        uploads_enabled(EvalSettings(langsmith_api_key=None, upload="always"))


def test_the_key_comes_from_langsmiths_own_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LANGSMITH_API_KEY", raising=False)
    monkeypatch.setenv("LANGCHAIN_API_KEY", "lsv2-from-langchain")
    assert EvalSettings().langsmith_api_key == SecretStr("lsv2-from-langchain")
    monkeypatch.setenv("LANGSMITH_API_KEY", "lsv2-from-langsmith")
    monkeypatch.setenv("LANGSMITH_ENDPOINT", "https://eu.api.smith.langchain.com")
    settings = EvalSettings()
    assert settings.langsmith_api_key == SecretStr("lsv2-from-langsmith")
    assert settings.langsmith_endpoint == "https://eu.api.smith.langchain.com"
    assert "lsv2" not in repr(settings)


def test_the_local_client_cannot_send() -> None:
    client = langsmith_client(EvalSettings(langsmith_api_key=None), upload=False)
    adapter = client.session.get_adapter("https://api.smith.langchain.com/datasets")
    assert isinstance(adapter, RefusingAdapter)
    with pytest.raises(requests.ConnectionError, match="uploads are off"):
        client.session.get("https://api.smith.langchain.com/info")
    assert adapter.refused == ["https://api.smith.langchain.com/info"]
    assert client.info is not None, "server info is given up front, never fetched"
    assert adapter.refused == ["https://api.smith.langchain.com/info"]


def test_the_uploading_client_uses_the_settings_key() -> None:
    client = langsmith_client(
        EvalSettings(langsmith_api_key=SecretStr("lsv2-test"), langsmith_endpoint="http://127.0.0.1:9"), upload=True
    )
    assert isinstance(client, langsmith.Client) and client.api_url == "http://127.0.0.1:9"
    assert client.api_key == "lsv2-test"


def _rows(*texts: str) -> list[dict[str, Any]]:
    return [
        {
            "inputs": {"query_id": f"s/{n}", "query": text, "site": "s"},
            "outputs": {"relevant_item_ids": [f"s:{n}"]},
            "metadata": {"query_id": f"s/{n}", "site": "s", "kind": "general"},
        }
        for n, text in enumerate(texts)
    ]


def test_local_examples_have_stable_ids() -> None:
    first, second = local_examples("research-crawler-testbed", _rows("a", "b"))
    again = local_examples("research-crawler-testbed", _rows("a", "b"))
    assert [e.id for e in again] == [first.id, second.id] and first.id != second.id
    assert first.dataset_id == second.dataset_id and (first.inputs or {})["query"] == "a"


@dataclass
class _Dataset:
    id: uuid.UUID
    name: str


class FakeLangSmith:
    """The part of `langsmith.Client` that `sync_dataset` uses, kept in memory, with a record of the writes."""

    def __init__(self) -> None:
        self.datasets: dict[str, _Dataset] = {}
        self.examples: dict[uuid.UUID, list[schemas.Example]] = {}
        self.writes: list[tuple[str, int]] = []

    def has_dataset(self, *, dataset_name: str) -> bool:
        return dataset_name in self.datasets

    def read_dataset(self, *, dataset_name: str) -> _Dataset:
        return self.datasets[dataset_name]

    def create_dataset(self, name: str, *, description: str, metadata: dict[str, Any]) -> _Dataset:
        dataset = self.datasets[name] = _Dataset(id=uuid.uuid4(), name=name)
        self.examples[dataset.id] = []
        self.writes.append(("create_dataset", 1))
        return dataset

    def list_examples(self, *, dataset_id: uuid.UUID) -> Iterator[schemas.Example]:
        return iter(list(self.examples[dataset_id]))

    def create_examples(self, *, dataset_id: uuid.UUID, examples: Sequence[dict[str, Any]]) -> None:
        for fields in examples:
            self.examples[dataset_id].append(schemas.Example(id=uuid.uuid4(), dataset_id=dataset_id, **fields))
        self.writes.append(("create_examples", len(examples)))

    def update_examples(self, *, dataset_id: uuid.UUID, updates: Sequence[dict[str, Any]]) -> None:
        by_id = {example.id: example for example in self.examples[dataset_id]}
        for update in updates:
            current = by_id[update["id"]]
            fields = {key: update[key] for key in ("inputs", "outputs", "metadata")}
            index = self.examples[dataset_id].index(current)
            self.examples[dataset_id][index] = current.model_copy(update=fields)
        self.writes.append(("update_examples", len(updates)))


def test_the_langsmith_dataset_is_created_then_kept_in_step() -> None:
    fake = FakeLangSmith()
    client: Any = fake
    created = sync_dataset(client, name="research-crawler-t", description="d", rows=_rows("a", "b", "c"))
    assert [(e.inputs or {})["query"] for e in created] == ["a", "b", "c"]
    assert fake.writes == [("create_dataset", 1), ("create_examples", 3)]
    unchanged = sync_dataset(client, name="research-crawler-t", description="d", rows=_rows("a", "b", "c"))
    assert [e.id for e in unchanged] == [e.id for e in created] and len(fake.writes) == 2, "nothing to write"
    edited = sync_dataset(client, name="research-crawler-t", description="d", rows=_rows("a", "B"))
    assert fake.writes[2:] == [("update_examples", 1)]
    assert [(e.inputs or {})["query"] for e in edited] == ["a", "B"] and edited[1].id == created[1].id
    assert len(fake.examples[fake.datasets["research-crawler-t"].id]) == 3, "other queries are left alone"
