"""Fetching pages: the only module that imports crawl4ai.

Also home of `html_to_markdown`, Crawl4AI's HTML→Markdown conversion, which the page view uses.
"""

from __future__ import annotations

from crawl4ai.markdown_generation_strategy import DefaultMarkdownGenerator

__all__ = ["html_to_markdown"]

_HTML2TEXT_OPTIONS = {"ignore_links": False, "ignore_images": True, "escape_snob": False, "body_width": 0}


def html_to_markdown(html: str, *, base_url: str = "") -> str:
    """Crawl4AI's Markdown for `html` (links it still contains are resolved against `base_url`)."""
    result = DefaultMarkdownGenerator().generate_markdown(
        html, base_url=base_url, citations=False, html2text_options=dict(_HTML2TEXT_OPTIONS)
    )
    return str(result.raw_markdown)
