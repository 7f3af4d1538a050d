"""What the strictest OpenAI-compatible servers refuse in a chat request, checked as they check it.

Each rule mirrors a server's own request validation (read in their sources):

- llama-cpp-python 0.3.36 (``llama_cpp/llama_types.py``, ``server/types.py``): every message is validated by pydantic
  against a union of TypedDicts. An assistant's ``content`` is ``NotRequired[str]`` — null is refused; a tool message
  needs ``tool_call_id: str``; system and user messages need a ``content`` key; tool calls need ``id``,
  ``type: "function"`` and string ``arguments``. It answers a validation error with HTTP 500 (its route handler turns
  every exception into ``internal_server_error``): "7 validation errors: {'type': 'string_type', 'loc': ('body',
  'messages', 2, 'ChatCompletionRequestAssistantMessage', 'content'), 'msg': 'Input should be a valid string', …".
- Ollama (``openai/openai.go``, ``FromChatRequest``): ``content`` must be a string or a list of parts; null only when
  the message carries tool calls ("invalid message content type: <nil>"); tool-call arguments must be a JSON object
  ("invalid tool call arguments"). HTTP 400.
- vLLM (``entrypoints/openai/protocol.py``): a named ``tool_choice`` needs ``tools``, and must name one of them.
- OpenAI: a tool message answers an id of the assistant message's ``tool_calls`` just before it, every call is
  answered before the conversation goes on, and ``tool_calls`` is never an empty list.
"""

from __future__ import annotations

import json
from typing import Any, Literal, NotRequired

from pydantic import TypeAdapter, ValidationError
from typing_extensions import TypedDict

__all__ = ["refusal", "request_problems"]

Json = dict[str, Any]


class _Function(TypedDict):
    name: str
    arguments: str


class _ToolCall(TypedDict):
    id: str
    type: Literal["function"]
    function: _Function


class ChatCompletionRequestSystemMessage(TypedDict):
    role: Literal["system"]
    content: str | None


class _TextPart(TypedDict):
    type: Literal["text"]
    text: str


class ChatCompletionRequestUserMessage(TypedDict):
    role: Literal["user"]
    content: str | list[_TextPart] | None


class ChatCompletionRequestAssistantMessage(TypedDict):
    role: Literal["assistant"]
    content: NotRequired[str]
    tool_calls: NotRequired[list[_ToolCall]]


class ChatCompletionRequestToolMessage(TypedDict):
    role: Literal["tool"]
    content: str | None
    tool_call_id: str


_MESSAGE = TypeAdapter(
    ChatCompletionRequestSystemMessage
    | ChatCompletionRequestUserMessage
    | ChatCompletionRequestAssistantMessage
    | ChatCompletionRequestToolMessage
)


class _ToolFunction(TypedDict):
    name: str
    description: NotRequired[str]
    parameters: dict[str, Any]


class _Tool(TypedDict):
    type: Literal["function"]
    function: _ToolFunction


class _NamedFunction(TypedDict):
    name: str


class _NamedToolChoice(TypedDict):
    type: Literal["function"]
    function: _NamedFunction


_TOOLS = TypeAdapter(list[_Tool])
_TOOL_CHOICE = TypeAdapter(Literal["none", "auto", "required"] | _NamedToolChoice)


def request_problems(body: object) -> list[tuple[str, str]]:
    """Every reason a strict server would refuse `body`, as (server, what it says) pairs; empty when none would."""
    if not isinstance(body, dict):
        return [("llama-cpp-python", "the body is not a JSON object")]
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return [("openai", "messages must be a non-empty list")]
    problems = []
    for number, message in enumerate(messages):
        problems += [(server, f"messages.{number}: {text}") for server, text in _message_problems(message)]
    problems += _pairing_problems(messages)
    problems += _tool_problems(body)
    return problems


def _message_problems(message: object) -> list[tuple[str, str]]:
    problems = []
    try:
        _MESSAGE.validate_python(message)
    except ValidationError as exc:
        # pydantic tries every member of the union: keep the errors of the member whose role matches
        role = message.get("role") if isinstance(message, dict) else None
        errors = [e for e in exc.errors() if not e["loc"] or _member_role(str(e["loc"][0])) in (role, None)]
        for error in errors or exc.errors():
            where = ".".join(str(part) for part in error["loc"])
            problems.append(("llama-cpp-python", f"{where}: {error['msg']}"))
    if not isinstance(message, dict):
        return problems
    content = message.get("content")
    if content is None and not message.get("tool_calls"):
        problems.append(("ollama", "invalid message content type: <nil>"))
    elif content is not None and not isinstance(content, str | list):
        problems.append(("ollama", f"invalid message content type: {type(content).__name__}"))
    for call in message.get("tool_calls") or []:
        arguments = (call.get("function") or {}).get("arguments") if isinstance(call, dict) else None
        try:
            parsed = json.loads(arguments) if isinstance(arguments, str) else None
        except ValueError:
            parsed = None
        if not isinstance(parsed, dict):
            problems.append(("ollama", "invalid tool call arguments"))
    if message.get("tool_calls") == []:
        problems.append(("openai", "tool_calls: [] is too short"))
    return problems


def _member_role(member: str) -> str | None:
    for role in ("System", "User", "Assistant", "Tool"):
        if f"Request{role}Message" in member:
            return role.lower()
    return None


def _pairing_problems(messages: list[Any]) -> list[tuple[str, str]]:
    """OpenAI's rule: tool messages answer the tool calls of the assistant message just before them, all of them."""
    problems = []
    open_calls: set[str] = set()
    for number, message in enumerate(messages):
        if not isinstance(message, dict):
            continue
        role = message.get("role")
        if role == "tool":
            call_id = message.get("tool_call_id")
            if call_id not in open_calls:
                problems.append(
                    ("openai", f"messages.{number}: a 'tool' message must be a response to a preceding tool call")
                )
            open_calls.discard(str(call_id))
            continue
        if open_calls:
            problems.append(
                (
                    "openai",
                    f"messages.{number}: an assistant message with 'tool_calls' must be followed by tool messages "
                    f"responding to each 'tool_call_id' ({', '.join(sorted(open_calls))} unanswered)",
                )
            )
            open_calls = set()
        if role == "assistant":
            open_calls = {
                str(call.get("id")) for call in message.get("tool_calls") or [] if isinstance(call, dict)
            }
    return problems


def _tool_problems(body: Json) -> list[tuple[str, str]]:
    problems = []
    tools = body.get("tools")
    if tools is not None:
        try:
            _TOOLS.validate_python(tools)
        except ValidationError as exc:
            problems += [("llama-cpp-python", f"tools.{_where(e)}: {e['msg']}") for e in exc.errors()]
    choice = body.get("tool_choice")
    if choice is not None:
        try:
            _TOOL_CHOICE.validate_python(choice)
        except ValidationError as exc:
            problems += [("llama-cpp-python", f"tool_choice.{_where(e)}: {e['msg']}") for e in exc.errors()]
        if isinstance(choice, dict):
            names = {
                (tool.get("function") or {}).get("name") for tool in tools or [] if isinstance(tool, dict)
            }
            if not tools:
                problems.append(("vllm", "When using `tool_choice`, `tools` must be set."))
            elif (choice.get("function") or {}).get("name") not in names:
                problems.append(("vllm", "The tool specified in `tool_choice` does not match any specified `tools`"))
    return problems


def _where(error: Any) -> str:
    return ".".join(str(part) for part in error["loc"])


def refusal(problems: list[tuple[str, str]]) -> tuple[int, dict[str, Any]]:
    """How a strict server refuses a request with `problems` (status, JSON body): llama-cpp-python with HTTP 500 (its
    route handler makes every exception, validation included, an ``internal_server_error``), the others with 400."""
    llama = [text for server, text in problems if server == "llama-cpp-python"]
    if llama:
        listing = "\n".join(f"  {text}" for text in llama)
        message = f"{len(llama)} validation error(s) for CreateChatCompletionRequest\n{listing}"
        return 500, {"error": {"message": message, "type": "internal_server_error", "param": None, "code": None}}
    server, text = problems[0]
    kind = "BadRequestError" if server == "vllm" else "invalid_request_error"
    return 400, {"error": {"message": text, "type": kind, "param": None, "code": None}}
