"""The LangSmith client of an evaluation: uploading when a key is set, strictly local when not.

Local mode is LangSmith's own ``evaluate(..., upload_results=False)`` (the same runner, evaluators and result
objects) with a client that cannot reach the network: no background tracing thread, server info given up front,
and an HTTP session whose transport refuses every request (and counts it, so a test can prove none was made).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

import langsmith
import requests
from langsmith import schemas
from requests.adapters import BaseAdapter

from research_crawler.config.settings import EvalSettings
from research_crawler.errors import ConfigError

__all__ = ["RefusingAdapter", "langsmith_client", "local_examples", "sync_dataset", "uploads_enabled"]

logger = logging.getLogger(__name__)

_EXAMPLE_NAMESPACE = uuid.UUID("5b0c3f0e-7f5e-4a8e-9f4b-2f1d6c1e9a10")


class RefusingAdapter(BaseAdapter):
    """A `requests` transport that sends nothing: every request fails at once and is recorded in `refused`."""

    def __init__(self) -> None:
        super().__init__()
        self.refused: list[str] = []

    def send(self, request: requests.PreparedRequest, *args: Any, **kwargs: Any) -> requests.Response:
        self.refused.append(str(request.url))
        raise requests.ConnectionError(f"LangSmith uploads are off for this evaluation: refused {request.url}")

    def close(self) -> None:
        pass


def uploads_enabled(settings: EvalSettings) -> bool:
    """Whether this evaluation uploads to LangSmith: `upload` = auto uploads exactly when a key is set."""
    has_key = settings.langsmith_api_key is not None
    if settings.upload == "always" and not has_key:
        raise ConfigError("eval.upload is 'always' but no LangSmith API key is set: set LANGSMITH_API_KEY")
    return settings.upload == "always" or (settings.upload == "auto" and has_key)


def langsmith_client(settings: EvalSettings, *, upload: bool) -> langsmith.Client:
    """A client for uploading (key and endpoint from the settings), or a local one that refuses the network."""
    if upload:
        key = settings.langsmith_api_key.get_secret_value() if settings.langsmith_api_key is not None else None
        return langsmith.Client(api_url=settings.langsmith_endpoint, api_key=key)
    client = langsmith.Client(
        api_url="http://langsmith.local.invalid",  # .invalid never resolves (RFC 2606): a last line of defence
        api_key="local-evaluation-no-upload",
        session=requests.Session(),
        auto_batch_tracing=False,
        info=schemas.LangSmithInfo(),
    )
    # The client mounts its own transport on the session it is given, so ours goes on afterwards.
    adapter = RefusingAdapter()
    client.session.mount("http://", adapter)
    client.session.mount("https://", adapter)
    return client


def local_examples(dataset_name: str, rows: Sequence[Mapping[str, Any]]) -> list[schemas.Example]:
    """Examples held in memory only; ids are derived from the dataset and query ids, so they are stable."""
    dataset_id = uuid.uuid5(_EXAMPLE_NAMESPACE, dataset_name)
    return [
        schemas.Example(
            id=uuid.uuid5(_EXAMPLE_NAMESPACE, f"{dataset_name}/{row['metadata']['query_id']}"),
            dataset_id=dataset_id,
            inputs=dict(row["inputs"]),
            outputs=dict(row["outputs"]),
            metadata=dict(row["metadata"]),
        )
        for row in rows
    ]


def sync_dataset(
    client: langsmith.Client, *, name: str, description: str, rows: Sequence[Mapping[str, Any]]
) -> list[schemas.Example]:
    """Create the LangSmith dataset `name` or bring it up to date with `rows` (matched by query id), and return
    its examples for `rows`, in their order. Examples of queries that are not in `rows` are left alone, so an
    evaluation of a few sites does not delete the others."""
    if client.has_dataset(dataset_name=name):
        dataset = client.read_dataset(dataset_name=name)
    else:
        dataset = client.create_dataset(name, description=description, metadata={"created_by": "research-crawler"})
        logger.info("created the LangSmith dataset %s", name)
    existing = {
        str((example.metadata or {}).get("query_id")): example
        for example in client.list_examples(dataset_id=dataset.id)
    }
    to_create: list[dict[str, Any]] = []
    to_update: list[dict[str, Any]] = []
    for row in rows:
        query_id = str(row["metadata"]["query_id"])
        fields = {"inputs": dict(row["inputs"]), "outputs": dict(row["outputs"]), "metadata": dict(row["metadata"])}
        current = existing.get(query_id)
        if current is None:
            to_create.append(fields)
        elif (current.inputs, current.outputs, current.metadata) != (
            fields["inputs"],
            fields["outputs"],
            fields["metadata"],
        ):
            to_update.append({"id": current.id, **fields})
    if to_create:
        client.create_examples(dataset_id=dataset.id, examples=to_create)
    if to_update:
        client.update_examples(dataset_id=dataset.id, updates=to_update)
    logger.info("LangSmith dataset %s: %d example(s) created, %d updated", name, len(to_create), len(to_update))
    by_query = {
        str((example.metadata or {}).get("query_id")): example
        for example in client.list_examples(dataset_id=dataset.id)
    }
    missing = [str(row["metadata"]["query_id"]) for row in rows if str(row["metadata"]["query_id"]) not in by_query]
    if missing:
        raise ConfigError(f"the LangSmith dataset {name} lacks examples for {missing[:5]} after the upload")
    return [by_query[str(row["metadata"]["query_id"])] for row in rows]
