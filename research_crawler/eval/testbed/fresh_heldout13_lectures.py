"""HELD OUT, fresh (thirteenth batch): Northfield University's MediaSpace, built as Kaltura MediaSpace builds a video
portal (see `fresh_heldout13.py`; do not read or tune anything to it). The home page features the seminar channels;
a channel's media tab shows its twelve newest entries and loads the rest twelve at a time by script ("Load More");
its playlists tab lists one playlist per academic year of the seminar series, each holding every recording of that
year. A media entry's page names its owner (the media team, never the speaker) and its creation date written "March
15th, 2024"; the speaker and co-authors appear only in the description; tags, an interactive transcript and
attachments (the paper) follow, and related media from the same channel; a seminar presenting a paper of the
museum's collections links to it there. Lab tours, welcome talks, panels and open days sit among the seminars.
The search, user pages and downloads of the video are forbidden by robots.txt.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from typing import ClassVar

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.fresh_heldout13 import entry_id, media_name
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc, json_script
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["SHOWN", "Channel", "Fresh13LecturesSite", "Media", "channels", "kms_date", "season"]

SHOWN = 12
OWNER = "Media Services"
_INSTITUTIONS = ("University of Iceland", "Met Office", "University of Bristol", "GNS Science", "Durham University")
#: Recordings that are not research talks, in every channel: (title, days after the first work).
_OTHERS = (
    ("Welcome to the seminar series", 20),
    ("Lab tour: the sediment core store", 160),
    ("Panel discussion: careers after the PhD", 300),
    ("Open day highlights", 455),
    ("Welcome to the seminar series: new season", 385),
    ("How to book the lecture theatre cameras", 610),
    ("Panel discussion: fieldwork safety", 800),
    ("Retirement lecture and reception", 1020),
)


def kms_date(day: date) -> str:
    """A date as MediaSpace writes it: 'March 15th, 2024'."""
    suffix = "th" if 10 <= day.day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day.day % 10, "th")
    return f"{MONTHS[day.month - 1]} {day.day}{suffix}, {day.year}"


def season(day: date) -> str:
    """The academic year a recording falls in: '2023-24' (September to August)."""
    start = day.year if day.month >= 9 else day.year - 1
    return f"{start}-{(start + 1) % 100:02d}"


@dataclass(frozen=True)
class Media:
    """A media entry: a recorded talk (`item`) or another recording."""

    entry: str
    title: str
    day: date
    channel: str
    item: Item | None = None

    @property
    def path(self) -> str:
        return self.item.path if self.item is not None else f"/media/{media_name(self.title)}/{self.entry}"

    @property
    def duration(self) -> str:
        seconds = 600 + int(self.entry[2:], 36) % 3600
        return f"{seconds // 60}:{seconds % 60:02d}"


@dataclass(frozen=True)
class Channel:
    """A channel of one seminar series, its media newest first."""

    number: int
    name: str
    media: tuple[Media, ...]

    @property
    def path(self) -> str:
        return f"/channel/{media_name(self.name)}/{self.number}"

    def playlists(self) -> dict[str, list[Media]]:
        """One playlist per academic year, oldest recording first."""
        years: dict[str, list[Media]] = {}
        for media in reversed(self.media):
            years.setdefault(season(media.day), []).append(media)
        return years


def channels(items: list[Item]) -> list[Channel]:
    """A channel per category, each holding its talks and the other recordings made for it."""
    made = []
    for n, name in enumerate(sorted({i.category for i in items})):
        talks = [Media(i.key, i.title, date.fromisoformat(i.date), name, i) for i in items if i.category == name]
        first = min(m.day for m in talks)
        others = [
            Media(entry_id(70000 + 10 * n + m), f"{title} ({name})" if "Welcome" in title else title,
                  first + timedelta(days=offset + 9 * n), name)
            for m, (title, offset) in enumerate(_OTHERS)
            if first + timedelta(days=offset + 9 * n) <= date(2026, 11, 20)
        ]  # fmt: skip
        media = sorted(talks + others, key=lambda m: (m.day, m.entry), reverse=True)
        made.append(Channel(172834 + 61 * n, name, tuple(media)))
    return made


class Fresh13LecturesSite(SiteApp):
    """A MediaSpace portal: home, channels with script-loaded media and playlists, media entries."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {
        "/help": "help",
        "/terms": "terms",
        "/accessibility": "accessibility",
    }

    def routes(self) -> list[Route]:
        self.channels = channels(self.items)
        self.media = {m.entry: m for c in self.channels for m in c.media}
        return [
            (re.compile(r"/|/home"), self._home),
            (re.compile(r"/channels"), self._channels),
            (re.compile(r"/channel/(?P<name>[^/]+)/(?P<number>\d+)"), self._channel),
            (re.compile(r"/channel/(?P<name>[^/]+)/(?P<number>\d+)/playlists"), self._playlists),
            (re.compile(r"/channel/channelmedia/channelid/(?P<number>\d+)/page/(?P<page>\d+)"), self._more),
            (re.compile(r"/playlist/dedicated/(?P<number>\d+)/(?P<year>\d{4}-\d\d)"), self._playlist),
            (re.compile(r"/media/(?P<name>[^/]+)/(?P<entry>1_[0-9a-z]{8})"), self._entry),
            (re.compile(r"/media/attachment/(?P<entry>1_[0-9a-z]{8})/paper\.pdf"), self._attachment),
            (re.compile(r"/esearch/search"), self._search),
            (re.compile(r"/user/login"), self._login),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /esearch/\nDisallow: /user/\nDisallow: /media/download/\nDisallow: /embed/\n"

    def sample_paths(self) -> dict[str, str]:
        channel = self.channels[0]
        return {
            "home": "/",
            "channels": "/channels",
            "channel": channel.path,
            "playlists": f"{channel.path}/playlists",
            "more": f"/channel/channelmedia/channelid/{channel.number}/page/2",
            "playlist": f"/playlist/dedicated/{channel.number}/{season(channel.media[0].day)}",
            "media": self.items[0].path,
            "file": self.items[0].pdf_path,
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        return self._page(title=title, content=content, kind=kind, status=status, head=head)

    def _page(
        self, *, title: str, content: str, kind: str, status: int = 200, head: str = "", script: tuple[str, ...] = ()
    ) -> Response:
        body = (
            '<div id="wrap"><header class="navbar"><a class="brand" href="/">Northfield University MediaSpace</a>'
            '<ul class="nav"><li><a href="/">Home</a></li><li><a href="/channels">Channels</a></li></ul>'
            '<form class="searchForm" action="/esearch/search" method="get"><input name="keyword"></form>'
            '<a class="login" href="/user/login">Guest</a></header>\n'
            f'<div id="content" class="container">{content}</div>\n'
            '<footer><a href="/help">Help</a> · <a href="/terms">Terms of Use</a> · <a href="/accessibility">'
            "Accessibility</a> · Powered by Kaltura</footer></div>"
        )
        html = document(title=f"{title} - Northfield University MediaSpace", head=head, body=body, body_class="kms")
        return Response.html(html, kind=kind, status=status, script_links=script)

    def _gallery(self, shown: list[Media] | tuple[Media, ...]) -> str:
        return "".join(
            f'<li class="galleryItem"><div class="thumbnail"><a href="{attr(m.path)}"><img alt="Thumbnail for entry '
            f'{esc(m.title)}" src="https://cfvod.kaltura.com/p/2010292/thumbnail/entry_id/{m.entry}/width/300"></a>'
            f'<span class="duration">{m.duration}</span></div><div class="details"><a class="item_link" href="'
            f'{attr(m.path)}"><span class="name">{esc(m.title)}</span></a><div class="meta">From '
            f'<span class="userLink">{OWNER}</span> {kms_date(m.day)}</div></div></li>'
            for m in shown
        )

    def _home(self, request: Request) -> Response:
        featured = "".join(
            f'<div class="channel-thumbnail"><a href="{c.path}"><h3>{esc(c.name)}</h3></a><p>{len(c.media)} Media</p>'
            f'<ul class="gallery">{self._gallery(c.media[:3])}</ul></div>'
            for c in self.channels
        )
        content = f'<div class="home"><h1>Featured Channels</h1>{featured}</div>'
        return self.page(title="Home", content=content, kind="home")

    def _channels(self, request: Request) -> Response:
        rows = "".join(
            f'<li class="channel"><a href="{c.path}">{esc(c.name)}</a> <span>{len(c.media)} Media</span></li>'
            for c in self.channels
        )
        return self.page(title="Channels", content=f"<h1>Channels</h1><ul>{rows}</ul>", kind="channels")

    def _find(self, number: str) -> Channel | None:
        return next((c for c in self.channels if c.number == int(number)), None)

    def _tabs(self, channel: Channel, active: str) -> str:
        return (
            f'<h1 class="channel-title">{esc(channel.name)}</h1><ul class="nav nav-tabs"><li class="'
            f'{"active" if active == "media" else ""}"><a href="{channel.path}">Media</a></li><li class="'
            f'{"active" if active == "playlists" else ""}"><a href="{channel.path}/playlists">Playlists</a></li></ul>'
        )

    def _channel(self, request: Request, name: str, number: str) -> Response:
        channel = self._find(number)
        if channel is None or name != media_name(channel.name):
            return self.not_found()
        more = f"/channel/channelmedia/channelid/{channel.number}/page/2"
        button = ""
        if len(channel.media) > SHOWN:
            button = f'<button class="btn loadMore" data-url="{more}" onclick="kms.loadMore(this)">Load More</button>'
        content = (
            f'{self._tabs(channel, "media")}<div class="sort">Sort by: Most Recent</div><ul id="channelGallery" '
            f'class="gallery">{self._gallery(channel.media[:SHOWN])}</ul>{button}'
            + json_script({"channelId": channel.number, "pageSize": SHOWN}, script_type="application/json")
        )
        script = tuple(m.path for m in channel.media[SHOWN:])
        return self._page(title=channel.name, content=content, kind="channel", script=script)

    def _more(self, request: Request, number: str, page: str) -> Response:
        channel = self._find(number)
        if channel is None:
            return self.not_found()
        start = (int(page) - 1) * SHOWN
        return Response.html(
            f'<ul class="gallery">{self._gallery(channel.media[start : start + SHOWN])}</ul>', kind="more"
        )

    def _playlists(self, request: Request, name: str, number: str) -> Response:
        channel = self._find(number)
        if channel is None:
            return self.not_found()
        rows = "".join(
            f'<li class="playlist"><a href="/playlist/dedicated/{channel.number}/{year}">{esc(channel.name)} '
            f"{year}</a> <span>{len(media)} Media</span></li>"
            for year, media in sorted(channel.playlists().items(), reverse=True)
        )
        content = f'{self._tabs(channel, "playlists")}<ul class="playlists">{rows}</ul>'
        return self.page(title=f"{channel.name} - Playlists", content=content, kind="playlists")

    def _playlist(self, request: Request, number: str, year: str) -> Response:
        channel = self._find(number)
        media = channel.playlists().get(year) if channel is not None else None
        if channel is None or media is None:
            return self.not_found()
        content = (
            f'<h1 class="playlist-title">{esc(channel.name)} {year}</h1><a href="{channel.path}">Back to channel</a>'
            f'<ol class="playlist-entries gallery">{self._gallery(media)}</ol>'
        )
        return self.page(title=f"{channel.name} {year}", content=content, kind="playlist")

    def _entry(self, request: Request, name: str, entry: str) -> Response:
        media = self.media.get(entry)
        if media is None or request.path != media.path:
            return self.not_found()
        item = media.item
        channel = next(c for c in self.channels if c.name == media.channel)
        if item is not None:
            speaker, others = item.authors[0], item.authors[1:]
            place = _INSTITUTIONS[int(entry[2:], 36) % len(_INSTITUTIONS)]
            description = f"<p>Speaker: {esc(speaker)} ({place})</p>"
            if others:
                description += f"<p>Joint work with {esc(', '.join(others))}.</p>"
            description += f"<p>{esc(item.abstract)}</p>"
            paper = next((c for c in self.testbed.copies_of(item) if c.site != item.site), None)
            if paper is not None:
                where = attr(self.links.on_site(paper.site, paper.path))
                description += "<p>The paper is in the museum's digital collections: "
                description += f'<a href="{where}">{esc(paper.title)}</a></p>'
            tags = ", ".join((*item.keywords, "seminar"))
            lines = [s for s in item.abstract.split(". ") if s][:4]
            transcript = "".join(
                f'<li><span class="time">{n // 2:02d}:{(n * 23) % 60:02d}</span> {esc(line)}</li>'
                for n, line in enumerate(["Thanks everyone for coming.", *lines])
            )
            extra = (
                f'<div id="transcript" class="tab-pane"><h2>Transcript</h2><ul class="captions">{transcript}</ul></div>'
                f'<div id="attachments" class="tab-pane"><h2>Attachments</h2><ul><li><a href="{attr(item.pdf_path)}">'
                "Paper (PDF)</a></li></ul></div>"
            )
        else:
            description, tags, extra = f"<p>{esc(media.title)}, recorded by the media team.</p>", "event", ""
        related = [m for m in channel.media if m.entry != entry][:4]
        content = (
            f'<div id="entryTitle"><h1 class="entryTitle">{esc(media.title)}</h1></div><div class="player-container">'
            f'<div id="kplayer" data-entry="{entry}"></div></div><div id="entryInfo"><div class="entry-details">From '
            f'<span class="userLink">{OWNER}</span> <span class="entryDate">{kms_date(media.day)}</span></div>'
            f'<div id="entry-description">{description}</div><div class="tags">Tags: {esc(tags)}</div>'
            f'<div class="published-in">Published in: <a href="{channel.path}">{esc(channel.name)}</a></div>{extra}'
            f'</div><aside class="related"><h2>Related Media</h2><ul class="gallery">{self._gallery(related)}</ul>'
            f'</aside><a href="/media/download/{entry}">Download</a>'
        )
        return self.page(title=media.title, content=content, kind="media")

    def _attachment(self, request: Request, entry: str) -> Response:
        media = self.media.get(entry)
        if media is None or media.item is None:
            return self.not_found()
        return self.pdf(media.item)

    def _search(self, request: Request) -> Response:
        text = request.param("keyword")
        found = search_items(self.items, text) if text else []
        rows = "".join(f'<li><a href="{attr(i.path)}">{esc(i.title)}</a></li>' for i in found)
        return self.page(title="Search", content=f"<h1>Search</h1><ul>{rows}</ul>", kind="search")

    def _login(self, request: Request) -> Response:
        form = '<h1>Login</h1><form method="post"><input name="Login[username]"></form>'
        return self.page(title="Login", content=form, kind="login")
