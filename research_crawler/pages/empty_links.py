"""Links a page says hold nothing: a category, a facet or a series shown with a count of zero beside it.

Indexes and bibliographies write how many entries each of their categories holds ("Philosophy of Mind (0)",
"Epistemology (14)", "Theses (0 items)"). A careful reader does not open a category the page itself says is empty:
it would cost a page and show no work. The count is the one the page shows beside the anchor that names the link
(`Link.count`, read by `pages/links.py` from the page's markup: the list's "Value Theory (12)" rather than the
header's "Browse" to the same address), so a link is empty where that count is zero.
"""

from __future__ import annotations

import re

from research_crawler.pages.page import Page

__all__ = ["shown_empty"]

#: A count of nothing, as `Link.count` keeps it: "0", "0 items", "0 papers".
_ZERO_COUNT = re.compile(r"0+(?:\s+[^\W\d_]+)?")


def shown_empty(page: Page, link_id: int) -> bool:
    """Whether the page shows link `link_id` with a count of zero entries beside the anchor that names it."""
    link = page.link(link_id)
    return link is not None and _ZERO_COUNT.fullmatch(link.count) is not None
