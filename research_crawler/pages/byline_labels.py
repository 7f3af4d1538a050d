"""The labels a byline writes before its names, as data, in the languages of the page corpus: those that say the
name wrote the item ("作者：", "كتب", "Penulis", "Reporting by") and those that credit someone or something else on
the same line ("来源：", "责任编辑：", "Editor", "Editing by", "Quelle:"). A reader splits a line of labelled credits
("时间：2024.05.11 来源：光明日报 作者：南帆 分享到：", "(Reporting by A and B; Editing by C)") at its labels and
takes the writers' part; a name set over its role in a box of credits ("Dian Erika Nugraheny" / "Penulis",
"Icha Rastika" / "Editor") wrote the item only where the role is a writer's."""

from __future__ import annotations

import itertools
import re
from typing import Any

from research_crawler.pages.item_dates import dates_in_text, without_dates
from research_crawler.pages.person_names import split_people
from research_crawler.pages.reporter_credits import reporters_named

__all__ = ["OTHER_LABELS", "WRITER_LABELS", "labelled_credit", "role_credits", "writers_labelled"]

#: Labels before the writer's name, by language. A label is read before a colon ("作者：南帆", "Yazar: …"); those
#: in `_BARE` also without one, where they open the line or one of its parts ("كتب سيد الخلفاوى", "(Reporting by …").
WRITER_LABELS: dict[str, tuple[str, ...]] = {
    "en": ("author", "authors", "written by", "writer", "reporter", "reporting by", "words by", "text by", "by"),
    "de": ("autor", "autorin", "text", "von"),
    "fr": ("auteur", "auteure", "texte", "par"),
    "es": ("autor", "autora", "texto", "por"),
    "pl": ("autor", "autorka", "tekst"),
    "id": ("penulis", "oleh", "reporter", "wartawan", "kontributor"),
    "tr": ("yazar", "muhabir"),
    "ar": ("كتب", "كتبت", "بقلم", "الكاتب"),
    "fa": ("نویسنده", "نوشته", "خبرنگار"),
    "zh": ("作者", "记者", "記者", "撰文", "执笔", "執筆", "文", "特约撰稿"),
    "ja": ("筆者", "執筆", "記者", "著者", "文"),
}
#: Labels of the other credits and fields a byline's line runs into: an editor's, a photographer's, the source's,
#: the time's, a counter's, a sharing button's — none of them a writer.
OTHER_LABELS: dict[str, tuple[str, ...]] = {
    "en": ("editor", "editors", "edited by", "editing by", "source", "photo", "photos", "photo by", "via",
           "hosted by", "organized by", "organised by"),  # an event's host or organiser wrote nothing
    "de": ("quelle", "foto", "fotos", "bild"),
    "fr": ("source", "photo", "édité par"),
    "es": ("fuente", "foto", "editor"),
    "pl": ("źródło", "zdjęcie", "foto"),
    "id": ("editor", "penyunting", "sumber", "foto"),
    "tr": ("editör", "kaynak", "fotoğraf"),
    "ar": ("المصدر", "تحرير"),
    "fa": ("منبع", "ویراستار", "عکس"),
    "zh": ("来源", "來源", "出处", "出處", "稿源", "编辑", "編輯", "责任编辑", "責任編輯", "责编", "编审",
           "摄影", "攝影", "图", "圖", "时间", "時間", "发布时间", "發佈時間", "发稿时间", "浏览", "瀏覽", "阅读",
           "閱讀", "分享到", "校对", "审核", "选稿"),
    "ja": ("出所", "編集", "写真", "撮影", "配信"),
}  # fmt: skip
# labels read without a colon where they open the line or a part of it: a verb or a phrase that says who did what
_BARE = frozenset({"كتب", "كتبت", "بقلم", "reporting by", "written by", "words by", "text by", "editing by",
                   "edited by", "photo by", "hosted by", "organized by", "organised by"})  # fmt: skip

_WRITER = frozenset(label for labels in WRITER_LABELS.values() for label in labels)
_OTHER = frozenset(label for labels in OTHER_LABELS.values() for label in labels)
_ALL = sorted(_WRITER | _OTHER, key=len, reverse=True)
_ALTERNATION = "|".join(re.escape(label) for label in _ALL)
_BARE_ALTERNATION = "|".join(re.escape(label) for label in sorted(_BARE, key=len, reverse=True))
# a label and its colon, at the line's start, after a space or a bracket, or (in a language written without spaces)
# after a character of its own; a bare label where the line or one of its parts opens
# (a label's colon may be a full-width bar, as Chinese pages set it, "作者︱春春"; a label may follow another's colon
# at once where the first is left empty, "作者：责任编辑：肖春芳" — the editor's, no writer's)
_LABEL = re.compile(
    rf"(?:^|(?<=[\s(（【\[;；|,，·:：︱｜]))(?P<label>{_ALTERNATION})\s*[:：︱｜]\s*"
    rf"|(?<=[\u3400-\u9fff])(?P<cjk>{_ALTERNATION})\s*[:：︱｜]\s*"
    rf"|(?:^|(?<=[(（;；|]))\s*(?P<bare>{_BARE_ALTERNATION})\s+",
    re.I,
)
_LINE_CHARACTERS = 120  # a line of credits is short; a paragraph that says "author:" is not one
_HAN = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")
_TOKEN = re.compile(r"^[^\s\d:：,，;；|()（）【】\[\]]{2,16}")  # a pen name or a handle written without spaces
_NAME_WORDS = re.compile(r"^(?:[^\W\d_][\w'’.-]*\s*){1,4}")  # a name's words, up to a date or a mark
_ROLE_WORDS = 3
_BEFORE_DATE = re.compile(r"[\s,;·|–—-]*(?:\b(?:on|at|am|le|el|il|em)\b)?[\s,;·|–—-]*$", re.I)


def _parts(text: str) -> tuple[str, list[tuple[str, str]]]:
    """The line's head before its first label, and (label, value) for each label in it, in order."""
    matches = list(_LABEL.finditer(text))
    parts = []
    for match, following in zip(matches, [*matches[1:], None], strict=False):
        label = (match["label"] or match["cjk"] or match["bare"]).casefold()
        parts.append((label, text[match.end() : following.start() if following else len(text)].strip(" ;；|,，)）】]")))
    return (text[: matches[0].start()] if matches else text), parts


def _names(value: str) -> list[str]:
    """The writers a writer's label gives: people written as people are ("A and B"), a name or handle written
    without spaces ("涅阳城 2020年01月12日" → "涅阳城"), or a name's words up to a date or a mark ("leelefever on
    Mar 5, 2008" → "leelefever": the date, and the word that leads to it, are no part of a name)."""
    if dates_in_text(value):
        value = _BEFORE_DATE.sub("", without_dates(value, mark="\x00").partition("\x00")[0]).strip()
    if people := split_people(value):
        return people
    if _HAN.search(value[:1]) and (token := _TOKEN.match(value)):
        return [token.group(0)]
    words = _NAME_WORDS.match(value)
    return [words.group(0).strip()] if words and not _HAN.search(value) else []


def writers_labelled(text: str) -> list[str]:
    """The writers a short line of labelled credits names, in order; [] where no writer's label names one. A line
    whose head credits a reporter by trade before another credit's label ("中青网记者 魏其濛 来源：中国青年报") is read
    as that credit."""
    line = " ".join(text.split())
    if not line or len(line) > _LINE_CHARACTERS:
        return []
    head, parts = _parts(line)
    if not parts:
        return []
    writers = [name for label, value in parts if label in _WRITER for name in _names(value)]
    if writers:
        return writers
    # (the outlets before the trade, joined by a middle dot: "中青报·中青网记者 魏其濛")
    return reporters_named(head) or reporters_named(re.split(r"[·・]", head)[-1]) if head.strip() else []


def labelled_credit(blocks: list[Any], index: int) -> list[str]:
    """The writers of the first line of labelled credits below the title (block `index`; -1: from the top), in the
    story and not in the page's chrome, whose writer's label names someone."""
    for block in blocks[index + 1 :]:
        if not block.chrome and (names := writers_labelled(block.text)):
            return names
    return []


def _role(text: str) -> str | None:
    words = " ".join(text.strip().strip(":：").split()).casefold()
    if not words or len(words.split()) > _ROLE_WORDS:
        return None
    return (
        "writer"
        if words in _WRITER - {"by", "von", "par", "por", "oleh", "text", "texte", "texto"}
        else ("other" if words in _OTHER else None)
    )


def role_credits(blocks: list[Any]) -> tuple[list[str], set[str]]:
    """The names a box of credits sets over their roles, one block each ("Dian Erika Nugraheny" / "Penulis",
    "Icha Rastika" / "Editor"): those whose role is a writer's, in order, and those whose role is another's — but
    for a name a short line of the page signs the item with ("Monday November 18, 2019 by Jane Doe"): a staff
    box's job title ("Jane Doe" / "Editor") does not unsay the byline, nor does it for a name the story shows alone on a
    line above the box, the bare byline under a headline (`_bare_byline`), where no one is credited as the writer."""
    writers: list[str] = []
    others: dict[str, int] = {}  # each name over another's role, and the first block that sets it so
    for index, (block, role_block) in enumerate(itertools.pairwise(blocks)):
        role = _role(role_block.text)
        name = block.text.strip().rstrip(",")
        if role is None or split_people(name) != [name]:
            continue
        if role == "writer" and name not in writers:
            writers.append(name)
        elif role == "other":
            others.setdefault(name, index)
    # (where the credits give no one a writer's role, an "Editor" under a name is the person's job at the outlet, not
    # their part in this item: a bare byline above the box stands)
    return writers, {
        name
        for name, index in others.items()
        if not _signed_by(blocks, name) and (writers or not _bare_byline(blocks, name, index))
    }


_SIGNING_WORDS = ("by", "von", "par", "por")  # "… by Jane Doe", "… von Jana Roe": the line says who wrote the item
_SIGNED_LINE_WORDS = 14  # "Monday November 18, 2019 7:45 am PST by Jane Doe"


def _signed_by(blocks: list[Any], name: str) -> bool:
    """Whether a short line of the page's text (not its chrome) credits `name` after a "by"."""
    name_words = " ".join(name.casefold().split())
    signing = re.compile(rf"(?:^|\s)(?:{'|'.join(_SIGNING_WORDS)}):?\s+{re.escape(name_words)}(?:$|[\s,;|·•])")
    return any(
        not block.chrome and len(block.text.split()) <= _SIGNED_LINE_WORDS and signing.search(block.text.casefold())
        for block in blocks
    )


def _bare_byline(blocks: list[Any], name: str, box: int) -> bool:
    """Whether the story's text (not its chrome) shows `name` alone on a line above the box of credits at block
    `box`, with no role under it: the bare byline under a headline ("Jane Doe" / "9:00 AM · January 12, 2016"), which
    the author box at the foot ("Jane Doe" / "Editor": the writer's job at the outlet) does not unsay."""
    return any(
        not block.chrome and block.text.strip().rstrip(",") == name and _role(after.text) is None
        for block, after in itertools.pairwise(blocks[: box + 1])
    )
