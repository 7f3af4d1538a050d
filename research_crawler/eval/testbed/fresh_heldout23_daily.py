"""HELD OUT, fresh (twenty-third batch): Paperfeed Daily, a daily-papers aggregator built as Hugging Face's Daily
Papers is (see `fresh_heldout23.py`; do not read or tune anything to it). The community features new arXiv preprints
a day after they appear and upvotes them. The home page's "Trending papers" are drawn by a script from the JSON API
(`/api/papers/trending?limit=10&cursor=…`, scrolled in as the visitor reaches the end). "Daily Papers" (`/papers`)
is the newest featured day; a day (`/papers/date/2024-03-13`) lists its papers by upvotes, each card with the title,
the first author and "· 4 authors", who submitted it and the upvotes, with "Previous" and "Next" links to the featured
days before and after it; the weekly (`/papers/week/2024-W11`) and monthly (`/papers/month/2024-03`) views are
shells the script fills from `/api/daily_papers`. A paper (`/papers/2403.91234`) gives its title, every author,
"Published on Mar 12, 2024" (this year's papers without the year, "Published on Mar 12"), "Submitted by <user> on"
the featured day, the upvotes, the abstract, the arXiv page and PDF (elsewhere), what on the hub cites it and a few
comments; Open Graph tags only. Papers on other subjects share each day. The search (`/search?q=`) answers a GET;
robots.txt forbids sign-in, settings and notifications.
"""

from __future__ import annotations

import hashlib
import re
from datetime import date, timedelta
from typing import Any, ClassVar

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.markup import MONTHS, asset, attr, document, esc, meta_property
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = [
    "FILLER_TITLES",
    "PER_DAY_FILLERS",
    "SUBMITTERS",
    "TODAY",
    "TRENDING_PAGE",
    "Fresh23DailySite",
    "featured_day",
    "fillers",
    "published_on",
    "short_day",
    "upvotes",
]

#: The day this copy of the site was made: this year's dates are written without the year.
TODAY = date(2026, 11, 20)
TRENDING_PAGE = 10
PER_DAY_FILLERS = 2
#: Users who submit papers to the daily list.
SUBMITTERS = ("akira-t", "mlreader", "nlp-nerd", "vision_jo", "tokentamer", "frame_by_frame", "sparse-sam")
#: Papers on other subjects featured on the same days (never relevant to any request).
FILLER_TITLES = (
    "Scaling Laws for Mixture-of-Depths Transformers",
    "A Survey of Reward Hacking in Preference Optimisation",
    "OpenWeather-1B: A Foundation Model for Nowcasting",
    "Tabular Diffusion for Synthetic Patient Records",
    "Do Vision-Language Models Count? A Benchmark of Numerosity",
    "Compact Gaussian Splats for Mobile Rendering",
    "Agents That Read the Manual: Tool Use from Documentation",
    "Protein Language Models Without Multiple Sequence Alignments",
    "Low-Rank Adapters That Forget Less",
    "Chain-of-Thought Faithfulness Under Paraphrase",
    "A Million Hours of Bird Song for Self-Supervised Audio",
    "Watermarking Generated Text Robust to Translation",
    "Curriculum Pretraining on Synthetic Textbooks",
    "Multi-Agent Debate Improves Factuality, Sometimes",
    "Point Cloud Completion with Masked Autoencoders",
    "Benchmarking Long-Horizon Robotic Manipulation",
    "Sparse Autoencoders Find Features in Music Models",
    "An Open Dataset of Handwritten Mathematical Proofs",
)
_FILLER_AUTHORS = (
    "Wen Zhao", "Maria Oyelaran", "Tomasz Nowicki", "Priya Raman", "Lucas Ferreira", "Hannah Brandt", "Kenji Sato",
    "Amara Diallo", "Oliver Hayes", "Sofia Lindgren",
)  # fmt: skip
_FILLER_ABSTRACT = (
    "We introduce a new approach and evaluate it on standard benchmarks. Results show consistent improvements over "
    "strong baselines, and we release code and checkpoints."
)


def _digest(text: str) -> int:
    return int(hashlib.sha1(text.encode()).hexdigest()[:12], 16)


def featured_day(item: Item) -> date:
    """The day a paper was featured: the day after it appeared on arXiv."""
    return date.fromisoformat(item.date) + timedelta(days=1)


def short_day(day: date) -> str:
    """'Mar 12, 2024', or 'Mar 12' for a day of this year, as the site writes dates."""
    text = f"{MONTHS[day.month - 1][:3]} {day.day}"
    return text if day.year == TODAY.year else f"{text}, {day.year}"


def published_on(item: Item) -> str:
    return f"Published on {short_day(date.fromisoformat(item.date))}"


def upvotes(item: Item) -> int:
    return 3 + _digest(item.key + item.title) % 160


def fillers(items: list[Item]) -> list[Item]:
    """The papers on other subjects featured on the days the items were (two a day), as items of no topic."""
    made: dict[str, Item] = {}
    for item in items:
        day = date.fromisoformat(item.date)
        for n in range(PER_DAY_FILLERS):
            seed = _digest(f"{item.key}-{n}")
            title = FILLER_TITLES[(seed + n * 7) % len(FILLER_TITLES)]
            key = f"{day:%y%m}.{1000 + seed % 9000:05d}"
            while key in made:
                key = f"{day:%y%m}.{1000 + (int(key[-5:]) + 1) % 9000:05d}"
            authors = tuple(_FILLER_AUTHORS[(seed // 11 + k * 3) % len(_FILLER_AUTHORS)] for k in range(2 + seed % 4))
            made[key] = Item(
                id=f"{item.site}:{key}",
                site=item.site,
                key=key,
                path=f"/papers/{key}",
                pdf_path=f"/papers/{key}/pdf",
                title=title,
                authors=tuple(dict.fromkeys(authors)),
                date=item.date,
                abstract=_FILLER_ABSTRACT,
                topic="filler",
                category=item.category,
                arxiv_id=key,
            )
    return list(made.values())


def _iso_week(day: date) -> str:
    year, week, _ = day.isocalendar()
    return f"{year}-W{week:02d}"


class Fresh23DailySite(SiteApp):
    """A daily-papers aggregator: featured days by upvotes, script-drawn trending and periods, paper pages."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {
        "/about": "about",
        "/docs": "help",
        "/privacy": "privacy",
        "/terms": "terms",
        "/submit": "submit",
    }

    def routes(self) -> list[Route]:
        self.papers = self.items + fillers(self.items)
        self.by_key = {p.key: p for p in self.papers}
        self.days: dict[date, list[Item]] = {}
        for paper in self.papers:
            self.days.setdefault(featured_day(paper), []).append(paper)
        for listed in self.days.values():
            listed.sort(key=lambda p: (-upvotes(p), p.key))
        self.day_order = sorted(self.days)
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/papers"), self._latest),
            (re.compile(r"/papers/date/(?P<day>\d{4}-\d{2}-\d{2})"), self._day),
            (re.compile(r"/papers/week/(?P<week>\d{4}-W\d{2})"), self._week),
            (re.compile(r"/papers/month/(?P<month>\d{4}-\d{2})"), self._month),
            (re.compile(r"/papers/(?P<key>\d{4}\.\d{5})"), self._paper),
            (re.compile(r"/papers/(?P<key>\d{4}\.\d{5})/pdf"), self._pdf),
            (re.compile(r"/search"), self._search),
            (re.compile(r"/static/daily\.js"), self._script),
            (re.compile(r"/api/daily_papers"), self._api_period),
            (re.compile(r"/api/papers/trending"), self._api_trending),
        ]

    def robots_txt(self) -> str:
        return (
            "User-agent: *\nDisallow: /login\nDisallow: /join\nDisallow: /settings/\nDisallow: /notifications\n"
            "Disallow: /oauth/\n"
        )

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        day = featured_day(item)
        return {
            "home": "/",
            "latest": "/papers",
            "day": f"/papers/date/{day.isoformat()}",
            "week": f"/papers/week/{_iso_week(day)}",
            "month": f"/papers/month/{day:%Y-%m}",
            "paper": item.path,
            "search": "/search?q=decoding",
            "script": "/static/daily.js",
            "api-day": f"/api/daily_papers?date={day.isoformat()}",
            "api-trending": "/api/papers/trending?limit=10",
        }

    # ------------------------------------------------------------------ pages

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        return self._page(title=title, content=content, kind=kind, status=status, head=head)

    def _page(
        self, *, title: str, content: str, kind: str, status: int = 200, head: str = "", links: tuple[str, ...] = ()
    ) -> Response:
        body = (
            '<header class="topbar"><a class="logo" href="/">Paperfeed</a><form class="search" action="/search" '
            'method="get"><input name="q" type="search" placeholder="Search papers…"></form><nav><a href="/papers">'
            'Daily Papers</a> <a href="/docs">Docs</a> <a href="/about">About</a> <a href="/login">Log In</a> <a '
            f'href="/join">Sign Up</a></nav></header><main>{content}</main><footer class="footer"><p>© Paperfeed · '
            '<a href="/terms">Terms of Service</a> · <a href="/privacy">Privacy</a> · <a href="/submit">Submit a '
            "paper</a></p></footer>"
        )
        html = document(title=title if title == "Paperfeed" else f"{title} - Paperfeed", head=head, body=body)
        return Response.html(html, kind=kind, status=status, script_links=links)

    @staticmethod
    def _card(paper: Item) -> str:
        count = len(paper.authors)
        submitter = SUBMITTERS[_digest(paper.key) % len(SUBMITTERS)]
        return (
            f'<li class="paper-card"><div class="upvotes"><span class="arrow">▲</span><span class="count">'
            f'{upvotes(paper)}</span></div><div class="body"><h3><a href="{attr(paper.path)}">{esc(paper.title)}</a>'
            f'</h3><p class="meta"><span class="author">{esc(paper.authors[0])}</span> · {count} authors</p><p class='
            f'"submitted">Submitted by {esc(submitter)}</p></div></li>'
        )

    def _shell(self, *, title: str, kind: str, inner: str, links: tuple[str, ...]) -> Response:
        content = (
            f'{inner}<noscript><p>This list needs JavaScript to load.</p></noscript><script src="/static/daily.js">'
            "</script>"
        )
        return self._page(title=title, content=content, kind=kind, links=links)

    def _home(self, request: Request) -> Response:
        newest = self.day_order[-1]
        inner = (
            '<section class="hero"><h1>The papers the community is reading today</h1><p>Every day, researchers '
            'submit and upvote the new preprints worth your time.</p><p><a href="/papers">Browse Daily Papers →'
            f'</a> · <a href="/papers/date/{newest.isoformat()}">{short_day(newest)}</a></p></section><section '
            'id="trending"><h2>Trending papers</h2><ul class="papers"></ul><div id="sentinel"></div></section>'
        )
        trending = tuple(p.path for p in self._trending())
        return self._shell(title="Paperfeed", kind="home", inner=inner, links=trending)

    def _latest(self, request: Request) -> Response:
        return self._render_day(self.day_order[-1])

    def _day(self, request: Request, day: str) -> Response:
        try:
            wanted = date.fromisoformat(day)
        except ValueError:
            return self.not_found()
        return self._render_day(wanted)

    def _render_day(self, day: date) -> Response:
        listed = self.days.get(day, [])
        before = [d for d in self.day_order if d < day]
        after = [d for d in self.day_order if d > day]
        steps = ""
        if before:
            steps += f'<a class="prev" href="/papers/date/{before[-1].isoformat()}">← Previous</a> '
        if after:
            steps += f'<a class="next" href="/papers/date/{after[0].isoformat()}">Next →</a>'
        cards = "".join(self._card(p) for p in listed) or '<p class="empty">No papers were featured on this day.</p>'
        content = (
            f'<div class="daily-header"><h1>Daily Papers</h1><p class="by">by the community</p><div class="date">'
            f'<span class="day">{MONTHS[day.month - 1]} {day.day}, {day.year}</span></div><nav class="periods"><span>'
            f'Daily</span> <a href="/papers/week/{_iso_week(day)}">Weekly</a> <a href="/papers/month/{day:%Y-%m}">'
            f'Monthly</a></nav><nav class="steps">{steps}</nav></div><ul class="papers">{cards}</ul>'
        )
        return self.page(title=f"Daily Papers - {short_day(day)}", content=content, kind="listing")

    def _period(self, kind: str, value: str, listed: list[Item], title: str) -> Response:
        inner = (
            f'<div class="daily-header"><h1>Daily Papers</h1><p class="period">{esc(title)}</p></div><section '
            f'id="period" data-kind="{kind}" data-value="{attr(value)}"><ul class="papers"></ul></section>'
        )
        return self._shell(
            title=f"Daily Papers - {title}", kind="listing", inner=inner, links=tuple(p.path for p in listed)
        )

    def _week(self, request: Request, week: str) -> Response:
        listed = self._of_period("week", week)
        return self._period("week", week, listed, f"Week {week[-2:]}, {week[:4]}")

    def _month(self, request: Request, month: str) -> Response:
        listed = self._of_period("month", month)
        year, number = int(month[:4]), int(month[5:])
        if not 1 <= number <= 12:
            return self.not_found()
        return self._period("month", month, listed, f"{MONTHS[number - 1]} {year}")

    def _of_period(self, kind: str, value: str) -> list[Item]:
        def key(day: date) -> str:
            return {"date": day.isoformat(), "week": _iso_week(day), "month": f"{day:%Y-%m}"}[kind]

        listed = [p for p in self.papers if key(featured_day(p)) == value]
        return sorted(listed, key=lambda p: (-upvotes(p), p.key))

    def _paper(self, request: Request, key: str) -> Response:
        paper = self.by_key.get(key)
        if paper is None:
            return self.not_found("This paper has not been submitted to Daily Papers yet.")
        shown = featured_day(paper)
        submitter = SUBMITTERS[_digest(paper.key) % len(SUBMITTERS)]
        authors = ", ".join(f'<span class="author">{esc(a)}</span>' for a in paper.authors)
        seed = _digest(paper.title)
        comments = "".join(
            f'<div class="comment"><p class="who">{esc(SUBMITTERS[(seed + n) % len(SUBMITTERS)])}</p><p>{esc(text)}'
            "</p></div>"
            for n, text in enumerate(
                ("Nice results. Is the code available?", "How does this compare on smaller models?")[: seed % 3]
            )
        )
        head = (
            meta_property("og:title", paper.title)
            + meta_property("og:description", paper.abstract[:200])
            + meta_property("og:type", "website")
            + meta_property("og:url", self.links.absolute(paper.path))
        )
        content = (
            f'<article class="paper"><h1>{esc(paper.title)}</h1><div class="authors">Authors: {authors}</div><div '
            f'class="dates"><span>{published_on(paper)}</span> · <span>Submitted by {esc(submitter)} on '
            f'<a href="/papers/date/{shown.isoformat()}">{short_day(shown)}</a></span></div><div class="upvote">'
            f'<button type="button">▲ Upvote</button> <span class="count">{upvotes(paper)}</span></div><div '
            'class="links">'
            f'<a href="https://arxiv.org/abs/{paper.key}">View arXiv page</a> <a href="https://arxiv.org/pdf/'
            f'{paper.key}">View PDF</a> <a href="/papers/{paper.key}#community">Add to collection</a></div><section '
            f'class="abstract"><h2>Abstract</h2><p>{esc(paper.abstract)}</p></section><section class="cited"><h2>'
            "Models citing this paper <span>0</span></h2><h2>Datasets citing this paper <span>0</span></h2><h2>"
            f'Collections including this paper <span>{seed % 4}</span></h2></section><section id="community"><h2>'
            f'Community</h2>{comments or "<p>No comments yet.</p>"}<p><a href="/login">Sign in</a> to comment.'
            "</p></section></article>"
        )
        return self.page(title=paper.title, content=content, kind="article", head=head)

    def _pdf(self, request: Request, key: str) -> Response:
        paper = self.by_key.get(key)
        return self.pdf(paper) if paper is not None else self.not_found()

    def _search(self, request: Request) -> Response:
        query = request.param("q").strip()
        content = (
            '<h1>Search papers</h1><form action="/search" method="get"><input name="q" type="search" value="'
            f'{attr(query)}"><button>Search</button></form>'
        )
        if query:
            words = query.lower().split()
            text = {p.key: f"{p.title} {' '.join(p.authors)} {p.abstract}".lower() for p in self.papers}
            found = [p for p in self._trending() if all(w in text[p.key] for w in words)]
            content += f'<p>{len(found)} papers</p><ul class="papers">{"".join(self._card(p) for p in found)}</ul>'
        return self.page(title="Search", content=content, kind="search")

    def _script(self, request: Request) -> Response:
        return Response.text(asset("fresh23_daily_app.js"), kind="script", content_type="text/javascript")

    # ------------------------------------------------------------------ the JSON API

    def _trending(self) -> list[Item]:
        return sorted(self.papers, key=lambda p: (-upvotes(p), p.key))

    @staticmethod
    def _json(paper: Item) -> dict[str, Any]:
        return {
            "id": paper.key,
            "title": paper.title,
            "authors": [{"name": a} for a in paper.authors],
            "publishedAt": f"{paper.date}T17:59:{_digest(paper.key) % 60:02d}.000Z",
            "summary": paper.abstract,
            "upvotes": upvotes(paper),
        }

    def _api_trending(self, request: Request) -> Response:
        ordered = self._trending()
        start = request.int_param("cursor", 0, maximum=len(ordered))
        size = request.int_param("limit", TRENDING_PAGE, minimum=1, maximum=50)
        shown = ordered[start : start + size]
        following = start + size if start + size < len(ordered) else None
        return Response.json(
            {"papers": [self._json(p) for p in shown], "nextCursor": None if following is None else str(following)},
            kind="api",
        )

    def _api_period(self, request: Request) -> Response:
        for kind in ("date", "week", "month"):
            if request.param(kind):
                listed = self._of_period(kind, request.param(kind))
                return Response.json(
                    [
                        {
                            "paper": self._json(p),
                            "submittedBy": SUBMITTERS[_digest(p.key) % len(SUBMITTERS)],
                            "publishedAt": f"{featured_day(p).isoformat()}T06:00:00.000Z",
                            "numComments": _digest(p.title) % 3,
                        }
                        for p in listed
                    ],
                    kind="api",
                )
        return Response.json([], kind="api")
