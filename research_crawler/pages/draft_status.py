"""Whether a page says of itself that it is an unfinished draft: a work in progress that was never issued, which a
careful reader does not list as a paper or a report however close its subject.

Read from what the page shows, never from its topic: its main heading (or ``<title>``) opening with "DRAFT" written
in capitals or "Draft:" (a wiki's or an intranet's convention for pages still being written), or a field labelled
"Status" whose value is "Draft" ("Status: Draft", a properties table's "Status | DRAFT" row); and, in either case,
no file of its own (a draft that was issued for comment carries its PDF, and is then a version of a work: a standards
body's "Initial Public Draft" is one).
"""

from __future__ import annotations

import re
from typing import Any

from research_crawler.pages.page_shows import read_visible_page, words_of

__all__ = ["declares_an_unissued_draft"]

#: A heading or title that opens by calling its page a draft: "DRAFT Sensor procurement options", "Draft: …".
_DRAFT_HEADING = re.compile(r"^\W*(?:DRAFT\b|Draft\s*[:–—-])")
#: The labels of a field giving a record's status.
_STATUS_LABELS = frozenset({"status", "document status", "report status", "page status"})
_DRAFT_VALUES = frozenset({"draft", "in draft", "work in progress"})


def declares_an_unissued_draft(tree: Any | None, *, title: str, has_file: bool) -> bool:
    """Whether the page (parsed as `tree`, its item's `title` as read) calls itself a draft by its heading or a
    Status field, and `has_file` is False (no file of its own is linked from it)."""
    if has_file or tree is None:
        return False
    if _DRAFT_HEADING.match(title or ""):
        return True
    blocks = [block for block in read_visible_page(tree).blocks if not block.chrome]
    for at, block in enumerate(blocks):
        if _DRAFT_HEADING.match(block.text) and block.heading == 1:
            return True
        label, _, value = block.text.partition(":")
        if value.strip() and words_of(label) in _STATUS_LABELS:
            return words_of(value) in _DRAFT_VALUES
        if words_of(block.text.rstrip(":")) in _STATUS_LABELS and at + 1 < len(blocks):
            return words_of(blocks[at + 1].text) in _DRAFT_VALUES
    return False
