"""Small HTML-writing helpers shared by the testbed sites: escaping, the page skeleton, common boilerplate.

Pages are assembled from f-strings; everything that comes from the corpus goes through `esc`/`attr`.
"""

from __future__ import annotations

import html
import json
import re
import string
from datetime import date
from functools import cache
from importlib import resources
from typing import Any

__all__ = [
    "MONTHS",
    "asset",
    "attr",
    "cookie_banner",
    "document",
    "esc",
    "first_sentence",
    "json_script",
    "long_date",
    "meta_name",
    "meta_property",
    "template",
    "tracker",
    "url_slug",
]


MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def long_date(day: str) -> str:
    """An ISO date as people write it: '2025-03-12' → '12 March 2025'."""
    parsed = date.fromisoformat(day)
    return f"{parsed.day} {MONTHS[parsed.month - 1]} {parsed.year}"


@cache
def asset(name: str) -> str:
    """The text of a file in `templates/` (page chrome, scripts): kept as files so they read as HTML/JS."""
    return resources.files(__package__).joinpath(f"templates/{name}").read_text(encoding="utf-8")


def template(name: str) -> string.Template:
    """A `templates/` file as a `string.Template`; callers pass already-escaped values."""
    return string.Template(asset(name))


def esc(value: object) -> str:
    """Text content, escaped."""
    return html.escape(str(value), quote=False)


def attr(value: object) -> str:
    """An attribute value, escaped (quotes included)."""
    return html.escape(str(value), quote=True)


def meta_name(name: str, content: str) -> str:
    return f'<meta name="{attr(name)}" content="{attr(content)}" />'


def meta_property(prop: str, content: str) -> str:
    return f'<meta property="{attr(prop)}" content="{attr(content)}" />'


def json_script(data: Any, *, script_type: str, element_id: str | None = None) -> str:
    """A `<script>` holding JSON; '</' is escaped so page content can never close the element early."""
    text = json.dumps(data, ensure_ascii=False, indent=None, separators=(",", ":")).replace("</", "<\\/")
    id_attr = f' id="{attr(element_id)}"' if element_id else ""
    return f'<script type="{attr(script_type)}"{id_attr}>{text}</script>'


def document(*, title: str, head: str, body: str, body_class: str = "", lang: str = "en") -> str:
    """A complete HTML5 document (UTF-8) with the given head extras and body."""
    return (
        f'<!DOCTYPE html>\n<html lang="{attr(lang)}">\n<head>\n<meta charset="utf-8" />\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1" />\n'
        f"<title>{esc(title)}</title>\n{head}\n</head>\n"
        + (f'<body class="{attr(body_class)}">' if body_class else "<body>")
        + f"\n{body}\n</body>\n</html>\n"
    )


def cookie_banner(*, site_title: str, privacy_href: str, style: str = "bar") -> str:
    """The consent banner every real site shows before its content (boilerplate a crawler must skip)."""
    return (
        f'<div id="cookie-consent" class="cookie-banner cookie-banner--{attr(style)}" role="dialog" '
        'aria-live="polite" aria-label="Cookie consent">\n'
        f"<p>{esc(site_title)} uses cookies and similar technologies to keep you signed in, remember your "
        "preferences and measure how the site is used. You can accept all cookies, reject the non-essential "
        f'ones, or choose which ones to allow. Read our <a href="{attr(privacy_href)}">privacy and cookie '
        "policy</a> for details.</p>\n"
        '<div class="cookie-banner__buttons"><button type="button" class="cookie-accept">Accept all cookies'
        '</button> <button type="button" class="cookie-reject">Reject optional cookies</button> '
        '<button type="button" class="cookie-settings">Manage preferences</button></div>\n</div>'
    )


def tracker(site_id: str) -> str:
    """An inline analytics snippet as real pages carry (it does nothing here)."""
    return (
        "<script>\n"
        "  window.dataLayer = window.dataLayer || [];\n"
        "  function gtag(){dataLayer.push(arguments);}\n"
        "  gtag('consent', 'default', {'analytics_storage': 'denied'});\n"
        f"  gtag('config', '{attr(site_id)}', {{'anonymize_ip': true}});\n"
        "</script>"
    )


def url_slug(text: str, *, limit: int = 60) -> str:
    """`text` as a URL path segment: 'Tuning Garnets for Speed' → 'tuning-garnets-for-speed'."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:limit].rstrip("-")


def first_sentence(text: str) -> str:
    """The first sentence of `text` (a listing's teaser of an abstract)."""
    return text.split(". ")[0].rstrip(".") + "."
