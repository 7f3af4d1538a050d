"""A report draft cut into the blocks CommonMark reads in it — headings, list items, table rows, paragraphs, code — so
the citation guard can judge one report entry at a time and give back every untouched line byte for byte.

It reads the blocks with the same parser as the links (`markdown_links.parse`) and is lenient only where models are
and the reader too: a sub-list indented by two spaces under ``1.`` belongs to that entry.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from markdown_it.token import Token

from research_crawler.report.markdown_links import parse

__all__ = ["Block", "BlockKind", "split_blocks"]

# --- blocks ------------------------------------------------------------------------------------------------------


class BlockKind(StrEnum):
    BLANK = "blank"
    CODE = "code"
    HEADING = "heading"
    PARAGRAPH = "paragraph"  # also a block quote, a reference definition, and raw HTML (escaped before the guard)
    LIST_ITEM = "list_item"
    TABLE_HEADER = "table_header"
    TABLE_ROW = "table_row"
    RULE = "rule"


@dataclass(slots=True)
class Block:
    """Consecutive lines of one kind; blocks partition the draft's lines in order.

    `group` is shared by siblings: the items of one list, the rows of one table, a run of paragraphs between two
    other blocks. `numbered` marks ordered list items and headings that start with a number.
    """

    kind: BlockKind
    lines: list[str]
    group: int = -1
    numbered: bool = False
    level: int = 0

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


#: Sub-lines indented at least this far after a list item stay with it (models indent by 2, 3 or 4; CommonMark
#: makes a sub-list indented less than the item's content a list of its own, but the writer meant the entry's).
_CONTINUATION_INDENT = 2


_NUMBERED_HEADING = re.compile(r"^(?:[^\W\d_]{1,12}[ \t]+)?(?:#\d{1,3}\b|\d{1,3}[ \t]*[.):\-–—])")


def _top_level(tokens: list[Token]) -> Iterator[tuple[BlockKind, int, int, dict[str, Any]]]:
    """(kind, first line, end line, details) of each top-level block, list items and table rows one by one."""
    index = 0
    while index < len(tokens):
        token = tokens[index]
        close = index
        if token.nesting == 1:  # find the matching close at this level
            depth = 0
            for close in range(index, len(tokens)):
                depth += tokens[close].nesting
                if depth == 0:
                    break
        if token.map is not None:
            start, end = token.map
            if token.type in ("bullet_list_open", "ordered_list_open"):
                ordered = {"ordered": token.type == "ordered_list_open"}
                for item in tokens[index + 1 : close]:
                    if item.type == "list_item_open" and item.level == token.level + 1 and item.map:
                        yield BlockKind.LIST_ITEM, item.map[0], item.map[1], ordered
            elif token.type == "table_open":
                rows = [t for t in tokens[index + 1 : close] if t.type == "tr_open" and t.map]
                yield BlockKind.TABLE_HEADER, start, start + 2, {}
                for row in rows[1:]:
                    assert row.map is not None
                    yield BlockKind.TABLE_ROW, row.map[0], row.map[1], {}
            elif token.type == "heading_open":
                inline = tokens[index + 1]
                yield BlockKind.HEADING, start, end, {"level": int(token.tag[1:]), "text": inline.content}
            elif token.type in ("fence", "code_block"):
                yield BlockKind.CODE, start, end, {}
            elif token.type == "hr":
                yield BlockKind.RULE, start, end, {}
            else:  # paragraph, block quote, raw HTML
                yield BlockKind.PARAGRAPH, start, end, {}
        index = close + 1


def split_blocks(markdown: str) -> list[Block]:
    """The blocks of `markdown` (split on ``\\n``); ``"\\n".join`` of all their lines gives it back."""
    lines = markdown.split("\n")
    tokens, env = parse(markdown)
    placed = [(BlockKind.PARAGRAPH, *d["map"], {}) for d in env.get("references", {}).values()]  # definitions
    placed += list(_top_level(tokens))
    blocks: list[Block] = []
    group, run_kind, covered = 0, "", 0

    def loose_lines(until: int) -> None:
        """Lines between blocks: blank ones, or text a block's map left out (read as a paragraph of its own)."""
        nonlocal run_kind
        for number in range(covered, until):
            blank = not lines[number].strip()
            blocks.append(Block(BlockKind.BLANK if blank else BlockKind.PARAGRAPH, [lines[number]]))
            run_kind = run_kind if blank else ""

    for kind, start, end, details in sorted(placed, key=lambda place: place[1]):
        start = max(start, covered)
        loose_lines(start)
        while end > start + 1 and not lines[end - 1].strip():
            end -= 1  # trailing blank lines belong to no block
        if end <= start:
            continue
        body = lines[start:end]
        last = next((n for n in range(len(blocks) - 1, -1, -1) if blocks[n].kind is not BlockKind.BLANK), None)
        indent = len(body[0]) - len(body[0].lstrip(" \t"))
        if last is not None and blocks[last].kind is BlockKind.LIST_ITEM and indent >= _CONTINUATION_INDENT:
            blocks[last].lines += [line for block in blocks[last + 1 :] for line in block.lines] + body
            del blocks[last + 1 :]
        else:
            sibling = {
                BlockKind.LIST_ITEM: "ordered" if details.get("ordered") else "bullet",
                BlockKind.TABLE_HEADER: "table",
                BlockKind.TABLE_ROW: "table",
                BlockKind.PARAGRAPH: "paragraph",
            }.get(kind, "")
            if sibling != run_kind or kind is BlockKind.TABLE_HEADER:
                group += 1
            run_kind = sibling
            numbered = bool(details.get("ordered")) or bool(_NUMBERED_HEADING.match(details.get("text", "")))
            blocks.append(Block(kind, body, group=group if sibling else -1, numbered=numbered,
                                level=int(details.get("level", 0))))  # fmt: skip
        covered = end
    loose_lines(len(lines))
    return blocks


