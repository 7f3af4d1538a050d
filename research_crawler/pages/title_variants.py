"""A heading and a tag's title that give the same title in other forms: the tag the heading with words added (a
shop's social card "Meine <Shop> Rezeptempfehlung: <heading>"), or the heading the tag's title with a line of its
own run on (a place under a dish's name, "<title> Lisbon District, Portugal"). In both, the page's heading, as far
as the tag agrees, is the title a reader sees. And a heading set as several, a word or two each (a masthead's
"WEEKEND" / "CODING" / "AGENT"), that together say a part of the <title>: read as one."""

from __future__ import annotations

from research_crawler.pages.page_shows import Block, VisiblePage, words_of

__all__ = ["heading_in_tag", "heading_within_tag", "split_heading"]

_SAME_WORDS = 3  # a run of as many words, the tag's and the heading's the same, is one title in two orders


def heading_in_tag(heading: str, tag_parts: list[str]) -> bool:
    """Whether a tag's title is the heading and more: the heading is one whole part of it (its parts as the tag's
    separators set them apart, `tag_parts`), and another part adds to it."""
    words = words_of(heading)
    parts = [words_of(part) for part in tag_parts if words_of(part)]
    return bool(words) and len(parts) > 1 and words in parts


def heading_within_tag(heading: str, tag_parts: list[str]) -> str | None:
    """The heading's first words, where they are a part of a tag's title in the same or another order ("Authentic
    Pastel de nata Recipe" for "Pastel de Nata Authentic Recipe") and the heading runs on with words the tag has
    nowhere (a subtitle the tag joins to it is the title's own); None otherwise."""
    tokens = heading.split()
    tag_words = set(words_of(" ".join(tag_parts)).split())
    for part in tag_parts:
        wanted = words_of(part).split()
        if len(wanted) < _SAME_WORDS or len(tokens) <= len(wanted):
            continue
        head = " ".join(tokens[: len(wanted)])
        rest = set(words_of(" ".join(tokens[len(wanted) :])).split())
        if sorted(words_of(head).split()) == sorted(wanted) and not rest & tag_words:
            return head
    return None


_SPLIT_PIECE_WORDS = 3  # each heading of a title set over several holds a word or a few


def split_heading(page: VisiblePage, title_parts: list[str]) -> tuple[str, int] | None:
    """A title the page sets over consecutive headings of one level outside its chrome, a few words each, that
    together are a whole part of its <title> (`title_parts`: its parts between separators) where none alone is:
    that part as the <title> writes it, and the first heading's block. None where there is none."""
    parts = {words_of(part): part.strip() for part in title_parts if len(words_of(part).split()) >= 2}
    runs: list[list[Block]] = []  # consecutive headings of one level, a few words each
    for block in page.blocks:
        if not block.heading or block.chrome or not 0 < len(block.words.split()) <= _SPLIT_PIECE_WORDS:
            continue
        last = runs[-1][-1] if runs else None
        if last is not None and (last.heading, last.index + 1) == (block.heading, block.index):
            runs[-1].append(block)
        else:
            runs.append([block])
    for run in runs:
        if len(run) >= 2 and (part := parts.get(" ".join(block.words for block in run))):
            return part, run[0].index
    return None
