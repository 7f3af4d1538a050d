"""Text hygiene for page views: invisible characters out, repeated boilerplate out, chunks within a budget.

Crawl4AI's Markdown of a real page can be larger than the page itself (DESIGN §4): the same menu repeated
in header and footer, runs of blank lines. These helpers remove that without touching content, and cut
what remains into token-bounded chunks without losing a character.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from research_crawler.text.tokens import count_tokens, encoding
from research_crawler.text.untrusted import untrusted

__all__ = [
    "clean_markdown",
    "clean_text",
    "collapse_whitespace",
    "cut_to_tokens",
    "neutralise_link_markers",
    "remove_invisible",
    "shorten",
    "split_into_chunks",
    "strip_markdown_links",
]

#: Characters that render as nothing (zero-width spaces and joiners, word joiner, invisible operators,
#: BOM, soft hyphen, Mongolian vowel separator), reorder text (bidirectional controls), or are icon-font
#: glyphs (the private use area). Hidden text is a prompt-injection vector, and these split words.
_INVISIBLE_OR_CONTROL = re.compile(
    "[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\ue000-\uf8ff"
    "\x00-\x08\x0b\x0c\x0e-\x1f\x7f]"
)
#: A page's own "[12]" (reference numbers in articles) would read as one of our link numbers.
_BRACKETED_NUMBER = re.compile(r"\[(\s*\d+\s*)\]")
_WHITESPACE = re.compile(r"\s+")
_MARKDOWN_LINK = re.compile(r"(!?)\[([^\]\n]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+\"[^\"\n]*\")?\)")
_BLANK_RUN = re.compile(r"\n{3,}")
_SPACE_RUN = re.compile(r"  +")
#: Outside code blocks, deeper indentation than this says nothing more (lists nested hundreds deep).
MAX_INDENT = 16
#: Lines made of Markdown structure only (table rules, bullets, horizontal rules) are never "repeats".
_STRUCTURE_ONLY = re.compile(r"^[\s|:*\-_=#>+.`~]*$")
#: Lines shorter than this are never dropped as repeats ("PDF", "2024" legitimately recur).
MIN_REPEATED_LINE_CHARS = 4
#: This many consecutive lines seen before, in the same order, make a repeated boilerplate block.
REPEATED_BLOCK_LINES = 4


def clean_text(text: str) -> str:
    """`text` without invisible and control characters, and with the page's own "[n]" made "(n)"."""
    return neutralise_link_markers(_INVISIBLE_OR_CONTROL.sub("", text))


def remove_invisible(text: str) -> str:
    """`text` without invisible and control characters (the untrusted-text sanitiser, and form feeds)."""
    return _INVISIBLE_OR_CONTROL.sub("", untrusted(text))


def neutralise_link_markers(text: str) -> str:
    """`text` with every "[n]" written "(n)", so that only our own link numbers look like "[n]"."""
    return _BRACKETED_NUMBER.sub(r"(\1)", text) if "[" in text else text


def collapse_whitespace(text: str) -> str:
    """All runs of whitespace (non-breaking spaces included) as one space, ends stripped."""
    return _WHITESPACE.sub(" ", text).strip()


def shorten(text: str, max_chars: int) -> str:
    """`text` cut to at most `max_chars` characters, at a word boundary where possible, "…" marking a cut."""
    if len(text) <= max_chars:
        return text
    if max_chars <= 1:
        return text[:max_chars]
    head = text[: max_chars - 1]
    space = head.rfind(" ")
    if space >= max_chars // 2:
        head = head[:space]
    return head.rstrip() + "…"


def strip_markdown_links(markdown: str) -> str:
    """`[text](url)` reduced to its text and images removed: URLs reach an LLM only through the link table."""
    if "](" not in markdown:
        return markdown
    return _MARKDOWN_LINK.sub(lambda match: "" if match.group(1) else match.group(2), markdown)


def clean_markdown(markdown: str) -> str:
    """Markdown without trailing spaces, space runs, runs of blank lines, and repeated boilerplate.

    Lines are compared without surrounding whitespace; lines shorter than `MIN_REPEATED_LINE_CHARS`
    and lines of pure Markdown structure are always kept and ignored by the rules. Dropped are:

    - a line equal to the content line just before it (the same line repeated hundreds of times);
    - every line of a window of `REPEATED_BLOCK_LINES` consecutive content lines that appeared earlier,
      in the same order (a menu, footer or dialog repeated in full).

    A listing's per-entry line such as "Subjects: Astrophysics (astro-ph)" recurs, but always next to a
    new title, so no repeated window covers it and it is kept. The first occurrence of a line is never
    dropped, so no link number disappears.
    """
    lines = _tidy_spaces(markdown.replace("\r\n", "\n").replace("\r", "\n").split("\n"))
    content = [index for index, line in enumerate(lines) if _is_content(line)]
    keys = [lines[index].strip() for index in content]
    dropped = {content[i] for i in range(1, len(keys)) if keys[i] == keys[i - 1]}
    first_seen: dict[tuple[str, ...], int] = {}
    for start in range(len(keys) - REPEATED_BLOCK_LINES + 1):
        window = tuple(keys[start : start + REPEATED_BLOCK_LINES])
        if first_seen.setdefault(window, start) + REPEATED_BLOCK_LINES <= start:
            dropped.update(content[start : start + REPEATED_BLOCK_LINES])
    kept = [line for index, line in enumerate(lines) if index not in dropped]
    return _BLANK_RUN.sub("\n\n", "\n".join(kept)).strip("\n")


def _tidy_spaces(lines: list[str]) -> list[str]:
    """Lines without trailing spaces; outside code fences, indentation capped and inner space runs collapsed.

    Deeply nested lists (or a hostile page's thousands of nested tags) otherwise become lines of
    thousands of spaces that say nothing.
    """
    tidy: list[str] = []
    in_fence = False
    for line in lines:
        line = line.rstrip()
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
        elif not in_fence:
            body = line.lstrip(" ")
            indent = min(len(line) - len(body), MAX_INDENT)
            line = " " * indent + _SPACE_RUN.sub(" ", body)
        tidy.append(line)
    return tidy


def _is_content(line: str) -> bool:
    key = line.strip()
    return len(key) >= MIN_REPEATED_LINE_CHARS and not _STRUCTURE_ONLY.match(key)


def cut_to_tokens(text: str, budget: int, *, note: str) -> str:
    """`text` if it fits `budget` tokens, else its longest fitting prefix followed by `note` on its own line.

    Empty when not even the note fits. Used only as the last guard of a bound; the note says what was cut.
    """
    if count_tokens(text) <= budget:
        return text
    room = budget - count_tokens("\n" + note)
    if room <= 0:
        return ""
    return _prefix_within(text, room).rstrip("\n") + "\n" + note


# --- chunking --------------------------------------------------------------------------------------------

_HEADING_START = re.compile(r"\n(?=#{1,6} )")
_PARAGRAPH_END = re.compile(r"\n[ \t]*\n+")
_LINE_END = re.compile(r"\n")


def split_into_chunks(markdown: str, *, token_budget: int) -> list[str]:
    """Split `markdown` into chunks of at most `token_budget` tokens each, losing nothing.

    The chunks are consecutive slices of `markdown`: joined, they give it back exactly. Cuts fall at
    headings and paragraph breaks where possible (a heading past the middle of a chunk starts the next
    one), then at line ends; only a line longer than the budget is cut inside, at a space when one is
    near. Labels such as "chunk 1 of N" are the caller's to add.
    """
    if token_budget < 1:
        raise ValueError(f"token_budget must be at least 1, not {token_budget}")
    if not markdown:
        return []
    if count_tokens(markdown) <= token_budget:
        return [markdown]
    chunks: list[str] = []
    current: list[str] = []
    current_tokens = 0
    for piece, tokens in _pieces(markdown, token_budget):
        starts_section = piece.startswith("#") and current_tokens >= token_budget // 2
        if current and (current_tokens + tokens > token_budget or starts_section):
            chunks.extend(_joined_within(current, token_budget))
            current, current_tokens = [], 0
        current.append(piece)
        current_tokens += tokens
    if current:
        chunks.extend(_joined_within(current, token_budget))
    return chunks


def _pieces(text: str, budget: int) -> Iterator[tuple[str, int]]:
    """Consecutive slices of `text` and their token counts, each within `budget`, cut as coarsely as works."""
    for section in _split_after(text, _HEADING_START):
        yield from _fitting(section, budget, finer=(_PARAGRAPH_END, _LINE_END))


def _fitting(text: str, budget: int, *, finer: tuple[re.Pattern[str], ...]) -> Iterator[tuple[str, int]]:
    tokens = count_tokens(text)
    if tokens <= budget:
        yield text, tokens
    elif finer:
        for part in _split_after(text, finer[0]):
            yield from _fitting(part, budget, finer=finer[1:])
    else:
        while text:
            head = _prefix_within(text, budget, prefer_space=True)
            yield head, count_tokens(head)
            text = text[len(head) :]


def _split_after(text: str, boundary: re.Pattern[str]) -> list[str]:
    pieces, start = [], 0
    for match in boundary.finditer(text):
        if match.end() > start:
            pieces.append(text[start : match.end()])
            start = match.end()
    if start < len(text):
        pieces.append(text[start:])
    return pieces


def _prefix_within(text: str, budget: int, *, prefer_space: bool = False) -> str:
    """The longest prefix of `text` within `budget` tokens (never empty: one character at least)."""
    tokens = encoding().encode(text, disallowed_special=())
    if len(tokens) <= budget:
        return text
    # the first `budget` tokens cover this many bytes; a character they split is left to the next piece
    length = sum(len(piece) for piece in encoding().decode_tokens_bytes(tokens[:budget]))
    cut = max(1, len(text.encode("utf-8")[:length].decode("utf-8", errors="ignore")))
    if prefer_space:
        space = text.rfind(" ", 0, cut)
        if space > cut // 2:
            cut = space + 1
    while cut > 1 and count_tokens(text[:cut]) > budget:
        cut = max(1, cut - max(1, cut // 16))
    return text[:cut]


def _joined_within(pieces: list[str], budget: int) -> list[str]:
    """`pieces` joined into as few chunks as fit: joining can change the token count a little."""
    chunks: list[str] = []
    start = 0
    while start < len(pieces):
        end = len(pieces)
        while end - start > 1 and count_tokens("".join(pieces[start:end])) > budget:
            end -= 1
        chunks.append("".join(pieces[start:end]))
        start = end
    return chunks
