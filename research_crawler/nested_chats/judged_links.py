"""The links of a site the Crawler has judged already, and where it saw them: among a page's own links, or only in
the site's menu (the page's header, navigation or footer).

A link judged once is not shown to the Crawler again on that site: every page repeats the site's navigation, and a
reader judges it once. But a link first seen in the menu ("Papers from 2024" in a sidebar, beside "Code of conduct")
is judged as the site's chrome, below the page's own links; when a later page shows it among its own links (the
"Paper companions" page listing its years), a reader sees it anew, in its place in the site, and judges it again.
So a link seen only in a menu is hidden again only where it is in the menu again.
"""

from __future__ import annotations

from collections.abc import Iterable, Set
from dataclasses import dataclass, field

__all__ = ["JudgedLinks"]


@dataclass
class JudgedLinks:
    """Link URLs of one site judged on its earlier pages: `own` among a page's own links, `menu` only in a menu."""

    own: set[str] = field(default_factory=set)
    menu: set[str] = field(default_factory=set)

    def note(self, urls: Iterable[str], *, menu: Set[str]) -> None:
        """Record `urls` as judged on a page whose menu links are `menu`."""
        for url in urls:
            if url in menu:
                self.menu.add(url)
            else:
                self.own.add(url)
                self.menu.discard(url)

    def covers(self, url: str, *, menu: Set[str]) -> bool:
        """Whether `url`, on a page whose menu links are `menu`, was judged already as it is seen there: judged among
        a page's own links, or judged in a menu and in the menu here too."""
        return url in self.own or (url in self.menu and url in menu)
