"""The simulated model: a deterministic test double that plays every agent with simple rules.

It sees only what an LLM sees — the messages and the tool schemas — never the contexts or the testbed's
answers: it recognises its role from the system message, reads the request, the tool results and the
page text in the messages, and answers with tool calls or text through the same client interface as a
real model (so tests exercise the real prompts, tools and message flow). It can add latency and inject
faults. It is never a default: it is chosen explicitly, and every report made with it says so.

The rules are in simulated_agents.py, the fault injection in simulated_faults.py, relevance by meaning in
simulated_meaning.py (or by shared words, simulated_words.py); this module holds the client.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

from research_crawler.config.sections import SimulatedModelSettings
from research_crawler.errors import ConfigError
from research_crawler.llm.client import REASK_NAME, BaseModelClient, ModelReply, ModelRequest, ToolCallSpec
from research_crawler.llm.simulated_agents import RULES, Player, text_reply
from research_crawler.llm.simulated_conversation import Conversation, role_of, tool_names
from research_crawler.llm.simulated_faults import FaultLog, inject_fault, pick_fault
from research_crawler.llm.simulated_meaning import MeaningJudge
from research_crawler.llm.simulated_unruly import misbehave
from research_crawler.llm.simulated_words import content_words

__all__ = ["SIMULATED_MODEL_NAME", "FaultLog", "SimulatedModelClient", "content_words"]

SIMULATED_MODEL_NAME = "simulated"


class SimulatedModelClient(BaseModelClient):
    """Plays the agent whose system message it receives. Keyword arguments (from `register_model_client`):
    `simulated` (SimulatedModelSettings), `fault_log` (FaultLog) and `meaning` (the MeaningJudge it judges
    relevance with, needed when simulated.judge is "meaning"), besides those of BaseModelClient."""

    def __init__(self, config: dict[str, Any], **kwargs: Any) -> None:
        self.simulated: SimulatedModelSettings = kwargs.pop("simulated", None) or SimulatedModelSettings()
        self.fault_log: FaultLog = kwargs.pop("fault_log", None) or FaultLog()
        self.meaning: MeaningJudge | None = kwargs.pop("meaning", None)
        if self.simulated.judge == "meaning" and self.meaning is None:
            raise ConfigError(
                "simulated.judge is 'meaning' but the simulated model was given no judge (llm/simulated_encoder.py "
                "makes one); or judge by shared words: --set simulated.judge=words"
            )
        if self.simulated.judge == "words":
            self.meaning = None
        super().__init__(config, **kwargs)
        self._rng = random.Random(f"{self.simulated.seed}:{self.agent_name}")
        self._calls = 0

    # -- the client seam --------------------------------------------------------------------------

    def _complete(self, request: ModelRequest) -> ModelReply:
        self._calls += 1
        if self.simulated.latency_s:
            time.sleep(self.simulated.latency_s)
        reply = self._play(request)
        fault = pick_fault(self._rng, self.simulated, reply)
        if fault is not None:
            self.fault_log.add(fault)
            reply = inject_fault(fault, reply)
        return reply.model_copy(update={"model": SIMULATED_MODEL_NAME})

    # -- the rules ----------------------------------------------------------------------------------

    def _play(self, request: ModelRequest) -> ModelReply:
        """The reply the rules give for `request` (no latency, no injected fault), made unruly when asked."""
        role = role_of(request.messages)
        rule = RULES.get(role)
        if rule is None:
            return text_reply("I have nothing to add.")
        # A correction asks for what the rules give anyway: the careful double reads past it.
        messages = [m for m in request.messages if m.get("name") != REASK_NAME]
        player = Player(
            call=self._call,
            enough_items=self.simulated.enough_items,
            meaning=self.meaning,
            revision_rate=self.simulated.revision_rate,
            seed=self.simulated.seed,
        )
        reply = rule(Conversation(messages), tool_names(request.tools), player)
        if self.simulated.behaviour != "unruly":
            return reply
        corrected = len(messages) < len(request.messages)
        settings = self.simulated.model_copy(update={"obey_rate": 0.0}) if corrected else self.simulated
        reply, misbehaviour = misbehave(self._rng, settings, role, reply, Conversation(messages))
        if misbehaviour is not None:
            self.fault_log.add(f"unruly:{misbehaviour}")
        return reply

    def _call(self, name: str, arguments: dict[str, Any]) -> ModelReply:
        call = ToolCallSpec(id=f"call_{self.agent_name}_{self._calls}", name=name, arguments=json.dumps(arguments))
        return ModelReply(content=None, tool_calls=[call], finish_reason="tool_calls")
