"""Catalogue cases of consent notices and walls (bad content, politeness): a page that only asks for consent (or who
the visitor is) is passed with its site's own form or link and the cookie stays with that site for the run; sign-in
walls, paywalls and notices that cannot be passed are ``blocked`` with the reason said; the way through keeps
robots.txt and the host's pace."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from research_crawler.eval.reliability.catalogue import Outcome, case
from research_crawler.eval.reliability.consent_site import ConsentSite, NoticeStyle, journal_pages
from research_crawler.eval.reliability.fault_web import FaultServer
from research_crawler.eval.reliability.fetch_cases import fast_settings
from research_crawler.pages.page import Determination, Page
from research_crawler.web.fetcher import Fetcher

__all__: list[str] = []

_DEADLINE_S = 3.0
_PAPERS = [("gnn", "Graph neural networks for molecules"), ("ssm", "State space models for long sequences")]


@dataclass
class _Visit:
    pages: list[Page]
    site: ConsentSite
    cookies_elsewhere: int
    sign_ins: int


async def _read(style: NoticeStyle, *paths: str) -> _Visit:
    """`paths` of a journal behind a notice of `style`, then another site's page, in one run."""
    with FaultServer() as server, FaultServer() as other:
        site = ConsentSite(server, journal_pages("Example Journal", _PAPERS), style=style)
        other.page("/", "<html><head><title>Other site</title></head><body><p>Another site.</p></body></html>")
        async with Fetcher(fast_settings(server, other)) as fetcher:
            pages = [await fetcher.fetch(server.url(path), site_url=server.url("/")) for path in paths]
            await fetcher.fetch(other.url("/"), site_url=other.url("/"))
        cookies_elsewhere = sum("cookie" in hit.headers for hit in other.hits)
        return _Visit(pages, site, cookies_elsewhere, len(server.hits_for("/login")))


@case(
    "bad content",
    "a cookie notice (or a question who the visitor is) in place of every page is passed; its cookie stays with its "
    "site and run",
)
async def _notices_passed() -> Outcome:
    held, details, pages = True, [], []
    for style, expected in (
        ("link", "continue"),
        ("form", "necessary"),
        ("region", "intl"),
        ("audience", "researcher"),
        ("audience_radio", "no-public"),
    ):
        visit = await _read(style, "/", "/article/gnn")  # type: ignore[arg-type]
        site = visit.site
        ok = all(page.ok for page in visit.pages) and site.passes == 1 and site.choices == [expected]
        ok = ok and "Graph neural networks" in visit.pages[0].markdown and visit.cookies_elsewhere == 0
        held &= ok
        details.append(f"{style}: {site.passes} pass ({', '.join(site.choices)}), pages {'ok' if ok else 'WRONG'}")
        pages += visit.pages
    return Outcome(held, "; ".join(details), pages, _DEADLINE_S)


@case("bad content", "sign-in walls, paywalls and notices that cannot be passed are blocked, the reason said")
async def _walls_blocked() -> Outcome:
    held, details, pages = True, [], []
    for style, words in (
        ("login", "login wall"),
        ("paywall", "paywall"),
        ("script", "no way through without a script"),
        ("stubborn", "shown again"),
    ):
        visit = await _read(style, "/")  # type: ignore[arg-type]
        page = visit.pages[0]
        ok = page.determination is Determination.BLOCKED and words in page.reason and not page.markdown
        ok = ok and visit.sign_ins == 0
        held &= ok
        details.append(f"{style}: {page.determination}{'' if ok else ' WRONG'}")
        pages.append(page)
    return Outcome(held, "; ".join(details), pages, _DEADLINE_S)


@case("politeness", "the way through a notice keeps robots.txt and the host's delay")
async def _notice_politely() -> Outcome:
    with FaultServer() as server:
        site = ConsentSite(server, journal_pages("Example Journal", _PAPERS), style="form")
        async with Fetcher(fast_settings(server, per_host_delay_s=0.3)) as fetcher:
            page = await fetcher.fetch(server.url("/"), site_url=server.url("/"))
        times = [hit.at for hit in server.page_hits()]
        gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
    with FaultServer() as refused_server:
        refused = ConsentSite(refused_server, journal_pages("Example Journal", _PAPERS), style="form")
        refused_server.robots("User-agent: *\nDisallow: /consent\n")
        async with Fetcher(fast_settings(refused_server)) as fetcher:
            blocked = await fetcher.fetch(refused_server.url("/"), site_url=refused_server.url("/"))
    smallest = min(gaps, default=0.0)
    held = page.ok and site.passes == 1 and len(times) == 3 and smallest >= 0.25
    held = held and blocked.determination is Determination.BLOCKED and refused.passes == 0
    detail = (
        f"notice, form, page again: {len(times)} requests, smallest gap {smallest:.2f} s of 0.3 s; "
        f"with /consent disallowed: {blocked.determination}, {refused.passes} form sent"
    )
    return Outcome(held, detail, [page, blocked], _DEADLINE_S)
