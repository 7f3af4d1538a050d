"""A Markdown draft cut into line blocks — headings, list items, table rows, paragraphs, code — so the
citation guard can judge one report entry at a time and give back every untouched line byte for byte.

This is not a full CommonMark parser: it reads the shapes an LLM writes a report in (numbered and bulleted
lists with indented sub-lines, pipe tables, heading sections, paragraphs) and is lenient where models are
(a sub-bullet indented by two spaces under ``1.`` belongs to that entry).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

__all__ = ["Block", "BlockKind", "split_blocks"]


class BlockKind(StrEnum):
    BLANK = "blank"
    CODE = "code"
    HEADING = "heading"
    PARAGRAPH = "paragraph"
    LIST_ITEM = "list_item"
    TABLE_HEADER = "table_header"
    TABLE_ROW = "table_row"
    RULE = "rule"


@dataclass(slots=True)
class Block:
    """Consecutive lines of one kind; blocks partition the draft's lines in order.

    `group` is shared by siblings: the items of one list, the rows of one table, a run of paragraphs
    between two other blocks. `numbered` marks ordered list items and headings that start with a number.
    """

    kind: BlockKind
    lines: list[str]
    group: int = -1
    numbered: bool = False
    level: int = 0

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]|$)")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_RULE = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_LIST_ITEM = re.compile(r"^( *)([-*+]|\d{1,9}[.)])(?:[ \t]+|$)")
_TABLE_DELIMITER = re.compile(r"^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$")
_NUMBERED_HEADING = re.compile(r"^(?:[^\W\d_]{1,12}[ \t]+)?(?:#\d{1,3}\b|\d{1,3}[ \t]*[.):\-–—])")
#: Sub-lines indented at least this far stay with the list item above them (models indent by 2, 3 or 4).
_CONTINUATION_INDENT = 2


def _is_blank(line: str) -> bool:
    return not line.strip()


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _top_list_item(line: str) -> re.Match[str] | None:
    match = _LIST_ITEM.match(line)
    if match is None or len(match.group(1)) >= _CONTINUATION_INDENT or _RULE.match(line):
        return None
    return match


def _is_table_start(lines: list[str], index: int) -> bool:
    return (
        index + 1 < len(lines)
        and "|" in lines[index]
        and bool(_TABLE_DELIMITER.match(lines[index + 1]))
        and ("|" in lines[index + 1] or lines[index].strip().startswith("|"))
    )


def _starts_block(lines: list[str], index: int) -> bool:
    """True when line `index` cannot continue a paragraph or a lazy list-item line."""
    line = lines[index]
    return bool(
        _is_blank(line)
        or _FENCE.match(line)
        or _HEADING.match(line)
        or _RULE.match(line)
        or _top_list_item(line)
        or _is_table_start(lines, index)
    )


def split_blocks(markdown: str) -> list[Block]:
    """The blocks of `markdown` (split on ``\\n``); ``"\\n".join`` of all their lines gives it back."""
    lines = markdown.split("\n")
    blocks: list[Block] = []
    group = 0
    run_kind: str | None = None  # what the current sibling run is: "bullet", "ordered", "table", "paragraph"

    def new_group(kind: str) -> int:
        nonlocal group, run_kind
        if run_kind != kind:
            group += 1
            run_kind = kind
        return group

    index = 0
    while index < len(lines):
        line = lines[index]
        if _is_blank(line):
            blocks.append(Block(BlockKind.BLANK, [line]))
            index += 1
            continue
        if fence := _FENCE.match(line):
            end = _fence_end(lines, index, fence.group(1))
            blocks.append(Block(BlockKind.CODE, lines[index:end]))
            run_kind = None
            index = end
            continue
        if heading := _HEADING.match(line):
            text = line[heading.end() :].strip()
            blocks.append(
                Block(
                    BlockKind.HEADING,
                    [line],
                    level=len(heading.group(1)),
                    numbered=bool(_NUMBERED_HEADING.match(text)),
                )
            )
            run_kind = None
            index += 1
            continue
        if _RULE.match(line):
            blocks.append(Block(BlockKind.RULE, [line]))
            run_kind = None
            index += 1
            continue
        if item := _top_list_item(line):
            ordered = item.group(2)[0].isdigit()
            end = _list_item_end(lines, index)
            blocks.append(
                Block(
                    BlockKind.LIST_ITEM,
                    lines[index:end],
                    group=new_group("ordered" if ordered else "bullet"),
                    numbered=ordered,
                )
            )
            index = end
            continue
        if _is_table_start(lines, index):
            table = new_group("table")
            blocks.append(Block(BlockKind.TABLE_HEADER, lines[index : index + 2], group=table))
            index += 2
            while index < len(lines) and not _is_blank(lines[index]) and "|" in lines[index]:
                blocks.append(Block(BlockKind.TABLE_ROW, [lines[index]], group=table))
                index += 1
            run_kind = None
            continue
        end = index + 1
        while end < len(lines) and not _starts_block(lines, end):
            if _SETEXT.match(lines[end]):
                break
            end += 1
        if end < len(lines) and _SETEXT.match(lines[end]) and not _is_blank(lines[end]):
            underline = lines[end].strip()[0]
            blocks.append(Block(BlockKind.HEADING, lines[index : end + 1], level=1 if underline == "=" else 2))
            run_kind = None
            index = end + 1
            continue
        blocks.append(Block(BlockKind.PARAGRAPH, lines[index:end], group=new_group("paragraph")))
        index = end
    return blocks


def _fence_end(lines: list[str], start: int, fence: str) -> int:
    closing = re.compile(rf"^ {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
    for index in range(start + 1, len(lines)):
        if closing.match(lines[index]):
            return index + 1
    return len(lines)


def _list_item_end(lines: list[str], start: int) -> int:
    """The line after the last line of the list item at `start`: its indented sub-lines, lazy
    continuation lines, and blank lines that are followed by more indented sub-lines."""
    end = start + 1
    while end < len(lines):
        line = lines[end]
        if _is_blank(line):
            following = end
            while following < len(lines) and _is_blank(lines[following]):
                following += 1
            if following < len(lines) and _indent(lines[following]) >= _CONTINUATION_INDENT:
                end = following
                continue
            return end
        if _indent(line) >= _CONTINUATION_INDENT:
            end += 1
            continue
        if _starts_block(lines, end):
            return end
        end += 1  # a lazy continuation line
    return end
