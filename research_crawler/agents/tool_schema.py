"""Tool schemas as short as the model needs: pydantic's JSON Schema without what only pydantic reads.

Every model call pays for its tools' schemas. Pydantic writes `$defs`/`$ref` indirection, a `title`
for every field, `anyOf [T, null]` for optional fields and the nested model's own docstring; none of it
tells the model anything the descriptions do not, and `$ref` is also what some OpenAI-compatible
servers handle worst. The arguments are still validated by the same pydantic models when they arrive.
"""

from __future__ import annotations

import copy
from typing import Any

__all__ = ["compact_schema", "compact_tool"]

#: Keys that only describe the schema to pydantic or to people reading it, never to the model.
_DROPPED_KEYS = frozenset({"title", "additionalProperties", "$defs", "definitions"})


def compact_tool(tool: dict[str, Any]) -> dict[str, Any]:
    """An OpenAI `{"type": "function", "function": {...}}` tool entry with its parameters compacted."""
    tool = copy.deepcopy(tool)
    function = tool.get("function")
    if isinstance(function, dict) and isinstance(function.get("parameters"), dict):
        function["parameters"] = compact_schema(function["parameters"])
    return tool


def compact_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` with `$ref`s inlined (from its own `$defs`), titles dropped and `anyOf [T, null]` made `T`.

    A nested object's description is dropped when the field holding it has its own; a `null` default
    goes with the `null` branch (the field stays optional: it is not in `required`). Any other schema
    construct is kept as it is.
    """
    definitions = {**schema.get("definitions", {}), **schema.get("$defs", {})}
    for value in schema.get("properties", {}).values():
        if isinstance(value, dict):
            definitions.update(value.get("$defs", {}))
    return _compact(schema, definitions, depth=0)


def _compact(node: Any, definitions: dict[str, Any], *, depth: int) -> Any:
    if isinstance(node, list):
        return [_compact(entry, definitions, depth=depth) for entry in node]
    if not isinstance(node, dict):
        return node
    if depth > 32:  # a recursive model: stop inlining rather than loop
        return {"type": "object"}
    node = _inline(_without_null_branch(_inline(node, definitions)), definitions)
    compacted: dict[str, Any] = {}
    for key, value in node.items():
        if key in _DROPPED_KEYS:
            continue
        if key == "properties" and isinstance(value, dict):
            compacted[key] = {name: _compact(field, definitions, depth=depth + 1) for name, field in value.items()}
        else:
            compacted[key] = _compact(value, definitions, depth=depth + 1)
    if "description" in compacted and isinstance(compacted.get("items"), dict):
        compacted["items"].pop("description", None)
    return compacted


def _inline(node: dict[str, Any], definitions: dict[str, Any]) -> dict[str, Any]:
    reference = node.get("$ref")
    if not isinstance(reference, str) or "/" not in reference:
        return node
    target = definitions.get(reference.rsplit("/", 1)[1])
    if not isinstance(target, dict):
        return node
    merged = {**target, **{key: value for key, value in node.items() if key != "$ref"}}
    return _inline(merged, definitions)


def _without_null_branch(node: dict[str, Any]) -> dict[str, Any]:
    branches = node.get("anyOf")
    if not isinstance(branches, list) or len(branches) != 2:
        return node
    kept = [branch for branch in branches if branch != {"type": "null"}]
    if len(kept) != 1 or not isinstance(kept[0], dict):
        return node
    merged = {key: value for key, value in node.items() if key != "anyOf"}
    if merged.get("default", ...) is None:
        del merged["default"]
    return {**kept[0], **merged}
