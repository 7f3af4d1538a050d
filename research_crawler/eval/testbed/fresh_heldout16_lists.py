"""HELD OUT, fresh (sixteenth batch): the text analysis mailing lists, built as Mailman 2 and its Pipermail archiver
build them (see `fresh_heldout16.py`; do not read or tune anything to it). The root redirects to the server's list
overview (`/mailman/listinfo`); a list's info page links its archive (`/pipermail/textanalysis-l/`), a table of
months newest first, each month viewable by thread, subject, author and date (`2024-March/thread.html`) and as
gzipped text. A message (`2024-March/000123.html`) gives its subject with the list's tag, its poster (the first
author, or a member posting on the authors' behalf), the time as Pipermail writes it ("Fri Mar  1 10:42:12 UTC
2024"), its neighbours, and a preformatted body naming the paper's authors, with the attachment scrubbed to a link.
Replies, calls for papers and job posts are messages too. The other lists' archives are private; admin, options and
roster pages and the gzipped texts are forbidden.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from research_crawler.eval.testbed.fresh_heldout16 import LIST, message_number
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["HOST", "Fresh16ListsSite", "Message", "messages", "month_name", "pipermail_date", "subject_of"]

HOST = "lists.textanalysis.example"
TAG = "[Textanalysis-l]"
#: Members who post for others and answer announcements.
_MEMBERS = ("Ingrid Halvorsen", "Tomasz Wierzbicki", "Aoife Brennan", "Rafael Quintero")
_OTHER_LISTS = {"dh-jobs": "Job announcements in the digital humanities", "tei-users": "Users of the TEI guidelines"}
_FILLERS = (
    "CFP: Workshop on Computational Literary Studies",
    "Job: Research software engineer in text analysis",
    "Reminder: abstracts due for the annual conference",
    "Corpus release: annotated letters of the eighteenth century",
)


def _hash(text: str) -> int:
    return sum(ord(c) * (n + 5) for n, c in enumerate(text))


def month_name(day: date) -> str:
    """A month's archive folder ('2024-March')."""
    return f"{day.year}-{MONTHS[day.month - 1]}"


def pipermail_date(moment: datetime) -> str:
    """A message's time as Pipermail writes it, the day padded with a space: 'Fri Mar  1 10:42:12 UTC 2024'."""
    return f"{moment:%a %b} {moment.day:2d} {moment:%H:%M:%S} UTC {moment.year}"


def subject_of(item: Item) -> str:
    """An announcement's subject, as members write them."""
    forms = ("New paper: {t}", "Publication announcement: {t}", "{t} (new article)")
    return f"{TAG} " + forms[_hash(item.key) % len(forms)].format(t=item.title)


@dataclass(frozen=True)
class Message:
    """One archived message: an announcement (`item`), a reply to one, or another post."""

    number: int
    subject: str
    poster: str
    moment: datetime
    body: str
    item: Item | None = None
    parent: int | None = None

    @property
    def month(self) -> str:
        return month_name(self.moment.date())

    @property
    def path(self) -> str:
        return f"/pipermail/{LIST}/{self.month}/{self.number:06d}.html"

    @property
    def email(self) -> str:
        first, *rest = self.poster.lower().split()
        return f"{first}.{rest[-1] if rest else 'list'} at {('uni-' + first[:3])}.example"


def _announcement(item: Item, base: str) -> Message:
    day = date.fromisoformat(item.date)
    moment = datetime(day.year, day.month, day.day, 8) + timedelta(seconds=_hash(item.title) % 36_000)
    behalf = _hash(item.key) % 3 == 0
    poster = _MEMBERS[_hash(item.title) % len(_MEMBERS)] if behalf else item.authors[0]
    opening = "On behalf of the authors, I am" if behalf else "We are"
    authors = ", ".join(item.authors)
    url = base + item.pdf_path
    body = (
        f"Dear all,\n\n{opening} happy to share a new paper that may interest the list:\n\n  {esc(item.title)}\n  "
        f"{esc(authors)}\n\nAbstract:\n{esc(item.abstract)}\n\nComments welcome.\n\nBest wishes,\n{esc(poster)}\n"
        "-------------- next part --------------\nA non-text attachment was scrubbed...\nName: paper.pdf\n"
        f"Type: application/pdf\nSize: {120_000 + _hash(item.title) % 400_000} bytes\nDesc: not available\n"
        f'URL: <A HREF="{attr(url)}">{esc(url)}</A>\n'
    )
    return Message(message_number(day), subject_of(item), poster, moment, body, item)


def messages(items: list[Item], base: str) -> list[Message]:
    """Every message of the archive in the order they came: announcements, replies to some, and other posts."""
    made = [_announcement(item, base) for item in items]
    for first in list(made):
        if first.item is None or _hash(first.subject) % 3:
            continue
        day = first.moment.date() + timedelta(days=1)
        poster = _MEMBERS[(_hash(first.subject) + 1) % len(_MEMBERS)]
        body = f"Thanks for sharing! Is the code available too?\n\n{esc(poster)}\n"
        subject = f"{TAG} Re: {first.subject.removeprefix(TAG + ' ')}"
        moment = datetime(day.year, day.month, day.day, 19, 5)
        made.append(Message(message_number(day) + 1, subject, poster, moment, body, parent=first.number))
    months = sorted({(m.moment.year, m.moment.month) for m in made})
    for n, (year, month) in enumerate(months):
        day = date(year, month, 27)
        poster = _MEMBERS[n % len(_MEMBERS)]
        subject = f"{TAG} {_FILLERS[n % len(_FILLERS)]}"
        body = f"Dear colleagues,\n\nplease see the announcement below and circulate it widely.\n\n{esc(poster)}\n"
        made.append(Message(message_number(day) + 2, subject, poster, datetime(year, month, 27, 11, 30), body))
    return sorted(made, key=lambda m: m.number)


class Fresh16ListsSite(SiteApp):
    """A Mailman 2 server: list overview, list info pages, Pipermail archive by month and view, messages."""

    def routes(self) -> list[Route]:
        self.messages = messages(self.items, self.links.absolute(""))
        self._info = self.links.absolute(f"/mailman/listinfo/{LIST}")
        self.by_number = {m.number: m for m in self.messages}
        self.pdfs = {i.pdf_path: i for i in self.items}
        return [
            (re.compile(r"/"), lambda request: Response.redirect("/mailman/listinfo", status=302)),
            (re.compile(r"/mailman/listinfo/?"), self._overview),
            (re.compile(r"/mailman/listinfo/(?P<name>[a-z-]+)"), self._listinfo),
            (re.compile(rf"/pipermail/{LIST}/?(index\.html)?"), self._index),
            (
                re.compile(
                    rf"/pipermail/{LIST}/(?P<month>\d{{4}}-[A-Za-z]+)/(?P<view>thread|subject|author|date)\.html"
                ),
                self._month,
            ),
            (re.compile(rf"/pipermail/{LIST}/(?P<month>\d{{4}}-[A-Za-z]+)/(?P<number>\d{{6}})\.html"), self._message),
            (re.compile(rf"/pipermail/{LIST}/attachments/\d{{8}}/[0-9a-f]{{8}}/attachment\.pdf"), self._attachment),
        ]

    def robots_txt(self) -> str:
        return (
            "User-agent: *\nDisallow: /mailman/admin/\nDisallow: /mailman/options/\nDisallow: /mailman/roster/\n"
            "Disallow: /mailman/private/\nDisallow: /pipermail/*.txt.gz\n"
        )

    def sample_paths(self) -> dict[str, str]:
        first = next(m for m in self.messages if m.item)
        return {
            "overview": "/mailman/listinfo",
            "listinfo": f"/mailman/listinfo/{LIST}",
            "archive": f"/pipermail/{LIST}/",
            "month": f"/pipermail/{LIST}/{first.month}/thread.html",
            "message": first.path,
            "attachment": self.items[0].pdf_path,
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        html = document(title=title, head=head, body=content)
        return Response.html(html, kind=kind, status=status)

    # ------------------------------------------------------------------ Mailman

    def _overview(self, request: Request) -> Response:
        lists = {LIST: "Computational text analysis in the humanities", **_OTHER_LISTS}
        rows = "".join(
            f'<tr><td><a href="listinfo/{name}"><strong>{esc(name.capitalize())}</strong></a></td><td>{esc(text)}'
            "</td></tr>"
            for name, text in lists.items()
        )
        content = (
            f'<table border="0" width="100%" cellspacing="4" cellpadding="5"><tr><td colspan="2" bgcolor="#99ccff" '
            f'align="center"><b><font size="+3">{HOST} Mailing Lists</font></b></td></tr><tr><td colspan="2"><p>'
            f"Below is a listing of all the public mailing lists on {HOST}. Click on a list name to get more "
            f"information about the list, or to subscribe, unsubscribe, and change the preferences on your "
            f"subscription.</p></td></tr><tr><td><b>List</b></td><td><b>Description</b></td></tr>{rows}</table>"
        )
        return self.page(title=f"{HOST} Mailing Lists", content=content, kind="home")

    def _listinfo(self, request: Request, name: str) -> Response:
        if name != LIST and name not in _OTHER_LISTS:
            return self.not_found()
        label = name.capitalize()
        where = f"/pipermail/{name}/" if name == LIST else f"/mailman/private/{name}/"
        archive = f'<a href="{attr(self.links.absolute(where))}">{label} Archives</a>'
        archive += "" if name == LIST else " (members only)"
        content = (
            f'<table width="100%"><tr><td bgcolor="#99ccff"><b><font size="+1">{label} -- '
            f"{esc(_OTHER_LISTS.get(name, 'Computational text analysis in the humanities'))}</font></b></td></tr>"
            f"<tr><td><p>About {label}</p><p>To see the collection of prior postings to the list, visit the {archive}."
            f'</p></td></tr><tr><td><form method="POST" action="../subscribe/{name}"><input type="text" name="email">'
            f'<input type="submit" name="email-button" value="Subscribe"></form><p><a href="../roster/{name}">Visit '
            f'Subscriber List</a></p><form method="POST" action="../options/{name}"><input type="submit" '
            f'value="Unsubscribe or edit options"></form><p><a href="../admin/{name}">{label} administrative '
            f"interface</a> (requires authorization)</p></td></tr></table>"
        )
        return self.page(title=f"{label} Info Page", content=content, kind="listinfo")

    # ------------------------------------------------------------------ Pipermail

    def _index(self, request: Request) -> Response:
        months: dict[str, list[Message]] = {}
        for message in reversed(self.messages):
            months.setdefault(message.month, []).append(message)
        rows = "".join(
            f"<tr><td>{esc(month.split('-')[1])} {month.split('-')[0]}:</td><td>"
            + "".join(
                f'<A href="{month}/{v}.html">[ {v.capitalize()} ]</a>' for v in ("thread", "subject", "author", "date")
            )
            + f'</td><td><A href="{month}.txt.gz">[ Gzip\'d Text {1 + sum(len(m.body) for m in shown) // 1024} KB ]'
            "</a></td></tr>"
            for month, shown in months.items()
        )
        content = (
            f'<h1>The {LIST.capitalize()} Archives </h1><p>You can get <a href="{attr(self._info)}">'
            f'more information about this list</a>.</p><table border="3"><tr><td>Archive</td><td>View by:</td><td>'
            f"Downloadable version</td></tr>{rows}</table>"
        )
        return self.page(title=f"The {LIST.capitalize()} Archives", content=content, kind="archive")

    def _month(self, request: Request, month: str, view: str) -> Response:
        shown = [m for m in self.messages if m.month == month]
        if not shown:
            return self.not_found()
        if view == "subject":
            shown.sort(key=lambda m: (m.subject.removeprefix(f"{TAG} ").removeprefix("Re: ").lower(), m.number))
        elif view == "author":
            shown.sort(key=lambda m: (m.poster, m.number))
        lines = []
        for message in shown:
            if view == "thread" and message.parent is not None:
                continue
            lines.append(self._line(message))
            replies = [m for m in shown if m.parent == message.number] if view == "thread" else []
            if replies:
                lines.append("<UL>" + "".join(self._line(r) for r in replies) + "</UL>")
        others = " ".join(
            f'<a href="{v}.html">[ {v} ]</a>' for v in ("thread", "subject", "author", "date") if v != view
        )
        year, name = month.split("-")
        first, last = min(m.moment for m in shown), max(m.moment for m in shown)
        content = (
            f'<a name="start"></a><h1>{name} {year} Archives by {view}</h1><ul><li> <b>Messages sorted by:</b> '
            f'{others}</li><li><b><a href="{attr(self._info)}">More info on this '
            f"list...</a></b></li></ul><p><b>Starting:</b> <i>{pipermail_date(first)}</i><br><b>Ending:</b> <i>"
            f"{pipermail_date(last)}</i><br><b>Messages:</b> {len(shown)}<p><ul>{''.join(lines)}</ul><p><a "
            f'name="end"><b>Last message date:</b></a> <i>{pipermail_date(last)}</i><br><b>Archived on:</b> '
            f"<i>{pipermail_date(last + timedelta(minutes=1))}</i><p><hr><i>This archive was generated by Pipermail "
            "0.09 (Mailman edition).</i>"
        )
        return self.page(
            title=f"The {LIST.capitalize()} {name} {year} Archive by {view}", content=content, kind="listing"
        )

    @staticmethod
    def _line(message: Message) -> str:
        return (
            f'<LI><A HREF="{message.number:06d}.html">{esc(message.subject)}\n</A><A NAME="{message.number}">&nbsp;'
            f"</A>\n<I>{esc(message.poster)}\n</I>"
        )

    def _message(self, request: Request, month: str, number: str) -> Response:
        message = self.by_number.get(int(number))
        if message is None or message.month != month:
            return self.not_found()
        at = self.messages.index(message)
        around = []
        for label, other in (("Previous message", at - 1), ("Next message", at + 1)):
            if 0 <= other < len(self.messages):
                near = self.messages[other]
                href = f"{near.number:06d}.html" if near.month == month else f"../{near.month}/{near.number:06d}.html"
                around.append(f'<LI>{label}: <A HREF="{href}">{esc(near.subject)}\n</A></li>')
        sorts = "".join(
            f'<a href="{v}.html#{message.number}">[ {v} ]</a>\n' for v in ("date", "thread", "subject", "author")
        )
        mailto = f"mailto:{LIST}%40{HOST}?Subject={message.subject.replace(' ', '%20')}"
        content = (
            f'<H1>{esc(message.subject)}\n</H1>\n<B>{esc(message.poster)}</B>\n<A HREF="{attr(mailto)}" TITLE="'
            f'{attr(message.subject)}">{esc(message.email)}\n</A><BR>\n<I>{pipermail_date(message.moment)}</I>\n<P><UL>'
            f"{''.join(around)}<LI> <B>Messages sorted by:</B>\n{sorts}</LI></UL><HR>\n<!--beginarticle-->\n<PRE>"
            f"{message.body}</PRE>\n<!--endarticle-->\n<HR>\n<P><UL>"
            f'<LI><B>Messages sorted by:</B>\n{sorts}</LI></UL><hr><a href="{attr(self._info)}'
            f'">More information about the {LIST.capitalize()}\nmailing list</a><br>'
        )
        head = '<LINK REL="Index" HREF="index.html" >'
        return self.page(
            title=message.subject, content=content, kind="article" if message.item else "message", head=head
        )

    def _attachment(self, request: Request) -> Response:
        item = self.pdfs.get(request.path)
        return self.pdf(item) if item is not None else self.not_found()
