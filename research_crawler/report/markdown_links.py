"""A report draft's links as CommonMark reads them — markdown-it-py with GFM tables, strikethrough and bare-URL links —
so the citation guard judges exactly what a viewer renders: every construct that points somewhere or renders live
(links, images, autolinks, bare URLs, raw HTML, code) at its exact place in the text, rewritten one decision at a time
while every untouched character stays as it was.

A viewer requests every image URL in a report, and renders raw HTML with its event handlers, so a page that talks
the writer into ``![](http://127.0.0.3/?q=…)`` or ``<details open ontoggle=…>`` would otherwise act on the reader's
machine. Raw HTML is never passed through: `remove_raw_html` takes it out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import lxml.etree
import lxml.html
from linkify_it import LinkifyIt
from markdown_it import MarkdownIt
from markdown_it.common.utils import normalizeReference
from markdown_it.rules_inline import StateInline
from markdown_it.rules_inline.linkify import SCHEME_RE
from markdown_it.token import Token

__all__ = [
    "Action",
    "Decision",
    "LinkKind",
    "LinkToken",
    "ReferenceDefinition",
    "find_links",
    "parse",
    "reference_definitions",
    "remove_raw_html",
    "rewrite_links",
]

# --- the parser --------------------------------------------------------------------------------------------------

#: Rules whose tokens the guard acts on; each records where in its inline source it matched.
_TRACKED_RULES = ("backticks", "link", "image", "autolink", "html_inline", "linkify")


def _tracked(name: str, rule: Callable[[StateInline, bool], bool]) -> Callable[[StateInline, bool], bool]:
    """`rule`, recording on the tokens it makes the span of source it consumed (and, for a link or an image, the span
    of its text): markdown-it keeps no positions below the line."""

    def run(state: StateInline, silent: bool) -> bool:
        start, count, pending = state.pos, len(state.tokens), state.pending
        matched = rule(state, silent)
        if matched and not silent:
            end = state.pos
            if name == "linkify" and (scheme := SCHEME_RE.search(pending)):  # read as text before "://" was seen
                start -= len(scheme.group(1))
            label: tuple[int, int] | None = None
            if name in ("link", "image"):
                opener = start + (1 if name == "image" else 0)
                state.pos = end  # parseLinkLabel moves state.pos about and puts it back
                label_end = state.md.helpers.parseLinkLabel(state, opener, name == "link")
                state.pos = end
                label = (opener + 1, label_end)
            for token in state.tokens[count:]:
                if token.type in ("code_inline", "link_open", "image", "html_inline") and "span" not in token.meta:
                    token.meta = {**token.meta, "span": (start, end), "label_span": label}
        return matched

    return run


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"store_labels": True, "linkify": True}).enable(["table", "strikethrough", "linkify"])
    md.core.ruler.disable("linkify")  # links without "://" are found in the running text by `_bare_urls`
    for name in _TRACKED_RULES:
        rule = next(r for r in md.inline.ruler.__rules__ if r.name == name)
        md.inline.ruler.at(name, _tracked(name, rule.fn))
    return md


_MD = _parser()
#: Bare URLs a viewer links: with a scheme ("https://", "//", "mailto:") or "www." (GitHub's autolinks).
_LINKIFY = LinkifyIt(options={"fuzzy_email": False})


def parse(text: str, definitions: Mapping[str, str] | None = None) -> tuple[list[Token], dict[str, Any]]:
    env: dict[str, Any] = {}
    if definitions:
        env["references"] = {label: {"href": url, "title": ""} for label, url in definitions.items()}
    """`text`'s block tokens as CommonMark reads them (inline ones with their places), and the parse's env."""
    return _MD.parse(text, env), env


# --- links and other live constructs -----------------------------------------------------------------------------


class LinkKind(StrEnum):
    IMAGE = "image"  # ![alt](url)
    LINK = "link"  # [text](url)
    REF_IMAGE = "ref_image"  # ![alt][label]
    REF_LINK = "ref_link"  # [text][label], [label][], [label]
    AUTOLINK = "autolink"  # <https://…>
    BARE = "bare"  # https://… or www.… in running text (GitHub links them)
    HTML = "html"  # raw HTML, inline or a whole block: never passed through
    CODE = "code"  # `inline code`: never a link


@dataclass(frozen=True, slots=True)
class LinkToken:
    """One construct at text[start:end]; its visible text is text[text_start:text_end]."""

    kind: LinkKind
    start: int
    end: int
    url: str | None = None
    label: str | None = None
    text_start: int = 0
    text_end: int = 0

    def text_of(self, source: str) -> str:
        return source[self.text_start : self.text_end]


@dataclass(frozen=True, slots=True)
class ReferenceDefinition:
    """A ``[label]: url`` definition on lines [first_line, end_line) of the text it was found in; `label` is
    normalised as CommonMark matches it."""

    label: str
    url: str
    first_line: int
    end_line: int


def reference_definitions(text: str) -> list[ReferenceDefinition]:
    """The link reference definitions of `text`, in order."""
    _, env = parse(text)
    found = [
        ReferenceDefinition(label, definition["href"], *definition["map"])
        for label, definition in env.get("references", {}).items()
    ]
    return sorted(found, key=lambda definition: definition.first_line)


def _line_starts(text: str) -> list[int]:
    starts = [0]
    for index, char in enumerate(text):
        if char == "\n":
            starts.append(index + 1)
    return starts


def _locate(
    inline: Token, lines: list[str], starts: list[int], cursor: dict[int, int], *, cell: bool
) -> Callable[[int], int] | None:
    """A map from offsets in `inline`'s content to offsets in the text. Each content line stands in its source line
    after the prefixes CommonMark strips (indentation, list markers, '>'), so it is found from the line's end; the
    cells of a table row are found left to right. None when a line cannot be found."""
    assert inline.map is not None
    bases: list[tuple[int, int]] = []  # (offset in the content, offset in the text) of each content line
    offset = 0
    for number, content_line in enumerate(inline.content.split("\n")):
        row = inline.map[0] + number
        if row >= len(lines):
            return None
        source = lines[row]
        shown = content_line.lstrip(" ")  # a tab CommonMark expanded into spaces is not in the source
        column = source.find(shown, cursor.get(row, 0)) if cell else source.rfind(shown)
        if column < 0:
            return None
        cursor[row] = column + len(shown)
        bases.append((offset, starts[row] + column - (len(content_line) - len(shown))))
        offset += len(content_line) + 1

    def to_text(position: int) -> int:
        for content_start, text_start in reversed(bases):
            if position >= content_start:
                return text_start + position - content_start
        return bases[0][1] + position

    return to_text


def _kind(token: Token) -> LinkKind:
    if token.type == "code_inline":
        return LinkKind.CODE
    if token.type == "html_inline":
        return LinkKind.HTML
    if token.type == "image":
        return LinkKind.REF_IMAGE if token.meta.get("label") else LinkKind.IMAGE
    if token.markup == "autolink":
        return LinkKind.AUTOLINK
    if token.markup == "linkify":
        return LinkKind.BARE
    return LinkKind.REF_LINK if token.meta.get("label") else LinkKind.LINK


def _inline_tokens(inline: Token, to_text: Callable[[int], int]) -> list[LinkToken]:
    """The tracked constructs of one inline run, top level only (a link's text is looked into on its own)."""
    found: list[LinkToken] = []
    depth = 0
    for child in inline.children or []:
        if child.type == "link_close":
            depth -= 1
            continue
        span = child.meta.get("span")
        if span is not None and depth == 0:
            start, end = to_text(span[0]), to_text(span[1] - 1) + 1
            kind = _kind(child)
            text_start, text_end = start, end
            if (label := child.meta.get("label_span")) is not None:
                text_start = to_text(label[0])
                text_end = to_text(label[1] - 1) + 1 if label[1] > label[0] else text_start
            elif kind is LinkKind.AUTOLINK:
                text_start, text_end = start + 1, end - 1
            url = None if kind in (LinkKind.CODE, LinkKind.HTML) else child.attrs.get("href", child.attrs.get("src"))
            stored = child.meta.get("label")
            found.append(
                LinkToken(
                    kind,
                    start,
                    end,
                    url=str(url) if url is not None else None,
                    label=normalizeReference(stored) if stored else None,
                    text_start=text_start,
                    text_end=text_end,
                )
            )
        depth += child.type == "link_open"
    return found


def _bare_urls(text: str, taken: list[tuple[int, int]]) -> list[LinkToken]:
    """Bare URLs in the running text of `text` (outside `taken` spans): GitHub links those with a scheme or "www."."""
    found = []
    position = 0
    for start, end in [*sorted(taken), (len(text), len(text))]:
        gap = text[position:start]
        for match in _LINKIFY.match(gap) or []:
            url = gap[match.index : match.last_index]
            if match.schema or url.lower().startswith("www."):  # not a bare domain, which GitHub leaves as text
                begin = position + match.index
                found.append(LinkToken(LinkKind.BARE, begin, begin + len(url), url=url, text_start=begin,
                                       text_end=begin + len(url)))  # fmt: skip
        position = max(position, end)
    return found


def find_links(text: str, *, definitions: Mapping[str, str] | None = None) -> list[LinkToken]:
    """The top-level constructs of `text` read as a CommonMark document, in order and not overlapping (an image in a
    link's text is found by calling this on that text). Reference links resolve through `definitions` (normalised
    label → URL) as well as the text's own definitions. A run of text whose constructs cannot be placed exactly is
    returned whole as raw HTML, so that it is escaped rather than trusted."""
    tokens, env = parse(text, definitions)
    lines = text.split("\n")
    starts = _line_starts(text)

    def block_span(first: int, end: int) -> tuple[int, int]:
        while end > first + 1 and not lines[end - 1].strip():
            end -= 1
        return starts[first], starts[end - 1] + len(lines[end - 1])

    found: list[LinkToken] = []
    cursor: dict[int, int] = {}
    for previous, token in zip([None, *tokens], tokens, strict=False):
        if token.map is None:
            continue
        if token.type == "html_block":
            found.append(LinkToken(LinkKind.HTML, *block_span(*token.map), label="block"))
        elif token.type in ("fence", "code_block"):
            found.append(LinkToken(LinkKind.CODE, *block_span(*token.map)))
        elif token.type == "inline":
            cell = previous is not None and previous.type in ("th_open", "td_open")
            to_text = _locate(token, lines, starts, cursor, cell=cell)
            if to_text is not None:
                found += _inline_tokens(token, to_text)
            elif any(child.type not in ("text", "softbreak", "hardbreak") for child in token.children or []):
                found.append(LinkToken(LinkKind.HTML, *block_span(*token.map), label="unplaced"))
    definitions_at = [block_span(*d["map"]) for d in env.get("references", {}).values() if d.get("map")]
    found += _bare_urls(text, [(t.start, t.end) for t in found] + definitions_at)
    return _outermost(sorted(found, key=lambda t: (t.start, -t.end)))


def _outermost(tokens: list[LinkToken]) -> list[LinkToken]:
    kept: list[LinkToken] = []
    for token in tokens:
        if kept and token.start < kept[-1].end:
            continue
        kept.append(token)
    return kept


# --- rewriting ---------------------------------------------------------------------------------------------------


class Action(StrEnum):
    KEEP = "keep"
    DROP = "drop"  # remove the construct and its text
    UNWRAP = "unwrap"  # keep the visible text, remove the link
    RETARGET = "retarget"  # keep the text, point the link at `Decision.url`


@dataclass(frozen=True, slots=True)
class Decision:
    action: Action
    url: str | None = None


def rewrite_links(
    text: str,
    decide: Callable[[LinkToken, str], Decision],
    *,
    definitions: Mapping[str, str] | None = None,
) -> str:
    """`text` with every link-like construct replaced as `decide(token, text)` says; code is left alone, and the
    text of a link is rewritten first (it may hold an image)."""
    out: list[str] = []
    position = 0
    for token in find_links(text, definitions=definitions):
        out.append(text[position : token.start])
        position = token.end
        if token.kind is LinkKind.CODE:
            out.append(text[token.start : token.end])
            continue
        decision = decide(token, text)
        linked = token.kind in (LinkKind.LINK, LinkKind.REF_LINK)
        inner = token.text_of(text)
        if linked:
            inner = rewrite_links(inner, decide, definitions=definitions)
        if decision.action is Action.KEEP:
            if linked:
                out.append(text[token.start : token.text_start] + inner + text[token.text_end : token.end])
            else:
                out.append(text[token.start : token.end])
        elif decision.action is Action.UNWRAP and linked:
            out.append(inner)
        elif decision.action is Action.RETARGET and decision.url is not None:
            if linked:
                out.append(f"[{inner}]({decision.url})")
            elif token.kind is LinkKind.AUTOLINK:
                out.append(f"<{decision.url}>")
            else:
                out.append(decision.url)
        # DROP, and UNWRAP of what has no text apart from its URL (an image, an autolink, a bare URL): nothing
    out.append(text[position:])
    return "".join(out)


#: What a run of text that could not be placed exactly is escaped with: every mark that can start a construct.
_UNPLACED_ESCAPES = str.maketrans({mark: "\\" + mark for mark in "\\<>[]()!`*_&"})
#: Elements whose content is not text a reader sees.
_NOT_TEXT = ("script", "style", "template", "noscript", "iframe", "object", "embed", "svg", "math", "head", "title")


def _visible_text(html: str) -> str:
    """The text a browser shows of an HTML fragment (lxml), on one line, with its own marks escaped."""
    parts: list[str] = []
    for node in lxml.html.fragments_fromstring(html):
        if isinstance(node, str):
            parts.append(node)
            continue
        if node.tag in _NOT_TEXT:
            parts.append(node.tail or "")
            continue
        lxml.etree.strip_elements(node, *_NOT_TEXT, with_tail=False)
        parts.append(node.text_content() + (node.tail or ""))
    return " ".join(" ".join(parts).split()).replace("<", "\\<")


def remove_raw_html(text: str, *, rounds: int = 8) -> tuple[str, list[str]]:
    """`text` without raw HTML, and the pieces removed: an inline tag goes (the text around it stays), an HTML block
    becomes the text a browser would show of it. What was inside a block can come alive as Markdown once the block
    is text; the text is read again until no HTML is left (after `rounds`, every ``<`` is escaped)."""
    removed: list[str] = []
    for _ in range(rounds):
        pieces = [t for t in find_links(text) if t.kind is LinkKind.HTML]
        if not pieces:
            return text, removed
        out, position = [], 0
        for piece in pieces:
            fragment = text[piece.start : piece.end]
            removed.append(fragment)
            if piece.label == "unplaced":
                replacement = fragment.translate(_UNPLACED_ESCAPES)
            elif piece.label == "block":
                replacement = _visible_text(fragment)
            else:
                replacement = ""
            before, end = text[position : piece.start], piece.end
            if not replacement and before.endswith(" ") and text[end : end + 1] in (" ", "\n", ""):
                before = before[:-1]  # "a <b> c" reads "a c"
            out += [before, replacement]
            position = end
        text = "".join(out) + text[position:]
    return text.replace("<", "\\<"), removed
