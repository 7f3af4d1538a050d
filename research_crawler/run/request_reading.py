"""The first step of a query: the request read as a contract by the Web Selector (or by rules, when asked or
when the model gives no valid reading), and the sites it names added to those to explore."""

from __future__ import annotations

import logging
from datetime import date

from research_crawler.agents.ag2 import run_nested_chat, trace_messages
from research_crawler.agents.roles import Role
from research_crawler.agents.team import make_request_reader
from research_crawler.config.site_pool import SitePool
from research_crawler.context.reading_check import reading_doubts
from research_crawler.context.request import ResearchRequest
from research_crawler.context.request_rules import FOLLOW_UP, read_follow_up, read_query, read_request
from research_crawler.run.message_trace import MessageTracer
from research_crawler.run.models import RunModels
from research_crawler.tools.exploration import Exploration

__all__ = ["read_the_request", "sites_named_in_request"]

logger = logging.getLogger(__name__)


def read_the_request(
    x: Exploration,
    models: RunModels,
    tracer: MessageTracer,
    *,
    previous: ResearchRequest | None = None,
    earlier_query: str | None = None,
) -> bool:
    """Set `x.search.request` from `x.search.query` (a follow-up of `previous` when given); whether a new
    search is needed (always for a first request; for a follow-up, only for another topic or other sites).
    A follow-up of a request that was never read (the run was stopped first) changes `earlier_query`, or the
    request its text is written after, as rules read it — never the follow-up's words taken for a topic."""
    text = x.search.query
    today = date.today()
    if previous is None and earlier_query:
        previous = read_query(earlier_query, today=today)
    elif previous is None and FOLLOW_UP in text:
        previous = read_query(text.rpartition(FOLLOW_UP)[0], today=today)
    if x.settings.run.read_request == "model":
        reader, executor, tools = make_request_reader(x, models.spec(Role.WEB_SELECTOR), text=text)
        for agent in (reader, executor):
            trace_messages(agent, tracer)
        if previous is None:
            task = f'Request: "{text}"\nRead it and call record_request.'
        else:
            task = (
                f"Earlier request, as read: {previous.model_dump_json(exclude={'text'})}\n"
                f'Follow-up: "{text}"\n'
                "Record the request as the follow-up changes it, and whether it needs a new search."
            )
        run_nested_chat(executor, reader, task, max_turns=x.settings.run.nested_max_turns)
        doubts = _doubts(tools.recorded, text=text, previous=previous, today=today)
        if tools.recorded is not None and not doubts:
            if previous is not None and tools.recorded.text == text:
                follow_up = text.split("follow-up:", 1)[-1].strip()
                x.search.request = tools.recorded.model_copy(update={"text": f"{previous.text} — {follow_up}"})
            x.trace.emit("request", source="model", summary=x.request_summary(), new_search=tools.new_search)
            return tools.new_search or previous is None
        why = f"the model's reading was not kept: {'; '.join(doubts)}" if doubts else "the model gave no valid reading"
        logger.warning("%s; reading the request with rules", why)
        source = f"rules ({why})"
    else:
        source = "rules"
    if previous is None:
        request, new_search = read_request(text, today=today), True
    else:
        request, new_search = read_follow_up(previous, text, today=today)
    x.search.request = request
    x.save()
    x.trace.emit("request", source=source, summary=x.request_summary(), new_search=new_search)
    return new_search


def sites_named_in_request(x: Exploration, pool: SitePool) -> SitePool:
    """`pool` with the sites the request names marked as named; when sites were chosen before (a follow-up),
    those sites join the search directly. Names that match no site are traced and left out."""
    request = x.search.request
    if request is None or not request.sites:
        return pool
    named, unknown = pool.with_request_sites(request.sites)
    if unknown:
        x.trace.emit("request", source="sites", unknown_sites=unknown)
    if x.flow.sites_selected:
        for site in named.named:
            x.search.add_site(site.to_site_ref(), priority=-1.0)
        x.save()
    return named


def _doubts(recorded: ResearchRequest | None, *, text: str, previous: ResearchRequest | None, today: date) -> list[str]:
    """Why the model's reading cannot be believed (`context/reading_check.py`), against the request as written (a
    follow-up with the request it follows)."""
    if recorded is None:
        return []
    if previous is None:
        return reading_doubts(recorded, text=text, rules=read_request(text, today=today))
    said = f"{previous.text} {text}"
    rules, _ = read_follow_up(previous, text, today=today)
    return reading_doubts(recorded, text=said, rules=rules)
