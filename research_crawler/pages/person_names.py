"""People's names as pages write them: splitting an author list, telling a name from other text, the surname.

A byline is written many ways — "A, B and C", "A; B; C", "Last, First", "by A & B", names followed by
affiliation marks (1, *, †) or degrees (PhD) — and a tag may hold a whole list in one value. Nothing here
guesses a name that is not written: it only cuts and cleans what the page holds.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence

from nameparser import HumanName
from nameparser.config import Constants

from research_crawler.pages.dateline_places import names_a_dateline_place
from research_crawler.pages.given_names import is_given_name, is_ordinary_word
from research_crawler.pages.not_name_words import NOT_NAME_WORDS
from research_crawler.pages.register_names import surname_first

__all__ = [
    "NAME_PARTICLES",
    "as_the_page_turns_them",
    "begins_with_by",
    "clean_name",
    "fuller_byline",
    "is_person_name",
    "name_key",
    "name_parts",
    "same_person",
    "split_people",
    "surname",
    "without_by",
]

# Affiliation and footnote marks after a name: digits (any run glued to its last letter, "Goto107" for 10 and 7),
# letters in superscript runs, daggers, stars.
# ("¤a": PLOS marks a current address with a currency sign and a letter.)
_MARKS = re.compile(r"(?:\d{1,2}\))+$|(?:(?<![\d.])\d{1,2}(?!\d)|(?<=[^\W\d_])\d+|¤[a-z]?|[*†‡§¶∥⊥#✉⁰¹²³⁴⁵⁶⁷⁸⁹⁾⁽,])+$")
# A footnote letter set on the line after a name, "Banerjeea)", "Stefani1,2,a)": a letter (after affiliation
# numbers) closed by a parenthesis that nothing opened.
_LETTER_MARKS = re.compile(r"(?<=[^\W\d_])(?:\d{1,2},)*[a-z]\)(?=[\s,;]|$)")
# Affiliation letters set apart after a name, "Sarah Maria Vargas a b, Ana Carolina Barcelos a": single lower-case
# letters (a run of them, or "a,b") between the name and the next separator or the end.
_SPACED_LETTER_MARKS = re.compile(r"(?<=[^\W\d_]{2})(?:\s[a-z](?:,[a-z])*)+(?=\s*(?:[,;&]|$))")
# Affiliation marks of a letter and a number, glued to a name written in capitals or set apart after it: "SARAH
# THOMSONa1, NICHOLAS N. JONSSONa2 and FRANK KATZERa1 c1" (the superscripts "a1", "c1" run into the text). A
# capitalised name's own letters are never lower case after its capitals, so the glued run is the mark.
_GLUED_MARKS = re.compile(
    r"(?<=[A-Z]{2})[a-z]\d{1,2}(?:,[a-z]\d{1,2})*(?=[\s,;&]|$)|(?<=\S)\s[a-z]\d{1,2}(?=\s*(?:[,;&]|$))"
)
_MARK_AFTER_COMMA = re.compile(r"\s*,\s*([*†‡§¶∥⊥]+)(?=\s)")
_ROLES = re.compile(
    r"\s*¬?\s*[\[(](?:author|autor|auteur|verfasser(?:in)?|creator|hrsg\.?|ed\.?|eds\.?|editor|herausgeber|-)[\])]"
    r"|\s*\[[^\[\]]{1,40}\]"  # and any bracketed note after a name: "Dudek, Danuce Marcele [UNESP]"
    # and a short note in parentheses after a name: an editor's initials "Julia Hitz (eg)", a place "(Bruxelles)"
    r"|\s*\((?![^()]*\d)[^()]{1,40}\)(?=\s*(?:[,;&]|$))",
    re.I,
)
_DEGREES = re.compile(
    r",?\s+(?:PhD|Ph\.D\.|MD|M\.D\.|MSc|MPH|MBA|BSc|MA|DPhil|Dr\.?|Prof\.?|FRS|Jr\.?|Sr\.?)\b\.?", re.I
)
# "---- by Kenneth Surin", "Von: Wolfgang Schmale"
_BY = re.compile(
    # (an interview's interviewer is its writer: "Interview by Jane Doe")
    # (a byline that says it is signed or written, in other languages: "Firmado por Redacción", "Escrito por …")
    r"^[\s\-–—:*•·]*(?:(?:story|text|words|reporting|written|posted|interview|interviewed|signed|firmado|escrito"
    r"|publicado|assinado|postado)\s+)?"
    r"(?:by|von|par|di|por|door|av|af)(?::\s*|\s+)",
    re.I,
)
# What ends a shortened author list: "et al.", "and others", "+3 more", "…" (the names before it are the list's).
# A group the authors write for ("… and for the DELTA group", "on behalf of the X investigators") ends it too.
_LIST_ENDING = re.compile(
    r"[\s,;]*(?:\bet\s+al\b\.?|\band\s+(?:\d+\s+)?others?\b|\+\s*\d+\s*(?:more|others?)?|…|\.\.\."
    r"|(?:\band\s+)?\b(?:for|on\s+behalf\s+of)\s+the\s+[^,;]{1,80})\s*$",
    re.I,
)
# Forms of address before a name: "Dr. Alice Smith", "Prof. Dr. Bob Jones" (never part of the name).
_ADDRESS_FORMS = re.compile(r"^(?:(?:prof|dr|mr|mrs|ms|mx|sir|dame|professor)\.?\s+)+(?=[^\W\d_])", re.I)
# "and" in the languages of the corpus's pages; lower case and between spaces ("E. Venuti" is a name).
_LIST_SEPARATORS = re.compile(r"\s*;\s*|\s*&\s*|\s+[·•]\s+|,?\s+(?:and|und|et|y|e|i|en|och|og)\s+")
#: The lower-case words of a surname before its main word ("van", "de", "ibn"): never a name on their own.
NAME_PARTICLES = frozenset(
    [
        "van",
        "von",
        "der",
        "den",
        "de",
        "del",
        "della",
        "di",
        "da",
        "dos",
        "das",
        "du",
        "la",
        "le",
        "y",
        "bin",
        "ibn",
        "al",
        "el",
        "ter",
        "ten",
        "zu",
        "vander",
        "mac",
        "st.",
        "st",
    ]
)
#: The words that say whose a thing is, in the languages of the corpus's pages: a link to the reader's own pages
#: ("My Favorites", "Your Account", "Our Recipes", "Mes favoris", "Meine Rezepte", "Mis recetas", "Minhas receitas").
_POSSESSIVES = frozenset(
    {"my", "your", "our", "mes", "vos", "votre", "nos", "notre", "mein", "meine", "dein", "deine",
     "unser", "unsere", "mis", "tus", "nuestras", "nuestros", "minhas", "meus", "minha", "meu", "mijn", "onze"}
)  # fmt: skip
_INITIALS = re.compile(r"^(?:[A-Z][a-z]?\.-?)+$|^[A-Z]\.?$")
#: A Vancouver-style name's initials: one to three capitals, each with or without a full stop ("R", "JH", "J.-H.").
_VANCOUVER_INITIALS = re.compile(r"^(?:[A-Z]\.?-?){1,3}$")
#: nameparser's constants with the project's particles among its prefixes ("ter Horst", "y Gasset", "el Masri").
_NAME_CONSTANTS = Constants()
_NAME_CONSTANTS.prefixes.add(*NAME_PARTICLES)
_NAME_WORD = re.compile(r"^[^\W\d_](?:[^\W\d_]|['’.\-])*$")  # no digits: "NY-12 Candidate Forum" is no one
# a name's middle word in brackets or quotes: the initials or the nickname the person goes by ("Richard (R.J.) Roe",
# 'William "Bill" Roe')
_GOES_BY = re.compile(r"^(?:\((?P<bracketed>[^()]+)\)|[\"“](?P<quoted>[^\"“”]+)[\"”])$")


def clean_name(text: str) -> str:
    """`text` as a name: whitespace collapsed; a leading "by", trailing affiliation marks, degrees and roles cut."""
    name = " ".join(text.split())
    name = _ADDRESS_FORMS.sub("", _BY.sub("", name))
    for _ in range(3):
        stripped = _MARKS.sub("", _ROLES.sub("", _DEGREES.sub("", name))).strip(" ,;:")
        if stripped == name:
            break
        name = stripped
    return re.sub(r"(?<=\w\w)\.$", "", name)  # the full stop that ends a byline sentence ("… and Os Keyes.")


def begins_with_by(text: str) -> bool:
    """Whether a line opens as a byline does: "By …", "Written by …", "Von …", "Par …"."""
    return bool(_BY.match(text))


def without_by(text: str) -> str:
    """A byline without the words that open it ("By", "Posted by:", "Firmado por"): the credit as written."""
    return _BY.sub("", text, count=1).strip()


def is_person_name(text: str) -> bool:
    """Whether `text` reads as one person's name: 1 to 6 words (a single word only as written in a byline),
    each capitalised, an initial or a particle, no digits, no word of an institution, a role or page furniture —
    and, written given name first, opening with a given name rather than an ordinary word of the language
    ("Rose Hill" is a name, "Recent Activity" and "Printer-Friendly Version" are not)."""
    name = clean_name(text)
    if "," in name:
        if names_a_dateline_place(name):
            return False  # "BAAR, SWITZERLAND": where a press release was filed, not "Doe, Jane"
        last, _, first = name.partition(",")
        return _is_name_words(last.split()) and _is_name_words(first.split()) and "," not in first
    words = name.split()
    # (letters alone, with no full stop, name no one: a page's text-size buttons "A A")
    lettered = any(len(word) > 1 for word in words)
    if words and words[0].casefold() in _POSSESSIVES:
        return False  # the reader's own things ("My Favorites", "Your Account", "Meine Rezepte"): no one's name
    return 2 <= len(words) <= 6 and lettered and _is_name_words(words) and not _opens_with_a_word(words)


def split_people(text: str) -> list[str]:
    """The names in an author list, in its order. "Last, First" stays one name; "A, B and C", "A; B", "A & B" and
    "Last, F., Last, F." are split. Returns [] when a part does not read as a name (the text was no author list)."""
    if (registered := surname_first(" ".join(text.split()))) != " ".join(text.split()):
        return [name for name in (clean_name(name) for name in registered.split("; ")) if name]
    text = _ROLES.sub("", _DEGREES.sub("", " ".join(text.split())))
    text = _SPACED_LETTER_MARKS.sub("", _LETTER_MARKS.sub("", _GLUED_MARKS.sub("", text)))
    text = _LIST_ENDING.sub("", _BY.sub("", text)).strip(" ,;")
    # a footnote mark set after the comma that ends its name ("Emilie Cauët ,† Dominique Dehareng ,‡ and …")
    text = _MARK_AFTER_COMMA.sub(r"\1,", text)
    if not text:
        return []
    names: list[str] = []
    if ";" in text:  # "Last, First; Last, First" or "First Last, Affiliation; …": one name a part
        for part in re.split(r"\s*;\s*", text):
            for name in _LIST_SEPARATORS.split(part):
                before, comma, after = name.partition(",")
                if comma and not _looks_inverted(before.strip(), after.strip()):
                    name = before  # "Prateesh Goyal, MIT CSAIL": the name, then an affiliation
                names.append(name)
    else:
        for part in _LIST_SEPARATORS.split(text):
            names.extend(_split_commas(part))
    cleaned = [name for name in (clean_name(name) for name in names) if name]
    if cleaned and all(is_person_name(name) for name in cleaned):
        return cleaned
    # "Maren Holt, Westfield University": one name, then the institution the person writes from
    person, comma, place = text.partition(",")
    if comma and "," not in place and is_person_name(clean_name(person)) and _names_institution(place):
        return [clean_name(person)]
    return []


def _names_institution(text: str) -> bool:
    """Whether `text` names an institution, not a person: a word of institutions' names ("University", "Board")."""
    words = {word.casefold() for word in re.findall(r"[^\W\d_]+", text)}
    return bool(words & _INSTITUTION_WORDS)


#: Words of the names of the places people write from (universities, hospitals, institutes, boards, companies).
_INSTITUTION_WORDS = frozenset({
    "university", "universität", "université", "università", "universidad", "universidade", "universitat",
    "universitet", "universiteit", "institute", "institut", "instituto", "college", "school", "hospital", "centre",
    "center", "laboratory", "laboratories", "department", "faculty", "foundation", "trust", "board", "council",
    "agency", "ministry", "company", "corporation", "inc", "ltd", "academy", "observatory", "museum", "library",
})  # fmt: skip


def name_parts(name: str) -> tuple[str, str]:
    """The family name and the given names of `name`, however it is written: "Last, First"; "Last AB" (the
    Vancouver style of reference lists: a surname, with its particles, followed by initials only — "Petrova R",
    "van der Berg JH", "Lee J.-H."); or "First Last", read by nameparser's HumanName with the project's particles
    ("Jan van Hyning", "Maria de la Cruz", "John Smith Jr."). A name of one word is a surname."""
    name = clean_name(name)
    if "," in name:
        last, _, given = name.partition(",")
        return last.strip(), given.strip()
    words = name.split()
    if _ends_with_initials(words):
        return " ".join(words[:-1]), words[-1]
    if len(words) < 2:
        return name, ""
    parsed = HumanName(name, constants=_NAME_CONSTANTS)
    if not parsed.last:
        return words[-1], " ".join(words[:-1])
    return parsed.last, " ".join(part for part in (parsed.first, parsed.middle) if part)


def surname(name: str) -> str:
    """The family name of `name` (`name_parts`): "Petrova" of "Rosa Petrova", "Petrova, Rosa" and "Petrova R"; "van
    Hyning" of "Jan van Hyning"."""
    return name_parts(name)[0]


def name_key(name: str) -> str:
    """`name`'s surname without accents or case, to find one name written two ways ("J. Smith", "Smith, John")."""
    plain = unicodedata.normalize("NFKD", surname(name))
    return "".join(ch for ch in plain if ch.isalnum()).casefold()


def same_person(one: str, other: str) -> bool:
    """Whether two names are one person written two ways ("Izadpanah, H." and "Hossein Izadpanah"): the same
    surname, and given names that begin alike (where both write one; "Chang, Y.-J." and "Chang, G.K." are two)."""
    if name_key(one) != name_key(other):
        return False
    first, second = _given_initial(one), _given_initial(other)
    return not first or not second or first == second


def fuller_byline(new: Sequence[str], old: Sequence[str]) -> bool:
    """Whether the byline `new` is `old` with more of its authors: longer, and its first author the same person
    (`same_person`: "Lima, Ana" and "Ana Lima", "Lima A" too) — the whole byline over one a listing cut short.
    Another first author is another reading, not a fuller one."""
    return bool(old) and len(new) > len(old) and same_person(new[0], old[0])


def as_the_page_turns_them(names: list[str], shows: Callable[[str], bool]) -> list[str]:
    """`names` as the page shows them where a tag writes each surname first with no comma to say so ("Rahman Laura"
    for the "Laura Rahman" a reader sees): every name shown with its first words moved to its end ("van Dijk Jan"
    as "Jan van Dijk"), and most never shown as written (two names side by side, "Amélie Fischer, Lucía Fischer",
    may show one by chance). Otherwise `names` as they are: a name written "Last, First" says its order, and a list
    the page shows as written (or names it never shows) gives no reason to turn it."""
    turned: list[str] = []
    as_written = 0
    for name in names:
        words = clean_name(name).split()
        if "," in name or len(words) < 2:
            return names
        rotations = (" ".join(words[cut:] + words[:cut]) for cut in range(1, len(words)))
        shown = next((rotation for rotation in rotations if shows(rotation)), None)
        if shown is None:
            return names
        turned.append(shown)
        as_written += shows(name)
    return turned if as_written < len(names) - as_written else names


def _given_initial(name: str) -> str:
    given = name_parts(name)[1]
    letters = [ch for ch in given if ch.isalpha()]
    return letters[0].casefold() if letters else ""


def _ends_with_initials(words: list[str]) -> bool:
    """Whether a name ends as the Vancouver style writes one, surname first: its last word is initials only ("R",
    "JH", "J.H.", "J.-H.") after a surname that is no initial itself. Two or three capitals with a vowel after a
    lone given name are that person's surname written in capitals ("Jun LI", "Min KIM"), not initials."""
    if len(words) < 2 or not _VANCOUVER_INITIALS.match(words[-1]) or _INITIALS.match(words[0]):
        return False
    letters = words[-1].replace(".", "").replace("-", "")
    capitalised_surname = len(letters) > 1 and any(ch in "AEIOUY" for ch in letters)
    return not (capitalised_surname and len(words) == 2 and is_given_name(words[0]))


def _split_commas(part: str) -> list[str]:
    """One comma-separated run of names: a piece that is only initials (or the given names after a lone surname,
    "Butt, Rachel Deborah") joins the surname before it; every other piece is a name of its own."""
    pieces = [piece.strip() for piece in part.split(",") if piece.strip()]
    names: list[str] = []
    for piece in pieces:
        previous = names[-1] if names else ""
        surname_only = previous and "," not in previous and not any(_INITIALS.match(w) for w in previous.split())
        initials = all(_INITIALS.match(word) for word in piece.split())
        given = len(pieces) == 2 and _is_name_words(piece.split()) and len(piece.split()) <= 3
        if surname_only and ((initials and len(previous.split()) <= 3) or (given and len(previous.split()) == 1)):
            names[-1] = f"{previous}, {piece}"
        else:
            names.append(piece)
    return names


def _looks_inverted(last: str, first: str) -> bool:
    """Whether "last, first" is one name written surname first: a surname (one word, or one after a particle
    such as "van"), then up to three given names, or any surname followed by initials only."""
    surname_words, given = last.split(), first.split()
    if not (1 <= len(surname_words) <= 3 and 1 <= len(given) <= 3):
        return False
    if not (_is_name_words(surname_words) and _is_name_words(given)):
        return False
    initials = all(_INITIALS.match(word) for word in given)
    return initials or len(surname_words) == 1 or surname_words[0] in NAME_PARTICLES


def _opens_with_a_word(words: list[str]) -> bool:
    """Whether a name written given name first is ordinary words from end to end: an ordinary word where its given
    name would be (never an initial or a particle: "J. Smith", "de la Garza") and another where its surname would
    be ("Printer-Friendly Version", "Recent Activity"). A given name that is a word of some language and nobody's
    in the list of names ("Bola Okafor") stays a name by its surname."""
    first = words[0]
    if _INITIALS.match(first) or first.casefold() in NAME_PARTICLES:
        return False
    return is_ordinary_word(first) and is_ordinary_word(words[-1])


def _is_name_words(words: list[str]) -> bool:
    if not words or len(words) > 6:
        return False
    capitalised = 0
    for position, word in enumerate(words):
        if 0 < position < len(words) - 1 and (goes_by := _GOES_BY.match(word)):
            word = goes_by["bracketed"] or goes_by["quoted"]
        bare = word.strip(".,'’")
        if not bare:
            return False
        if bare.casefold() in NOT_NAME_WORDS and bare.casefold() not in NAME_PARTICLES:
            return False
        if bare in NAME_PARTICLES:  # "van", "de" (a capital "Y." is an initial)
            continue
        if not _NAME_WORD.match(word):
            return False
        if bare[0].isupper() or _INITIALS.match(word):
            capitalised += 1
        elif not bare.isupper():
            return False
    return capitalised >= 1
