"""Every way Markdown can point at a URL — inline and reference links and images, autolinks, bare URLs
(GitHub-flavoured Markdown links them), raw HTML — found in a text and rewritten one decision at a time.

The citation guard uses it to strip links a report must not carry: a viewer that renders the report
requests every image URL in it, so a page that talks the writer into ``![](http://127.0.0.3/?q=…)``
would otherwise get a request out of the reader's machine.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

__all__ = [
    "Action",
    "Decision",
    "LinkKind",
    "LinkToken",
    "ReferenceDefinition",
    "find_links",
    "reference_definitions",
    "rewrite_links",
]


class LinkKind(StrEnum):
    IMAGE = "image"  # ![alt](url)
    LINK = "link"  # [text](url)
    REF_IMAGE = "ref_image"  # ![alt][label]
    REF_LINK = "ref_link"  # [text][label], [label][]
    AUTOLINK = "autolink"  # <https://…>
    BARE = "bare"  # https://… or www.… in running text
    HTML_A = "html_a"  # <a href=…>
    HTML_A_CLOSE = "html_a_close"  # </a>
    HTML_TAG = "html_tag"  # any other tag; `url` is its first URL-bearing attribute (or style url(...))
    HTML_ACTIVE = "html_active"  # <script>…</script> and other elements that run or embed content
    CODE = "code"  # `inline code`: never a link


@dataclass(frozen=True, slots=True)
class LinkToken:
    """One link-like construct at text[start:end]; `text` is its visible text (text[text_start:text_end])."""

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
    """A ``[label]: url`` line; `label` is case-folded and whitespace-collapsed, as Markdown matches it."""

    label: str
    url: str
    line: str


class Action(StrEnum):
    KEEP = "keep"
    DROP = "drop"  # remove the construct and its text
    UNWRAP = "unwrap"  # keep the visible text, remove the link
    RETARGET = "retarget"  # keep the text, point the link at `Decision.url`


@dataclass(frozen=True, slots=True)
class Decision:
    action: Action
    url: str | None = None


KEEP = Decision(Action.KEEP)

_BRACKETED = r"(?:[^\[\]]|\[(?:[^\[\]]|\[[^\[\]]*\])*\])*"
_DESTINATION = r"(?:<[^<>\n]*>|[^\s()<>]*(?:\([^\s()]*\)[^\s()<>]*)*)"
_LINK_TITLE = r"(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^()]*\)))?"
_URL_CHARS = r"(?:[^\s<>\[\]()\"'`]|\([^\s<>()\"'`]*\))"
_ACTIVE_ELEMENTS = "script|style|iframe|object|embed|svg|math|template|noscript|frameset|applet"
_URL_ATTRIBUTES = (
    "href|src|srcset|poster|data|action|formaction|background|lowsrc|dynsrc|longdesc|cite|ping|"
    "manifest|codebase|archive|usemap|icon|xlink:href|content"
)
_TOKEN = re.compile(
    rf"""
    (?P<code>(?P<ticks>`+)[^`][\s\S]*?(?<!`)(?P=ticks)(?!`))
  | (?P<active><(?P<active_name>{_ACTIVE_ELEMENTS})\b[^>]*>[\s\S]*?</(?P=active_name)\s*>
      |<(?:{_ACTIVE_ELEMENTS})\b[^>]*/?>)
  | !\[(?P<img_text>{_BRACKETED})\]\(\s*(?P<img_dest>{_DESTINATION}){_LINK_TITLE}\s*\)
  | \[(?P<link_text>{_BRACKETED})\]\(\s*(?P<link_dest>{_DESTINATION}){_LINK_TITLE}\s*\)
  | !\[(?P<rimg_text>[^\[\]\n]*)\]\[(?P<rimg_label>[^\[\]\n]*)\]
  | \[(?P<rlink_text>{_BRACKETED})\]\[(?P<rlink_label>[^\[\]\n]*)\]
  | <(?P<auto>[A-Za-z][A-Za-z0-9+.\-]{{1,31}}:[^<>\s]*)>
  | (?P<a_close></a\s*>)
  | <(?P<tag>[A-Za-z][A-Za-z0-9:-]*)(?P<attrs>(?:\s[^<>]*)?)/?>
  | (?<![\w/@.:\-])(?P<bare>(?:https?://|www\.){_URL_CHARS}*)
    """,
    re.IGNORECASE | re.VERBOSE,
)
_ATTRIBUTE = re.compile(
    rf"(?<![\w-])(?P<name>{_URL_ATTRIBUTES}|style)\s*=\s*(?:\"(?P<dq>[^\"]*)\"|'(?P<sq>[^']*)'|(?P<bare>[^\s\"'>]+))",
    re.IGNORECASE,
)
_CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]+)", re.IGNORECASE)
_DEFINITION = re.compile(r"^ {0,3}\[(?P<label>[^\]\n]+)\]:[ \t]*<?(?P<url>[^\s<>]+)>?(?:[ \t]+.*)?$")
_TRAILING_PUNCTUATION = ".,;:!?*_~'\""


def _normalise_label(label: str) -> str:
    return " ".join(label.split()).casefold()


def reference_definitions(text: str) -> list[ReferenceDefinition]:
    """The ``[label]: url`` definitions of `text`, in order."""
    found = []
    for line in text.split("\n"):
        if match := _DEFINITION.match(line):
            found.append(ReferenceDefinition(_normalise_label(match["label"]), match["url"], line))
    return found


def _trim_bare_url(url: str) -> str:
    """GitHub's rule: trailing punctuation is not part of a bare URL, nor is an unbalanced closing paren."""
    while url:
        if url[-1] in _TRAILING_PUNCTUATION or (url[-1] == ")" and url.count(")") > url.count("(")):
            url = url[:-1]
        else:
            break
    return url


def _tag_url(attributes: str) -> str | None:
    for match in _ATTRIBUTE.finditer(attributes):
        value = match["dq"] if match["dq"] is not None else match["sq"] if match["sq"] is not None else match["bare"]
        name = match["name"].lower()
        if name == "style":
            if css := _CSS_URL.search(value):
                return css.group(1).strip()
            continue
        if name == "srcset":
            value = value.split(",")[0].strip().split(" ")[0]
        if name == "content" and "://" not in value:
            continue  # <meta content="..."> is only a URL when it looks like one
        return value.strip()
    return None


def find_links(text: str, *, definitions: dict[str, str] | None = None) -> list[LinkToken]:
    """The top-level link-like tokens of `text`, in order and not overlapping (an image inside a link's
    text is found by calling this on that text). Reference links resolve through `definitions`
    (normalised label → URL); undefined ones are plain text and not returned."""
    definitions = definitions or {}
    tokens: list[LinkToken] = []
    for match in _TOKEN.finditer(text):
        start, end = match.span()
        if match["code"] is not None:
            tokens.append(LinkToken(LinkKind.CODE, start, end))
        elif match["active"] is not None:
            tokens.append(LinkToken(LinkKind.HTML_ACTIVE, start, end, label=(match["active_name"] or "").lower()))
        elif match["img_dest"] is not None:
            tokens.append(_inline(LinkKind.IMAGE, match, "img"))
        elif match["link_dest"] is not None:
            tokens.append(_inline(LinkKind.LINK, match, "link"))
        elif match["rimg_label"] is not None or match["rlink_label"] is not None:
            image = match["rimg_label"] is not None
            kind, prefix = (LinkKind.REF_IMAGE, "rimg") if image else (LinkKind.REF_LINK, "rlink")
            label = _normalise_label(match[f"{prefix}_label"] or match[f"{prefix}_text"])
            if label in definitions:
                tokens.append(
                    LinkToken(
                        kind,
                        start,
                        end,
                        url=definitions[label],
                        label=label,
                        text_start=match.start(f"{prefix}_text"),
                        text_end=match.end(f"{prefix}_text"),
                    )
                )
        elif match["auto"] is not None:
            tokens.append(
                LinkToken(
                    LinkKind.AUTOLINK,
                    start,
                    end,
                    url=match["auto"],
                    text_start=match.start("auto"),
                    text_end=match.end("auto"),
                )
            )
        elif match["a_close"] is not None:
            tokens.append(LinkToken(LinkKind.HTML_A_CLOSE, start, end))
        elif match["tag"] is not None:
            url = _tag_url(match["attrs"] or "")
            kind = LinkKind.HTML_A if match["tag"].lower() == "a" else LinkKind.HTML_TAG
            if url is not None or kind is LinkKind.HTML_A:
                tokens.append(LinkToken(kind, start, end, url=url, label=match["tag"].lower()))
        elif match["bare"] is not None:
            url = _trim_bare_url(match["bare"])
            if url and url.lower() not in ("http://", "https://", "www."):
                tokens.append(
                    LinkToken(
                        LinkKind.BARE, start, start + len(url), url=url, text_start=start, text_end=start + len(url)
                    )
                )
    return tokens


def _inline(kind: LinkKind, match: re.Match[str], prefix: str) -> LinkToken:
    destination = match[f"{prefix}_dest"].strip()
    if destination.startswith("<") and destination.endswith(">"):
        destination = destination[1:-1]
    return LinkToken(
        kind,
        match.start(),
        match.end(),
        url=destination,
        text_start=match.start(f"{prefix}_text"),
        text_end=match.end(f"{prefix}_text"),
    )


def rewrite_links(
    text: str,
    decide: Callable[[LinkToken, str], Decision],
    *,
    definitions: dict[str, str] | None = None,
) -> str:
    """`text` with every link-like token replaced as `decide(token, text)` says.

    Inline code is left alone. The text of a link is rewritten first (it may hold an image). When an
    ``<a href>`` is unwrapped, its closing ``</a>`` goes with it.
    """
    out: list[str] = []
    position = 0
    open_unwrapped = 0
    for token in find_links(text, definitions=definitions):
        out.append(text[position : token.start])
        position = token.end
        if token.kind is LinkKind.CODE:
            out.append(text[token.start : token.end])
            continue
        if token.kind is LinkKind.HTML_A_CLOSE:
            if open_unwrapped:
                open_unwrapped -= 1
            else:
                out.append(text[token.start : token.end])
            continue
        decision = decide(token, text)
        inner = token.text_of(text)
        if token.kind in (LinkKind.LINK, LinkKind.REF_LINK):
            inner = rewrite_links(inner, decide, definitions=definitions)
        if decision.action is Action.KEEP:
            out.append(
                text[token.start : token.text_start] + inner + text[token.text_end : token.end]
                if token.kind in (LinkKind.LINK, LinkKind.REF_LINK)
                else text[token.start : token.end]
            )
        elif decision.action is Action.DROP:
            pass
        elif decision.action is Action.UNWRAP:
            if token.kind is LinkKind.HTML_A:
                open_unwrapped += 1
            elif token.kind in (LinkKind.LINK, LinkKind.REF_LINK):
                out.append(inner)
            # images, autolinks, bare URLs and other tags have no text worth keeping apart from the URL
        elif decision.action is Action.RETARGET and decision.url is not None:
            if token.kind in (LinkKind.LINK, LinkKind.REF_LINK):
                out.append(f"[{inner}]({decision.url})")
            elif token.kind is LinkKind.AUTOLINK:
                out.append(f"<{decision.url}>")
            elif token.kind is LinkKind.HTML_A:
                out.append(f'<a href="{decision.url}">')
            else:
                out.append(decision.url)
    out.append(text[position:])
    return "".join(out)
