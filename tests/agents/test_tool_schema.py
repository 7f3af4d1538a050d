"""Compacted tool schemas: shorter, and accepting and refusing exactly what pydantic's own schema does."""

from __future__ import annotations

import json
from typing import Annotated, Any

import autogen
import jsonschema
import pytest
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from research_crawler.agents.ag2 import register_tools
from research_crawler.agents.tool_schema import compact_schema, compact_tool
from research_crawler.text.tokens import count_tokens
from research_crawler.tools.items import ItemCandidate
from research_crawler.tools.navigation import LinkScore


class _Nested(BaseModel):
    """A model nested in another (its docstring is pydantic's, not the model's spec)."""

    model_config = ConfigDict(extra="forbid")
    title: Annotated[str, Field(description="A property that happens to be called title.")]
    note: Annotated[str | None, Field(description="Optional.")] = None


class _Outer(BaseModel):
    entries: Annotated[list[_Nested], Field(description="The entries.")]
    best: _Nested | None = None


def _keys(node: Any) -> set[str]:
    if isinstance(node, dict):
        return set(node) | {key for value in node.values() for key in _keys(value)}
    if isinstance(node, list):
        return {key for value in node for key in _keys(value)}
    return set()


@pytest.mark.parametrize("model", [ItemCandidate, LinkScore, _Outer])
def test_compaction_drops_bookkeeping_and_keeps_the_meaning(model: type[BaseModel]) -> None:
    original = TypeAdapter(list[model]).json_schema()  # type: ignore[valid-type]
    compact = compact_schema(original)
    assert not {"$defs", "$ref", "anyOf"} & _keys(compact)
    assert count_tokens(json.dumps(compact)) < count_tokens(json.dumps(original))
    properties = compact["items"]["properties"]
    assert set(properties) == set(model.model_fields)
    assert all("title" not in field or isinstance(field["title"], dict) for field in properties.values())


def test_a_property_named_title_survives_and_optional_fields_stay_optional() -> None:
    compact = compact_schema(_Outer.model_json_schema())
    entry = compact["properties"]["entries"]["items"]
    title = {"description": "A property that happens to be called title.", "type": "string"}
    assert entry["properties"]["title"] == title
    assert entry["properties"]["note"] == {"description": "Optional.", "type": "string"}
    assert entry["required"] == ["title"]
    assert "description" not in entry, "the field's own description says it; the model docstring is dropped"
    assert compact["properties"]["best"]["properties"]["title"]["type"] == "string"


@pytest.mark.parametrize(
    ("instance", "valid"),
    [
        ([{"id": 3, "title": "A paper", "score": 7}], True),
        ([{"url": "https://x.org/a", "title": "A paper", "score": 7.5, "description": "d"}], True),
        ([{"id": "three", "title": "A paper", "score": 7}], False),
        ([{"id": 3, "score": 7}], False),
        ([{"id": 3, "title": 4, "score": 7}], False),
        ({"id": 3}, False),
    ],
)
def test_the_compact_schema_accepts_what_the_original_accepts(instance: Any, valid: bool) -> None:
    original = TypeAdapter(list[ItemCandidate]).json_schema()
    compact = compact_schema(original)
    for schema in (original, compact):
        errors = list(jsonschema.Draft202012Validator(schema).iter_errors(instance))
        assert (not errors) is valid, (schema is compact, errors)


def test_a_schema_that_refers_to_itself_does_not_loop() -> None:
    schema = {
        "$defs": {"Node": {"type": "object", "properties": {"child": {"$ref": "#/$defs/Node"}}}},
        "$ref": "#/$defs/Node",
    }
    compact = compact_schema(schema)
    depth, node = 0, compact
    while "properties" in node:
        node, depth = node["properties"]["child"], depth + 1
    assert depth > 3 and node == {"type": "object"}


def test_compact_tool_leaves_the_entry_it_was_given_alone() -> None:
    tool = {"type": "function", "function": {"name": "f", "parameters": _Outer.model_json_schema()}}
    before = json.dumps(tool, sort_keys=True)
    compact = compact_tool(tool)
    assert json.dumps(tool, sort_keys=True) == before
    assert compact["function"]["name"] == "f" and "$defs" not in compact["function"]["parameters"]


def test_registered_tools_reach_the_model_compacted_and_still_run() -> None:
    calls: list[list[LinkScore]] = []

    def save_links(links: Annotated[list[LinkScore], "The useful links of this page."]) -> str:
        """Store links."""
        calls.append(links)
        return "saved"

    caller = autogen.ConversableAgent(
        "Caller", llm_config={"config_list": [{"model": "x", "api_key": "unused"}]}, human_input_mode="NEVER"
    )
    executor = autogen.ConversableAgent("Executor", llm_config=False, human_input_mode="NEVER")
    register_tools(caller, executor, [save_links])
    (schema,) = caller.llm_config["tools"]
    assert not {"$defs", "$ref"} & _keys(schema)
    item = schema["function"]["parameters"]["properties"]["links"]["items"]
    assert set(item["properties"]) == {"id", "score"}
    result = executor.execute_function(
        {"name": "save_links", "arguments": json.dumps({"links": [{"id": 2, "score": 8}]})}
    )
    assert result[1]["content"] == "saved"
    assert calls == [[LinkScore(id=2, score=8)]]
