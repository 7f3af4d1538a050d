"""Bylines that credit no person: a news agency, the paper's desk or a writer's initials — "By The Associated
Press", "dpa", "(sak)", "Reuters", "Le Monde.fr avec AFP", "NZZ-Redaktion", "Associated Press in Valencia". Such a
credit is the page's one writer, read as the page shows it (its first credit: "Le Monde.fr avec AFP" is credited to
"Le Monde.fr"); a credit that names a person beside an agency ("Jane Doe, AP") is a person's byline, read elsewhere.

Where a reader looks for it: on a short line near the item's title that goes with its date (the credit line over,
under or beside the date), or in the sign-off a story ends with ("sak/Reuters", "amw", "ssi, dan; Foto: …").
"""

from __future__ import annotations

import re
from typing import Any

from research_crawler.pages.item_dates import dates_in_text
from research_crawler.pages.person_names import is_person_name, split_people

__all__ = ["credit_of", "desk_credit_near", "desk_sign_off", "names_a_desk"]

# The words that make a credit an agency's or a desk's, in the languages pages are written in: an editorial desk
# ("Redaktion", "rédaction", "redacción", "redazione", "redactie", "staff", "newsroom", a company's "team", "équipe",
# "equipo"), a news agency ("agency",
# "Agentur", "agence", "agencia", "agenzia", "ajansı", "Press", "Presse", "Associated Press"), a wire service.
_DESK_WORDS = re.compile(
    r"(?<![^\W\d_])(?:redaktion|r[ée]daction|redacci[óo]n|redazione|redactie|redaksjon(?:en)?|redaktionen|toimitus|staff|desk"
    r"|newsroom|team|[ée]quipe|equipo|agenc(?:y|ies|e|ia)|agenzia|agentur|ajans[ıi]|press|presse|prensa|stampa|wires?|news\s+service)\b",
    re.I,
)
# the world's wire services whose name is no word of a desk ("Reuters", "Kyodo"): a credit as "AFP" is
_WIRE_SERVICES = re.compile(r"^(?:reuters|bloomberg|kyodo|xinhua|yonhap|tass|efe|jiji|anadolu|ansa|belga)$", re.I)
_INITIALS = re.compile(r"^\(?[a-zäöüßæøåéè]{2,4}\)?$")  # "dpa", "sak", "(amw)": lower case, as initials are signed
_DOTTED_INITIALS = re.compile(r"^(?:[A-Z]\.){1,3}$")  # "B.R.", as a magazine signs its writers
_AGENCY_CAPITALS = re.compile(r"^\(?[A-Z]{2,6}\)?$")  # "AFP", "AP", "KNA", "ANSA"
# (after the words that say the line signs or writes it: "Firmado por Redacción", "Posted by", "Escrito por")
_BY = re.compile(
    r"^(?:(?:posted|written|signed|firmado|escrito|publicado|assinado|postado)\s+)?"
    r"(?:by|von|par|por|door|av|af|di|da|de)(?::\s*|\s+)",
    re.I,
)
_IN_PLACE = re.compile(r"\s+(?:in|en|aus|from|à|a|i)\s+[A-ZÀ-Þ][\w'’-]*(?:\s+[A-ZÀ-Þ][\w'’-]*)?$")
# between the credits of one line: "avec", "with", "and", "mit", "und", "y", "con", "og", "et", "/", ",", "&"
_JOINS = re.compile(r"\s*(?:/|,|&|\+)\s*|\s+(?:avec|with|and|mit|und|y|con|og|och|et|e|i|en)\s+", re.I)
_CREDIT_WORDS = 6
_SIGN_OFF_PARTS = 3
_BODY_WORDS = 15  # a paragraph of the story, which a sign-off follows
_NEAR = 4  # blocks after a title where its credit line may stand (a standfirst, a photo's caption between)
_DATE_REACH = 2  # blocks between a credit line and its date
_DATED_CREDIT_WORDS = 10  # "NZZ-Redaktion 18.07.2024, 11.08 Uhr 7 min", "Apr 16th 2015, 20:31 by B.R."
_DATE_LINE_WORDS = 20  # "Publié le 12 avril 2015 à 22h23 - Mis à jour le 13 avril 2015 à 12h28"
_SHORT_DATE = re.compile(r"(?<![\d.])\d{1,2}\.\d{1,2}\.\d{2}(?![\d.])")  # "15.04.25", a two-digit year
_GLUED_DIGITS = re.compile(r"(?<=[^\W\d_])(?=\d)")
# an agency's credit alone on the line a story ends with, in capitals or a wire service's name, bare, in brackets or
# after a dash ("UOL", "(Reuters)", "— AP"); the marks a wire ends its copy with are no credit ("END", "FIN")
_AGENCY_SIGN_OFF = re.compile(r"(?:[-–—]\s*)?(?P<open>\()?(?P<credit>[^\W\d_]{2,12})(?(open)\))")
_END_MARKS = frozenset({"END", "FIN", "ENDS", "MORE"})
_SENTENCE_ENDS = frozenset('.!?"”»’)…。')


def _is_credit(part: str, site: frozenset[str] = frozenset()) -> bool:
    """Whether one credit of a line is an agency's, a desk's, initials or the site's own name (never a person's)."""
    part = part.strip()
    if _names_site(part, site):
        return True
    if not part or is_person_name(part) or split_people(part):
        return False
    return bool(_INITIALS.match(part) or _DOTTED_INITIALS.match(part) or _is_agency_or_desk(part))


def _is_agency_or_desk(part: str) -> bool:
    return bool(_AGENCY_CAPITALS.match(part) or _WIRE_SERVICES.match(part) or _DESK_WORDS.search(part))


def _agency_credit(word: str) -> bool:
    """Whether one word alone is an agency's credit: capitals ("UOL", "AP") or a wire service's name, no end mark."""
    return bool(_AGENCY_CAPITALS.match(word) or _WIRE_SERVICES.match(word)) and word.upper() not in _END_MARKS


def names_a_desk(credit: str) -> bool:
    """Whether a credit names a desk or a team by a word that says so ("Example Team", "Example-Redaktion", "CHQ
    Staff"): a group that writes, never the site's masthead, even where the group bears the site's name."""
    return bool(_DESK_WORDS.search(credit))


def _names_site(part: str, site: frozenset[str]) -> bool:
    """Whether a credit is the site's own name, spacing and a domain's ending aside ("Le Monde.fr" on lemonde.fr)."""
    compact = re.sub(r"[\W_]", "", part.casefold()).removeprefix("the")
    names = {re.sub(r"[\W_]", "", name.casefold()) for name in site}
    return any(name and compact.startswith(name) and len(compact) - len(name) <= 3 for name in names)


def credit_of(text: str, site: frozenset[str] = frozenset()) -> str | None:
    """The credit a byline line gives where it credits no person, as shown (its first credit, without "By" and a
    place after "in"): "By The Associated Press" → "The Associated Press", "Le Monde.fr avec AFP" → "Le Monde.fr";
    None for a line that names a person, says more than a credit, or credits nothing a reader takes for a desk.
    `site` holds the site's own names: the paper crediting itself is a desk's credit."""
    line = " ".join(text.split())
    # (a credit alone in square brackets, "[ITmedia]", is set apart as a byline is: the paper crediting itself)
    bracketed = re.fullmatch(r"\[([^\[\]]+)\]", line)
    line = bracketed[1].strip() if bracketed else line
    line, by = _BY.subn("", line, count=1)
    line = _IN_PLACE.sub("", line)
    if not line or len(line.split()) > _CREDIT_WORDS or re.search(r"[\d:!?;\"«»]", line):
        return None
    parts = [part.strip() for part in _JOINS.split(line) if part.strip()]
    credits = [part for part in parts if _is_credit(part, site)]
    if not parts or any(part not in credits and (is_person_name(part) or split_people(part)) for part in parts):
        return None
    if by and not credits and len(parts) == 1 and parts[0][:1].isupper() and not _DOTTED_INITIALS.search(line):
        return parts[0]  # "By THE NEW YORK TIMES", "By Example Foundation": a named group that says it wrote
    if not credits or len(credits) < len(parts):  # every part a credit: "Le Monde.fr avec AFP", "dpa/MM-Redaktion"
        return None
    if not by and not bracketed and all(_names_site(part, site) and not _is_agency_or_desk(part) for part in credits):
        return None  # the site's name over a date, without "By", is its masthead's, not a byline
    return parts[0]


def desk_credit_near(blocks: list[Any], index: int, site: frozenset[str] = frozenset()) -> list[str]:
    """The desk's or agency's credit on a short line a few blocks under the title (block `index`) that goes with the
    item's date — the date on the line itself ("NZZ-Redaktion 18.07.2024, 11.08 Uhr") or on one of the next lines
    ("Associated Press in Valencia" over "Sat 24 Feb 2024 12.42 CET") — or, where the line is a run of links
    ("dpa" "MM-Redaktion" "Palma, Mallorca 15.04.25"), the first link's credit. [] when no such line stands there."""
    for position in range(index + 1, min(len(blocks), index + 1 + _NEAR)):
        block = blocks[position]
        if block.heading and position > index + 1:
            break
        text = block.text.strip()
        if len(text.split()) > _DATE_LINE_WORDS:
            continue  # a paragraph of the story, its first words a dateline's place ("TAMPA, Fla., April 29")
        # (a date glued to the place before it by the page's markup: "Palma, Mallorca15.04.25 09:56")
        spaced = _GLUED_DIGITS.sub(" ", text)
        dated_here = bool(dates_in_text(spaced, bare_years=False) or _SHORT_DATE.search(spaced))
        around = [*blocks[max(index + 1, position - 1) : position], *blocks[position + 1 : position + 1 + _DATE_REACH]]
        dated = dated_here or any(
            dates_in_text(other.text, bare_years=False) and len(other.text.split()) <= _DATE_LINE_WORDS
            for other in around
        )
        if dated_here and len(block.links) == 1 and text == block.links[0].strip():
            continue  # one link naming a thing with its date ("APR 2024": a venue's year, an issue) credits no one
        if block.links and text.startswith(block.links[0]) and (credit := credit_of(block.links[0], site)):
            return [credit] if dated else []
        if block.links and is_person_name(link := block.links[0]) and _glued_after(_BY.sub("", text, count=1), link):
            continue  # "By <a>Jane Doe</a>Business Columnist": a linked person's byline, their role glued on
        # the line's credit: before its date ("NZZ-Redaktion 18.07.2024"), or after it ("Apr 16th 2015 by B.R.")
        heads = [re.split(r"\s+\d|\s+[|•·–—-]\s+", text, maxsplit=1)[0], text.rpartition(" by ")[2]]
        # (a dated line of its own is short: a citation line, "BMJ 2016; 353 doi: … (Published 24 May 2016)", is not
        # a credit with its date)
        if dated_here and (len(text.split()) > _DATED_CREDIT_WORDS or re.search(r";|:\s|\bdoi\b", text, re.I)):
            continue
        for head in heads if dated_here else [text]:
            credit = credit_of(head, site)
            # (an agency's or a desk's credit in words alone on its line says what it is without a date beside it;
            # a word in capitals alone may be a rubric, "AVOCAT")
            if credit and (
                dated or (head == credit and bool(_WIRE_SERVICES.match(credit) or _DESK_WORDS.search(credit)))
            ):
                return [credit]
    return []


def _glued_after(text: str, link: str) -> bool:
    """Whether `text` opens with `link` and runs on into a word with no space between ("Jane DoeBusiness")."""
    return text.startswith(link) and text[len(link) : len(link) + 1].isalpha()


def desk_sign_off(blocks: list[Any], index: int) -> list[str]:
    """The initials or agency a story is signed with at its end, right after a paragraph of the story, below the
    title (block `index`): "sak/Reuters", "amw", "(dpa)", "ssi, dan; Foto: …" — the first credit, initials first
    (a reader takes the initials for the writer). [] when the story ends unsigned."""
    for position in range(index + 2, len(blocks)):
        block, previous = blocks[position], blocks[position - 1]
        if block.chrome or block.heading or block.links:
            continue
        if len(previous.text.split()) < _BODY_WORDS or previous.chrome:
            continue
        head = block.text.split(";")[0].strip()
        ended = previous.text.rstrip()[-1:] in _SENTENCE_ENDS  # the story's last sentence, not a line run on
        if ended and (agency := _AGENCY_SIGN_OFF.fullmatch(head)) and _agency_credit(agency["credit"]):
            if any(
                not later.chrome and len(later.text.split()) >= _BODY_WORDS
                for later in blocks[position + 1 : position + 4]
            ):
                continue  # the story goes on: a picture's credit between its paragraphs, no sign-off
            return [agency["credit"]]  # an agency's credit alone after the story: "UOL", "(Reuters)", "— AP"
        parts = [part.strip() for part in re.split(r"\s*[/,]\s*", head) if part.strip()]
        if not 0 < len(parts) <= _SIGN_OFF_PARTS or not _INITIALS.match(parts[0]):
            continue
        if all(_is_credit(part) or (part[:1].isupper() and len(part.split()) <= 2) for part in parts[1:]):
            return [parts[0].strip("()")]
    return []
