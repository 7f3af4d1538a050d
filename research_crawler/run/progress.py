"""The progress of a run folded from its structured trace events: the numbers and log lines both the terminal's live
view and the web app show. Pure bookkeeping (no I/O); its text is raw (from pages and models), so each output
escapes it as it shows it.
"""

from __future__ import annotations

import shlex
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

__all__ = ["RunProgress"]

_LATEST_TITLES = 3


@dataclass
class RunProgress:
    """What a run has done so far. `apply(event)` folds one trace event in and returns a log line worth
    printing for it (None for the many events that are not)."""

    subpage_limit: int = 0
    query: str = ""
    action: str = "start"
    sites: list[str] = field(default_factory=list)
    current_site: str | None = None
    parallel: bool = False
    """The sites are explored at once (each event of a site's exploration names its site)."""
    page: str | None = None
    subpages: dict[str, int] = field(default_factory=dict)
    limits: dict[str, int] = field(default_factory=dict)
    """The pages a site may read now, where it earned more than `subpage_limit` by yielding."""
    links_queued: int = 0
    links_pending: int | None = None
    items_by_site: dict[str, int] = field(default_factory=dict)
    items_added: int = 0
    latest_titles: deque[str] = field(default_factory=lambda: deque(maxlen=_LATEST_TITLES))
    agent: str | None = None
    model_calls: int = 0
    input_tokens: int = 0
    cached_input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    list_cost_usd: float = 0.0
    """At list prices with the configured models: for a simulated run, what they would have cost."""
    backend: str = ""
    pages_fetched: int = 0
    faults: int = 0
    finished: str | None = None
    started: float = field(default_factory=time.monotonic)

    # --- derived --------------------------------------------------------------------------------

    @property
    def items(self) -> int:
        """Items collected in the run so far (all sites)."""
        return max(sum(self.items_by_site.values()), self.items_added)

    @property
    def site_position(self) -> tuple[int, int] | None:
        """(place of the current site, number of sites) — e.g. (2, 3) while the second of three is explored."""
        if self.current_site is None or self.current_site not in self.sites:
            return None
        return self.sites.index(self.current_site) + 1, len(self.sites)

    @property
    def cost_text(self) -> str:
        """'$0.0123', or for a simulated run '≈$0.0123 at list prices' (what the configured models would cost)."""
        if self.backend == "simulated":
            return f"≈${self.list_cost_usd:.4f} at list prices"
        return f"${self.cost_usd:.4f}"

    @property
    def sites_text(self) -> str:
        """Each site with the subpages used of its limit, e.g. 'a.org 2/5 · b.org 1/5' (sites explored at once)."""
        return " · ".join(f"{site} {self.subpages.get(site, 0)}/{self.limit_of(site)}" for site in self.sites)

    @property
    def subpages_used(self) -> int:
        return self.subpages.get(self.current_site or "", 0)

    def limit_of(self, site: str | None) -> int:
        """The pages `site` may read now: its base, or what it earned by yielding."""
        return self.limits.get(site or "", self.subpage_limit)

    @property
    def elapsed_s(self) -> float:
        return time.monotonic() - self.started

    # --- folding events --------------------------------------------------------------------------

    def apply(self, event: dict[str, Any]) -> str | None:
        kind = event.get("event")
        handler = getattr(self, f"_on_{kind}", None)
        if handler is None:
            return None
        line: str | None = handler(event)
        return line

    def _on_run(self, event: dict[str, Any]) -> str:
        self.query = str(event.get("query", ""))
        self.action = str(event.get("action", "start"))
        self.backend = str(event.get("backend", ""))
        verb = {"start": "Searching", "resume": "Resuming", "follow_up": "Following up"}.get(self.action, "Running")
        model = "the simulated model (a test double, not an LLM)" if self.backend == "simulated" else "the model"
        return f'{verb}: "{self.query}" with {model}'

    def _on_settings_not_restored(self, event: dict[str, Any]) -> str:
        names = ", ".join(str(name) for name in event.get("names", []))
        run_dir = shlex.quote(str(event.get("run_dir") or "RUN_DIR"))
        return (
            f"Settings in the run directory not taken (yours are used): {names} — to choose one yourself: "
            f"research-crawler resume {run_dir} --set NAME=VALUE"
        )

    def _on_request(self, event: dict[str, Any]) -> str | None:
        """The request read as a contract, in one line; a follow-up that needs no new search says so."""
        if event.get("unknown_sites"):
            return f"Sites named in the request that match no known site: {', '.join(event['unknown_sites'])}"
        summary = str(event.get("summary") or "")
        if not summary:
            return None
        again = "" if event.get("new_search", True) else " (chosen again from what was found: no new search)"
        source = str(event.get("source") or "")
        by_rules = f" — read by rules: {source[len('rules (') : -1]}" if source.startswith("rules (") else ""
        if source == "rules":  # run.read_request = "rules"
            by_rules = " — read by rules"
        return f"Read as: {summary}{again}{by_rules}"

    def _on_budget(self, event: dict[str, Any]) -> str:
        """A site earned more pages by yielding: its limit, and why."""
        site = str(self._site_of(event) or "")
        self.limits[site] = int(event.get("limit", self.subpage_limit))
        return f"{site} earned {event.get('earned')} more page(s), {self.limits[site]} in all: {event.get('reason')}"

    def _on_sites(self, event: dict[str, Any]) -> str:
        self.sites = [str(url) for url in event.get("chosen", [])]
        return f"Sites chosen: {', '.join(self.sites) or 'none'}"

    def _on_parallel(self, event: dict[str, Any]) -> None:
        self.parallel = True
        self.sites = [str(url) for url in event.get("sites", [])] or self.sites
        self.links_pending = None  # each site has its own queue: no one count of pending links

    def _site_of(self, event: dict[str, Any]) -> str | None:
        """The site an event belongs to: its own `site` field (sites explored at once), else the current site."""
        site = event.get("site")
        return str(site) if site else self.current_site

    def _on_site(self, event: dict[str, Any]) -> str | None:
        site = event.get("site")
        if event.get("action") != "start" or not site:
            return None
        self.current_site = str(site)
        if self.current_site not in self.sites:
            self.sites.append(self.current_site)
        self.links_pending = None
        place = self.site_position
        where = f" ({place[0]} of {place[1]})" if place else ""
        return f"Exploring {self.current_site}{where}"

    def _on_fetch(self, event: dict[str, Any]) -> str:
        self.page = str(event.get("url", ""))
        source = event.get("source", "web")
        if source == "web":
            self.pages_fetched += 1
        origin = "" if source == "web" else f" (from the {'recording' if source == 'replay' else 'run archive'})"
        return f"  fetched {self.page}{origin} → {event.get('determination', '?')}"

    def _on_scrape(self, event: dict[str, Any]) -> None:
        self.page = str(event.get("url", self.page or ""))
        if (site := self._site_of(event)) is not None:
            self.subpages[site] = self.subpages.get(site, 0) + 1

    def _on_transition(self, event: dict[str, Any]) -> None:
        if event.get("next"):
            self.agent = str(event["next"])

    def _on_tool_call(self, event: dict[str, Any]) -> None:
        self.agent = str(event.get("agent") or self.agent)

    def _on_links_queued(self, event: dict[str, Any]) -> None:
        self.links_queued += _number(event.get("queued"))
        if not self.parallel:  # sites explored at once each have their own queue: no one count of pending links
            self.links_pending = _number(event.get("pending"))

    def _on_items_stored(self, event: dict[str, Any]) -> str | None:
        added = _number(event.get("added"))
        self.items_added += added
        if (site := self._site_of(event)) is not None and event.get("on_site") is not None:
            self.items_by_site[site] = _number(event["on_site"])
        if not added:
            return None
        titles = [str(title) for title in event.get("titles") or []][:added]
        self.latest_titles.extend(titles)
        if not titles:
            return f"  +{added} item(s)"
        shown = "; ".join(_short(title) for title in titles[:_LATEST_TITLES])
        more = f" and {len(titles) - _LATEST_TITLES} more" if len(titles) > _LATEST_TITLES else ""
        return f"  +{added} item(s): {shown}{more}"

    def _on_model_call(self, event: dict[str, Any]) -> None:
        self.model_calls += 1
        self.agent = str(event.get("agent") or self.agent)
        self.input_tokens += _number(event.get("input_tokens"))
        self.cached_input_tokens += _number(event.get("cached_input_tokens"))
        self.output_tokens += _number(event.get("output_tokens"))
        self.cost_usd += _number(event.get("cost_usd"), float)
        self.list_cost_usd += _number(event.get("list_cost_usd") or event.get("cost_usd"), float)

    def _on_verdict(self, event: dict[str, Any]) -> str:
        feedback = str(event.get("feedback") or "").strip()
        return f"  Supervisor: {event.get('verdict', '?')}{f' — {_short(feedback, 100)}' if feedback else ''}"

    def _on_limit(self, event: dict[str, Any]) -> str:
        return f"Limit reached: {event.get('detail', '')}"

    def _on_fault(self, event: dict[str, Any]) -> str | None:
        self.faults += 1
        if event.get("kind") == "model_error":  # it ends the run: said by `ask`'s closing error line and the report
            return None
        return f"  fault: {event.get('kind', '?')} {event.get('error', '')}".rstrip()

    def _on_complete(self, event: dict[str, Any]) -> str:
        self.finished = str(event.get("reason", ""))
        detail = str(event.get("detail") or "")
        if self.finished == "error":  # said once, by `ask`'s closing error line and the report
            detail = ""
        return f"Search ended: {self.finished.replace('_', ' ')}{f' ({detail})' if detail else ''}; writing the report"


def _number(value: Any, kind: type[int] | type[float] = int) -> Any:
    """A count or amount from an event; 0 for anything that is not one (events are data)."""
    try:
        return kind(value or 0)
    except (TypeError, ValueError, OverflowError):
        return kind(0)


def _short(text: str, limit: int = 70) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
