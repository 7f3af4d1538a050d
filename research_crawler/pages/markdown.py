"""HTML to Markdown, and boilerplate pruning, by Crawl4AI's converters (no I/O: the fetching lives in web/).

Crawl4AI gives two things: the browser crawler (``web/``) and these pure text converters — its
html2text-based Markdown generator and its lxml pruning filter. This is the only module of ``pages/``
that imports it.
"""

from __future__ import annotations

from crawl4ai.content_filter_strategy_lxml import PruningContentFilterLXML
from crawl4ai.markdown_generation_strategy import DefaultMarkdownGenerator

__all__ = ["html_to_markdown", "prune_boilerplate_html"]

_HTML2TEXT_OPTIONS = {"ignore_links": False, "ignore_images": True, "escape_snob": False, "body_width": 0}


def html_to_markdown(html: str, *, base_url: str = "") -> str:
    """Crawl4AI's Markdown for `html` (links it still contains are resolved against `base_url`)."""
    result = DefaultMarkdownGenerator().generate_markdown(
        html, base_url=base_url, citations=False, html2text_options=dict(_HTML2TEXT_OPTIONS)
    )
    return str(result.raw_markdown)


#: Crawl4AI's pruning drops these whole; we keep them: old sites wrap the entire page in one <form>
#: (ASP.NET, NCBI), and articles put their title in a <header> (the page's own header goes before this).
_PRUNING_KEEPS_TAGS = frozenset({"form", "header"})


def prune_boilerplate_html(html: str) -> str:
    """`html` with low-value blocks removed by Crawl4AI's pruning filter (text and link density, tag and
    class weights): what remains of the body, as HTML. Empty when nothing scores as content.

    Only elements are removed, never rewritten, so text that survives is the page's own.
    """
    content_filter = PruningContentFilterLXML()
    content_filter.excluded_tags = set(content_filter.excluded_tags) - _PRUNING_KEEPS_TAGS
    return "\n".join(content_filter.filter_content(html))
