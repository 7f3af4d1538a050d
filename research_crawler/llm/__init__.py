"""Model clients, token and cost accounting, and the simulated model."""

from __future__ import annotations

from research_crawler.llm.ag2_setup import AutogenEventStream, llm_config_for, quiet_autogen, register_client
from research_crawler.llm.client import (
    NO_USABLE_REPLY_PREFIX,
    BaseModelClient,
    ModelReply,
    ModelRequest,
    ToolCallSpec,
    TransientModelError,
)
from research_crawler.llm.openai_client import OpenAICompatibleClient
from research_crawler.llm.usage import (
    AgentUsage,
    ModelCall,
    UsageLedger,
    cost_of,
    estimate_prompt_tokens,
    estimate_reply_tokens,
    price_for,
)
from research_crawler.text.tokens import count_tokens

__all__ = [
    "NO_USABLE_REPLY_PREFIX",
    "AgentUsage",
    "AutogenEventStream",
    "BaseModelClient",
    "ModelCall",
    "ModelReply",
    "ModelRequest",
    "OpenAICompatibleClient",
    "ToolCallSpec",
    "TransientModelError",
    "UsageLedger",
    "cost_of",
    "count_tokens",
    "estimate_prompt_tokens",
    "estimate_reply_tokens",
    "llm_config_for",
    "price_for",
    "quiet_autogen",
    "register_client",
]
