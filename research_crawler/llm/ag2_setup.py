"""The AG2 (classic ``autogen``) specifics of plugging our model clients in, kept in one place.

AG2 prints to stdout, may ask for console input, lets tiktoken download files, and loses a custom
client when a tool is registered after it; these helpers fix each of those once.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from research_crawler.config.settings import MODEL_ROLES
from research_crawler.errors import ConfigError, ResearchCrawlerError
from research_crawler.llm.client import BaseModelClient
from research_crawler.text.tokens import encoding

__all__ = ["AutogenEventStream", "forget_finished_clients", "llm_config_for", "quiet_autogen", "register_client"]

logger = logging.getLogger(__name__)

_OFFLINE_ENCODINGS = ("o200k_base", "cl100k_base")

_setup_lock = threading.Lock()
_stream: AutogenEventStream | None = None


class AutogenEventStream:
    """AG2's output stream, made silent: what AG2 prints or sends goes to the debug log, never the console (the
    run's trace records tool calls and results itself). `input` raises: every agent runs with
    ``human_input_mode="NEVER"``, so a request for input is a bug."""

    def print(self, *objects: Any, sep: str = " ", end: str = "\n", flush: bool = False) -> None:
        logger.debug("autogen printed: %s", sep.join(map(str, objects)))

    def send(self, message: Any) -> None:
        logger.debug("autogen event: %s", type(getattr(message, "content", message)).__name__)

    def input(self, prompt: str = "", *, password: bool = False) -> str:
        raise ResearchCrawlerError(
            f"AG2 asked for human input ({prompt!r}): every agent must use human_input_mode='NEVER'"
        )


def quiet_autogen() -> AutogenEventStream:
    """Make AG2 silent, offline and input-free for this process; idempotent, returns the event stream.

    - our `AutogenEventStream` becomes AG2's *global* default stream (its worker threads do not
      inherit a context-local one);
    - the ``autogen`` loggers drop to WARNING and lose the stdout handler AG2 adds at import;
    - tiktoken's cache holds our offline encodings, so AG2's token utilities never download.
    """
    global _stream
    with _setup_lock:
        from autogen.io import IOStream

        if _stream is None:
            _stream = AutogenEventStream()
        IOStream.set_global_default(_stream)
        logging.getLogger("autogen").setLevel(logging.WARNING)
        logging.getLogger("autogen.oai.client").handlers.clear()
        for name in _OFFLINE_ENCODINGS:
            encoding(name)  # in tiktoken's cache now, where its registry finds it
        return _stream


def forget_finished_clients() -> None:
    """Let AG2 drop the model clients of runs that have ended.

    AG2 0.14 logs the cache seed of every call through a function memoised with ``lru_cache(maxsize=128)``
    whose key holds the model client (``autogen.oai.client.log_cache_seed_value``); the last 128 clients, and
    with them their runs' agents, pages and state, stay in memory after the runs end (about 18 runs, and
    RSS that grew by 2.4 MB per query in a batch until the cache was full). Clearing it costs nothing but a
    repeated debug line.
    """
    from autogen.oai import client as autogen_client

    memoised = getattr(autogen_client, "log_cache_seed_value", None)
    if memoised is not None and hasattr(memoised, "cache_clear"):
        memoised.cache_clear()


def llm_config_for(role: str, *, model: str, client_cls: type[BaseModelClient]) -> dict[str, Any]:
    """The `llm_config` of an agent playing `role`: one config entry naming our client class, no cache.

    Only copyable values go here (AG2 deep-copies the config); the ledger and settings travel through
    `register_client` instead.
    """
    if role not in MODEL_ROLES:
        raise ConfigError(f"unknown agent role {role!r}; known roles: {', '.join(MODEL_ROLES)}")
    if not model.strip():
        raise ConfigError(f"empty model name for role {role!r}")
    return {
        "config_list": [{"model": model, "model_client_cls": client_cls.__name__}],
        "cache_seed": None,
    }


def register_client(agent: Any, client_cls: type[BaseModelClient], **kwargs: Any) -> None:
    """Give `agent` an instance of `client_cls`, built by AG2 from its config entry and `kwargs`.

    Call it AFTER every tool registration on the agent: registering a tool rebuilds the agent's
    client from its llm_config and silently drops a client registered before (AG2 then fails with
    "Model client(s) [...] are not activated"). `agent_name` defaults to the agent's name.
    """
    wrapper = getattr(agent, "client", None)
    if wrapper is None:
        raise ConfigError(
            f"agent {getattr(agent, 'name', agent)!r} has no llm_config, so it takes no model client"
        )
    kwargs.setdefault("agent_name", agent.name)
    try:
        agent.register_model_client(model_client_cls=client_cls, **kwargs)
    except ValueError as exc:
        raise ConfigError(
            f"agent {agent.name!r}: {exc} (build its llm_config with "
            f"llm_config_for(..., client_cls={client_cls.__name__}))"
        ) from exc
    from autogen.oai.client import PlaceHolderClient

    waiting = [client for client in getattr(wrapper, "_clients", []) if isinstance(client, PlaceHolderClient)]
    if waiting:
        names = sorted({client.config.get("model_client_cls", "?") for client in waiting})
        raise ConfigError(f"agent {agent.name!r} still has unregistered model client(s) {names}")
