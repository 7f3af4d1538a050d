"""HELD OUT, fresh (eighth batch): Lintel Preprints, built as Preprints.org-like servers with versioned records are
(see `fresh_heldout8.py`; do not read or tune anything to it). A record has one to three versions: the first was
posted under a working title, later ones under the final title, each version with its own page and DOI; the
record's page shows the latest and its version history ('First posted (v1): 12 March 2024'); an older version's
page says a newer one exists. Subject listings show five records from an offset (`?skip=`), last updated first; a
monthly digest lists the month's new preprints under the titles they were posted with (ISO dates). A record whose
final version a venue accepted links to it. PDF downloads and the search are forbidden by robots.txt.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass
from datetime import date, timedelta
from typing import ClassVar

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc, long_date, meta_name, url_slug
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["PER_PAGE", "Fresh8PreprintsSite", "Version", "versions"]

PER_PAGE = 5


@dataclass(frozen=True)
class Version:
    """One version of a record: its number, title and posting date."""

    number: int
    title: str
    posted: date


def _hash(text: str) -> int:
    return zlib.crc32(text.encode())


def _working_title(title: str) -> str:
    """The title a first version was posted under, before the final one."""
    if ": " in title:
        rest = title.split(": ", 1)[1]
        return rest[:1].upper() + rest[1:]
    return f"{title}: Preliminary Results"


def versions(item: Item) -> list[Version]:
    """The record's versions, oldest first: v1 on the item's date; later ones weeks apart within the same year,
    under the final title (the first under a working title when there are several)."""
    count = 1 + _hash(item.key) % 3
    day = date.fromisoformat(item.date)
    made = [Version(1, item.title if count == 1 else _working_title(item.title), day)]
    for number in range(2, count + 1):
        day = day + timedelta(days=4 + _hash(f"{item.key}v{number}") % 18)
        if day.year != made[0].posted.year:
            break
        made.append(Version(number, item.title, day))
    return made if len(made) > 1 else [Version(1, item.title, made[0].posted)]


def _doi(item: Item, number: int) -> str:
    return f"10.20944/lintel{item.key}.v{number}"


class Fresh8PreprintsSite(SiteApp):
    """A preprint server with versioned records, subject listings by offset and a monthly digest."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/about": "about", "/privacy": "privacy", "/contact": "contact"}

    def routes(self) -> list[Route]:
        record = r"/manuscript/(?P<key>\d{6}\.\d{4})"
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/subject/(?P<slug>[a-z-]+)"), self._subject),
            (re.compile(record), self._record),
            (re.compile(record + r"/v(?P<number>\d)"), self._record),
            (re.compile(record + r"(?:/v\d)?/download"), self._file),
            (re.compile(r"/digest/"), self._digests),
            (re.compile(r"/digest/(?P<month>\d{4}-\d{2})"), self._digest),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /search\nDisallow: /manuscript/*/download\nDisallow: /user/\n"

    def sample_paths(self) -> dict[str, str]:
        return {"home": "/", "subject": f"/subject/{url_slug(self.items[0].category)}?skip=0",
                "record": self.items[0].path, "digests": "/digest/",
                "digest": f"/digest/{self.items[0].date[:7]}"}  # fmt: skip

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        subjects = "".join(f'<li><a href="/subject/{url_slug(s)}">{esc(s)}</a></li>' for s in self._subjects())
        body = (
            '<header><a class="brand" href="/">Lintel Preprints</a><form action="/search" method="get"><input '
            'name="search1" placeholder="Search preprints"></form><a href="/user/login">Sign in</a> '
            '<a href="/user/submit">Submit</a></header>\n'
            f'<div class="wrap"><aside><h3>Subjects</h3><ul>{subjects}</ul><p><a href="/digest/">Monthly digest</a>'
            f'</p></aside><main>{content}</main></div>\n<footer><a href="/about">About</a> · <a href="/privacy">'
            'Privacy</a> · <a href="/contact">Contact</a> · Preprints are not peer-reviewed.</footer>'
        )
        return Response.html(document(title=f"{title} | Lintel Preprints", head=head, body=body), kind=kind,
                             status=status)  # fmt: skip

    def _subjects(self) -> list[str]:
        return sorted({i.category for i in self.items})

    def _updated(self, item: Item) -> date:
        return versions(item)[-1].posted

    def _card(self, item: Item) -> str:
        latest = versions(item)[-1]
        return (
            f'<div class="search-content-box"><span class="type">Article</span> · <span>Version {latest.number}'
            f"</span> · <span>{long_date(latest.posted.isoformat())}</span>"
            f'<div class="title"><a href="{attr(item.path)}">'
            f'{esc(item.title)}</a></div><div class="authors">{esc(", ".join(item.authors))}</div></div>'
        )

    def _home(self, request: Request) -> Response:
        newest = sorted(self.items, key=self._updated, reverse=True)[:5]
        content = (
            "<h1>Lintel Preprints</h1><p>A multidisciplinary preprint platform: early versions of research "
            "articles, free to post and to read.</p><h2>Latest updates</h2>" + "".join(self._card(i) for i in newest)
        )
        return self.page(title="Home", content=content, kind="home")

    def _subject(self, request: Request, slug: str) -> Response:
        subject = next((s for s in self._subjects() if url_slug(s) == slug), None)
        if subject is None:
            return self.not_found()
        listed = sorted((i for i in self.items if i.category == subject), key=self._updated, reverse=True)
        skip = request.int_param("skip", 0, maximum=max(0, len(listed) - 1))
        skip -= skip % PER_PAGE
        shown = listed[skip : skip + PER_PAGE]
        nav = ""
        if skip:
            nav += f'<a href="/subject/{slug}?skip={skip - PER_PAGE}">‹ Previous</a> '
        if skip + PER_PAGE < len(listed):
            nav += f'<a href="/subject/{slug}?skip={skip + PER_PAGE}">Next ›</a>'
        content = (
            f"<h1>{esc(subject)}</h1><p>Showing {skip + 1}–{skip + len(shown)} of {len(listed)} · sorted by last "
            f'update</p>{"".join(self._card(i) for i in shown)}<nav class="pager">{nav}</nav>'
        )
        return self.page(title=subject, content=content, kind="subject")

    def _record(self, request: Request, key: str, number: str = "") -> Response:
        item = next((i for i in self.items if i.key == key), None)
        if item is None:
            return self.not_found()
        every = versions(item)
        latest = every[-1]
        if number and int(number) == latest.number:
            return Response.redirect(item.path, status=301)
        if number and not 1 <= int(number) < latest.number:
            return self.not_found()
        this = every[int(number) - 1] if number else latest
        head = "\n".join(
            [meta_name("citation_title", this.title)]
            + [meta_name("citation_author", a) for a in item.authors]
            + [meta_name("citation_date", every[0].posted.strftime("%Y/%m/%d")),
               meta_name("citation_online_date", this.posted.strftime("%Y/%m/%d"))]
        )  # fmt: skip
        history = "".join(
            f"<li>{'<b>' if v is this else ''}"
            f'<a href="{attr(item.path + (f"/v{v.number}" if v is not latest else ""))}">v{v.number}</a>: '
            f"{long_date(v.posted.isoformat())} — {esc(v.title)}{'</b>' if v is this else ''}</li>"
            for v in every
        )
        notice = (
            f'<div class="alert">A newer version of this preprint exists (v{latest.number}). '
            f'<a href="{attr(item.path)}">View the latest version</a>.</div>'
            if this is not latest
            else ""
        )
        published = ""
        for copy in self.testbed.copies_of(item) if item.work else []:
            if copy.site != item.site:
                link = self.links.on_site(copy.site, copy.path)
                published = (
                    f'<p class="published">Peer-reviewed version: <a href="{attr(link)}">{esc(copy.title)}</a></p>'
                )
        download = item.path + (f"/v{this.number}" if this is not latest else "") + "/download"
        content = (
            f'{notice}<p class="type">Article · {esc(item.category)} · Version {this.number}</p>'
            f'<h1>{esc(this.title)}</h1><p class="authors">{esc(", ".join(item.authors))}</p>'
            f"<p>Version {this.number}: Posted: {long_date(this.posted.isoformat())}"
            + (f" · First posted (v1): {long_date(every[0].posted.isoformat())}" if this.number > 1 else "")
            + f"</p><p>doi: {_doi(item, this.number)}</p>{published}"
            f"<h2>Abstract</h2><p>{esc(item.abstract)}</p><p><b>Keywords:</b> {esc('; '.join(item.keywords))}</p>"
            f'<h2>Version history</h2><ol class="versions">{history}</ol>'
            f'<p><a href="{attr(download)}">Download PDF</a></p>'
        )
        return self.page(title=this.title, content=content, kind="record" if this is latest else "version", head=head)

    def _file(self, request: Request, key: str) -> Response:
        item = next((i for i in self.items if i.key == key), None)
        return self.not_found() if item is None else self.pdf(item)

    def _months(self) -> list[str]:
        return sorted({i.date[:7] for i in self.items}, reverse=True)

    def _digests(self, request: Request) -> Response:
        rows = "".join(
            f'<li><a href="/digest/{m}">Lintel Monthly — {MONTHS[int(m[5:]) - 1]} {m[:4]}</a></li>'
            for m in self._months()
        )
        content = f"<h1>Monthly digest</h1><p>Every month's new preprints, as mailed to subscribers.</p><ul>{rows}</ul>"
        return self.page(title="Monthly digest", content=content, kind="digests")

    def _digest(self, request: Request, month: str) -> Response:
        new = sorted((i for i in self.items if i.date[:7] == month), key=lambda i: i.date)
        if not new:
            return self.not_found()
        sections = ""
        for subject in self._subjects():
            rows = "".join(
                f'<li>{i.date} — <a href="{attr(i.path)}">{esc(versions(i)[0].title)}</a> ({esc(i.authors[0])} et al.)'
                "</li>"
                for i in new
                if i.category == subject
            )
            sections += f"<h2>{esc(subject)}</h2><ul>{rows}</ul>" if rows else ""
        title = f"Lintel Monthly — {MONTHS[int(month[5:]) - 1]} {month[:4]}"
        return self.page(title=title, content=f"<h1>{esc(title)}</h1><p>{len(new)} new preprints</p>{sections}",
                         kind="digest")  # fmt: skip
