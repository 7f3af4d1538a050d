"""What a page shows, for checking what a model says it read there: a title, a name, a date.

A model's reading of a page is kept only where the page bears it out. Text is compared after normalisation (Unicode
NFKC, case, and any punctuation, Markdown marks or whitespace between words: `report/title_match.py`), never
loosely: "Deep Graph Transformers" is not on a page that shows "A Benchmark of Graph Transformers". A title is
matched to a link's text by the same rule the report uses to match titles (`TitleMatcher`).
"""

from __future__ import annotations

import re
from functools import cached_property

from research_crawler.pages.page import Link, Page
from research_crawler.report.title_match import TitleMatcher, normalise_title, title_pattern

__all__ = ["PageEvidence"]


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

    def link_titled(self, title: str) -> Link | None:
        """The link whose text is `title` (normalised equal, or as near as the report's title match allows)."""
        index = self._matcher.match(title)
        return self._titled_links[index] if index is not None else None
