"""The citation guard: a deterministic check of the report draft before the user sees it (the
hallucination detection the paper leaves to future work).

Every entry must be a collected item; every date, DOI and author it shows must agree with the metadata
read from the item's own page; every link and image must point at a fetched page or a collected item; a
report that found fewer items than asked says so instead of padding. What breaks a rule is removed (or a
wrong link corrected), every change is listed in a note, and the share of entries and fields that were
supported is the report's groundedness figure.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Collection, Sequence

from pydantic import BaseModel, Field

from research_crawler.report.field_claims import Claim, FieldKind, find_claims
from research_crawler.report.markdown_blocks import Block, BlockKind, split_blocks
from research_crawler.report.markdown_links import (
    Action,
    Decision,
    LinkKind,
    LinkToken,
    find_links,
    reference_definitions,
    remove_raw_html,
    rewrite_links,
)
from research_crawler.report.models import ReportItem
from research_crawler.report.report_entries import ItemIndex, Role, Unit, doi_of_url, plan_units
from research_crawler.report.text_edits import LineEdit, apply_line_edits, tidy_line
from research_crawler.report.title_match import title_pattern

__all__ = ["GuardResult", "guard_report"]

logger = logging.getLogger(__name__)

_KEEP = Decision(Action.KEEP)
_ORDERED_MARKER = re.compile(r"^(\s*)(\d{1,9})([.)])")
_URL_LIKE = re.compile(r"^\s*(?:https?://|www\.|10\.\d{4,9}/)", re.IGNORECASE)


class GuardResult(BaseModel):
    """The guarded report and what the guard changed in it."""

    markdown: str = Field(description="The report after the guard.")
    notes: list[str] = Field(default_factory=list, description="One sentence per change, for the report's end.")
    removed_items: list[str] = Field(default_factory=list, description="Entries removed: invented or repeated.")
    removed_fields: list[str] = Field(default_factory=list, description='Fields removed, as \'date "2023" of "T"\'.')
    removed_links: list[str] = Field(
        default_factory=list, description="URLs taken out of the report: removed, or replaced by a correction."
    )
    supported_share: float = Field(
        ge=0, le=1, description="Supported entries and fields over all checked (1.0 when nothing was checked)."
    )
    entries_checked: int = Field(ge=0, description="Item entries found in the draft, invented ones included.")
    fields_checked: int = Field(ge=0, description="Authors, dates, DOIs and links shown, in entries and prose.")


class _Ledger:
    """What the guard saw and changed, in order."""

    def __init__(self, item_kind: str) -> None:
        self.kind = item_kind.strip() or "item"
        self.plural = self.kind if self.kind.endswith("s") else f"{self.kind}s"
        self.notes: list[str] = []
        self.removed_items: list[str] = []
        self.removed_fields: list[str] = []
        self.removed_links: list[str] = []
        self.entries = self.entries_supported = self.fields = self.fields_supported = 0

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

    def field(self, *, supported: bool) -> None:
        self.fields += 1
        self.fields_supported += supported

    def entry(self, *, supported: bool) -> None:
        self.entries += 1
        self.entries_supported += supported

    def share(self) -> float:
        checked = self.entries + self.fields
        return 1.0 if checked == 0 else (self.entries_supported + self.fields_supported) / checked


def _quote(text: str, limit: int = 80) -> str:
    flat = " ".join(text.split())
    return f'"{flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"}"'


class _LinkChecker:
    """Decides each link of one unit (an entry of `entry`, or prose when `entry` is None)."""

    def __init__(
        self, index: ItemIndex, ledger: _Ledger, refused: set[str], *, entry: int | None, has_own_link: bool = False
    ) -> None:
        self.index, self.ledger, self.refused, self.entry = index, ledger, refused, entry
        self.has_own_link = has_own_link

    def __call__(self, token: LinkToken, source: str) -> Decision:
        if token.kind is LinkKind.HTML:  # escaped before the guard reads the draft: never here, never kept
            self.ledger.note("Removed raw HTML.")
            self.ledger.field(supported=False)
            return Decision(Action.DROP)
        url = token.url
        if url is None:
            return _KEEP
        if token.kind in (LinkKind.REF_LINK, LinkKind.REF_IMAGE) and token.label in self.refused:
            # counted once, with its definition
            return Decision(Action.DROP if token.kind is LinkKind.REF_IMAGE else Action.UNWRAP)
        text = token.text_of(source) if token.kind in (LinkKind.LINK, LinkKind.REF_LINK) else ""
        titled = self.index.titles.match(text) if text.strip() else None
        if titled is not None and not self.index.belongs_to(url, titled):
            return self._retarget(token, titled, url)
        if self.entry is not None and titled is None and token.kind not in (LinkKind.IMAGE, LinkKind.REF_IMAGE):
            if doi_of_url(url) is not None and not self.index.belongs_to(url, self.entry):
                return self._remove(
                    token, url, reason=f"from {_quote(self.index.items[self.entry].title)}: not the DOI its page gives"
                )
            owner = self.index.owner(url)
            if owner is not None and owner != self.entry:
                return self._retarget(token, self.entry, url)
            if (
                not self.index.is_allowed(url)
                and not self.has_own_link
                and (token.kind in (LinkKind.BARE, LinkKind.AUTOLINK) or _URL_LIKE.match(text))
            ):
                return self._retarget(token, self.entry, url)
        if not self.index.is_allowed(url):
            return self._remove(token, url, reason="which was never fetched")
        if self.entry is not None and self.index.belongs_to(url, self.entry):
            self.has_own_link = True
        self.ledger.field(supported=True)
        return _KEEP

    def _retarget(self, token: LinkToken, item_index: int, old: str) -> Decision:
        item = self.index.items[item_index]
        wrong_owner = self.index.owner(old)
        pdf_wanted = wrong_owner is not None and self.index.is_pdf_of(old, wrong_owner)
        new = item.pdf_url if pdf_wanted and item.pdf_url else item.url
        self.ledger.field(supported=False)
        self.ledger.removed_links.append(old)
        self.ledger.note(f"Corrected the link of {_quote(item.title)} from {old} to {new}.")
        if item_index == self.entry:
            self.has_own_link = True
        return Decision(Action.RETARGET, new)

    def _remove(self, token: LinkToken, url: str, *, reason: str) -> Decision:
        self.ledger.field(supported=False)
        self.ledger.removed_links.append(url)
        if token.kind in (LinkKind.IMAGE, LinkKind.REF_IMAGE):
            self.ledger.note(f"Removed an image from {url}, {reason}.")
            return Decision(Action.DROP)
        if token.kind in (LinkKind.LINK, LinkKind.REF_LINK):
            self.ledger.note(f"Removed a link to {url}, {reason} (its text is kept).")
            return Decision(Action.UNWRAP)
        self.ledger.note(f"Removed the URL {url}, {reason}.")
        return Decision(Action.DROP)


def _protected_spans(line: str, title: str) -> list[tuple[int, int]]:
    """Parts of a line that are not fields: link targets, URLs, code, and the item's own title."""
    spans = []
    for token in find_links(line):
        if token.kind in (LinkKind.LINK, LinkKind.REF_LINK):
            spans.append((token.text_end, token.end))
        else:
            spans.append((token.start, token.end))
    if pattern := title_pattern(title):
        spans += [match.span() for match in pattern.finditer(line)]
    return spans


def _field_note(claim: Claim, item: ReportItem) -> str:
    title = _quote(item.title)
    if claim.kind is FieldKind.DATE:
        reason = f"its page gives {item.date}" if item.date else "its page gives no date"
    elif claim.kind is FieldKind.DOI:
        reason = f"its page gives {item.doi}" if item.doi else "its page gives no DOI"
    else:
        reason = "not an author its page lists"
    return f"Removed the {claim.kind.value} {_quote(claim.value)} from {title}: {reason}."


class _Guard:
    def __init__(self, draft: str, items: Sequence[ReportItem], ledger: _Ledger, allowed_urls: Collection[str]):
        self.blocks = split_blocks(draft)
        self.index = ItemIndex(items, allowed_urls)
        self.ledger = ledger
        self.definitions = {definition.label: definition.url for definition in reference_definitions(draft)}
        self.refused = {label for label, url in self.definitions.items() if not self.index.is_allowed(url)}

    def run(self) -> list[str]:
        units = plan_units(self.blocks, self.index)
        rendered: list[tuple[Unit, list[str] | None]] = []
        for unit in units:
            lines = [line for number in unit.blocks for line in self.blocks[number].lines]
            if unit.role is Role.CODE:
                rendered.append((unit, lines))
            elif unit.role in (Role.INVENTED, Role.DUPLICATE):
                rendered.append((unit, None))
                self._remove_entry(unit)
            elif unit.role is Role.ENTRY and unit.item is not None:
                self.ledger.entry(supported=True)
                rendered.append((unit, self._check_entry(lines, unit, unit.item)))
            else:
                rendered.append((unit, self._check_links(self._definitions_checked(lines), None)))
        self._renumber(rendered)
        return _assemble(rendered)

    def _remove_entry(self, unit: Unit) -> None:
        self.ledger.entry(supported=False)
        self.ledger.removed_items.append(unit.label)
        if unit.role is Role.DUPLICATE and unit.item is not None:
            self.ledger.note(f"Removed a repeated entry for {_quote(self.index.items[unit.item].title)}.")
        else:
            article = "an" if self.ledger.kind[:1].lower() in "aeiou" else "a"
            self.ledger.note(
                f"Removed {article} {self.ledger.kind} that is not among the collected "
                f"{self.ledger.plural}: {_quote(unit.label)}."
            )

    def _definitions_checked(self, lines: list[str]) -> list[str]:
        dropped: set[int] = set()
        for definition in reference_definitions("\n".join(lines)):
            if definition.label not in self.refused:
                self.ledger.field(supported=True)
                continue
            self.ledger.field(supported=False)
            self.ledger.removed_links.append(definition.url)
            self.ledger.note(f"Removed a link to {definition.url}, which was never fetched (its text is kept).")
            dropped.update(range(definition.first_line, definition.end_line))
        return [line for number, line in enumerate(lines) if number not in dropped]

    def _check_links(self, lines: list[str], entry: int | None) -> list[str]:
        text = "\n".join(lines)
        has_own = entry is not None and any(
            token.url is not None and self.index.belongs_to(token.url, entry)
            for token in find_links(text, definitions=self.definitions)
        )
        checker = _LinkChecker(self.index, self.ledger, self.refused, entry=entry, has_own_link=has_own)
        rewritten = rewrite_links(text, checker, definitions=self.definitions).split("\n")
        if len(rewritten) != len(lines):  # an embedded element spanning lines went: nothing to align
            return rewritten
        kept = []
        for old, new in zip(lines, rewritten, strict=True):
            if new != old:
                indent = old[: len(old) - len(old.lstrip(" \t"))]
                new = indent + tidy_line(new).lstrip(" \t")
                if not new.strip():
                    continue  # the line held nothing but what was removed
            kept.append(new)
        return kept

    def _check_entry(self, lines: list[str], unit: Unit, item_index: int) -> list[str]:
        item = self.index.items[item_index]
        lines = self._check_links(self._definitions_checked(lines), item_index)
        claims = find_claims(
            lines,
            authors=item.authors,
            date=item.date,
            doi=item.doi,
            author_pool=self.index.authors,
            protected=[_protected_spans(line, item.title) for line in lines],
            column_labels=unit.column_labels,
        )
        edits: dict[int, list[LineEdit]] = {}
        for claim in claims:
            self.ledger.field(supported=claim.supported)
            if not claim.supported:
                edits.setdefault(claim.line, []).append(LineEdit(*claim.cut))
                self.ledger.removed_fields.append(f"{claim.kind.value} {_quote(claim.value)} of {_quote(item.title)}")
                self.ledger.note(_field_note(claim, item))
        return apply_line_edits(lines, edits, keep_first_line=True)

    def _renumber(self, rendered: list[tuple[Unit, list[str] | None]]) -> None:
        """Ordered lists that lost an entry count on without a gap, from their first number."""

        def list_block(unit: Unit) -> Block | None:
            block = self.blocks[unit.blocks[0]]
            return block if block.kind is BlockKind.LIST_ITEM and block.numbered else None

        shortened = {block.group for unit, lines in rendered if lines is None and (block := list_block(unit))}
        counter: dict[int, int] = {}
        for unit, _ in rendered:
            block = list_block(unit)
            if block is not None and block.group in shortened and (marker := _ORDERED_MARKER.match(block.lines[0])):
                counter.setdefault(block.group, int(marker.group(2)))
        for unit, lines in rendered:
            block = list_block(unit)
            if block is None or block.group not in counter or not lines:
                continue
            if marker := _ORDERED_MARKER.match(lines[0]):
                lines[0] = f"{marker.group(1)}{counter[block.group]}{marker.group(3)}{lines[0][marker.end() :]}"
                counter[block.group] += 1


def _assemble(rendered: list[tuple[Unit, list[str] | None]]) -> list[str]:
    """The kept lines in order; a removed unit takes the blank lines after it when one precedes it."""
    out: list[str] = []
    skip_blanks = False
    for _, lines in rendered:
        if lines is None:
            skip_blanks = skip_blanks or not out or not out[-1].strip()
            continue
        if skip_blanks and all(not line.strip() for line in lines):
            continue
        skip_blanks = False
        out.extend(lines)
    return out


def guard_report(
    draft: str,
    *,
    items: Sequence[ReportItem],
    allowed_urls: Collection[str],
    requested_count: int | None,
    item_kind: str = "paper",
) -> GuardResult:
    """Check `draft` (the Presenter's Markdown) against the collected `items` and return it corrected.

    `allowed_urls` are the URLs a link may point at: the fetched pages (the items' URLs and PDF URLs are
    always allowed, as are doi.org links to their DOIs). `requested_count` is the number of items the
    request asked for, if any. Notes are in English whatever the draft's language.
    """
    if not isinstance(draft, str):
        raise TypeError(f"draft must be a str, not {type(draft).__name__}")
    crlf = "\r\n" in draft
    # line endings and NUL as CommonMark reads them, so that what is checked is what a viewer renders
    text = draft.replace("\r\n", "\n").replace("\r", "\n").replace("\0", "\ufffd")
    ledger = _Ledger(item_kind)
    text = _without_raw_html(text, ledger)
    guard = _Guard(text, items, ledger, allowed_urls)
    lines = guard.run()
    trailing = len(text) - len(text.rstrip("\n"))
    markdown = _only_allowed_links("\n".join(lines).rstrip("\n"), guard.index, ledger)
    markdown = _with_shortfall(markdown, ledger, found=len(items), requested=requested_count)
    markdown += "\n" * trailing
    if crlf:
        markdown = markdown.replace("\n", "\r\n")
    if ledger.notes:
        logger.info("citation guard changed the report: %s", "; ".join(ledger.notes))
    return GuardResult(
        markdown=markdown,
        notes=ledger.notes,
        removed_items=ledger.removed_items,
        removed_fields=ledger.removed_fields,
        removed_links=ledger.removed_links,
        supported_share=ledger.share(),
        entries_checked=ledger.entries,
        fields_checked=ledger.fields,
    )


def _without_raw_html(text: str, ledger: _Ledger) -> str:
    """`text` without raw HTML: a report never carries markup that runs (event handlers, scripts, embeds)."""
    text, removed = remove_raw_html(text)
    for fragment in removed:
        ledger.field(supported=False)
        ledger.removed_links.append(_tag_name(fragment))
        ledger.note(f"Removed raw HTML {_quote(fragment, 60)}.")
    return text


def _tag_name(fragment: str) -> str:
    match = re.match(r"\s*<\s*/?\s*([A-Za-z][\w:-]*)", fragment)
    return f"<{match.group(1).lower()}>" if match else "<html>"


def _only_allowed_links(markdown: str, index: ItemIndex, ledger: _Ledger) -> str:
    """The guarded report read once more as a whole, as a viewer reads it: anything that still points outside the
    fetched set (a construct the entry-by-entry reading saw differently) is removed, raw HTML escaped."""

    def decide(token: LinkToken, source: str) -> Decision:
        if token.kind is LinkKind.HTML or (token.url is not None and not index.is_allowed(token.url)):
            what = "raw HTML" if token.url is None else token.url
            ledger.removed_links.append(what)
            ledger.note(f"Removed {what}, which was never fetched.")
            return Decision(Action.UNWRAP if token.kind in (LinkKind.LINK, LinkKind.REF_LINK) else Action.DROP)
        return _KEEP

    for _ in range(4):
        checked = rewrite_links(_without_raw_html(markdown, ledger), decide)
        if checked == markdown:
            break
        markdown = checked
    return markdown


def _with_shortfall(markdown: str, ledger: _Ledger, *, found: int, requested: int | None) -> str:
    """`markdown` saying "Found N of the M requested" when fewer items were found than asked for."""
    if requested is None or requested <= found:
        return markdown
    if re.search(rf"\bfound\s+{found}\s+of\s+the\s+{requested}\s+requested\b", markdown, re.IGNORECASE):
        return markdown
    sentence = f"Found {found} of the {requested} requested {ledger.plural}."
    ledger.note(f'Added "{sentence}": fewer {ledger.plural} were found than requested.')
    return f"{markdown}\n\n{sentence}" if markdown.strip() else sentence
