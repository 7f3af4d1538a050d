"""The input tokens a request's tool schemas cost: OpenAI shows the model its functions not as the JSON schemas
sent but rendered as a TypeScript namespace, and bills the tokens of that text (plus a few around it).

The rendering follows the format measured against the API by hmarr/openai-chat-tokens (MIT): one commented
``type name = (_: {...}) => any;`` per function, property descriptions as comments down to the first nested
level, ``?`` on optional properties, enums as unions, arrays as ``T[]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from research_crawler.text.tokens import count_tokens

__all__ = ["render_tool_namespace", "tools_tokens"]

#: Tokens the namespace costs beyond its text (measured by openai-chat-tokens), and those a system message
#: saves when the tools reuse it rather than adding their own.
_TOOLS_OVERHEAD_TOKENS = 9
_SHARED_SYSTEM_TOKENS = 4


def render_tool_namespace(tools: list[dict[str, Any]]) -> str:
    """The text the model reads for `tools` (OpenAI's ``{"type": "function", "function": {...}}`` entries)."""
    lines = ["namespace functions {", ""]
    for tool in tools:
        function: Mapping[str, Any] = tool.get("function", tool)
        if description := function.get("description"):
            lines.append(f"// {description}")
        parameters: Mapping[str, Any] = function.get("parameters") or {}
        name = function.get("name", "")
        if parameters.get("properties"):
            lines.append(f"type {name} = (_: {{")
            lines.append(_properties(parameters, 0))
            lines.append("}) => any;")
        else:
            lines.append(f"type {name} = () => any;")
        lines.append("")
    lines.append("} // namespace functions")
    return "\n".join(lines)


def tools_tokens(tools: list[dict[str, Any]] | None, *, has_system: bool = True, encoding: str = "o200k_base") -> int:
    """Input tokens `tools` add to a request (0 without tools); `has_system` when the request has a system
    message, which the tools' own preamble then reuses."""
    if not tools:
        return 0
    tokens = count_tokens(render_tool_namespace(tools), encoding) + _TOOLS_OVERHEAD_TOKENS
    return tokens - _SHARED_SYSTEM_TOKENS if has_system else tokens


def _properties(schema: Mapping[str, Any], indent: int) -> str:
    required = set(schema.get("required") or ())
    lines = []
    for name, prop in (schema.get("properties") or {}).items():
        if isinstance(prop, Mapping) and prop.get("description") and indent < 2:
            lines.append(f"// {prop['description']}")
        optional = "" if name in required else "?"
        lines.append(f"{name}{optional}: {_type(prop, indent)},")
    return "\n".join(" " * indent + line for line in lines)


def _type(prop: Any, indent: int) -> str:
    if not isinstance(prop, Mapping):
        return "any"
    for union in ("anyOf", "oneOf"):
        if isinstance(prop.get(union), list):
            return " | ".join(_type(option, indent) for option in prop[union])
    if isinstance(prop.get("enum"), list):
        return " | ".join(f'"{value}"' if isinstance(value, str) else str(value) for value in prop["enum"])
    kind = prop.get("type")
    if isinstance(kind, list):
        return " | ".join(_type({**prop, "type": one}, indent) for one in kind)
    if kind in ("number", "integer"):
        return "number"
    if kind in ("string", "boolean", "null"):
        return str(kind)
    if kind == "object":
        return "\n".join(["{", _properties(prop, indent + 2), "}"])
    if kind == "array":
        return f"{_type(prop['items'], indent)}[]" if "items" in prop else "any[]"
    return "any"
