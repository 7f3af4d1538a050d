"""HELD OUT, fresh (twenty-first batch): ScholarNet, built as ResearchGate shows research to a visitor who is not
signed in (see `fresh_heldout21.py`; do not read or tune anything to it). The landing page asks the visitor to join
and links, in its footer, the institution directory (`/directory/institutions`); an institution
(`/institution/Ostvik_University`) lists its departments; a department's overview
(`/institution/Ostvik_University/department/Department_of_Psychiatry`) shows its members and links its research,
five items a page newest first with numbered pages (`…/research?page=2`): each "Article · Mar 2024 · Journal",
the title and the authors, four at most then "[...]" and the last. A publication
(`/publication/370123456_Heat_and_Mood_in_Lisbon`) gives "Article · March 2024", the journal with volume and issue,
the DOI, the authors the same way in its header and every one of them, linked to their profiles, under "Authors",
the abstract and, for an article first reviewed as a preprint, a link to its evaluations on PreLens (one work, two
sites); citation meta tags carry "2024/03". A profile (`/profile/Ana-Lima-3`) shows its two newest research items
and loads the rest by script ("Show more": JSON with a cursor). The search, sign-up, log-in, full-text requests and
citation downloads are forbidden.
"""

from __future__ import annotations

import base64
import re
import unicodedata
from datetime import date
from typing import ClassVar

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc, json_script, meta_name
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp, paged

__all__ = [
    "DEPARTMENTS",
    "INSTITUTION",
    "PER_PAGE",
    "SHOWN",
    "Fresh21SocialSite",
    "byline",
    "journal_line",
    "newest_first",
    "profile_of",
]

PER_PAGE = 5
SHOWN = 2
INSTITUTION = ("Ostvik_University", "Ostvik University")
#: Departments (path segment → name); a department's research is the site category of the same name.
DEPARTMENTS: dict[str, str] = {
    "Department_of_Physiology": "Department of Physiology",
    "Department_of_Psychiatry": "Department of Psychiatry",
    "Department_of_Chemistry": "Department of Chemistry",
}
_JOURNALS = {
    "Department of Physiology": (
        "Journal of Sleep and Circadian Physiology",
        "Gut Microbes and Host",
        "Chronobiology Reports",
    ),
    "Department of Psychiatry": (
        "Climate and Mental Health",
        "Environmental Psychiatry",
        "Journal of Affective Research",
    ),
}


def _hash(text: str) -> int:
    return sum(ord(c) * (n + 53) for n, c in enumerate(text))


def newest_first(items: list[Item]) -> list[Item]:
    return sorted(items, key=lambda i: (i.date, i.key), reverse=True)


def _ascii(text: str) -> str:
    return re.sub(r"[^A-Za-z-]", "", unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode())


def profile_of(name: str) -> str:
    """A member's profile ('/profile/Ana-Lima-3')."""
    return "/profile/" + "-".join(_ascii(part) or "X" for part in name.split()) + f"-{1 + _hash(name) % 9}"


def byline(authors: tuple[str, ...]) -> list[str]:
    """The authors a listing or a header shows: all up to five, else four, '[...]' and the last."""
    return list(authors) if len(authors) <= 5 else [*authors[:4], "[...]", authors[-1]]


def journal_line(item: Item) -> str:
    """'Climate and Mental Health 7(3)': the journal, its volume (by year) and issue (by quarter)."""
    names = _JOURNALS[item.category]
    day = date.fromisoformat(item.date)
    return f"{names[_hash(item.title) % len(names)]} {day.year - 2017}({(day.month - 1) // 3 + 1})"


def _month(item: Item, *, short: bool) -> str:
    day = date.fromisoformat(item.date)
    return f"{MONTHS[day.month - 1][:3] if short else MONTHS[day.month - 1]} {day.year}"


def _cursor(offset: int) -> str:
    return base64.urlsafe_b64encode(f"offset:{offset}".encode()).decode().rstrip("=")


def _offset(cursor: str) -> int | None:
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
    except (ValueError, UnicodeDecodeError):
        return None
    number = text.removeprefix("offset:")
    return int(number) if text.startswith("offset:") and number.isdigit() else None


class Fresh21SocialSite(SiteApp):
    """A ResearchGate-like network: landing, directory, institution, departments, research, publications, profiles."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {
        "/about": "about",
        "/privacy-policy": "privacy",
        "/terms-of-service": "terms",
        "/help": "help",
    }

    def routes(self) -> list[Route]:
        self.by_number = {i.key: i for i in self.items}
        self.members = {profile_of(a): a for i in self.items for a in i.authors}
        base = f"/institution/{INSTITUTION[0]}"
        return [
            (re.compile(r"/"), self._landing),
            (re.compile(r"/directory/institutions"), self._directory),
            (re.compile(base), self._institution),
            (re.compile(base + r"/department/(?P<department>[A-Za-z_]+)"), self._department),
            (re.compile(base + r"/department/(?P<department>[A-Za-z_]+)/research"), self._research),
            (re.compile(r"/publication/(?P<number>\d{9})_(?P<words>[A-Za-z0-9_]+)"), self._publication),
            (re.compile(r"/publication/(?P<number>\d{9})/download"), self._pdf),
            (re.compile(r"/profile/(?P<slug>[A-Za-z-]+-\d)"), self._profile),
            (re.compile(r"/profile/(?P<slug>[A-Za-z-]+-\d)/research\.json"), self._more),
        ]

    def robots_txt(self) -> str:
        return (
            "User-agent: *\nDisallow: /search\nDisallow: /signup\nDisallow: /login\nDisallow: /deref/\n"
            "Disallow: /publication/*/citation/download\nDisallow: /profile/*/followers\nDisallow: /*.SignUp.html\n"
        )

    def sample_paths(self) -> dict[str, str]:
        item = newest_first(self.items)[0]
        base = f"/institution/{INSTITUTION[0]}"
        department = next(k for k, v in DEPARTMENTS.items() if v == item.category)
        return {
            "landing": "/",
            "directory": "/directory/institutions",
            "institution": base,
            "department": f"{base}/department/{department}",
            "research": f"{base}/department/{department}/research",
            "publication": item.path,
            "profile": profile_of(item.authors[0]),
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        return self._page(title=title, content=content, kind=kind, status=status, head=head)

    def _page(
        self, *, title: str, content: str, kind: str, status: int = 200, head: str = "", script: tuple[str, ...] = ()
    ) -> Response:
        body = (
            '<div class="header"><a class="logo" href="/">ScholarNet</a><form action="/search" method="get" '
            'class="header-search"><input name="q" placeholder="Search for publications, researchers, or questions">'
            '</form><a href="/login">Log in</a> <a class="button" href="/signup.SignUp.html">Join for free</a></div>'
            f'<div class="main">{content}</div><div class="footer"><a href="/about">About us</a> · <a href="/directory'
            '/institutions">Institutions</a> · <a href="/help">Help Center</a> · <a href="/privacy-policy">Privacy'
            '</a> · <a href="/terms-of-service">Terms</a> · © ScholarNet 2026</div>'
        )
        html = document(title=f"{title} | ScholarNet" if title != "ScholarNet" else title, head=head, body=body)
        return Response.html(html, kind=kind, status=status, script_links=script)

    def _landing(self, request: Request) -> Response:
        content = (
            '<div class="hero"><h1>Discover scientific knowledge and stay connected to the world of science</h1>'
            "<p>Join 25 million researchers to share your work, follow your field and find collaborators.</p><a "
            'class="button" href="/signup.SignUp.html">Join for free</a></div><div class="features"><h2>Connect with '
            "your scientific community</h2><p>Share your research, collaborate with your peers, and get the support "
            "you need to advance your career.</p><h2>Measure your impact</h2><p>Get in-depth stats on who has been "
            "reading your work and keep track of your citations.</p></div>"
        )
        return self.page(title="ScholarNet", content=content, kind="home")

    def _directory(self, request: Request) -> Response:
        content = (
            '<h1>Institution directory</h1><p class="letters">Browse by name: O</p><ul class="directory"><li><a href="'
            f'/institution/{INSTITUTION[0]}">{INSTITUTION[1]}</a> · Ostvik, Norway · 2,341 members</li></ul>'
        )
        return self.page(title="Institution directory", content=content, kind="collection")

    def _institution(self, request: Request) -> Response:
        rows = "".join(
            f'<li><a href="/institution/{INSTITUTION[0]}/department/{key}">{esc(name)}</a> · '
            f"{sum(i.category == name for i in self.items)} research items</li>"
            for key, name in DEPARTMENTS.items()
        )
        content = f"<h1>{INSTITUTION[1]}</h1><p>Ostvik, Norway</p><h2>Departments</h2><ul>{rows}</ul>"
        return self.page(title=INSTITUTION[1], content=content, kind="collection")

    def _tabs(self, key: str, active: str) -> str:
        base = f"/institution/{INSTITUTION[0]}/department/{key}"
        return (
            f'<ul class="tabs"><li class="{"active" if active == "overview" else ""}"><a href="{base}">Overview</a>'
            f'</li><li class="{"active" if active == "research" else ""}"><a href="{base}/research">Research</a></li>'
            "</ul>"
        )

    def _department(self, request: Request, department: str) -> Response:
        name = DEPARTMENTS.get(department)
        if name is None:
            return self.not_found()
        mine = newest_first([i for i in self.items if i.category == name])
        people = sorted({a for i in mine for a in i.authors}, key=lambda a: a.rsplit(" ", 1)[-1])
        members = "".join(f'<li><a href="{attr(profile_of(a))}">{esc(a)}</a></li>' for a in people)
        content = (
            f'<h1>{esc(name)}</h1><p>{INSTITUTION[1]}</p>{self._tabs(department, "overview")}<div class="stats">'
            f"<span>{len(people)} members</span> <span>{len(mine)} research items</span></div><h2>Members</h2>"
            f'<ul class="members">{members or "<li>No members have joined yet.</li>"}</ul>'
        )
        return self.page(title=f"{name} - {INSTITUTION[1]}", content=content, kind="collection")

    def _entry(self, item: Item) -> str:
        names = " · ".join(esc(a) for a in byline(item.authors))
        return (
            f'<li class="research-item"><div class="research-item__type">Article · {_month(item, short=True)} · '
            f'{esc(journal_line(item))}</div><a class="research-item__title" href="{attr(item.path)}">'
            f'{esc(item.title)}</a><div class="research-item__authors">{names}</div></li>'
        )

    def _research(self, request: Request, department: str) -> Response:
        name = DEPARTMENTS.get(department)
        if name is None:
            return self.not_found()
        base = f"/institution/{INSTITUTION[0]}/department/{department}/research"
        mine = newest_first([i for i in self.items if i.category == name])
        shown, pager = paged(request, mine, PER_PAGE, lambda n: f"{base}?page={n}")
        content = f"<h1>{esc(name)}</h1>{self._tabs(department, 'research')}<h2>Research items ({len(mine)})</h2>" + (
            f'<ul class="research-list">{"".join(self._entry(i) for i in shown)}</ul>{pager}'
            if mine
            else "<p>This department has no research items yet.</p>"
        )
        return self.page(title=f"Research - {name}", content=content, kind="listing")

    def _publication(self, request: Request, number: str, words: str) -> Response:
        item = self.by_number.get(number)
        if item is None or item.path != f"/publication/{number}_{words}":
            return self.not_found()
        header = " · ".join(
            esc(a) if a == "[...]" else f'<a href="{attr(profile_of(a))}">{esc(a)}</a>' for a in byline(item.authors)
        )
        everyone = "".join(
            f'<li><a href="{attr(profile_of(a))}">{esc(a)}</a> · {esc(item.category)}, {INSTITUTION[1]}</li>'
            for a in item.authors
        )
        day = date.fromisoformat(item.date)
        journal = journal_line(item).rsplit(" ", 1)[0]
        head = (
            meta_name("citation_title", item.title)
            + "".join(meta_name("citation_author", a) for a in item.authors)
            + meta_name("citation_publication_date", f"{day.year}/{day.month:02d}")
            + meta_name("citation_journal_title", journal)
            + meta_name("citation_doi", str(item.doi))
        )
        reviewed = ""
        copy = next((c for c in self.testbed.copies_of(item) if c.site != item.site), None)
        if copy is not None:
            reviewed = (
                '<div class="preprint-note"><h3>Reviewed preprint</h3><p>An earlier version of this article was posted '
                f'as a preprint and evaluated publicly: <a href="{attr(self.links.on_site(copy.site, copy.path))}">see '
                "the evaluations on PreLens</a>.</p></div>"
            )
        content = (
            f'<div class="research-detail-header"><div class="type">Article · {_month(item, short=False)} · '
            f'{esc(journal_line(item))}</div><h1>{esc(item.title)}</h1><div class="authors">{header}</div><div '
            f'class="doi">DOI: {esc(item.doi)}</div><div class="actions"><a class="button" href="/signup.SignUp.html?'
            f'hdrsu=1&amp;_sg=request-fulltext-{number}">Request full-text</a> <a href="/publication/{number}/citation/'
            f'download">Download citation</a></div></div><div class="abstract"><h2>Abstract</h2><p>{esc(item.abstract)}'
            f'</p></div>{reviewed}<div class="authors-box"><h2>Authors ({len(item.authors)})</h2><ul>{everyone}</ul>'
            f'</div><div class="stats"><span>Citations ({_hash(item.key) % 12})</span> <span>References '
            f"({18 + _hash(item.title) % 40})</span></div>"
        )
        return self.page(title=item.title, content=content, kind="article", head=head)

    def _profile_items(self, name: str) -> list[Item]:
        return newest_first([i for i in self.items if name in i.authors])

    def _profile(self, request: Request, slug: str) -> Response:
        name = self.members.get(f"/profile/{slug}")
        if name is None:
            return self.not_found()
        works = self._profile_items(name)
        rows = "".join(self._entry(i) for i in works[:SHOWN])
        more = ""
        if len(works) > SHOWN:
            more = (
                f'<button class="show-more" data-url="/profile/{slug}/research.json?cursor={_cursor(SHOWN)}">Show more'
                "</button>"
                + json_script({"profile": slug, "loaded": SHOWN, "total": len(works)}, script_type="application/json")
                + "<script>document.querySelector('.show-more').addEventListener('click',function(e){fetch(e.target"
                ".dataset.url).then(function(r){return r.json()}).then(function(d){d.items.forEach(function(i){var li="
                "document.createElement('li');li.innerHTML='<a href=\"'+i.url+'\">'+i.title+'</a>';document."
                "querySelector('.research-list').appendChild(li)});if(d.nextCursor){e.target.dataset.url='/profile/"
                f"{slug}/research.json?cursor='+d.nextCursor}}else{{e.target.remove()}}}})}});</script>"
            )
        department = works[0].category if works else ""
        content = (
            f'<div class="profile-header"><h1>{esc(name)}</h1><p>{esc(department)} · {INSTITUTION[1]}</p></div><h2>'
            f'Research ({len(works)})</h2><ul class="research-list">{rows}</ul>{more}'
        )
        return self._page(title=name, content=content, kind="listing", script=tuple(i.path for i in works[SHOWN:]))

    def _more(self, request: Request, slug: str) -> Response:
        name = self.members.get(f"/profile/{slug}")
        offset = _offset(request.param("cursor")) if name is not None else None
        if name is None or offset is None:
            return self.not_found()
        works = self._profile_items(name)
        batch = works[offset : offset + SHOWN]
        data = {
            "items": [{"title": i.title, "url": i.path, "date": _month(i, short=True)} for i in batch],
            "nextCursor": _cursor(offset + SHOWN) if offset + SHOWN < len(works) else None,
        }
        return Response.json(data, kind="more")

    def _pdf(self, request: Request, number: str) -> Response:
        item = self.by_number.get(number)
        return self.pdf(item) if item is not None else self.not_found()
