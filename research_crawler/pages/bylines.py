"""Who a page says wrote its item, as a reader sees it: the names of a byline block (a list, or one name and its
affiliation), the lines a byline runs across (affiliations, e-mails, "View Profile"), and the names its markup
calls authors (rel=author, hCard's ``fn``, publishers' ``author``/``byline`` classes)."""

from __future__ import annotations

import re
from collections.abc import Callable
from copy import deepcopy
from typing import Any

from research_crawler.pages.author_markup import AUTHOR_CLASSES, marks_a_person
from research_crawler.pages.cleanup import clean_text, collapse_whitespace
from research_crawler.pages.given_names import is_given_name
from research_crawler.pages.item_dates import dates_in_text, without_dates
from research_crawler.pages.other_works import in_other_works
from research_crawler.pages.person_names import begins_with_by, split_people, without_by
from research_crawler.pages.shown_text import shown_text

__all__ = [
    "MAX_SKIPPED",
    "between_names",
    "byline_above",
    "credit_over_date",
    "dated_people",
    "dateline_near",
    "linked_names",
    "marked_authors",
    "owner_of_site",
    "people_in",
    "shortened",
    "signed_after",
    "unmistakable",
    "without_furniture",
]

#: Affiliation, e-mail, ORCID and "View Profile" lines between two names of one byline.
MAX_SKIPPED = 5

# Markup that names an element inside an author block as one person's name ("name", "author-name", itemprop=name).
_NAME_MARKUP = re.compile(r"(?:^|[\s_-])(?:name|fullname|full-name|authorname|contrib-name)(?:$|\s)", re.I)
_FURNITURE = re.compile(
    r"@|\[at\]|orcid|^more (?:by|about|from|articles|posts|works)\b|^(?:about|all posts by|articles by) the author"
    r"|^(?:all|other) (?:posts|articles|works|publications) by\b|^see (?:all|more)\b|^follow\b|\bprofile$"
    r"|^\+\s*\d+(?:\s+(?:more|others?))?$|^et al\.?$|^(?:show|view|see) all\b|^no (?:bio|biography|profile|photo)\b"
    r"|\bnot available$|^view\b|^show\b|^search for|^contact\b|^e-?mail\b|^\W*$|^(?:[x×✕]\s*)?close$",
    re.I,
)
#: A link a byline sets beside a name to go elsewhere, shown as an icon or a word: a social network's, the writer's
#: bio or site ("Sarah Lazare [Twitter]", "Gabriel Mac [Bio]"), or a sharing button's service ("Stumble Upon").
_ICON_LINK = re.compile(
    r"^(?:twitter|x|facebook|linkedin|instagram|mastodon|bluesky|threads|youtube|tiktok|rss|bio|website|homepage"
    r"|stumble\s*upon|reddit|digg|delicious|pinterest|tumblr|whatsapp|telegram|flipboard|google\s*(?:\+|plus)"
    r"|(?:facebook|twitter|linkedin)\s*\(\d+\))$",
    re.I,
)
_INSTITUTION = re.compile(
    r"\b(?:universit\w*|institut\w*|department|dept\.|school|college|laborator\w*|centre|center|hospital|faculty|"
    r"research|group|division|academy|observatory|inc\.|ltd|gmbh)\b",
    re.I,
)

# where the names of a "By" line end: a dash or a bar between spaces, a bar or a bracket, a number, "on"/"in"
_NAMES_END = re.compile(r"\s+[-–—|•·]\s+|\s*[|\[(]|\s*\d|\s+(?:on|in)\s+(?=[^\W_])")
_IN_CAPITALS = re.compile(r"^[^\W\d_a-zß-ÿ][^\W\da-zß-ÿ]*[^\W\d_a-zß-ÿ][,.]?$")  # "ROBERTSON", "ALEMAGNA,", "O'DONNELL"
_CAPITALS = re.compile(rf"{_IN_CAPITALS.pattern}|^[A-ZÀ-Þ]\.$")  # and an initial among them: "JARED T. MILLER"
_CONNECTORS = frozenset({"and", "&", "und", "et", "y", "e", "i", "og", "och", "en", "-"})
_GLUED_DATE_LINE = re.compile(r"(?<=[a-zß-ÿ])(?=(?:Posted|Published|Updated)\b)")
_GLUED = re.compile(r"(?<=[a-zß-ÿ]{2})(?=[A-ZÀ-Þ][a-zß-ÿ])")  # a lower-case letter run straight into a capital
_HANDLES = re.compile(r"(?<!\S)@[\w.]{2,30}(?!\S)")
_CREDITED = re.compile(r"^(?P<names>(?i:by)\s+[^,|]{3,120}?)\s*(?:,|\s\|)\s*(?:the\s+)?[^\W\d_][^,|\d]{0,40}$", re.I)
# A writer's role after the name ("Alice Smith, Staff Writer", "…, Senior Correspondent").
_ROLE = re.compile(
    r"\b(?:writer|reporter|correspondent|columnist|staff|contributor|journalist|editor|director|president|"
    r"professor|student|researcher|scientist|analyst|fellow|manager|engineer|designer|founder|ceo)\b",
    re.I,
)

# A link that is an affiliation or footnote mark: a letter or two, a number, a dagger or star (a superscript)
_MARK_LINK = re.compile(r"^(?:[a-z]{1,2}|\d{1,3}|[*†‡§¶#✉]+)(?:\s*,\s*(?:[a-z]{1,2}|\d{1,3}))*$")

# What may sit between the links of a linked byline: spacing, commas, semicolons, "&", "and", bars and dots.
_LINK_SEPARATORS = re.compile(r"[\s,;&|·•]+|\band\b", re.I)

# A postal address under a name: "…, Notkestrasse 85, 22603 Hamburg, Germany" (a postcode before a place, in a
# line of comma-separated parts).
_ADDRESS = re.compile(r",\s*(?:[A-Z]{1,2}-)?\d{4,6}\s+[^\W\d_]{2,}.*,\s*[^\W\d_]{2,}")


# A dateline's parts: a comma, a bar, a bullet, a dash or a slash between spaces, "|" or "//" ("Tue 3 May 2016 //
# 16:26", "Written by Jane Doe / January 10, 2010 2:30 PM / 0 Comments").
_DATELINE_PARTS = re.compile(r"\s*(?:[,|•·]|//|\s[-–—/]\s)\s*")
_DATELINE_WORDS = 16
_SIGNED = re.compile(
    r"^(?:posted|written|published|geschrieben|verfasst|publié|écrit)\s+(?:by|von|par):?\s+[~*]?"
    r"(@?[^\W\d_][^,;|~*]{1,60}?)[~*]?(?:\s+(?:at|on|am|um|le|à)\s+.*|\s*[,;|].*)?$",
    re.I,
)
_AGENCY = re.compile(r"^[A-Z]{2,10}$")  # a wire service's credit: one word in capitals
_CREDIT_WORDS = 6  # a credit line's words after its "By": a capital first, no digits, no sentence's marks
_DATE_LINE_WORDS = 8  # "Published 11:11 PM EST Nov 19, 2019"
_HAN_NAME = re.compile(r"^[\u3400-\u9fff\uf900-\ufaff]{2,4}$")
_HANDLE_OR_NAME = re.compile(r"^[^\W_][\w.'’-]{1,30}$")  # "rmb8090", "Catherine", "j.doe"
_FILED_IN = re.compile(r"\s+(?:in|under|filed under)\s+[^\W\d_].*$", re.I)
#: An e-mail address a byline writes beside the name, after a separator ("Jane Doe | jdoe@example.com"): contact
#: details, not a second writer.
_E_MAIL_BESIDE_NAME = re.compile(r"\s*[|•·/,]\s*[\w.+-]+@[\w-]+(?:\.[\w-]+)+\s*$")
_CREDIT_PARTS = re.compile(r"\s+[|•·]\s+")
# a credit of a line of role credits set apart by commas: "INTERVIEW BY JANE DOE, PHOTO BY JOHN ROE"
_ROLE_CREDIT = re.compile(r"^[^\W\d_]+(?:\s+[^\W\d_]+)?\s+(?:by|von|par|por)\s", re.I)
_WRITER_AND_OUTLET = re.compile(r"^(?P<writer>[^,|]+?)(?:\s*[,|]\s*|\s+(?:on|in)\s+)(?P<outlet>[^,|]+)$")
# "… on Monday": the word that introduces a date, and the weekday the date's part begins with
_BEFORE_A_WEEKDAY = re.compile(r"\s+(?:on|le|am|el|il)\s+[^\W\d_]+$", re.I)
_DATE_MARK = "\x00"  # where a dateline's date was: no separator
# the time a dateline gives after its writer's name, and the weekday after it: " at 8:00 pm Sun", " um 16:14 Uhr"
_AT_A_TIME = re.compile(r"\s+(?:at|um|à|a las)\s+\d{1,2}[:.h]\d{2}(?:\s*[ap]\.?m\.?)?(?:\s+[^\W\d_]{2,5}\.?)?$", re.I)
_BEFORE_A_DATE = re.compile(r"\s+(?:on|le|am|den|el|il|du|at)$", re.I)  # the word that introduces a date
# the time a dateline gives right after its date, before its "by": "2/26/2015 7:11 AM PST BY …", "… 16:14 Uhr von …"
_TIME_THEN_BY = re.compile(
    r"^\d{1,2}[:.h]\d{2}(?:\s*[ap]\.?m\.?)?(?:\s+(?:uhr|[A-Z]{2,4}))?(?=\s+(?:by|von|par)\s)", re.I
)
# A blog theme's line under a post: "This entry was posted in News on May 3, 2016 by admin.", "Dieser Beitrag wurde
# am 04/02/2020 von kj in Bundesgericht veröffentlicht." — the writer is any name or handle after "by"/"von".
_ENTRY_POSTED = re.compile(
    r"^(?i:this (?:entry|post) was posted|dieser (?:beitrag|eintrag) wurde)\b.*?\b(?i:by|von)\s+"
    r"(?P<name>[^\W\d_][\w'’-]*(?:\s+[A-Z][\w'’-]*){0,2})(?=\s+in\b|\s*[.,;]|\s*$)"
)
# An author box's heading: "About the author", "Über die Autorin", "À propos de l'auteur", "Sobre el autor".
_ABOUT_AUTHOR = re.compile(
    r"^(?:about|über|à propos de|a proposito|sobre)\s+(?:the\s+|den\s+|die\s+|l['’]\s*|el\s+|o\s+|a\s+)?"
    r"(?:authors?|autor(?:in|en)?|auteure?s?|autore|autora)\b",
    re.I,
)
_HANDLE = re.compile(r"^[^\W\d_]{2,20}$")
_FROM_OUTLET = re.compile(r"^(?:From|For|Do|Da|Für|Pour|Para|Dalla|Dal)\s+[^\W\d_]")  # "Do UOL, em São Paulo"
_BY_WORD = re.compile(r"\s*(?:by|von|par)\s", re.I)
_ONE_NAME = re.compile(r"^[A-ZÀ-Þ][^\W\d_]+$")  # a surname alone, capitalised
_SITE_PARTS = re.compile(r"\s+[|–—-]\s+")
_POSSESSIVE = re.compile(r"^([A-Z][\w.-]*(?:\s+[A-Z][\w.-]*){1,3})['’]s\s")
_BY_ORGANISATION = re.compile(r"^(?:[Bb]y|BY|[Vv]on|VON|[Pp]ar|PAR)\s+([A-Z][\w&.'’-]*(?:\s+[A-Z][\w&.'’-]*){0,4})$")
_BY_HANDLE = re.compile(r"^(?:[Bb]y|[Vv]on|[Pp]ar|[Pp]or)\s+(@[A-Za-z0-9_.]{2,30})$")
_CITATION = re.compile(r"\b(?:vol(?:ume)?|issue|number|no|pp?|pages?|bd|heft|jg)\b\.?\s*\d", re.I)


def people_in(text: str, *, continuing: bool = False) -> list[str]:
    """The names of a byline block: a list of names, one name followed by its affiliation (any text after the
    name once a run of names has started: "Samantha Blickhan, The Adler Planetarium, Zooniverse"), or the names of
    a dateline (`dated_people`)."""
    text = _HANDLES.sub("", text).strip()  # "Jane Doe @janedoe": the name, then its social handle
    if continuing and _FROM_OUTLET.match(text):
        return []  # whom the writer writes for, under their name (a name's particle is lower case: "da Silva")
    text = _GLUED_DATE_LINE.sub(" | ", text)  # "By Chad HarbachPosted Friday, …": two elements, no space between
    people = split_people(text) or dated_people(text) or names_after_by(text)
    if people:
        return people
    # "Yarden KatzProduct Manager, Figma": the name and the writer's role, two elements with no space between
    glued = _GLUED.search(text)
    if glued and _ROLE.search(text[glued.end() :]) and len(named := split_people(text[: glued.end()])) == 1:
        return named
    name, comma, rest = text.partition(",")
    # a reference line ("First Monday, Volume 25, Number 10") is no name followed by its affiliation
    if comma and not re.search(r"\d", text) and (continuing or _INSTITUTION.search(rest) or _ROLE.search(rest)):
        return split_people(name)
    # "By Jane Doe and John Roe, Reuters", "By Jane Doe | The Example Post": a credit line ends with the writers'
    # publication or agency
    credited = _CREDITED.match(text)
    if credited:
        return split_people(credited.group("names"))
    # a line of credits, one a role ("Story by Jane Doe • Photos by John Roe"): the writer's is the one that says
    # "by" alone or "story/text/words/written by"; a photographer's, an editor's, an illustrator's name no writer
    credits = _CREDIT_PARTS.split(text)
    commas = [part.strip() for part in text.split(",")]
    if len(credits) < 2 and all(_ROLE_CREDIT.match(part) for part in commas):
        credits = commas
    if len(credits) < 2:
        return []
    return next((people for part in credits if begins_with_by(part) and (people := split_people(part))), [])


def names_after_by(text: str) -> list[str]:
    """The names of a line that opens with "By", up to where the names end and the line goes on with something else:
    a dash, a bar or a bracket ("By JORDAN ROBERTSON and RACHEL METZ - AP Technology Writers | AP – 1 hr 4 mins
    ago"), a number ("By PHILLIP RAWLS 10/ 5/11 09:19 PM ET"), or, for names set in capitals, the first word that is
    not ("Par LILIAN ALEMAGNA, LAURE BRETTON Envoyés spéciaux à Toulouse"). [] for any other line."""
    if not begins_with_by(text):
        return []
    head = _NAMES_END.split(text, maxsplit=1)[0]
    words = head.split()
    opening = next((position for position, word in enumerate(words) if _IN_CAPITALS.match(word)), None)
    if opening is not None and opening <= 2:  # after "By" or "Written by"
        end = next(
            (position for position, word in enumerate(words[opening:], opening)
             if not _CAPITALS.match(word) and word.casefold() not in _CONNECTORS),
            len(words),
        )  # fmt: skip
        head = " ".join(words[:end])
    # "By A, B, and C, CNN": the names, then the outlet they write for
    outlet = head.rpartition(",")[0] if len(head.rpartition(",")[2].split()) <= 3 else ""
    people = split_people(head) if head.strip() != text.strip() else []
    return people or (split_people(outlet) if outlet else [])


def dated_people(text: str) -> list[str]:
    """The names of a short line that gives a date and who wrote the item — "Mattias Geniar, April 19, 2020",
    "Dienstag, 13. Mai 2014, von Dr. Sebastian Brüggemann", "23.06.2016 um 16:14 Uhr - Markus Reuter - 91
    Ergänzungen": the line holds a date, and its first part without digits that reads as names is the byline,
    after no more than a word or two (a weekday, "Posted"). [] for any other line."""
    # (its words without its dates and times: "By Example Staff | May 4, 2021 at 2:26 PM - Updated May 4 at 4:46 PM")
    words = [word for word in without_dates(text).split() if re.search(r"[^\W\d_]", word)]
    if len(words) > _DATELINE_WORDS or not dates_in_text(text) or _CITATION.search(text):
        return []  # a citation line ("First Monday, Volume 25, Number 10 - 5 October 2020") names its journal
    parts = _dateline_parts(text)
    for position, part in enumerate(parts):
        if not part or re.search(r"\d", part):
            continue
        people = split_people(part)
        if people:
            return people + _more_names(parts[position + 1 :])
        if organisation := _BY_ORGANISATION.match(part.strip()):
            return [organisation.group(1)]  # "By Wikimedia Foundation•15 January 2020": a corporate author
        if handle := _BY_HANDLE.match(part.strip()):
            return [handle.group(1)]  # "On 6/13/2018 by @jdoe": the writer as the page shows them, by their handle
        if len(part.split()) > 2:
            return []
    return []


def _more_names(parts: list[str]) -> list[str]:
    """The names a dateline's byline goes on with after a comma ("By A , B on Monday, <date>"): each next part that
    is names, up to the word that introduces the date ("on Monday") and no further."""
    names: list[str] = []
    for part in parts:
        head, introduced = _BEFORE_A_WEEKDAY.subn("", part.strip())
        people = split_people(head) if head and not re.search(r"\d", head) else []
        if not people:
            break
        names += people
        if introduced:
            break
    return names


def _dateline_parts(text: str) -> list[str]:
    """A dateline's parts without its dates, in order: split at its separators ("25.10.2022 - Reiner Nagel"); words
    that run straight on from a date with no separator are a topic line ("07.12.2022 Wissenschaft Atmosphäre
    Klima"), not a byline, unless they say "by"/"von"/"par"."""
    parts: list[str] = []
    for part in _DATELINE_PARTS.split(without_dates(text, mark=_DATE_MARK)):
        head, *after_dates = part.split(_DATE_MARK)
        head = _AT_A_TIME.sub("", head.strip(" -–—"))  # "Jane Doe at 8:00 pm Sun, Apr 13, 2014"
        head = _BEFORE_A_DATE.sub("", head)  # "Par Matthieu Hy le 07 Mai 2020"
        parts += [] if head.endswith(":") else [head]  # a label ("Last Modified: Feb 18, 2020") names no one
        # "Posted on <date> by Jane Doe in News": the writer, then the category the post is filed in
        after_dates = [_TIME_THEN_BY.sub("", rest.strip()) for rest in after_dates]
        parts += [_FILED_IN.sub("", rest.strip()) for rest in after_dates if _BY_WORD.match(rest)]
    return parts


def linked_names(text: str, links: tuple[str, ...]) -> list[str]:
    """The names of a byline written as a run of links, one name each, with nothing but spacing or separators
    between them ("Zukeran, A.  Looy, P.C.  Chakrabarti, A." on an old IEEE Xplore page), and the linked affiliation
    marks after them ("Licia Verde" + "a" + "b", shown "Licia Verdea, b"): [] when any other link is no one
    person's name or other words sit between them."""
    if len(links) < 2:
        return []
    rest = text
    for link in links:
        before, found, after = rest.partition(link)
        if not found:
            return []
        rest = f"{before} {after}"
    if _LINK_SEPARATORS.sub("", rest):
        return []
    names = [split_people(link) for link in links if not _MARK_LINK.match(link)]
    return [people[0] for people in names] if names and all(len(people) == 1 for people in names) else []


def byline_above(blocks: list[Any], index: int) -> list[str]:
    """The names written right above block `index` (a title) where none follow it: a block of names just before it,
    beside a date or reading unmistakably as a byline ("22.11.2022 / Christian Mihatsch / <h1>…")."""
    before = [block for block in blocks[max(0, index - 2) : index] if not block.chrome]
    for position, block in enumerate(reversed(before)):
        people = people_in(block.text)
        if not people:
            continue
        beside = before[: len(before) - 1 - position]
        dated = any(dates_in_text(other.text, bare_years=False) and len(other.text.split()) <= 4 for other in beside)
        return people if dated or unmistakable(block.text, people) else []
    return []


def credit_over_date(blocks: list[Any], index: int, *, names_site: Callable[[str], bool]) -> list[str]:
    """The writers credited on the line right under a title (block `index`) and over its date line — where a news
    page puts its byline: "VICTOR TANGERMANN, FUTURISM" (a writer, then the outlet the story comes from), "By
    JERUSALEM POST STAFF", "Example News wire services", "JIJI". A person's name is read as a name; a credit that
    names no person is one named group, as written, where the line says "by", names the site itself (its staff, its
    wire desk: `names_site`) or is a wire service's word in capitals ("AFP", "KYODO")."""
    credit, dated = blocks[index + 1 : index + 2], blocks[index + 2 : index + 3]
    if not credit or not dated or credit[0].chrome or credit[0].heading:
        return []
    date_line = dated[0].text
    text = credit[0].text.strip()
    if len(date_line.split()) > _DATE_LINE_WORDS or not dates_in_text(date_line) or dates_in_text(text):
        return []
    bare = without_by(text)
    if not bare[:1].isupper() or len(bare.split()) > _CREDIT_WORDS or re.search(r"[\d!?:;]", bare):
        return []
    credited = _WRITER_AND_OUTLET.match(bare)
    if credited and len(people := split_people(credited["writer"])) == 1 and len(credited["outlet"].split()) <= 3:
        return people  # the writer, then the outlet, agency or blog ("Jane Doe | Example Weekly", "… on Her Blog")
    if people := split_people(bare) or names_after_by(text):
        return people  # (a "By" line ends its names where it says where it is filed: "By Jane Doe in Opinion")
    return [bare] if begins_with_by(text) or _AGENCY.match(bare) or names_site(bare) else []


def dateline_near(blocks: list[Any], index: int, *, before: int, after: int) -> list[str]:
    """The names of the dateline nearest block `index` (a title) within `before` blocks above it and `after` below
    ("Mattias Geniar, April 19, 2020" under a newsletter's blurb; "Dienstag, 13. Mai 2014, von Dr. Sebastian
    Brüggemann" above the sharing links): a short line that gives a date and who wrote the item, outside the
    page's chrome unless it is right beside the title."""
    near = sorted(range(max(0, index - before), min(len(blocks), index + after + 1)), key=lambda i: (abs(i - index), i))
    for position in near:
        close = abs(position - index) <= 2  # a page's header may hold the dateline right above the title
        if (
            position != index
            and (close or not blocks[position].chrome)
            and (people := dated_people(blocks[position].text))
        ):
            return people
    return []


def signed_after(blocks: list[Any], index: int) -> list[str]:
    """The writer a blog names in the line that signs its post, below the title (block `index`): "posted by Stadler
    at 12:53", "Written by Jane Roe on 3 May 2016" — a surname alone will do there, as the line says who wrote it;
    where no line signs it, the writer its author box names (`about_the_author`)."""
    for block in blocks[index + 1 :]:
        # (without the links a byline puts beside the name: "Posted by Jeff Atwood View blog reactions"; a blog's post
        # footer signs in the page's chrome with its time, "Posted by @jdoe at 11:30 AM": the writer's handle will do)
        text = without_furniture(block.text, block.links)[0].strip()
        if signed := _SIGNED.match(text) if not block.chrome or _AT_A_TIME.search(text) else None:
            name = signed.group(1).strip()
            return split_people(name) or ([name] if _ONE_NAME.match(name) or _HANDLES.fullmatch(name) else [])
        posted = _ENTRY_POSTED.match(block.text.strip())  # a theme's entry footer, in its chrome or not
        if posted:
            name = posted.group("name").strip()
            return split_people(name) or ([name] if _HANDLE.match(name) else [])
    return about_the_author(blocks, index)


def about_the_author(blocks: list[Any], index: int) -> list[str]:
    """The writer an author box names below the item (block `index`, its title), where nothing above names one: an
    "About the author" heading or label, then the writer's name — alone ("Jane Doe"; a name of one word will do
    there), or leading the bio sentence as its link ("Jane Doe is a writer on oceans.")."""
    for position, block in enumerate(blocks[index + 1 :], index + 1):
        if not _ABOUT_AUTHOR.match(block.text.strip()) or len(block.text.split()) > 6:
            continue
        for named in blocks[position + 1 : position + 3]:
            text = named.text.strip()
            if people := split_people(text) or ([text] if _ONE_NAME.match(text) else []):
                return people
            lead = named.links[0] if named.links else ""
            if lead and text.startswith(lead) and len(people := split_people(lead)) == 1:
                return people
        return []
    return []


def owner_of_site(title_element: str, shows: Callable[[str], bool]) -> list[str]:
    """The person a one-person site is named after, where no post names its writer: the name the <title> gives
    after the post's title ("Zeitphilosophie – Dr. Alexander Klier") or before a possessive ("Gregory Szorc's
    Digital Home"), when the page shows that name too (its header, its footer's copyright), and it opens with a
    given name the list of names holds: a site named after a field or a project ("Archaeogenetics Knowledge Graph")
    is no person, and this is a guess from the site's name alone."""
    parts = [part.strip() for part in _SITE_PARTS.split(title_element) if part.strip()]
    candidates = [parts[-1]] if len(parts) > 1 else []
    candidates += [match.group(1) for match in _POSSESSIVE.finditer(title_element)]
    for candidate in candidates:
        people = split_people(candidate)
        if len(people) == 1 and is_given_name(people[0].split()[0]) and shows(people[0]):
            return people
    return []


def shortened(names: list[str], shown: list[str]) -> bool:
    """Whether a tag gives the names the page shows, each cut short ("Todd" where the byline reads "Todd Bates")."""
    if len(names) != len(shown):
        return False
    pairs = [(set(_words(tag)), set(_words(seen))) for tag, seen in zip(names, shown, strict=True)]
    return any(tag < seen for tag, seen in pairs) and all(tag <= seen for tag, seen in pairs)


def without_furniture(text: str, links: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """A byline block without the links a byline puts beside each name — "ORCID", "View profile", "E-mail", an
    envelope, a social network's icon ("Twitter"), "Bio" — so that "Alice Smith ORCID" reads as the name it is (a
    handle, "@jdoe", stays where it is the only credit: a blog may sign with it; beside a linked name, "Jane
    Doe@janedoe", it is that writer's account)."""
    named = any(link[:1] != "@" and len(split_people(link)) == 1 for link in links)
    furniture = [
        link for link in links if _ICON_LINK.match(link) or (_FURNITURE.search(link) and (link[:1] != "@" or named))
    ]
    if not furniture:
        return text, links
    for link in furniture:
        before, _, after = text.partition(link)
        text = f"{before} {after}"
    return collapse_whitespace(text), tuple(link for link in links if link not in furniture)


def between_names(text: str) -> bool:
    """Whether a line may sit between two names of one byline: an affiliation, an e-mail, a profile link."""
    return bool(_FURNITURE.search(text) or _INSTITUTION.search(text) or _ADDRESS.search(text))


def unmistakable(text: str, people: list[str]) -> bool:
    """Whether a block of names reads as a byline beyond doubt: two names or more, "by …", initials or marks."""
    return len(people) > 1 or begins_with_by(text) or bool(re.search(r"\b[A-Z]\.|[\d*†‡]", text))


def marked_authors(root: Any, *, skip: Callable[[Any], bool]) -> list[str]:
    """The names in the first element the markup calls the author (rel=author, itemprop=author, class or id "author",
    "byline", "fn"), and in its siblings marked the same way (one list item per author): a reference list further
    down marks its authors too, but in other containers, and names in a list of other works (references, "Cited
    by", recommendations) are never the item's. Elements `skip` names (hidden, chrome) are left out."""
    names: list[str] = []
    group: tuple[Any, Any] | None = None
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        rel = (element.get("rel") or "").lower().split()
        marked = "author" in rel or (element.get("itemprop") or "").lower() == "author"
        # (an id marks as a class does: ACS writes its author list in <div id="authors">)
        if not marked and not AUTHOR_CLASSES.search(f"{element.get('class') or ''} {element.get('id') or ''}"):
            continue
        if not marked and not marks_a_person(element):
            continue  # hRecipe's, hProduct's or hReview's "fn" is the item's name ("<h1 class="entry-title fn">")
        signature = (element.tag, element.get("class"))
        if group is not None and (signature != group[0] or group[1] not in element.iterancestors()):
            continue
        text = _E_MAIL_BESIDE_NAME.sub("", _without_furniture_links(element))
        if not text or skip(element) or in_other_works(element):
            continue
        people = (split_people(text) if len(text.split()) <= 40 else []) or _named_parts(element)
        # one word — a handle, a first name — where the markup says it is the author's name ("rel=author", an
        # element classed "author-name" or hCard's "fn"), as the page writes it
        named = "author" in rel or bool(_NAME_MARKUP.search(element.get("class") or ""))
        # (a Chinese or Japanese name, written without spaces, in any element marked as the author: "松岡大地")
        named = named or bool(_HAN_NAME.match(text))
        people = people or ([text] if named and len(text.split()) == 1 and _HANDLE_OR_NAME.match(text) else [])
        if people and group is None:
            ancestors = list(element.iterancestors())
            group = (signature, ancestors[min(2, len(ancestors) - 1)] if ancestors else root)
        names += [name for name in people if name not in names]
    return names


def _without_furniture_links(element: Any) -> str:
    """The text of an author element without the links set beside its names (an icon's "Twitter", "Bio", "ORCID",
    an e-mail): "By <a>Sarah Lazare</a><a><span>Twitter</span></a>" names Sarah Lazare."""
    furniture = [link for link in element.iter("a") if _is_furniture_link(link)]
    if furniture:
        element = deepcopy(element)
        for link in [link for link in element.iter("a") if _is_furniture_link(link)]:
            parent, tail = link.getparent(), link.tail or ""
            if parent is None:
                return ""
            previous = link.getprevious()
            if previous is not None:
                previous.tail = f"{previous.tail or ''} {tail}"
            else:
                parent.text = f"{parent.text or ''} {tail}"
            parent.remove(link)
    return collapse_whitespace(clean_text(shown_text(element)))  # "Jane Doe" over a Follow button: "Jane Doe"


def _is_furniture_link(link: Any) -> bool:
    # (a link that names the writer and gives the e-mail beside, "Mike Cason | mcason@al.com", is the name's)
    text = _E_MAIL_BESIDE_NAME.sub("", collapse_whitespace(clean_text(link.text_content())))
    return bool(text) and bool(_ICON_LINK.match(text) or _FURNITURE.search(text))


def _named_parts(element: Any) -> list[str]:
    """The names inside an author block that writes each name in an element of its own, marked as a name
    (``<li><span class="name">Alice Smith</span> <span class="affiliation">University of Oslo</span></li>``,
    itemprop="name"), in order: one person each, what stands beside them (affiliations, marks) left out."""
    names: list[str] = []
    for node in element.iterdescendants():
        if not isinstance(node.tag, str) or not _NAME_MARKUP.search(
            f"{node.get('class') or ''} {node.get('itemprop') or ''}"
        ):
            continue
        text = collapse_whitespace(clean_text(node.text_content()))
        people = split_people(text) or ([text] if _HAN_NAME.match(text) else [])  # "<span class="name">谢若含</span>"
        if len(people) == 1 and people[0] not in names:
            names.append(people[0])
    return names


def _words(name: str) -> list[str]:
    return re.findall(r"[^\W_]+", name.casefold())
