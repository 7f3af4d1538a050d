"""What the agents will see on one page: the view, its links, its search form, its item metadata and sizes.

Backs `research-crawler page URL|FILE`; a user runs it to understand (or debug) how a site looks to us.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from research_crawler.config.settings import RenderMode, Settings
from research_crawler.errors import ConfigError, InvalidURLError
from research_crawler.pages.metadata import ItemMetadata, read_item_metadata
from research_crawler.pages.page import Page
from research_crawler.pages.search_forms import find_search_mechanism
from research_crawler.text.tokens import count_tokens
from research_crawler.web.fetcher import Fetcher, page_from_file

__all__ = ["LinkInfo", "PageInspection", "SearchInfo", "TokenCounts", "inspect_page", "inspection_of"]


class LinkInfo(BaseModel):
    id: int
    url: str
    text: str
    same_site: bool


class SearchInfo(BaseModel):
    kind: Literal["form", "opensearch"]
    method: str
    url_template: str
    query_field: str | None = None
    usable: bool
    note: str = ""


class TokenCounts(BaseModel):
    html: int
    markdown: int


class PageInspection(BaseModel):
    """The `page --json` object."""

    url: str
    final_url: str
    status: int | None
    determination: str
    reason: str
    title: str = Field(
        description="The page's title as read: the work's title (metadata.title) on an item's page, else its <title>."
    )
    head_title: str = Field(description="The page's <title> as the browser's tab shows it, site name and all.")
    markdown: str
    links: list[LinkInfo]
    search: SearchInfo | None
    metadata: ItemMetadata
    tokens: TokenCounts


def inspection_of(page: Page) -> PageInspection:
    """Inspect an already fetched page."""
    mechanism = find_search_mechanism(page.html, url=page.final_url) if page.html else None
    search = None
    if mechanism is not None:
        template = mechanism.url_template or mechanism.description_url or ""
        search = SearchInfo(
            kind=mechanism.kind,
            method=mechanism.method,
            url_template=template,
            query_field=mechanism.query_field,
            usable=mechanism.usable,
            note=mechanism.note,
        )
        if not mechanism.usable and template.startswith("file:"):  # a saved page's relative action: where to?
            search.note += "; for a saved page, give the address it was saved from: page FILE --url URL"
    metadata = read_item_metadata(page.html, url=page.final_url) if page.html else ItemMetadata()
    return PageInspection(
        url=page.url,
        final_url=page.final_url,
        status=page.status,
        determination=page.determination.value,
        reason=page.reason,
        title=metadata.title or page.title,
        head_title=page.title,
        markdown=page.markdown,
        links=[
            LinkInfo(id=link.id, url=link.url, text=link.text, same_site=link.same_site)
            for link in page.links
        ],
        search=search,
        metadata=metadata,
        tokens=TokenCounts(html=count_tokens(page.html), markdown=count_tokens(page.markdown)),
    )


async def inspect_page(
    target: str, settings: Settings, *, render: RenderMode | None = None, url: str | None = None
) -> PageInspection:
    """Fetch `target` (an http(s) URL, or a path to a saved HTML file) and inspect it; a saved file's relative
    links resolve against `url`, the address it was saved from, when given."""
    if "://" not in target:
        return inspection_of(_saved_page(Path(target), settings, url=url))
    async with Fetcher(settings.fetch, page_view=settings.page_view) as fetcher:
        page = await fetcher.fetch(target, render=render)
    return inspection_of(page)


def _saved_page(path: Path, settings: Settings, *, url: str | None = None) -> Page:
    """The saved HTML file `path` as a page (at `url` when given); ConfigError when it is no file, not a regular
    one, or too large, or when `url` is no http(s) address."""
    if not path.exists():
        text = str(path)
        looks_like_a_host = "." in text and "/" not in text and path.suffix.lower() not in (".html", ".htm")
        example = f"https://{text}/" if looks_like_a_host else "https://example.org/page"
        raise ConfigError(f"{path}: no such file, and not an http(s) URL: give a saved HTML file or a URL ({example})")
    if not path.is_file():
        kind = "a directory" if path.is_dir() else "not a regular file"
        raise ConfigError(f"{path} is {kind}: give a saved HTML file or an http(s) URL")
    try:
        size = path.stat().st_size
        if size > settings.fetch.max_page_bytes:
            raise ConfigError(
                f"{path} is {size:,} bytes, over fetch.max_page_bytes ({settings.fetch.max_page_bytes:,}): raise it "
                f"with --set fetch.max_page_bytes={size}"
            )
        return page_from_file(path, url=url, settings=settings.page_view, max_links=settings.fetch.max_links_per_page)
    except InvalidURLError as exc:
        raise ConfigError(
            f"--url {url!r} is not a usable http(s) address ({exc}): give the page's original URL, e.g. "
            f"research-crawler page {path} --url https://example.org/paper"
        ) from None
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {(exc.strerror or type(exc).__name__).lower()}") from None
