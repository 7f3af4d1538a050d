"""Who wrote a story, where a Chinese, Japanese or Korean page names its writer by their trade rather than by "by":
"半月谈记者 史卫燕", "編集委員 中沢克二", "（中央社記者溫貴香台北21日電）", "최윤호 기자 uknow@donga.com",
"作者：王小明", "文/李四", "文・写真 山田太郎". The line says what the person is (reporter, correspondent, writer)
beside a name written as these languages write names (two to four characters, no spaces); an editor's or a
photographer's credit ("责任编辑：严玉洁", "记者 张三 摄") names no writer."""

from __future__ import annotations

import re
from typing import Any

__all__ = ["reporter_credit", "reporters_named"]

_HAN = r"[\u3400-\u9fff\uf900-\ufaff]"
_NAME = rf"{_HAN}{{2,4}}"
_RUN = rf"{_NAME}(?:\s*[、，,・\s]\s*{_NAME})*"
_NAMES = rf"(?P<names>{_RUN})"
# the trade before the name: a reporter, a correspondent, a senior writer, a writer, "text by"
_TRADE = (
    r"(?:(?:记者|記者|特派员|特派員|编辑委员|編集委員|论说委员|論説委員|执笔|執筆)\s*[:：/／]?"
    r"|(?:作者|撰文|文)\s*[:：/／]"  # "文" only as "文/…": alone it is any word's first character
    r"|(?:文・写真|写真・文|取材・文|文と写真|取材・執筆)\s*[:：/／]?)"  # Japanese "text and photos by"
)
# "半月谈记者 史卫燕", "編集委員 中沢克二", "作者：王小明", "文/李四": a short line, the name last (the outlet may
# come first)
# (after the story's source, where the line names it first: "来源：新华网 作者：温素霞", the two run together or not)
_TRADE_THEN_NAME = re.compile(
    rf"^[\s【\[(（]*(?:(?:来源|來源|出处|出處|稿源)\s*[:：]\s*[^\s:：]{{1,16}}?\s*)?(?:{_HAN}{{0,8}}?){_TRADE}\s*{_NAMES}"
    r"\s*[】\])）]?$"
)
# "（中央社記者溫貴香台北21日電）…", "新华社北京3月1日电（记者张三）": a news agency's dateline, the writer before the
# place and date, or in brackets after them
_AGENCY_DATELINE = re.compile(
    rf"^[\s(（]*{_HAN}{{0,6}}?(?:记者|記者){_NAMES}(?P<place>{_HAN}{{2}})\d{{1,2}}日(?:电|電)"
    rf"|(?:电|電)\s*[（(](?:记者|記者)\s*(?P<bracketed>{_RUN})\s*[)）]"
)
# "최윤호 기자 uknow@donga.com", "홍길동 특파원": a Korean name, the trade after it, an e-mail address or nothing
_KOREAN = re.compile(r"^(?P<names>[가-힣]{2,4})\s*(?:기자|특파원|선임기자|논설위원)(?:\s+\S+@\S+)?\s*$")
_PHOTOGRAPHER = re.compile(r"(?:摄|攝|撮影|사진)\s*$")
_LINE_CHARACTERS = 40  # a credit line is short; the agency's dateline opens a paragraph of any length


def reporters_named(text: str) -> list[str]:
    """The writers a line credits by their trade, in order; [] for any other line."""
    line = " ".join(text.split())
    if agency := _AGENCY_DATELINE.search(line[:60]):
        return _names(agency.group("names") or agency.group("bracketed"))
    if len(line) > _LINE_CHARACTERS or _PHOTOGRAPHER.search(line):
        return []
    credited = _TRADE_THEN_NAME.match(line) or _KOREAN.match(line)
    return _names(credited.group("names")) if credited else []


def reporter_credit(blocks: list[Any], index: int) -> list[str]:
    """The writers credited by their trade below the title (block `index`), in the story and not in the page's
    chrome: the first line that credits any."""
    for block in blocks[index + 1 :]:
        if not block.chrome and (names := reporters_named(block.text)):
            return names
    return []


def _names(run: str) -> list[str]:
    return [name for name in re.split(r"\s*[、，,・\s]\s*", run) if name]
