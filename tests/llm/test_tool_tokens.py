"""Tool schemas are counted as the model reads them: the cases below were measured against OpenAI's API by
hmarr/openai-chat-tokens (cl100k_base models), messages and tools together."""

from __future__ import annotations

import json
from typing import Any

import pytest

from research_crawler.llm.tool_tokens import render_tool_namespace, tools_tokens
from research_crawler.llm.usage import estimate_prompt_tokens
from research_crawler.text.tokens import count_tokens

HELLO = [{"role": "user", "content": "hello"}]
GREETING = [{"role": "system", "content": "Hello"}, {"role": "user", "content": "Hi there"}]


def _tool(name: str, properties: dict[str, Any], description: str | None = None) -> dict[str, Any]:
    function: dict[str, Any] = {"name": name, "parameters": {"type": "object", "properties": properties}}
    if description is not None:
        function["description"] = description
    return {"type": "function", "function": function}


def _kind(value: str, **others: Any) -> dict[str, Any]:
    return {"type": "object", "properties": {"kind": {"type": "string", "const": value}, **others}}


MEASURED = [
    (HELLO, [_tool("foo", {})], 31),
    (HELLO, [_tool("foo", {}, "Do a foo")], 36),
    (HELLO, [_tool("bing_bong", {"foo": {"type": "string"}}, "Do a bing bong")], 49),
    (
        HELLO,
        [
            _tool(
                "bing_bong",
                {"foo": {"type": "string"}, "bar": {"type": "number", "description": "A number"}},
                "Do a bing bong",
            )
        ],
        57,
    ),
    (
        HELLO,
        [
            _tool(
                "bing_bong",
                {
                    "foo": {
                        "type": "object",
                        "properties": {"bar": {"type": "string", "enum": ["a", "b", "c"]}, "baz": {"type": "boolean"}},
                    }
                },
                "Do a bing bong",
            )
        ],
        68,
    ),
    (GREETING, [_tool("do_stuff", {"foo": {"anyOf": [_kind("a", baz={"type": "boolean"})]}})], 52),
    (
        GREETING,
        [
            _tool(
                "do_stuff",
                {
                    "foo": {
                        "anyOf": [
                            _kind("a", baz={"type": "boolean"}),
                            _kind("b", qux={"type": "number"}),
                            _kind("c", idk={"type": "string"}),
                        ]
                    }
                },
            )
        ],
        80,
    ),
]


@pytest.mark.parametrize(("messages", "tools", "measured"), MEASURED)
def test_a_request_with_tools_is_counted_as_the_api_measured_it(
    messages: list[dict[str, Any]], tools: list[dict[str, Any]], measured: int
) -> None:
    assert estimate_prompt_tokens(messages, tools, encoding="cl100k_base") == measured


def test_the_namespace_shows_types_optional_marks_and_first_level_descriptions() -> None:
    tool = _tool(
        "collect",
        {
            "items": {
                "type": "array",
                "description": "The items.",
                "items": {
                    "type": "object",
                    "properties": {"title": {"type": "string", "description": "Not shown: nested."}},
                    "required": ["title"],
                },
            },
            "order": {"enum": ["relevance", "newest"], "type": "string"},
            "date": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        },
        "Store items.",
    )
    tool["function"]["parameters"]["required"] = ["items"]
    text = render_tool_namespace([tool])
    assert text.splitlines() == [
        "namespace functions {",
        "",
        "// Store items.",
        "type collect = (_: {",
        "// The items.",
        "items: {",
        "  title: string,",
        "}[],",
        'order?: "relevance" | "newest",',
        "date?: string | null,",
        "}) => any;",
        "",
        "} // namespace functions",
    ]


def test_the_rendering_costs_fewer_tokens_than_the_json_sent_and_none_without_tools() -> None:
    tools = [_tool("save_links", {"links": {"type": "array", "items": {"type": "integer"}, "description": "Ids."}})]
    assert 0 < tools_tokens(tools) < count_tokens(json.dumps(tools))
    assert tools_tokens(None) == 0 and tools_tokens([]) == 0
    assert estimate_prompt_tokens(HELLO, []) == estimate_prompt_tokens(HELLO)
