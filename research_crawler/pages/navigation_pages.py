"""Navigation pages: the pages a person reads to find a site's works, not to read one.

A journal collection keeps its papers in back issues: its start page links the journals, a journal's page its grid of
issues, an issue's table of contents its articles. None of these is a work; each is a step toward the works, and a
careful reader spends pages on them as the way in (`tools/site_budget.py` lets such a page earn the site pages when it
shows promising links). A work's own page is no such step, whatever it links: its PDF, its claim page, its
authors' pages are the same work again.

Read from the page's structure, never from its words. A page is a navigation page when it lists works — two results
of a listing at least, each with its own title link (`Link.result_title`: a table of contents, a search's results) —
or when it shows `MIN_OWN_LINKS` links of its own at least (beside its content, not in the site's menu, header or
footer) and either they hold half the words of that content or it shows no prose: no line of `PROSE_WORDS` words
without a link (an index of journals, a grid of issues, a journal's page of its current issue, back issues and a
line on its scope). A work's page shows its abstract or its text as prose, and links a few parts of itself.

A page read is no dead end while it points at pages of its site still waiting to be read (`leads_still_open`): a
"Publications" page whose years the sidebar showed first, its own list of them under a paragraph of prose, adds no
link the site had not shown, yet it is the way a reader goes on; only its own links count, never the site's menu.

Such a page finds the way on (`finds_the_way_on`) when it gave no relevant item and the Crawler queued `MIN_WAYS_ON`
promising link at least from it that the site had not shown before (a journal's page may show one: its grid of
issues); a work's page is no way on, whatever it links.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Set

from research_crawler.pages.page import Page

__all__ = [
    "LINK_SHARE",
    "MIN_OWN_LINKS",
    "MIN_WAYS_ON",
    "PROSE_WORDS",
    "finds_the_way_on",
    "is_navigation_page",
    "leads_still_open",
]

#: The share of a page's own words that its links must hold for the page to be an index (a grid, a list of parts).
LINK_SHARE = 0.5
#: The fewest links of its own an index shows: a page with one or two links and little else is no way on.
MIN_OWN_LINKS = 3
#: A line of this many words, with no link in it, is prose: a work's abstract or text, not a way to works.
PROSE_WORDS = 40
#: The promising links not seen before that a navigation page must show to be a step toward the works (a journal's
#: page may show one: its grid of issues).
MIN_WAYS_ON = 1
#: Results of a listing, each with its own title link, that make a page a list of works.
_MIN_RESULTS = 2
_WORD = re.compile(r"[^\W_]+")
_LINK_NUMBER = re.compile(r"\[\d+\]")


def is_navigation_page(page: Page, *, menu: Set[str] = frozenset()) -> bool:
    """Whether `page` is a way to works rather than a work: a listing of two results or more, or a page of
    `MIN_OWN_LINKS` links of its own or more whose content is mostly those links or shows no prose. `menu` holds the
    URLs of the links it shows only in its frame (`main_content.frame_link_urls`), which are the site's, not the
    page's."""
    if not page.ok:
        return False
    if len({link.result_title for link in page.links if link.result_title is not None}) >= _MIN_RESULTS:
        return True
    own = [link for link in page.links if link.url not in menu and link.url != page.final_url]
    if len({link.url for link in own}) < MIN_OWN_LINKS:
        return False
    framed = sum(_words(link.text) for link in page.links if link.url in menu)
    content = _words(_LINK_NUMBER.sub(" ", page.markdown)) - framed
    linked = sum(_words(link.text) for link in own)
    if content > 0 and linked >= LINK_SHARE * content:
        return True
    return not any(_words(line) >= PROSE_WORDS for line in page.markdown.splitlines() if not _LINK_NUMBER.search(line))


def leads_still_open(page: Page, *, menu: Set[str], is_pending: Callable[[str], bool]) -> int:
    """How many of `page`'s own links (beside its content: not in `menu`, the links it shows only in its frame, and
    not the page itself) lead to pages of its site still waiting to be read (`is_pending`), however they were first
    found."""
    if not page.ok:
        return 0
    own = {link.url for link in page.links if link.url not in menu and link.url != page.final_url}
    return sum(1 for url in own if is_pending(url))


def _words(text: str) -> int:
    return len(_WORD.findall(text))


def finds_the_way_on(page: Page, menu: Set[str], promising_links: int) -> bool:
    """Whether `page`, read and found to give no relevant item, was a step toward the site's works: a navigation page
    from which `promising_links` (`MIN_WAYS_ON` at least) promising links not seen before were queued."""
    return promising_links >= MIN_WAYS_ON and is_navigation_page(page, menu=menu)
