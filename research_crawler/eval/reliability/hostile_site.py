"""A small preprint-like site whose text is hostile to terminals and files (RELIABILITY.md, "Hostile text and files").

Its titles, ``citation_*`` tags, anchors and abstracts carry terminal control sequences (clear screen, a window
title, an OSC 8 hyperlink, 8-bit CSI, BEL), bidi overrides, zero-width characters and Rich console markup; one item's
link redirects to a private address the URL guard refuses. Everything else is a plausible site the agents browse
and collect from, so a whole run carries the payloads to every output.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

__all__ = [
    "FORBIDDEN",
    "HOSTILE",
    "QUERY",
    "REFUSED_ITEM_PATH",
    "HostileSite",
    "hostile_site",
    "leftovers",
    "terminal_links",
]

#: The research request the site answers.
QUERY = "graph neural networks for protein design"

#: The payloads, by what they would do if they reached a terminal (or a Markdown/BibTeX/JSON reader) raw.
HOSTILE = {
    "clear_screen": "\x1b[2J\x1b[H",
    "window_title": "\x1b]0;pwned-window\x07",
    "osc8_link": "\x1b]8;;http://evil.example/\x1b\\",
    "csi_8bit": "\x9b2J",
    "bell": "\x07\x07",
    "carriage_return": "\rOVERWRITTEN",
    "bidi_override": "\u202egnp.exe\u202c",
    "zero_width": "\u200b\u200d\u2060\ufeff",
    "markup_close": "[/red]",
    "markup_link": "[link=http://evil.example/]click[/link]",
}

#: Characters that must never reach an output from the site (Rich's own colour codes are told apart by
#: `leftovers`): C0 controls but tab and newline, DEL, C1, bidi controls, zero-width characters.
FORBIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")
#: What Rich itself writes to a terminal: colour codes (SGR), the live view's cursor moves and line erases, the
#: cursor hidden and shown, and its own OSC 8 hyperlinks (always with an id) and their end.
_RICH_OWN = re.compile(
    r"\x1b\[[0-9;]*m|\x1b\[[0-9]*[ABK]|\x1b\[\?25[lh]|\x1b\]8;id=[0-9]+;[^\x1b\x07]*\x1b\\|\x1b\]8;;\x1b\\"
)
_RICH_LINK = re.compile(r"\x1b\]8;id=[0-9]+;([^\x1b\x07]*)\x1b\\")

#: The item whose link redirects to a refused (private) address.
REFUSED_ITEM_PATH = "/abs/5"

_TITLES = (
    "Graph neural networks for protein design{clear_screen} with equivariant message passing{markup_close}",
    "Protein design by graph neural networks{window_title} over residue contact maps",
    "Scalable graph neural networks{osc8_link} for de novo protein design{csi_8bit}",
    "Graph neural networks for protein design{bidi_override} under structural constraints{zero_width}",
    "Graph neural networks for protein design{markup_link} redirected away",
)


def leftovers(text: str, *, terminal: bool = False) -> list[str]:
    """The forbidden characters left in `text` (for a `terminal` capture, once Rich's own sequences are set aside)."""
    if terminal:
        text = _RICH_OWN.sub("", text)
    return sorted({f"U+{ord(char):04X}" for char in FORBIDDEN.findall(text)})


def terminal_links(text: str) -> set[str]:
    """The targets of the hyperlinks Rich wrote into a terminal capture."""
    return set(_RICH_LINK.findall(text))


@dataclass(frozen=True)
class HostileSite:
    """The pages (path -> HTML) and the redirecting item's target."""

    pages: dict[str, str]
    refused_target: str

    @property
    def item_paths(self) -> list[str]:
        return [f"/abs/{number}" for number in range(1, len(_TITLES) + 1)]


def _raw(template: str) -> str:
    return template.format(**HOSTILE)


def _attribute(text: str) -> str:
    """`text` in an attribute, its control characters as character references (what a page can send)."""
    return "".join(f"&#{ord(char)};" if FORBIDDEN.match(char) else html.escape(char) for char in text)


def _abstract_page(number: int) -> str:
    title = _raw(_TITLES[number - 1])
    author = f"Ada {HOSTILE['osc8_link']}Lovelace{HOSTILE['window_title']}"
    abstract = (
        f"We study graph neural networks for protein design.{HOSTILE['clear_screen']} Results{HOSTILE['bell']} "
        f"improve{HOSTILE['carriage_return']} on baselines {HOSTILE['markup_close']}{HOSTILE['zero_width']}."
    )
    return f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{_attribute(title)}</title>
<meta name="citation_title" content="{_attribute(title)}">
<meta name="citation_author" content="{_attribute(author)}">
<meta name="citation_publication_date" content="2025/0{number}/01">
<meta name="citation_doi" content="10.5555/hostile.{number}{_attribute(HOSTILE['bell'])}">
<meta name="description" content="{_attribute(abstract)}">
</head><body><h1>{_attribute(title)}</h1><p class="authors">{_attribute(author)}</p>
<div class="abstract"><p>{html.escape(abstract, quote=False)}</p></div><a href="/">All papers</a></body></html>"""


def _listing() -> str:
    links = "".join(
        f'<li><a href="/abs/{number}">{_attribute(_raw(title))}</a> — 2025</li>'
        for number, title in enumerate(_TITLES, 1)
    )
    name = f"Hostile Preprints{HOSTILE['window_title']}{HOSTILE['markup_close']}"
    return f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{_attribute(name)}</title></head>
<body><h1>{_attribute(name)}</h1><p>Recent papers on graph neural networks for protein design:</p>
<ul>{links}</ul></body></html>"""


def hostile_site(refused_target: str = "http://10.0.0.7/private") -> HostileSite:
    """The site's pages; `REFUSED_ITEM_PATH` is not among them: serve it as a redirect to `refused_target`."""
    pages = {"/": _listing()}
    for number in range(1, len(_TITLES)):  # the last title is the redirecting item's
        pages[f"/abs/{number}"] = _abstract_page(number)
    return HostileSite(pages=pages, refused_target=refused_target)
