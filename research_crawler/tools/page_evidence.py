"""What a page shows, for checking what a model says it read there: a title, a name, a date.

A model's reading of a page is kept only where the page bears it out. Text is compared after normalisation (Unicode
NFKC, case, and any punctuation, Markdown marks or whitespace between words: `report/title_match.py`), never
loosely: "Deep Graph Transformers" is not on a page that shows "A Benchmark of Graph Transformers". A title is
matched to a link's text by the same rule the report uses to match titles (`TitleMatcher`).
"""

from __future__ import annotations

import re
from functools import cached_property

from research_crawler.pages.breadcrumbs import breadcrumb_trail
from research_crawler.pages.page import Link, Page
from research_crawler.report.title_match import TitleMatcher, normalise_title, title_pattern

__all__ = ["PageEvidence"]

#: The separators of a breadcrumb trail, between spaces ("Home › Physics › 2024", "Journals » Issue 3", "A > B").
_TRAIL_SEPARATOR = re.compile(r"\s[›»→>]\s")
_STARTS_WITH_SEPARATOR = re.compile(r"^\s*[›»→>]\s")
_ENDS_WITH_SEPARATOR = re.compile(r"\s[›»→>]\s*$")
_LINK_NUMBER = re.compile(r"\[(\d+)\]")


class PageEvidence:
    """The text of one page (its Markdown, title and link texts), asked whether it shows a given text."""

    def __init__(self, page: Page) -> None:
        self.page = page

    @cached_property
    def _text(self) -> str:
        links = "\n".join(link.text for link in self.page.links)
        return f"{self.page.title}\n{self.page.markdown}\n{links}"

    @cached_property
    def _titled_links(self) -> list[Link]:
        return [link for link in self.page.links if normalise_title(link.text)]

    @cached_property
    def _matcher(self) -> TitleMatcher:
        return TitleMatcher([link.text for link in self._titled_links])

    def shows(self, text: str) -> bool:
        """Whether `text` occurs on the page, word for word after normalisation (whole words: "x" is not in "index")."""
        pattern = title_pattern(text)
        if pattern is None:
            return False
        whole = re.compile(rf"(?<![^\W_]){pattern.pattern}(?![^\W_])", pattern.flags)
        return whole.search(self._text) is not None

    @cached_property
    def _trail_links(self) -> frozenset[int]:
        """The numbers of the links that are steps of a trail the page shows: its breadcrumb markup's names, or a line
        of the view where a link stands next to a trail's separator ("[3] Proceedings 2024 › Session: Speech")."""
        names = {normalise_title(name) for name in breadcrumb_trail(self.page.html)}
        steps = {link.id for link in self.page.links if names and normalise_title(link.text) in names}
        for line in self.page.markdown.splitlines():
            if not _TRAIL_SEPARATOR.search(line):
                continue
            for match in _LINK_NUMBER.finditer(line):
                link = self.page.link(int(match.group(1)))
                if link is None:
                    continue
                after = line[match.end() :].lstrip()[len(link.text) :]
                before = line[: match.start()]
                if _STARTS_WITH_SEPARATOR.match(after) or _ENDS_WITH_SEPARATOR.search(before):
                    steps.add(link.id)
        return frozenset(steps)

    def trail_step(self, link: Link) -> bool:
        """Whether `link` is a step of the page's breadcrumb trail: where the page sits in its site (a proceedings, a
        session, a journal), never an item found on it."""
        return link.id in self._trail_links

    def trail_title(self, title: str) -> bool:
        """Whether `title` is a breadcrumb trail as the page shows it: names joined by a trail's separator."""
        return bool(_TRAIL_SEPARATOR.search(title)) and any(
            link.id in self._trail_links and normalise_title(link.text) in normalise_title(title)
            for link in self.page.links
        )

    def link_titled(self, title: str) -> Link | None:
        """The link whose text is `title` (normalised equal, or as near as the report's title match allows)."""
        index = self._matcher.match(title)
        return self._titled_links[index] if index is not None else None
