"""The writer a story names only where its text ends, as newspapers, magazines and news agencies sign: the editor's
initials in brackets after the last sentence ("… voraus. (bsc)"), a wire story's writer in brackets after it ("… a
highlight. (By Alison Hsiao) Enditem/", read at the end of any paragraph of the text), a line of names after the last
paragraph ("Guido Santner und Redaktion SimplyScience.ch"), the writer's e-mail address alone on that line, as a news
agency signs ("kokobj@yna.co.kr (END)": the writer as the address names them), an agency's dashed sign-off ("— The
Associated Press"), or an op-ed's closing note on its writers ("Andrés Malamud es politólogo … Martín Schapiro es
abogado …"), or a letter's closing words and the name under them ("Respectfully," / "Jane Doe"), or a blog theme's
footer under the post ("Von <writer> am <date>. Abgelegt unter …"). Read only where nothing above the text names a
writer (`metadata`), and only at the end of the running text: a paragraph followed by the page's chrome or nothing —
except a credit that says in words whom the item is by, wherever below the title it stands: a sentence "This post was
written by Jane Doe, Head of Research", or a writer's label on a line of its own over the name ("Article by" /
"Jane Doe"), as a blog's foot credits its writer."""

from __future__ import annotations

import re
from typing import Any

from research_crawler.pages.desk_credits import credit_of
from research_crawler.pages.person_names import is_person_name, split_people

__all__ = ["closing_signature"]

_PARAGRAPH_WORDS = 25  # a block of as many words is running text
_LINE_WORDS = 8  # a paragraph's last line may be as short as this and still end the text
_SIGNATURE_WORDS = 8
_NOTE_SENTENCES, _NOTE_SENTENCE_WORDS = 4, 30  # a note on each writer, a sentence each
# "… voraus. (bsc)", "… gesagt.“ (dpa/kj)": initials in lower case, in brackets, after a sentence's end
_INITIALS_AT_END = re.compile(r"[.!?»«“”\"']\s*\((?P<initials>[a-zäöü]{2,4}(?:/[a-zäöü]{2,4})?)\)\s*$")
# a sentence of a closing note that opens with a person's name and says what they are
_NOTE_SENTENCE = re.compile(
    r"^(?P<name>[A-ZÀ-Þ][^\W\d_]+(?:[ -](?:[A-ZÀ-Þ][^\W\d_'’-]*\.?|de|da|van|von|del|la|le)){1,4})\s+"
    r"(?:is|was|es|est|ist|è|é|fue|war|är|er)\s"
)
_SENTENCES = re.compile(r"(?<=[.!?])\s+(?=[A-ZÀ-Þ])")
# "kokobj@yna.co.kr", "kokobj@yna.co.kr (END)": an address alone, the agency's end mark after it or not
_ADDRESS_ALONE = re.compile(r"^(?P<writer>[\w.+-]+)@[\w-]+(?:\.[\w-]+)+\s*(?:\((?:END|끝)\))?$", re.I)
# a letter's closing words, on a line of their own before the writer's name: "Respectfully,", "Yours sincerely,"
_VALEDICTION = re.compile(
    r"^(?:(?:yours\s+)?(?:respectfully|sincerely|truly|faithfully|cordially)(?:\s+yours)?|(?:best|kind|warm)?\s*regards"
    r"|best(?:\s+wishes)?|cheers|thanks|thank you|love|mit freundlichen grüßen|cordialement|atentamente)\s*[,.!]?$",
    re.I,
)
# "By jdoe on 3 May 2016. Filed under …", "Von israel news am 21/02/2021. Abgelegt unter …": a post's footer, the
# writer as the theme links them, then the date
_ENTRY_FOOTER = re.compile(
    r"^(?:by|von|par|por|door|di)\s+(?P<name>[^\d.,;|]{2,40}?)\s+(?:on|am|le|el|il|op|em)\s+\d", re.I
)
# "… (By Alison Hsiao) Enditem/", "… (By Jane Doe)": the writers in brackets ending the paragraph, an agency's end
# mark after them or not
_BRACKETED_BY = re.compile(r"[.!?\"”’]\s*\(by\s+(?P<names>[^()]{3,80})\)\s*(?:enditem|end|\(end\))?\s*[/.]?\s*$", re.I)
_AND = re.compile(r"\s+(?:and|und|et|y|e|en|och|og|&)\s+")
# the editorial team that signs beside a person ("und Redaktion SimplyScience.ch")
_TEAM = re.compile(
    r"^(?:(?:die|the|la|le|das|de)\s+)?"
    r"(?:redaktion|rédaction|redacción|redazione|redactie|editorial team|editors|staff)\b",
    re.I,
)


# "This post was written by Jane Doe, Head of …", "The article is authored by A and B.": the item's writers in words
_WRITTEN_BY = re.compile(
    r"^(?:this|the)\s+(?:blog\s+)?(?:post|article|story|piece|essay|entry|guide|report|column)\s+(?:was|is|has\s+been)\s+"
    r"(?:written|authored|contributed|penned)\s+by\s+(?P<names>.+?)[\s.]*$",
    re.I,
)
_WRITTEN_BY_WORDS = 30
# a writer's label alone on its line, over the name: "Article by", "Written by:", "Post author", "Artikel von"
_LABEL_ALONE = re.compile(
    r"^(?:(?:article|post|story|essay|words|text|written|posted)\s+by|(?:post|article)\s+author"
    r"|artikel\s+von|geschrieben\s+von|article\s+de|écrit\s+par|escrito\s+por|scritto\s+da)\s*[:：]?$",
    re.I,
)


def _credit_in_words(blocks: list[Any], index: int) -> list[str]:
    """The writers a credit below the title (block `index`) names in words — "This post was written by Jane Doe, Head
    of Research" (the names before the role), or a writer's label alone over a line that is one name or a desk's
    credit ("Article by" / "Jane Doe"); [] where none does. Chrome (another story's card, the site's footer) is
    never read."""
    for position in range(index + 1, len(blocks)):
        block = blocks[position]
        if block.chrome:
            continue
        text = " ".join(block.text.split())
        if len(text.split()) <= _WRITTEN_BY_WORDS and (written := _WRITTEN_BY.match(text)):
            names: list[str] = []
            for part in written["names"].split(","):  # the names, up to the role after them ("…, Head of …")
                people = split_people(part.strip())
                if not people or not all(is_person_name(person) for person in people):
                    break
                names += people
            if names:
                return names
        following = blocks[position + 1] if position + 1 < len(blocks) else None
        if following is not None and not following.chrome and _LABEL_ALONE.match(text):
            name = " ".join(following.text.split())
            if split_people(name) == [name]:
                return [name]
            if credit := credit_of(name):
                return [credit]
    return []


def closing_signature(blocks: list[Any], index: int) -> list[str]:
    """The writers a story signs at the end of its text, below its title (block `index`); [] when it signs none."""
    if credited := _credit_in_words(blocks, index):
        return credited
    in_text = False  # past the text's first paragraph
    for position in range(index + 1, len(blocks)):
        block = blocks[position]
        words = len(block.text.split())
        if block.chrome or block.heading or words < _LINE_WORDS:
            continue
        following = blocks[position + 1] if position + 1 < len(blocks) else None
        ends_text = following is None or following.chrome  # the page's furniture follows: the story has ended
        if in_text and ends_text and (initials := _INITIALS_AT_END.search(block.text)):
            return [initials.group("initials")]
        if in_text and ends_text and (noted := _closing_note(block.text)):
            return noted
        # (a wire story's writer in brackets after its last sentence, "… a highlight. (By Alison Hsiao) Enditem/")
        bracketed = _BRACKETED_BY.search(block.text) if in_text or words >= _PARAGRAPH_WORDS else None
        if bracketed and (people := split_people(bracketed["names"].strip())):
            return people
        # (a blog theme's entry footer, "Von <a>israel news</a> am 21/02/2021. Abgelegt unter …": the linked writer)
        if in_text and (footer := _ENTRY_FOOTER.match(block.text)) and footer["name"] in block.links[:1]:
            return [footer["name"]]
        in_text = in_text or words >= _PARAGRAPH_WORDS
        if in_text and following is not None and not ends_text and (signed := _signature_line(following.text)):
            return signed
        if in_text and (signed := _signed_letter(blocks[position + 1 : position + 4])):
            return signed
    return []


def _signed_letter(after: list[Any]) -> list[str]:
    """The writer a letter signs with after its last paragraph: its closing words on a line of their own, then a
    name alone, then the page's chrome or nothing ("Respectfully," / "Jane Doe"); [] for anything else."""
    if len(after) < 2 or any(block.chrome or block.heading for block in after[:2]):
        return []
    closing, name = after[0].text.strip(), after[1].text.strip()
    if not _VALEDICTION.match(closing) or (len(after) > 2 and not after[2].chrome):
        return []
    people = split_people(name)
    return people if len(people) == 1 and people[0] == name else []


def _closing_note(text: str) -> list[str]:
    """The writers a closing note names: every sentence of the paragraph opens with a person's name and says
    what they are ("X es politólogo …. Y es abogado …"); [] for any other paragraph."""
    names = []
    sentences = _SENTENCES.split(text.strip())
    if len(sentences) > _NOTE_SENTENCES:
        return []
    for sentence in sentences:
        opened = _NOTE_SENTENCE.match(sentence)
        if opened is None or len(sentence.split()) > _NOTE_SENTENCE_WORDS or not is_person_name(opened.group("name")):
            return []
        names.append(opened.group("name"))
    return names


def _signature_line(text: str) -> list[str]:
    """The people a short line after a paragraph signs with — names, with the editorial team beside them or not."""
    stripped = text.strip()
    if signed_by_address := _ADDRESS_ALONE.match(stripped):
        return [signed_by_address.group("writer")]
    dashed = stripped.startswith(("—", "–", "-- "))  # "— Jane Doe": set as a signature
    if len(text.split()) > _SIGNATURE_WORDS:
        return []
    parts = _AND.split(stripped.lstrip("—–- ").strip())
    team = [part for part in parts if _TEAM.match(part)]
    if not team:  # a name alone after a paragraph may be a caption's or a quote's: only a dash makes it a signature
        return _dashed_signature(stripped.lstrip("—–- ").strip()) if dashed else []
    people = [part for part in parts if part not in team]
    # the team signs too, as written ("Redaktion SimplyScience.ch"), after the people
    return parts if people and all(is_person_name(person) for person in people) else []


def _dashed_signature(signed: str) -> list[str]:
    """The writer a dashed sign-off names, the dash taken off: an agency's or a desk's name ("The Associated
    Press"), the people ("Jane Doe"), or one person and their role after a comma ("Jane Doe, Program Chair")."""
    if credit := credit_of(signed):  # a dash before an agency's or a desk's name signs with it
        return [credit]
    if people := split_people(signed):
        return people
    name = signed.split(",", 1)[0].strip()
    return [name] if "," in signed and split_people(name) == [name] and is_person_name(name) else []
