"""Links a page says hold nothing: a category, a facet or a series shown with a count of zero beside it.

Indexes and bibliographies write how many entries each of their categories holds ("Philosophy of Mind (0)",
"Epistemology (14)", "Theses (0 items)"). A careful reader does not open a category the page itself says is empty:
it would cost a page and show no work. A link counts as empty only where every place the page shows it carries such
a zero right after its text (a header's "Browse" and a list's "Value Theory (12)" to the same address are not empty).
"""

from __future__ import annotations

import re

from research_crawler.pages.page import Page

__all__ = ["shown_empty"]

#: A count of nothing right after a link's text, in brackets: "(0)", "[0]", "(0 items)", "(0 papers)".
_ZERO_COUNT = re.compile(r"^[^\[\]\n]*?[(\[]\s*0\s*(?:[a-z]+\s*)?[)\]]\W*$", re.IGNORECASE)
#: Where one shown link's own stretch of a line ends: the next link's number, or the line's end.
_NEXT_LINK = re.compile(r"\[\d+\]|\n")


def shown_empty(page: Page, link_id: int) -> bool:
    """Whether the page shows link `link_id` only with a count of zero entries beside it, wherever it shows it."""
    marker = f"[{link_id}] "
    stretches = []
    start = page.markdown.find(marker)
    while start != -1:
        rest = page.markdown[start + len(marker) :]
        end = _NEXT_LINK.search(rest)
        stretches.append(rest[: end.start()] if end else rest)
        start = page.markdown.find(marker, start + len(marker))
    return bool(stretches) and all(_ZERO_COUNT.match(stretch) for stretch in stretches)
