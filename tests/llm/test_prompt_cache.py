"""The offline estimate of a provider's prompt cache: the longest run of leading parts (tool schemas, then whole
messages) shared with a recent request to the same model, once it reaches 1024 tokens, in steps of 128."""

from __future__ import annotations

import threading
from typing import Any

from research_crawler.llm.prompt_cache import CACHE_STEP_TOKENS, MIN_CACHED_TOKENS, PromptCacheEstimate
from research_crawler.llm.usage import estimate_prompt_tokens, message_tokens, tools_tokens

TOOLS = [{"type": "function", "function": {"name": "save_links", "description": "Store links. " * 40}}]
SYSTEM = {"role": "system", "content": "You are the Crawler of research-crawler. " * 120}


def page(text: str) -> dict[str, Any]:
    return {"role": "user", "content": f'Request: "graph neural networks"\n<page-content>{text}</page-content>'}


def test_the_first_request_is_never_served_from_a_cache() -> None:
    assert PromptCacheEstimate().cached_tokens("gpt-4o", [SYSTEM, page("one")], TOOLS) == 0


def test_a_shared_stable_prefix_is_served_in_steps_of_128() -> None:
    cache = PromptCacheEstimate()
    cache.cached_tokens("gpt-4o", [SYSTEM, page("one")], TOOLS)
    cached = cache.cached_tokens("gpt-4o", [SYSTEM, page("two")], TOOLS)
    prefix = tools_tokens(TOOLS) + message_tokens(SYSTEM)
    assert prefix >= MIN_CACHED_TOKENS
    assert cached == prefix // CACHE_STEP_TOKENS * CACHE_STEP_TOKENS and cached % CACHE_STEP_TOKENS == 0
    assert cached <= estimate_prompt_tokens([SYSTEM, page("two")], TOOLS)


def test_a_short_prefix_another_model_or_another_start_is_not_cached() -> None:
    cache = PromptCacheEstimate()
    short = {"role": "system", "content": "You are the Planner."}
    cache.cached_tokens("gpt-4o", [short, page("one")], None)
    assert cache.cached_tokens("gpt-4o", [short, page("two")], None) == 0, "under 1024 tokens"
    cache.cached_tokens("gpt-4o", [SYSTEM, page("one")], TOOLS)
    assert cache.cached_tokens("gpt-4o-mini", [SYSTEM, page("one")], TOOLS) == 0, "a cache serves one model"
    other_tools = [{"type": "function", "function": {"name": "collect_items", "description": "x"}}]
    assert cache.cached_tokens("gpt-4o", [SYSTEM, page("one")], other_tools) == 0, "the schemas come first"


def test_a_growing_conversation_is_served_up_to_its_last_unchanged_message() -> None:
    cache = PromptCacheEstimate()
    history = [SYSTEM, page("one"), {"role": "assistant", "content": "Noted. " * 200}]
    cache.cached_tokens("gpt-4o", history, TOOLS)
    longer = [*history, page("two")]
    assert cache.cached_tokens("gpt-4o", longer, TOOLS) == (
        (tools_tokens(TOOLS) + sum(message_tokens(m) for m in history)) // CACHE_STEP_TOKENS * CACHE_STEP_TOKENS
    )
    changed = [SYSTEM, page("one, edited"), *longer[2:]]
    assert cache.cached_tokens("gpt-4o", changed, TOOLS) == (
        (tools_tokens(TOOLS) + message_tokens(SYSTEM)) // CACHE_STEP_TOKENS * CACHE_STEP_TOKENS
    ), "an edited message ends the cached prefix"


def test_agents_in_threads_share_one_estimate() -> None:
    cache = PromptCacheEstimate()
    results: list[int] = []
    lock = threading.Lock()

    def ask(index: int) -> None:
        cached = cache.cached_tokens("gpt-4o", [SYSTEM, page(str(index))], TOOLS)
        with lock:
            results.append(cached)

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results)[0] == 0 and all(r > 0 for r in sorted(results)[1:]), "only the first one pays in full"
