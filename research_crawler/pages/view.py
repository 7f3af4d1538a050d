"""What an LLM sees of a page: Markdown in which every link is a number, and the table of those numbers.

Page text is untrusted: hidden elements, comments and invisible characters never reach the view, form
option lists are summarised, and no page's view is larger (in tokens) than its HTML (DESIGN §4).
"""

# Over 400 lines on purpose: the view of one page is one pass over its DOM (clean-up steps, then rendering
# with numbered links); split, each half would need the other's private helpers.

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator
from collections.abc import Set as AbstractSet
from typing import Any

import lxml.html
from lxml import etree
from pydantic import BaseModel, Field

from research_crawler.config.settings import FetchSettings, PageViewSettings
from research_crawler.context.urls import try_canonicalize_url
from research_crawler.pages.cleanup import (
    clean_markdown,
    clean_text,
    collapse_whitespace,
    cut_to_tokens,
    remove_invisible,
    shorten,
    split_into_chunks,
    strip_markdown_links,
)
from research_crawler.pages.html_tree import (
    document_base_url,
    is_web_url,
    meta_content,
    put_script_writes_in_place,
)
from research_crawler.pages.links import BLOCK_TAGS, LABEL_ATTRIBUTE, LinkNumbering, reveal_markers
from research_crawler.pages.markdown import html_to_markdown
from research_crawler.pages.page import Link
from research_crawler.text.tokens import count_tokens
from research_crawler.text.untrusted import UntrustedText

__all__ = [
    "DEFAULT_LINK_TEXT_CHARS",
    "DEFAULT_MAX_LINKS",
    "PageView",
    "build_page_view",
    "link_view",
    "resolve_base_url",
    "split_into_chunks",
    "view_token_stats",
]

logger = logging.getLogger(__name__)

DEFAULT_MAX_LINKS: int = FetchSettings.model_fields["max_links_per_page"].default
DEFAULT_LINK_TEXT_CHARS: int = PageViewSettings.model_fields["max_link_text_chars"].default

#: Elements whose content is never page text a reader sees.
_DROPPED_TAGS = frozenset(
    {
        "script",
        "style",
        "noscript",
        "template",
        "svg",
        "iframe",
        "canvas",
        "object",
        "embed",
        "img",
        "picture",
        "video",
        "audio",
        "source",
        "track",
        "map",
        "area",
        "datalist",
        "link",
        "meta",
        "head",
        "annotation",
        "annotation-xml",
    }
)
_HIDING_STYLE = re.compile(
    r"(?:^|[;\s])(?:display\s*:\s*none|visibility\s*:\s*hidden|opacity\s*:\s*0(?:\.0*)?\s*(?:;|$|!)"
    r"|font-size\s*:\s*0(?:px|em|rem|pt|%)?\s*(?:;|$|!))",
    re.IGNORECASE,
)
_MAX_TITLE_CHARS = 300
_SELECT_LABELS_SHOWN = 3
_SELECT_LABEL_CHARS = 40
_CUT_NOTE = "(view cut here: the page's text is longer than its HTML allows)"
_MISSING_LINKS_HEADING = "Links of the page not shown above:"
_LINK_NUMBER = re.compile(r"\[(\d+)\]")


class PageView(BaseModel):
    """A page as an LLM reads it: Markdown whose links are `[n] text`, and the table n → canonical URL."""

    title: UntrustedText = ""
    markdown: UntrustedText = Field(default="", description="The page as Markdown, each link shown as [n] anchor text.")
    links: list[Link] = Field(default_factory=list, description="Links numbered 1..n in order of appearance.")
    base_url: str = Field(default="", description="The URL relative links resolve against; empty if unknown.")
    truncated_links: int = Field(default=0, ge=0, description="Distinct link URLs not numbered (max_links).")


def resolve_base_url(html_root_or_html: Any, *, url: str | None) -> str | None:
    """The absolute http(s) URL the page's relative links resolve against, or None when none can be known
    (`html_tree.document_base_url`, on the page's HTML or its parsed root)."""
    root = _parse(html_root_or_html) if isinstance(html_root_or_html, str) else html_root_or_html
    return document_base_url(root, url=url)


def build_page_view(
    html: str,
    *,
    url: str | None,
    site_url: str | None = None,
    max_links: int = DEFAULT_MAX_LINKS,
    max_link_text_chars: int = DEFAULT_LINK_TEXT_CHARS,
    prune: Callable[[Any], None] | None = None,
) -> PageView:
    """Turn a page's HTML into the view an LLM reads (see `PageView`).

    Links are resolved against `resolve_base_url(html, url=url)`, canonicalised, and numbered in order
    of first appearance (the same URL keeps its number); each anchor becomes plain text `[n] anchor text`.
    Links to non-web schemes and links to the page itself are left as plain text; distinct URLs beyond
    `max_links` too, and are counted in `truncated_links`. `same_site` is judged against `site_url`
    (default: the page's URL). Images are dropped; an image's alt text survives only as the text of a
    link that has no other text. Select boxes become a one-line summary of their options.

    `prune`, when given, removes parts of the parsed tree after every link has its number (see
    `main_content`): the link table and the numbers stay those of the whole page, and links whose text
    was pruned are simply not shown (no "not shown above" list), so a pruned view never renumbers a link.
    """
    if not isinstance(html, str):
        raise TypeError(f"build_page_view needs the HTML as str, not {type(html).__name__}")
    if max_links < 0 or max_link_text_chars < 1:
        raise ValueError("max_links must be >= 0 and max_link_text_chars >= 1")
    root = _parse(html)
    base_url = resolve_base_url(root, url=url)
    if root is None:
        return PageView(base_url=base_url or "")
    title = _title(root)
    _label_textless_anchors(root)
    _remove_unseen(root)
    _clean_tree_text(root)
    _summarise_selects(root)
    page_url = try_canonicalize_url(url) if url and is_web_url(url) else None
    page_url = page_url or (try_canonicalize_url(base_url) if base_url else None)
    numbering = LinkNumbering(
        base_url=base_url,
        page_url=page_url,
        site_url=site_url or page_url or base_url,
        max_links=max_links,
        max_text_chars=max_link_text_chars,
    )
    numbering.rewrite(root)
    _flatten_definition_lists(root)
    blocks = list(_text_blocks(root))
    links = numbering.links(blocks)
    if prune is not None:
        prune(root)
        blocks = list(_text_blocks(root))
    markdown, cut = _render_markdown(root, blocks, [] if prune is not None else links, html=html)
    truncated = numbering.truncated
    if cut:
        present = {int(number) for number in _LINK_NUMBER.findall(markdown)}
        kept = [link for link in links if link.id in present]
        truncated, links = truncated + len(links) - len(kept), kept
    return PageView(title=title, markdown=markdown, links=links, base_url=base_url or "", truncated_links=truncated)


def link_view(
    view: PageView,
    *,
    already_shown: AbstractSet[str] = frozenset(),
    ranked_out: AbstractSet[int] = frozenset(),
    menu: AbstractSet[str] = frozenset(),
) -> str:
    """A compact view for choosing links: the title, then one line per link, `[n] text — context`, with the count
    the page shows beside the link after its text (`[n] Value Theory (12)`); links next to each other with the same
    context (an entry's abstract, PDF and HTML links) share one line, `[n] text, [m] text — context`.

    Links whose URL is in `already_shown` (the site's navigation, seen on an earlier page) are left out
    and counted in one line: a reader judged them once, and every page repeats them. Links whose number is in
    `ranked_out` (ranked below the best against the request) are left out and counted too. The numbers of the
    links shown are unchanged. Links whose URL is in `menu` (shown only in the page's header, navigation or footer)
    come last, under a line that says so, so the page's own links are read first.
    """
    lines = [f"# {view.title}" if view.title else "# (untitled page)"]
    hidden = 0
    shown: list[list[Link]] = []  # runs of consecutive links that share one context
    for link in view.links:
        if link.url in already_shown:
            hidden += 1
            continue
        if link.id in ranked_out:
            continue
        if shown and link.context and shown[-1][-1].context == link.context:
            shown[-1].append(link)
        else:
            shown.append([link])
    own = [run for run in shown if not all(link.url in menu for link in run)]
    in_menu = [run for run in shown if all(link.url in menu for link in run)]
    for number, run in enumerate(own + in_menu):
        if number == len(own):
            lines.append("Site menu (only in the page's header, navigation or footer):")
        line = ", ".join(f"[{link.id}] {link.text}" + (f" ({link.count})" if link.count else "") for link in run)
        if run[0].context:
            line += f" — {run[0].context}"
        lines.append(line)
    if hidden:
        lines.append(f"({hidden} links already shown on earlier pages of this site are left out)")
    if ranked_out:
        lines.append(f"({len(ranked_out)} links less related to the request are left out)")
    if view.truncated_links:
        lines.append(f"({view.truncated_links} more links not numbered)")
    return "\n".join(lines) + "\n"


def view_token_stats(html: str, url: str | None) -> dict[str, float]:
    """Sizes of one page's renderings in o200k tokens: HTML, view Markdown, link view, and their ratios."""
    view = build_page_view(html, url=url)
    html_tokens = count_tokens(html)
    markdown_tokens = count_tokens(view.markdown)
    link_view_tokens = count_tokens(link_view(view))
    return {
        "html_tokens": html_tokens,
        "markdown_tokens": markdown_tokens,
        "link_view_tokens": link_view_tokens,
        "links": len(view.links),
        "truncated_links": view.truncated_links,
        "markdown_ratio": markdown_tokens / html_tokens if html_tokens else 0.0,
        "link_view_ratio": link_view_tokens / html_tokens if html_tokens else 0.0,
    }


# --- parsing and cleaning -------------------------------------------------------------------------------


def _parse(html: str) -> Any:
    """The document's root element, or None for a document with no elements at all."""
    text = remove_invisible(html)
    if not text.strip():
        return None
    # huge_tree lifts libxml2's nesting limit from 256 to 2048: legacy pages nest unclosed tags deeply
    parser = lxml.html.HTMLParser(encoding="utf-8", remove_comments=True, remove_pis=True, huge_tree=True)
    try:
        root = lxml.html.document_fromstring(text.encode("utf-8", "replace"), parser=parser)
    except (etree.ParserError, ValueError):
        return None
    if any(error.type_name == "ERR_RESOURCE_LIMIT" for error in parser.error_log):
        logger.warning("page view: the page nests elements too deeply; text below the limit is lost")
    put_script_writes_in_place(root)
    return root


def _title(root: Any) -> str:
    candidates = [
        next((element.text_content() for element in root.iter("title")), None),
        meta_content(root, "og:title"),
        next((element.text_content() for element in root.iter("h1")), None),
    ]
    for candidate in candidates:
        text = collapse_whitespace(clean_text(candidate or ""))
        if text:
            return shorten(text, _MAX_TITLE_CHARS)
    return ""


def _label_textless_anchors(root: Any) -> None:
    """Keep the title, aria-label or image alt of anchors without text, before images are dropped."""
    for anchor in root.iter("a"):
        if anchor.text_content().strip():
            continue
        labels = [anchor.get("title"), anchor.get("aria-label")]
        labels += [image.get("alt") for image in anchor.iter("img") if not _is_hidden(image)]
        label = next((collapse_whitespace(clean_text(x)) for x in labels if x and x.strip()), "")
        if label:
            anchor.set(LABEL_ATTRIBUTE, label)


def _is_hidden(element: Any) -> bool:
    if element.get("hidden") is not None or (element.get("aria-hidden") or "").strip().lower() == "true":
        return True
    if element.tag == "input" and (element.get("type") or "").strip().lower() == "hidden":
        return True
    if element.tag == "dialog" and element.get("open") is None:
        return True
    style = element.get("style")
    return bool(style) and _HIDING_STYLE.search(style) is not None


def _remove_unseen(root: Any) -> None:
    """Drop what a reader never sees: scripts, media, hidden elements (text after them is kept)."""
    doomed = [
        element
        for element in root.iter()
        if not isinstance(element.tag, str) or element.tag in _DROPPED_TAGS or _is_hidden(element)
    ]
    for element in doomed:
        if element.getparent() is not None:
            element.drop_tree()


def _clean_tree_text(root: Any) -> None:
    """Invisible characters out of all text; the page's own "[n]" made "(n)" so it cannot pass for a link."""
    for element in root.iter():
        if element.text:
            element.text = clean_text(element.text)
        if element.tail:
            element.tail = clean_text(element.tail)


def _summarise_selects(root: Any) -> None:
    """Replace each `<select>` by "(select: N options: a, b, c, …)": option lists can be thousands long."""
    for select in list(root.iter("select")):
        labels = []
        options = list(select.iter("option"))
        for option in options[:_SELECT_LABELS_SHOWN]:
            label = collapse_whitespace(clean_text(option.get("label") or option.text_content()))
            if label:
                labels.append(shorten(label, _SELECT_LABEL_CHARS))
        if not options:
            select.drop_tree()
            continue
        if len(options) == 1 and labels:
            _replace_with_text(select, f"(select: {labels[0]})")
            continue
        summary = f"(select: {len(options)} options"
        if labels:
            summary += ": " + ", ".join(labels) + (", …" if len(options) > len(labels) else "")
        _replace_with_text(select, summary + ")")


def _flatten_definition_lists(root: Any) -> None:
    """`<dt>`/`<dd>` as plain blocks: the converter runs a heading inside a `<dl>` into the first entry."""
    for element in root.iter("dt", "dd"):
        element.tag = "div"


def _replace_with_text(element: Any, text: str) -> None:
    span = etree.Element("span")
    span.text = text
    span.tail = element.tail
    element.getparent().replace(element, span)


# --- text blocks and rendering -------------------------------------------------------------------


def _text_blocks(root: Any) -> Iterator[str]:
    """The page's visible text, block by block (whitespace collapsed), in document order."""
    parts: list[str] = []
    for event, element in etree.iterwalk(root, events=("start", "end")):
        is_block = element.tag in BLOCK_TAGS
        if event == "start":
            if is_block and parts:
                yield from _flush(parts)
            if element.text:
                parts.append(element.text)
        else:
            if is_block and parts:
                yield from _flush(parts)
            if element.tail:
                parts.append(element.tail)
    yield from _flush(parts)


def _flush(parts: list[str]) -> Iterator[str]:
    text = collapse_whitespace("".join(parts))
    parts.clear()
    if text:
        yield text


def _render_markdown(root: Any, blocks: list[str], links: list[Link], *, html: str) -> tuple[str, bool]:
    """The rewritten tree as cleaned Markdown, and whether it had to be cut to fit the HTML's tokens.

    A link whose number the converter lost (it drops some elements' text) is listed at the end, so that
    every number of the table is shown. Where the Markdown outgrows the HTML, the page's plain text
    blocks are used instead, cut with a note if even they do not fit.
    """
    rewritten = lxml.html.tostring(root, encoding="unicode", method="html")
    markdown = clean_markdown(reveal_markers(strip_markdown_links(html_to_markdown(rewritten))))
    shown = {int(number) for number in _LINK_NUMBER.findall(markdown)}
    missing = [f"[{link.id}] {link.text}" for link in links if link.id not in shown]
    if missing:
        markdown += "\n\n" + _MISSING_LINKS_HEADING + "\n" + "\n".join(missing)
    html_tokens = count_tokens(html)
    if count_tokens(markdown) <= html_tokens:
        return markdown, False
    logger.info("page view: Markdown outgrew the HTML's %d tokens; rendering plain text instead", html_tokens)
    text = clean_markdown(reveal_markers("\n".join(blocks)))
    if count_tokens(text) <= html_tokens:
        return text, False
    logger.warning("page view: even the page's plain text outgrows its HTML; the view is cut")
    return cut_to_tokens(text, html_tokens, note=_CUT_NOTE), True
