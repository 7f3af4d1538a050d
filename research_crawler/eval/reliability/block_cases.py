"""Catalogue cases of block pages served with status 200 (bad content): bot challenges and soft 404s are
``blocked`` with nothing for an agent to read, look-alikes stay ``ok``, and a whole run never collects an item
from a blocked page nor reads metadata from one."""

from __future__ import annotations

import tempfile
from pathlib import Path

from research_crawler.config.settings import Settings
from research_crawler.eval.reliability.block_page_samples import (
    BLOCK_SITE_QUERY,
    CHALLENGE_PAGES,
    LOOKALIKE_PAGES,
    SOFT_404_PAGES,
    block_page_site,
)
from research_crawler.eval.reliability.catalogue import Outcome, case, no_chromium
from research_crawler.eval.reliability.fault_web import FaultServer
from research_crawler.eval.reliability.fetch_cases import fast_settings, fetch_all
from research_crawler.pages.page import Determination, Page
from research_crawler.run.trace import read_trace
from research_crawler.web.fetcher import Fetcher

__all__: list[str] = []

_DEADLINE_S = 3.0


def _bare(page: Page) -> bool:
    """A blocked page carries nothing an agent or a tool could read."""
    return page.determination is Determination.BLOCKED and not page.markdown and not page.links and not page.html


async def _serve(pages: dict[str, str], **changes: object) -> list[Page]:
    with FaultServer() as server:
        for name, html in pages.items():
            server.page(f"/{name}", html)
        return await fetch_all(fast_settings(server, **changes), *(server.url(f"/{name}") for name in pages))


def _summary(pages: list[Page], names: list[str], *, expected: Determination) -> str:
    wrong = [f"{name}: {page.determination}" for name, page in zip(names, pages, strict=True)]
    wrong = [entry for entry, page in zip(wrong, pages, strict=True) if page.determination is not expected]
    return f"{len(pages) - len(wrong)} of {len(pages)} {expected}" + (f"; wrong: {', '.join(wrong)}" if wrong else "")


@case("bad content", "a bot-challenge page with status 200 is classified blocked")
async def _challenges() -> Outcome:
    pages = await _serve(CHALLENGE_PAGES)
    held = all(_bare(page) and page.status == 200 for page in pages)
    return Outcome(held, _summary(pages, list(CHALLENGE_PAGES), expected=Determination.BLOCKED), pages, _DEADLINE_S)


@case("bad content", "a soft 404 with status 200 is classified blocked; look-alikes stay ok")
async def _soft_404s() -> Outcome:
    soft = await _serve(SOFT_404_PAGES)
    lookalikes = await _serve(LOOKALIKE_PAGES)
    held = all(_bare(page) for page in soft) and all(page.ok for page in lookalikes)
    detail = (
        f"soft 404s: {_summary(soft, list(SOFT_404_PAGES), expected=Determination.BLOCKED)}; "
        f"look-alikes: {_summary(lookalikes, list(LOOKALIKE_PAGES), expected=Determination.OK)}"
    )
    return Outcome(held, detail, soft + lookalikes, _DEADLINE_S)


@case("bad content", "a challenge page rendered in the browser is blocked too")
async def _browser_challenge() -> Outcome:
    if (skipped := no_chromium()) is not None:
        return skipped
    with FaultServer() as server:
        server.page("/challenge", CHALLENGE_PAGES["perimeterx"])
        server.page("/missing", SOFT_404_PAGES["heading_only"])
        server.page("/fine", LOOKALIKE_PAGES["listing_mentioning_not_found"])
        settings = fast_settings(server, render="browser", browser_wait_s=0.2, page_deadline_s=15.0)
        async with Fetcher(settings) as fetcher:
            pages = [await fetcher.fetch(server.url(path)) for path in ("/challenge", "/missing", "/fine")]
    held = _bare(pages[0]) and _bare(pages[1]) and pages[2].ok and all(page.render == "browser" for page in pages)
    return Outcome(held, ", ".join(str(page.determination) for page in pages), pages[:2], 15.0)


@case("bad content", "a whole run collects nothing from block pages and reads no metadata from them")
def _whole_run() -> Outcome:
    from research_crawler.run.session import ResearchSession

    site = block_page_site()
    with tempfile.TemporaryDirectory(prefix="block-pages-") as scratch, FaultServer() as server:
        for path, html in site.pages.items():
            server.page(path, html)
        settings = Settings(runs_dir=Path(scratch) / "runs")
        settings.fetch.allowed_hosts = [server.host_port]
        settings.fetch.per_host_delay_s = 0.0
        settings.rerank.kind = "bm25"
        report = ResearchSession(settings, backend="simulated").run(BLOCK_SITE_QUERY, sites=[server.url("/")])
        fetches = [e for e in read_trace(Path(report.run_dir or "") / "trace.jsonl") if e["event"] == "fetch"]
        blocked_urls = {e["url"] for e in fetches if e["determination"] == Determination.BLOCKED.value}
        items = {item.url: item for item in report.items}
        hidden = [server.url(path) for path in site.challenge_only_items]
        dead = [items.get(server.url(path)) for path in site.blocked_items]
        real = [items.get(server.url(path)) for path in site.ok_items]
        challenge_seen = server.url("/list/more") in blocked_urls
    from_blocked = [item.url for item in report.items if item.found_on in blocked_urls]
    collected_hidden = [url for url in hidden if url in items]
    dead_with_metadata = [item.url for item in dead if item is not None and (item.authors or item.doi or item.date)]
    held = (
        challenge_seen
        and not from_blocked
        and not collected_hidden
        and all(item is not None for item in dead)
        and not dead_with_metadata
        and all(item is not None and item.doi for item in real)
    )
    detail = (
        f"{len(blocked_urls)} blocked page(s) fetched (challenge seen: {challenge_seen}); items found on them: "
        f"{len(from_blocked)}; items only a challenge page named, collected: {len(collected_hidden)}; items whose "
        f"page is a soft 404 kept without metadata: {sum(item is not None for item in dead) - len(dead_with_metadata)}"
        f" of {len(dead)}"
    )
    return Outcome(held, detail)
