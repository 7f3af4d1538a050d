"""Which parts of a report draft are entries for one collected item, which are invented entries, and
which are prose — decided from the draft's structure, so it holds in any language.

An entry is a list item, table row, heading section or paragraph that names an item by its title (link
text, emphasised or quoted text, a heading, a table cell, or the start of its first line) or, failing
that, by a link to the item. A sibling run (one list, one table, headings of one level, consecutive
paragraphs) in which some block is an entry is an item list; an unmatched block in it that looks like an
entry (numbered, a table row, an emphasised title, a date, a DOI, a link) is an invented item. Outside
item lists only a block that both looks like an entry and carries a DOI or a never-fetched link is.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from urllib.parse import unquote, urlsplit

from research_crawler.context.urls import try_canonicalize_url
from research_crawler.pages.metadata import normalise_doi
from research_crawler.report.field_claims import FieldKind, find_claims
from research_crawler.report.markdown_blocks import Block, BlockKind
from research_crawler.report.markdown_links import LinkKind, find_links
from research_crawler.report.models import ReportItem
from research_crawler.report.title_match import TitleMatcher

__all__ = ["ItemIndex", "Role", "Unit", "doi_of_url", "entry_label", "plan_units", "table_columns"]

#: A title or link this close to the start of an entry's content is its lead (its own title).
_LEAD_SLACK = 4
_CONTENT_START = re.compile(r"^\s*(?:>\s*)*(?:#{1,6}\s+|(?:[-*+]|\d{1,9}[.)])\s+)?(?:#?\d{1,3}[.):]\s*)?[\s*_]*")
_EMPHASIS = re.compile(
    r"\*\*(?P<b>[^*\n]+?)\*\*|__(?P<u>[^_\n]+?)__|(?<![*\w])\*(?P<i>[^*\s][^*\n]*?)\*(?![*\w])"
    r"|(?<![_\w])_(?P<j>[^_\s][^_\n]*?)_(?![_\w])"
    r"|\"(?P<q>[^\"\n]{3,})\"|“(?P<c>[^”\n]{3,})”|«\s?(?P<g>[^»\n]{3,}?)\s?»|„(?P<d>[^“”\n]{3,})[“”]"
    r"|「(?P<k>[^」\n]+)」|『(?P<l>[^』\n]+)』"
)
#: Prefixes of an entry's first line tried as its title (cut at dashes, brackets, commas, full stops …).
_MAX_LEAD_CUTS = 12
_LEAD_CUTS = re.compile(r"\s[—–-]\s|\s\(|\.\s|,\s|:\s|\s\||\sby\s", re.IGNORECASE)
_DOI_TEXT = re.compile(r"(?<![\w.])10\.\d{4,9}/\S")
_DOI_HOSTS = frozenset({"doi.org", "dx.doi.org", "www.doi.org"})


def doi_of_url(url: str) -> str | None:
    """The case-folded DOI a doi.org link resolves, or None for any other URL."""
    parts = urlsplit(url.strip())
    if (parts.hostname or "").lower() not in _DOI_HOSTS:
        return None
    doi = normalise_doi(unquote(parts.path.lstrip("/")))
    return doi.casefold() if doi else None


class ItemIndex:
    """The collected items, looked up by canonical URL, PDF URL, DOI and title; and the allowed URLs."""

    def __init__(self, items: Sequence[ReportItem], allowed_urls: Collection[str]) -> None:
        self.items = list(items)
        self.titles = TitleMatcher([item.title for item in self.items])
        self.authors = [author for item in self.items for author in item.authors]
        self._by_url: dict[str, int] = {}
        self._dois: dict[str, int] = {}
        self._own: list[set[str]] = []
        for index, item in enumerate(self.items):
            own = {c for c in (try_canonicalize_url(u) for u in (item.url, item.pdf_url) if u) if c}
            self._own.append(own)
            for url in own:
                self._by_url.setdefault(url, index)
            if item.doi and (doi := normalise_doi(item.doi)):
                self._dois.setdefault(doi.casefold(), index)
        self._allowed = {c for c in (try_canonicalize_url(u) for u in allowed_urls) if c} | set(self._by_url)

    def owner(self, url: str) -> int | None:
        """The item `url` is the page, PDF or DOI link of."""
        if (doi := doi_of_url(url)) is not None:
            return self._dois.get(doi)
        canonical = try_canonicalize_url(url)
        return self._by_url.get(canonical) if canonical else None

    def belongs_to(self, url: str, index: int) -> bool:
        """`url` is the page, PDF or DOI link of item `index`."""
        if self.owner(url) == index:
            return True
        doi = doi_of_url(url)
        return doi is not None and doi == (normalise_doi(self.items[index].doi or "") or "").casefold()

    def is_pdf_of(self, url: str, index: int) -> bool:
        pdf = self.items[index].pdf_url
        return bool(pdf) and try_canonicalize_url(url) == try_canonicalize_url(pdf or "")

    def is_allowed(self, url: str) -> bool:
        """A fetched page, a collected item's URL or PDF, a collected DOI's link, or an in-page anchor."""
        if url.startswith("#"):
            return True
        if doi_of_url(url) is not None:
            return doi_of_url(url) in self._dois
        canonical = try_canonicalize_url(url)
        return canonical is not None and canonical in self._allowed


class Role(StrEnum):
    PROSE = "prose"
    ENTRY = "entry"
    INVENTED = "invented"
    DUPLICATE = "duplicate"
    CODE = "code"


@dataclass
class Unit:
    """Blocks judged together: one block, or a heading with its section when the section is one entry."""

    blocks: list[int]
    role: Role = Role.PROSE
    item: int | None = None
    label: str = ""
    group: tuple[str, int] | None = None
    #: The header cells of the table a row belongs to (they label its cells: "Authors", "Autoren").
    column_labels: list[str] | None = None
    #: For an unmatched block: whether it looks like an entry (see `_signals`), and whether its kind makes
    #: it one in any item list (a table row, a numbered item).
    signals: tuple[bool, bool, bool] | None = field(default=None, repr=False)


def table_columns(header: Block) -> list[str]:
    """The header cells of a table."""
    return [cell.strip() for cell in header.lines[0].strip().strip("|").split("|")]


def _content_start(line: str) -> int:
    match = _CONTENT_START.match(line)
    return match.end() if match else 0


def _title_candidates(line: str, *, table: bool) -> list[tuple[int, str]]:
    """(position, text) of the places in `line` where a title may stand."""
    found: list[tuple[int, str]] = []
    for token in find_links(line):
        if token.kind in (LinkKind.LINK, LinkKind.REF_LINK):
            found.append((token.text_start, token.text_of(line)))
    for match in _EMPHASIS.finditer(line):
        group = next(name for name, value in match.groupdict().items() if value is not None)
        found.append((match.start(group), match.group(group)))
    if table:
        position = 0
        for cell in line.split("|"):
            found.append((position, cell))
            position += len(cell) + 1
        return found
    start = _content_start(line)
    content = line[start:]
    found.append((start, content))
    for number, cut in enumerate(_LEAD_CUTS.finditer(content)):
        if number == _MAX_LEAD_CUTS:
            break
        found.append((start, content[: cut.start()]))
    return found


@dataclass(frozen=True, slots=True)
class _Identity:
    item: int | None
    ambiguous: bool = False


def _pick(hits: list[tuple[int, int]], lead: int, *, lead_only: bool) -> _Identity | None:
    if lead_only:
        hits = [hit for hit in hits if hit[0] <= lead + _LEAD_SLACK]
    if not hits:
        return None
    position, item = min(hits)
    if position <= lead + _LEAD_SLACK or len({hit_item for _, hit_item in hits}) == 1:
        return _Identity(item)
    return _Identity(None, ambiguous=True)


def _identify(
    index: ItemIndex, first_line: str, text: str, *, table: bool, lead_only: bool, by_text: bool
) -> _Identity:
    lead = 0 if table else _content_start(first_line)
    title_hits = [
        (position, item)
        for position, candidate in _title_candidates(first_line, table=table)
        if (item := index.titles.match(candidate)) is not None
    ]
    if table:
        title_hits = [(0, item) for _, item in sorted(title_hits)[:1]]
    if (identity := _pick(title_hits, lead, lead_only=lead_only)) is not None:
        return identity
    scope = first_line if lead_only else text
    url_hits = [
        (token.start, item) for token in find_links(scope) if token.url and (item := index.owner(token.url)) is not None
    ]
    if table:
        url_hits = [(0, item) for _, item in sorted(url_hits)[:1]]
    if (identity := _pick(url_hits, lead, lead_only=lead_only)) is not None:
        return identity
    if by_text and (item := index.titles.contained_in(first_line)) is not None:
        return _Identity(item)
    return _Identity(None)


def entry_label(first_line: str) -> str:
    """A short name for an entry in the notes: its first link text or emphasised text, else its first line."""
    for token in find_links(first_line):
        if token.kind in (LinkKind.LINK, LinkKind.REF_LINK) and token.text_of(first_line).strip():
            return _short(token.text_of(first_line))
    if match := _EMPHASIS.search(first_line):
        return _short(next(value for value in match.groupdict().values() if value is not None))
    if first_line.lstrip().startswith("|"):
        cells = [c.strip() for c in first_line.strip().strip("|").split("|")]
        texts = [c for c in cells if re.search(r"[^\W\d_]", c)]
        return _short(texts[0] if texts else first_line)
    return _short(first_line[_content_start(first_line) :])


def _short(text: str, limit: int = 80) -> str:
    plain = " ".join(re.sub(r"\]\([^)]*\)|[*_`#>\[\]]", " ", text).split())
    return plain if len(plain) <= limit else plain[: limit - 1].rstrip() + "…"


def _signals(index: ItemIndex, block_lines: list[str], *, kind: BlockKind, numbered: bool) -> tuple[bool, bool]:
    """(weak, strong) signs that an unmatched block is an item entry: weak — numbered, an emphasised or
    quoted lead of two words or more that is not a label, a list item led by a linked title, a date in a
    field position; strong — a DOI, or a link or URL that was never fetched."""
    text = "\n".join(block_lines)
    first = block_lines[0] if block_lines else ""
    strong = bool(_DOI_TEXT.search(text)) or any(
        token.url is not None and token.kind is not LinkKind.CODE and not index.is_allowed(token.url)
        for token in find_links(text)
    )
    weak = numbered
    lead = _content_start(first)
    for match in _EMPHASIS.finditer(first):
        if match.start() <= lead + _LEAD_SLACK - 2:
            value = next(v for v in match.groupdict().values() if v is not None).strip()
            weak = weak or (
                len(value.split()) >= 2
                and not value.endswith((":", "："))
                and not first[match.end() :].lstrip().startswith((":", "："))
            )
    if kind is BlockKind.HEADING:
        weak = weak or any(t.kind in (LinkKind.LINK, LinkKind.BARE, LinkKind.AUTOLINK) for t in find_links(first))
    if kind in (BlockKind.LIST_ITEM, BlockKind.TABLE_ROW):
        weak = weak or any(
            t.kind is LinkKind.LINK and t.start <= lead + _LEAD_SLACK and len(t.text_of(first).split()) >= 2
            for t in find_links(first)
        )
    if kind is not BlockKind.PARAGRAPH and not weak:
        claims = find_claims(block_lines, authors=[], date=None, doi=None, author_pool=[], protected=[])
        weak = any(claim.kind is FieldKind.DATE for claim in claims)
    return weak, strong


def plan_units(blocks: Sequence[Block], index: ItemIndex) -> list[Unit]:
    """The units of the draft in order, each with its role and (for entries) its item."""
    headings = [i for i, block in enumerate(blocks) if block.kind is BlockKind.HEADING]
    section_end = {h: next((n for n in headings if n > h), len(blocks)) for h in headings}
    sections = {h: _plan_section(blocks, h, section_end[h], index) for h in headings}
    item_levels = {blocks[h].level for h, unit in sections.items() if unit.role is Role.ENTRY}
    units: list[Unit] = []
    columns: dict[int, list[str]] = {}
    position = 0
    while position < len(blocks):
        block = blocks[position]
        if block.kind is BlockKind.HEADING:
            unit = sections[position]
            if unit.signals is not None:
                weak, strong, _ = unit.signals
                if (block.level in item_levels and (weak or strong)) or (weak and strong):
                    unit.role = Role.INVENTED
                    if _names_other_items(blocks[position + 1 : unit.blocks[-1] + 1], index, None):
                        unit.blocks = [position]  # an invented heading goes alone, never the real entries under it
                else:
                    unit.blocks = [position]
            units.append(unit)
            position = unit.blocks[-1] + 1
            continue
        unit = Unit([position])
        if block.kind is BlockKind.CODE:
            unit.role = Role.CODE
        elif block.kind is BlockKind.TABLE_HEADER:
            columns[block.group] = table_columns(block)
        elif block.kind in (BlockKind.LIST_ITEM, BlockKind.TABLE_ROW, BlockKind.PARAGRAPH):
            table = block.kind is BlockKind.TABLE_ROW
            paragraph = block.kind is BlockKind.PARAGRAPH
            identity = _identify(
                index, block.lines[0], block.text, table=table, lead_only=paragraph, by_text=not paragraph
            )
            unit.group = ("block", block.group)
            unit.label = entry_label(block.lines[0])
            unit.column_labels = columns.get(block.group) if table else None
            if identity.item is not None:
                unit.role, unit.item = Role.ENTRY, identity.item
            elif not identity.ambiguous:
                weak, strong = _signals(index, block.lines, kind=block.kind, numbered=block.numbered)
                unit.signals = (weak, strong, table or block.numbered)
        units.append(unit)
        position += 1
    _settle(units)
    return units


def _plan_section(blocks: Sequence[Block], heading: int, end: int, index: ItemIndex) -> Unit:
    """The unit of a heading: its whole section when the heading names an item (or, numbered, its section
    links to exactly one), else the heading alone with its entry signals for `plan_units` to weigh."""
    block = blocks[heading]
    body = [line for b in blocks[heading + 1 : end] for line in b.lines]
    identity = _identify(index, block.lines[0], block.text, table=False, lead_only=False, by_text=True)
    if identity.item is None and not identity.ambiguous and block.numbered:
        owners = {i for t in find_links("\n".join(body)) if t.url and (i := index.owner(t.url)) is not None}
        identity = _Identity(owners.pop()) if len(owners) == 1 else identity
    unit = Unit(list(range(heading, end)), group=("heading", block.level), label=entry_label(block.lines[0]))
    if identity.item is not None and _names_other_items(blocks[heading + 1 : end], index, identity.item):
        unit.blocks = [heading]  # a heading over a list of items ("# Diffusion models for protein design")
    elif identity.item is not None:
        unit.role, unit.item = Role.ENTRY, identity.item
    elif identity.ambiguous:
        unit.blocks = [heading]
    else:
        lead_body: list[str] = []  # the paragraphs under the heading, before any list or table
        for b in blocks[heading + 1 : end]:
            if b.kind not in (BlockKind.PARAGRAPH, BlockKind.BLANK):
                break
            lead_body += b.lines
        weak, strong = _signals(index, block.lines + lead_body, kind=block.kind, numbered=block.numbered)
        unit.signals = (weak, strong, False)
    return unit


def _names_other_items(body: Sequence[Block], index: ItemIndex, item: int | None) -> bool:
    """Whether a block of `body` is the entry of a collected item other than `item`."""
    for block in body:
        if block.kind in (BlockKind.LIST_ITEM, BlockKind.TABLE_ROW, BlockKind.PARAGRAPH):
            paragraph = block.kind is BlockKind.PARAGRAPH
            found = _identify(
                index,
                block.lines[0],
                block.text,
                table=block.kind is BlockKind.TABLE_ROW,
                lead_only=paragraph,
                by_text=not paragraph,
            ).item
            if found is not None and found != item:
                return True
    return False


def _settle(units: list[Unit]) -> None:
    """Weigh unmatched blocks against their sibling run, and mark repeated entries."""
    item_groups = {unit.group for unit in units if unit.role is Role.ENTRY and unit.group is not None}
    seen: set[tuple[tuple[str, int] | None, int]] = set()
    for unit in units:
        if unit.role is Role.PROSE and unit.signals is not None and unit.group and unit.group[0] == "block":
            weak, strong, always = unit.signals
            if (unit.group in item_groups and (weak or strong or always)) or (weak and strong):
                unit.role = Role.INVENTED
        elif unit.role is Role.ENTRY and unit.item is not None:
            key = (unit.group, unit.item)
            if key in seen:
                unit.role = Role.DUPLICATE
            seen.add(key)
