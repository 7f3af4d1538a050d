"""A run's progress for the browser: each trace event folded into a small snapshot (site, page, agent, items,
tokens, cost) and, for the events worth reading, one log line. Pure bookkeeping, no I/O.

Event text came from pages and models: it is cleaned by the one sanitiser and cut short here, and the page only
ever shows it as text (never as markup).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from research_crawler.text.untrusted import untrusted
from research_crawler.tools.collector_tools import proposed_titles

__all__ = ["WebProgress"]

_ADDED = re.compile(r"^Added (\d+) item")
_QUEUED = re.compile(r"^Queued (\d+) new link")
_MAX_TEXT = 300
_LATEST = 3


def _text(value: Any, limit: int = _MAX_TEXT) -> str:
    text = " ".join(untrusted(str(value or "")).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass
class WebProgress:
    """What a run has done so far, as the page shows it. `apply(event)` folds a trace event in and returns
    the log line it is worth (None for most events)."""

    query: str = ""
    action: str = "start"
    backend: str = ""
    sites: list[str] = field(default_factory=list)
    site: str = ""
    parallel: bool = False
    page: str = ""
    agent: str = ""
    pages_fetched: int = 0
    pages_read: int = 0
    links_queued: int = 0
    items: int = 0
    model_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    list_cost_usd: float = 0.0
    faults: int = 0
    finished: str = ""
    latest_titles: list[str] = field(default_factory=list)
    _proposed: list[str] = field(default_factory=list)

    def snapshot(self) -> dict[str, Any]:
        """The numbers the page's progress panel shows."""
        simulated = self.backend == "simulated"
        cost = f"≈${self.list_cost_usd:.4f} at list prices" if simulated else f"${self.cost_usd:.4f}"
        return {
            "query": self.query,
            "site": self.site,
            "sites": list(self.sites),
            "page": self.page,
            "agent": self.agent,
            "pages_fetched": self.pages_fetched,
            "pages_read": self.pages_read,
            "links_queued": self.links_queued,
            "items": self.items,
            "model_calls": self.model_calls,
            "tokens": f"{self.input_tokens:,} in · {self.output_tokens:,} out",
            "cost": cost,
            "faults": self.faults,
            "finished": self.finished,
            "latest": " · ".join(self.latest_titles),
        }

    def apply(self, event: dict[str, Any]) -> str | None:
        handler = getattr(self, f"_on_{event.get('event')}", None)
        return handler(event) if handler is not None else None

    def _on_run(self, event: dict[str, Any]) -> str:
        self.query = _text(event.get("query"))
        self.action = str(event.get("action", "start"))
        self.backend = str(event.get("backend", ""))
        self.finished = ""
        verb = {"start": "Searching", "resume": "Resuming", "follow_up": "Following up"}.get(self.action, "Running")
        model = "the simulated model (a test double, not an LLM)" if self.backend == "simulated" else "the model"
        return f'{verb}: "{self.query}" with {model}'

    def _on_settings_not_restored(self, event: dict[str, Any]) -> str:
        names = ", ".join(_text(name, 80) for name in event.get("names", []))
        return f"Settings in the run directory not taken (yours are used): {names}"

    def _on_request(self, event: dict[str, Any]) -> str | None:
        summary = _text(event.get("summary"))
        return f"Read as: {summary}" if summary else None

    def _on_sites(self, event: dict[str, Any]) -> str:
        self.sites = [_text(url) for url in event.get("chosen", [])]
        return f"Sites chosen: {', '.join(self.sites) or 'none'}"

    def _on_parallel(self, event: dict[str, Any]) -> None:
        self.sites = [_text(url) for url in event.get("sites", [])] or self.sites
        self.parallel = True
        self.site = f"{len(self.sites)} sites at once"

    def _on_site(self, event: dict[str, Any]) -> str | None:
        if event.get("action") != "start" or not event.get("site"):
            return None
        site = _text(event["site"])
        if site not in self.sites:
            self.sites.append(site)
        if not self.parallel:  # sites explored at once: the panel keeps naming them all
            self.site = site
        return f"Exploring {site}"

    def _on_fetch(self, event: dict[str, Any]) -> str:
        self.page = _text(event.get("url"))
        if event.get("source", "web") == "web":
            self.pages_fetched += 1
        return f"fetched {self.page} → {_text(event.get('determination', '?'), 40)}"

    def _on_scrape(self, event: dict[str, Any]) -> None:
        self.page = _text(event.get("url")) or self.page
        self.pages_read += 1

    def _on_transition(self, event: dict[str, Any]) -> None:
        if event.get("next"):
            self.agent = _text(event["next"], 60)

    def _on_tool_call(self, event: dict[str, Any]) -> None:
        self.agent = _text(event.get("agent"), 60) or self.agent
        if event.get("tool") == "collect_items":
            self._proposed = _titles_in(event.get("arguments"))

    def _on_tool_result(self, event: dict[str, Any]) -> str | None:
        content = str(event.get("content", ""))
        if match := _QUEUED.match(content):
            self.links_queued += int(match.group(1))
        if (match := _ADDED.match(content)) and int(match.group(1)):
            added = int(match.group(1))
            self.items += added
            titles, self._proposed = self._proposed[:added], []
            self.latest_titles = (self.latest_titles + titles)[-_LATEST:]
            return f"+{added} item(s) collected" + (f": {'; '.join(titles[:_LATEST])}" if titles else "")
        return None

    def _on_model_call(self, event: dict[str, Any]) -> None:
        self.model_calls += 1
        self.agent = _text(event.get("agent"), 60) or self.agent
        self.input_tokens += int(event.get("input_tokens") or 0)
        self.output_tokens += int(event.get("output_tokens") or 0)
        self.cost_usd += float(event.get("cost_usd") or 0.0)
        self.list_cost_usd += float(event.get("list_cost_usd") or event.get("cost_usd") or 0.0)

    def _on_verdict(self, event: dict[str, Any]) -> str:
        feedback = _text(event.get("feedback"), 120)
        return f"Supervisor: {_text(event.get('verdict', '?'), 40)}" + (f" — {feedback}" if feedback else "")

    def _on_limit(self, event: dict[str, Any]) -> str:
        return f"Limit reached: {_text(event.get('detail'))}"

    def _on_fault(self, event: dict[str, Any]) -> str:
        self.faults += 1
        return f"fault: {_text(event.get('kind', '?'), 60)} {_text(event.get('error'), 160)}".rstrip()

    def _on_complete(self, event: dict[str, Any]) -> str:
        self.finished = _text(event.get("reason"), 60)
        detail = _text(event.get("detail"))
        return f"Search ended: {self.finished.replace('_', ' ')}" + (f" ({detail})" if detail else "")


def _titles_in(arguments: Any) -> list[str]:
    """The titles a Collector proposed in a collect_items call, cleaned."""
    return [_text(title, 90) for title in proposed_titles(arguments)]
