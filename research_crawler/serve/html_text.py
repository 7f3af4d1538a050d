"""Page and model text as the web app's HTML shows it: the Jinja2 environment (autoescaping every value, so a
title like ``<script>`` is text), and the one rule for links — only http(s) URLs become links; ``javascript:``,
``data:`` and the rest are shown as text, never made clickable.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from jinja2 import Environment, PackageLoader, select_autoescape

from research_crawler.text.untrusted import untrusted

__all__ = ["authors_text", "safe_href", "template_environment"]


def safe_href(url: Any) -> str | None:
    """`url` when it may be a link target (http or https, with a host), else None."""
    if not isinstance(url, str):
        return None
    text = untrusted(url).strip()
    try:
        parts = urlsplit(text)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname or any(c in text for c in ' "<>`'):
        return None
    return text


def authors_text(authors: list[str], *, shown: int = 3) -> str:
    """'A, B, C et al.' — the first `shown` authors of an item."""
    names = [untrusted(name) for name in authors[:shown]]
    return ", ".join(names) + (" et al." if len(authors) > shown else "")


def template_environment() -> Environment:
    """The templates of serve/templates, every value HTML-escaped unless marked safe by our own code."""
    environment = Environment(
        loader=PackageLoader("research_crawler.serve", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    environment.filters["href"] = safe_href
    environment.filters["authors"] = authors_text
    environment.filters["clean"] = lambda value: untrusted(str(value)) if value is not None else ""
    return environment
