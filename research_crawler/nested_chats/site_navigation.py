"""A site's own navigation — the menu, the header's links — repeated on every page read there, left out of the
Collector's view from the third page on, as a reader stops seeing a menu once they know it.

A menu line names sections, journals, collections: read beside an article, a model may take its names for the
page's items, and a page with several of them reads as a listing rather than the article it is. Only lines whose
every link was on every page read before on the site (two at least) and that say nothing else are left out; a
listing's entries, which come with bylines and dates, and a breadcrumb that names the page's own place, stay.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from research_crawler.pages.page import Page

__all__ = ["SiteNavigation"]

_LINK_NUMBER = re.compile(r"\[(\d+)\]")
_WORD = re.compile(r"\w")
#: Pages read on a site before its repeated links are known for its navigation.
_PAGES_TO_KNOW = 2


@dataclass
class SiteNavigation:
    """How often each link appeared on the pages read of each site, and the view with the navigation left out."""

    counts: dict[str, Counter[str]] = field(default_factory=dict)
    pages: Counter[str] = field(default_factory=Counter)

    def without_navigation(self, site: str, page: Page, view: str) -> str:
        """`view` (the Collector's view of `page`, on `site`) less the lines made only of the site's navigation,
        with one line saying so; then `page` counts among the pages read on `site`."""
        seen = self.pages[site]
        counts = self.counts.setdefault(site, Counter())
        menu = {url for url, times in counts.items() if times == seen} if seen >= _PAGES_TO_KNOW else set()
        self.pages[site] += 1
        counts.update({link.url for link in page.links})
        if not menu:
            return view
        kept, dropped = [], 0
        for line in view.splitlines():
            if _only_navigation(line, page, menu):
                dropped += 1
            else:
                kept.append(line)
        if not dropped:
            return view
        kept.append(f"({dropped} line(s) of the site's navigation, shown on every page read here, are left out)")
        return "\n".join(kept)


def _only_navigation(line: str, page: Page, menu: set[str]) -> bool:
    """Whether `line` holds links, all of them in `menu`, and no other words."""
    numbers = [int(number) for number in _LINK_NUMBER.findall(line)]
    if not numbers:
        return False
    rest = line
    for number in numbers:
        link = page.link(number)
        if link is None or link.url not in menu:
            return False
        rest = rest.replace(f"[{number}] {link.text}", " ", 1).replace(f"[{number}]", " ", 1)
    return not _WORD.search(rest)
