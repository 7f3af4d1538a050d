"""Whether an item's own page is plainly no item but a page that lists others: a journal's list of volumes, a
subject's list of years, a listing that other items were found on. A report never lists such a page as a work (a
model may take a journal's or a collection's name, shown like a title, for a paper's).

Read from what the page is, never from its words: other collected items were found on it (an item's own PDF, found
on its page, says nothing, nor does a link up to its section or home: navigation, listed nowhere; on a page naming
its own authors and date, not an entry's, one item found says nothing either: it is that work's link to its
project, its venue or a related work, which a model may store — two or more make it a listing); or, titled by no
tag of its own, its main heading only names a kind of page ("Publications", "Search results", "Volume 5, Issue 3");
or it names no author, abstract or DOI of its own and links to several pages below its
own address (``/journal/x`` → ``/journal/x/volume/2024``, ``/journal/x/volume/2023``…), as an index of a hierarchy
does; or the names read as its authors are those of an entry it lists — a list item, a table row or a card apart
from its main heading, that links to another page — as a month's or a subject's listing shows its first work's
byline; or, naming no abstract or DOI and showing no day of its own (none, or only one of its entries' days read
from its text), it lists three or more entries each with a different day beside its link — a blog's landing page or a
month's archive, whose "date" is its newest post's; or, naming no abstract or DOI, it lists three or more entries,
each linking to a page of its own and
naming people of its own beside that link (not the page's own names: a volume's editors), as a book's table of
contents, a session's talks or a list of papers with their bylines does — one such entry is enough when the page
also links to several pages below its own address (a volume of one chapter, its front matter, preface and back
matter hanging below it); or, naming no author, abstract, DOI or file of
its own, it links to another page of the site by a title (four words or more, not its own): a person's, an
organisation's or a topic's page listing works, a news post about one — the work's own page is elsewhere.
Names that are only the site's own (the ones its ``<title>`` gives: "Soil Science | Strandline Preprints") are no
author of the page. An item's own files
(its PDF, a figure) hang below some item pages too, so one or two such links say nothing. Nor is a link's action a
work's title ("Download (PDF) - Accepted Version": `names_no_work`), nor the byline of the page it was found on
("Pablo Hussain, Kofi Torres", each name a link to a profile: `names_only_its_authors`): an item page's byline links
to its authors' pages, which are people, not works, and lists nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from urllib.parse import urljoin, urlsplit

import lxml.html

from research_crawler.pages.field_labels import GENERIC_HEADING_WORDS
from research_crawler.pages.html_tree import in_page_frame, parse_html
from research_crawler.pages.item_dates import dates_in_text, without_dates
from research_crawler.pages.metadata import ItemMetadata
from research_crawler.pages.person_names import same_person, split_people

__all__ = [
    "MIN_PAGES_BELOW",
    "index_page_reason",
    "is_file_address",
    "links_up",
    "names_a_kind_of_page",
    "names_a_numbered_issue",
    "names_a_venue_or_slot",
    "names_no_work",
    "names_only_its_authors",
]

#: Links to distinct pages below its own address that make a page with no item metadata an index.
MIN_PAGES_BELOW = 3
#: Other items found on a page naming its own authors and date that make it a listing: one is that work's link to
#: something else (its project, its venue, a related work), which a model may have stored.
MIN_ITEMS_LISTED = 2
#: Entries of a list, each with a different day beside its link, that make a page whose date is one of theirs a list
#: of posts: two could be a work's versions; three are a blog's or an archive's page.
MIN_DATED_ENTRIES = 3
#: The words of a link's text that name another work by its title rather than a section or an action.
_TITLE_WORDS = 4
_FILE_SUFFIXES = (".pdf", ".ps", ".epub", ".doc", ".docx", ".zip", ".tex", ".bib", ".ris")
_ENTRIES = ("li", "tr", "article", "dd")
#: Sources of authors read from tags the publisher wrote for the item itself.
_PAGE_READINGS = frozenset({"page_heading", "page_field", "page_byline", "page_text", "trafilatura", "html_title"})
#: Where a date may have been read off the page's text rather than stated by a tag of its own: the readings above and
#: htmldate, whose search runs through the page's text too (a list's newest entry's day, read as the page's).
_DATE_READINGS = _PAGE_READINGS | {"htmldate"}


#: The words of a link that names an action or a file, never a work ("Download (PDF) - Accepted Version", "Full text").
_ACTION_WORDS = frozenset({
    "download", "view", "read", "get", "open", "full", "text", "fulltext", "pdf", "html", "epub", "xml", "file", "here",
    "more", "link", "article", "paper", "accepted", "published", "submitted", "author", "authors", "manuscript",
    "version", "preprint", "postprint", "supplementary", "material", "the", "this", "of", "a", "an", "kb", "mb",
})  # fmt: skip


def names_no_work(title: str) -> bool:
    """Whether `title` is only a link's action or file words ("Download (PDF) - Accepted Version", "[PDF]", "Full
    text"): what a link to a work's file says, never the work's title."""
    words = re.findall(r"[a-z]+", title.lower())
    return bool(words) and all(word in _ACTION_WORDS for word in words) and not re.search(r"\d{3,}", title)


def names_only_its_authors(title: str, authors: Sequence[str]) -> bool:
    """Whether `title` is only names of `authors` (the authors of the page a link was found on): a byline or one of
    its names ("Pablo Hussain, Kofi Torres"), which a model may take for an item's title, never a work's."""
    names = split_people(title)
    return bool(names and authors) and all(any(same_person(name, author) for author in authors) for name in names)


def links_up(url: str, from_url: str) -> bool:
    """Whether `url` is a page above `from_url` on its site (its section "/publication/" above
    "/publication/a-paper/", its home): a link up a hierarchy is navigation, never a work listed there."""
    there, here = urlsplit(url), urlsplit(from_url)
    above = [part for part in there.path.split("/") if part]
    below = [part for part in here.path.split("/") if part]
    return there.netloc == here.netloc and not there.query and len(above) < len(below) and below[: len(above)] == above


#: A venue's name: "International Workshop on …", "16th Annual Conference of …", "Journal of …", "IEEE Transactions
#: on …" — where works appear, never a work's title.
_VENUE = re.compile(
    r"^\W*(?:the\s+)?(?:\d+(?:st|nd|rd|th)\s+)?(?:(?:international|annual|joint|european|asian|american|national|"
    r"ieee|acm|ifip|usenix)\s+)*(?:(?:workshop|conference|symposium|congress|colloquium|summit)\s+(?:on|of|for)|"
    r"(?:journal|transactions|annals)\s+(?:on|of|in))\s+\w",
    re.IGNORECASE,
)
#: A slot of an event's programme that is no work: "Keynote: …", "Panel: …", "Coffee break", "Welcome and opening".
_PROGRAMME_SLOT = re.compile(
    r"^\W*(?:(?:keynote|panel|panel discussion|tutorial|invited talk|poster session)\s*[:—–-]|(?:coffee|lunch|tea)\s+"
    r"break\b|lunch\W*$|(?:welcome|opening|closing)(?:\s+(?:and|&)\s+\w+)?(?:\s+(?:remarks|session|address))?\W*$)",
    re.IGNORECASE,
)


def names_a_venue_or_slot(title: str) -> bool:
    """Whether `title` names a venue ("International Workshop on Automated Program Repair (APR@ICSE)", "Journal of
    Marine Science") or a slot of an event's programme ("Panel: who owns the model?", "Coffee break"): where works
    appear or what surrounds them, never a work."""
    return bool(_VENUE.search(title) or _PROGRAMME_SLOT.search(title))


#: A title that ends in a number after "#": an issue of a series ("Riverwatch links #7", "Weekly digest #112").
_NUMBERED_ISSUE = re.compile(r"(?<![\w#&])#\s?\d{1,4}\W*$")


def names_a_numbered_issue(title: str) -> bool:
    """Whether `title` names a numbered issue of a series ("Riverwatch links #7", "Friday reading #12"): a
    newsletter's roundup or a periodical's issue, which points to works, never a work itself."""
    return bool(_NUMBERED_ISSUE.search(title))


def names_a_kind_of_page(heading: str) -> bool:
    """Whether a page's main `heading` is only words naming a kind of page or a part of one ("Publications",
    "Search results", "Table of contents"): a listing's heading, never a work's title."""
    words = re.findall(r"[^\W\d_]+", heading.casefold())
    return bool(words) and all(word in GENERIC_HEADING_WORDS for word in words)


def is_file_address(url: str) -> bool:
    """Whether `url` names a file (a PDF, a document, an archive) rather than a page: an item page's own download."""
    return urlsplit(url).path.lower().endswith(_FILE_SUFFIXES)


def index_page_reason(
    page_url: str,
    links: Iterable[str],
    meta: ItemMetadata,
    *,
    listed_on: Iterable[str] = (),
    html: str = "",
    page_title: str = "",
) -> str | None:
    """Why the page at `page_url` (its links' URLs `links`, its metadata `meta`, its `html` and `<title>`) lists other
    works rather than being one, or None when it may be an item. `listed_on`: the pages other collected items (not
    files) were found on, once per item."""
    if found_here := [url for url in listed_on if url == page_url]:
        authors_here = [name for name in meta.authors if name.casefold() not in page_title.casefold()]
        signed = bool(authors_here and meta.date) and not (html and _byline_of_an_entry(html, page_url, authors_here))
        if not signed or len(found_here) >= MIN_ITEMS_LISTED:  # a signed, dated page's one link is its own
            return "other items were found listed on it"
    if meta.abstract or meta.doi:
        return None
    titled_by_tags = meta.sources.get("title") not in (None, *_PAGE_READINGS)  # citation_title names a work
    if html and not titled_by_tags and (heading := _main_heading(html)) and names_a_kind_of_page(heading):
        return f"its main heading (“{heading}”) names a kind of page, not a work"
    authors = [name for name in meta.authors if name.casefold() not in page_title.casefold()]
    tagged = meta.sources.get("authors") not in _PAGE_READINGS
    if authors and not tagged and html and _byline_of_an_entry(html, page_url, authors):
        return "the names read as its authors are an entry's it lists, beside a link to another page"
    listed = _entries_with_their_own_authors(html, page_url, meta.authors) if html else 0
    if listed >= MIN_PAGES_BELOW:
        return f"it lists {listed} works with their own authors, each linking to its own page (a table of contents)"
    days = _days_of_its_entries(html, page_url) if html else {}
    undated = not meta.date or (meta.sources.get("date") in _DATE_READINGS and meta.date in days.values())
    if undated and len(set(days.values())) >= MIN_DATED_ENTRIES:
        return (
            f"it shows no day of its own but lists {len(days)} entries, each with a day of its own beside its link to "
            "its own page (a blog's or an archive's list of posts)"
        )
    below = _pages_below(page_url, links, meta)
    if listed and len(below) >= MIN_PAGES_BELOW:  # an edited volume's contents: its matter below it, one chapter
        return (
            f"it lists a work with its own authors, linking to its own page, and links to {len(below)} pages below "
            "it (a book's contents: its front matter, preface, back matter)"
        )
    if authors:
        return None
    if len(below) >= MIN_PAGES_BELOW:
        return f"it names no author or abstract and links to {len(below)} pages below it, as an index does"
    if html and not meta.pdf_url and (titled := _titled_links(html, page_url, meta.title or page_title)):
        return f"it names no author, abstract, DOI or file of its own and links to other pages by their titles " \
               f"(“{titled[0]}”): a page about other works"  # fmt: skip
    return None


def _pages_below(page_url: str, links: Iterable[str], meta: ItemMetadata) -> set[str]:
    """The distinct pages of the site below `page_url`'s own address that its `links` lead to, its own files left
    out."""
    here = urlsplit(page_url)
    base = here.path.rstrip("/") + "/"
    below = set()
    for url in links:
        parts = urlsplit(url)
        own_file = url == meta.pdf_url or is_file_address(url)
        if parts.netloc == here.netloc and parts.path.startswith(base) and parts.path != base and not own_file:
            below.add(parts.path.rstrip("/"))
    return below


def _main_heading(html: str) -> str:
    """The text of the page's first main heading outside its frame, or ""."""
    tree = parse_html(html)
    heading = next((h for h in tree.iter("h1") if not in_page_frame(h)), None) if tree is not None else None
    return " ".join(heading.text_content().split()) if heading is not None else ""


def _titled_links(html: str, page_url: str, own_title: str) -> list[str]:
    """The texts of the page's links, outside its frame, to other pages of the site named by a title (four words or
    more, not the page's own title or main heading) — an organisation's, a person's or a topic's page listing
    works, a news post about one — or nothing when the page links to a file of its own (a record of attachments)."""
    tree = parse_html(html)
    if tree is None:
        return []
    host = urlsplit(page_url).netloc
    heading = next((h.text_content() for h in tree.iter("h1") if not in_page_frame(h)), "")
    owns = [" ".join(re.findall(r"\w+", title.casefold())) for title in (own_title, heading)]
    titled = []
    for link in tree.iter("a"):
        href = (link.get("href") or "").strip()
        if not href or href.startswith(("#", "javascript:", "mailto:")) or in_page_frame(link):
            continue
        target = urljoin(page_url, href).split("#")[0]
        if urlsplit(target).netloc != host or target == page_url.split("#")[0]:
            continue
        if is_file_address(target):
            return []
        text = " ".join(link.text_content().split())
        words = " ".join(re.findall(r"\w+", text.casefold()))
        if len(words.split()) >= _TITLE_WORDS and not any(own and (own in words or words in own) for own in owns):
            titled.append(text)
    return titled


def _only_a_date(text: str) -> bool:
    """Whether a link's `text` is only a date ("Mar 20, 2024", "2024-03-20"): a wiki's or a blog's byline links its
    day of last change to the page's history or versions, which name no other work."""
    return bool(dates_in_text(text)) and not re.search(r"\w", without_dates(text, mark=" "))


def _byline_of_an_entry(html: str, page_url: str, authors: Sequence[str]) -> bool:
    """Whether the first author's name is shown in an entry of a list (outside the page's frames and apart from its
    main heading) that links to another page of the site, not by that name (an author's profile), nor by a date
    only (the page's own byline linking its last change to its history: "last modified by A on Mar 20, 2024"), nor
    to a file."""
    tree = parse_html(html)
    if tree is None:
        return False
    heading = next((h for h in tree.iter("h1") if not in_page_frame(h)), None)
    first = " ".join(authors[0].split())
    host = urlsplit(page_url).netloc
    for entry in tree.iter(*_ENTRIES):
        if in_page_frame(entry) or (heading is not None and any(node is heading for node in entry.iter("h1"))):
            continue
        if first not in " ".join(entry.text_content().split()):
            continue
        for link in entry.iter("a"):
            target = _linked_address(page_url, link.get("href"))
            text = " ".join(link.text_content().split())
            if not target or urlsplit(target).netloc != host or is_file_address(target) or target == page_url:
                continue
            if _only_a_date(text):  # "last modified on <a>Mar 20, 2024</a>": the page's own history, no work
                continue
            if text and not any(text in name or name in text for name in authors):
                return True
    return False


def _entries_with_their_own_authors(html: str, page_url: str, authors: Sequence[str]) -> int:
    """How many pages of the site the page's entries link to, each entry (a list item, a table row, a card outside
    the page's frames) naming people of its own beside its link — not the page's own authors (its editors) and
    not in the link's text: a book's table of contents, a session's talks, a list of papers with their bylines."""
    listed: set[str] = set()
    for entry, target in _entries_linking_one_page(html, page_url):
        if target in listed:
            continue
        people = [name for piece in _text_beside_links(entry) for name in split_people(piece)]
        if people and not any(same_person(name, own) for name in people for own in authors):
            listed.add(target)
    return len(listed)


def _days_of_its_entries(html: str, page_url: str) -> dict[str, str]:
    """The day each entry of the page shows beside its link, by the page of the site it links to (a list item, a
    table row, a card outside the page's frames, one linked page each, a day outside its link's text: "Dry for
    Months … 10 Mar 2026"): a blog's list of its posts, a month's archive, a feed's page."""
    listed: dict[str, str] = {}
    for entry, target in _entries_linking_one_page(html, page_url):
        if target in listed:
            continue
        days = [day for piece in _text_beside_links(entry) for day in dates_in_text(piece) if day.count("-") == 2]
        if days:
            listed[target] = days[0]
    return listed


def _entries_linking_one_page(html: str, page_url: str) -> Iterator[tuple[lxml.html.HtmlElement, str]]:
    """Each entry of the page (a list item, a table row, a card outside the page's frames) whose links lead to one
    other page of the site, not a file, with that page's address (without its fragment)."""
    tree = parse_html(html)
    if tree is None:
        return
    host = urlsplit(page_url).netloc
    for entry in tree.iter(*_ENTRIES):
        if in_page_frame(entry):
            continue
        targets = set()
        for link in entry.iter("a"):
            target = _linked_address(page_url, link.get("href"))
            if target and urlsplit(target).netloc == host and not is_file_address(target) and target != page_url:
                targets.add(target.split("#")[0])
        if len(targets) == 1:
            yield entry, targets.pop()


def _linked_address(page_url: str, href: str | None) -> str:
    """The address a link's `href` opens from `page_url`, or "" for none (an in-page anchor, a script, a mail
    address, an address no URL parser accepts: "http://[broken/")."""
    href = (href or "").strip()
    if not href or href.startswith(("#", "javascript:", "mailto:")):
        return ""
    try:
        return urljoin(page_url, href)
    except ValueError:
        return ""


def _text_beside_links(entry: lxml.html.HtmlElement) -> list[str]:
    """The pieces of `entry`'s text outside its links, one per element (a name per list item, a byline line)."""
    pieces = []
    for node in entry.iter():
        if not isinstance(node.tag, str) or node.tag == "a" or any(a.tag == "a" for a in node.iterancestors()):
            continue
        pieces.append(node.text or "")
        pieces.extend(child.tail or "" for child in node)
    return [cleaned for piece in pieces if (cleaned := " ".join(piece.split()).strip(" ,;—–-·|"))]
