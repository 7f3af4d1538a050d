"""A link or a page that names a place by its handle, not a work by its title: "Cryosphere Group / dem-downloader",
"alice / thesis-template", "Teaching / course-geo4410" — a code forge's project, a group's folder, a user's space,
written as a path of names whose last name is the address's own last segment, one word as the address writes it.

Such a place may hold works (a research project carries its software paper in paper.md, a README cites it), and so
may lead to them, but it is not one of them: a repository, a course, a meeting-notes project is no paper, whatever
the line under its name says. The Item Collector's `collect_items` refuses to store it and says to open it. On the
place's own page, the work it carries is the file of its paper that the page links ("paper/paper.md",
"manuscript.pdf"), one of the place's own files: what the model names as the place's work (the page itself, the DOI
its README cites off the site) is stored as that file, whose page shows the paper.
"""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

from research_crawler.pages.page import Link, Page
from research_crawler.pages.title_tails import SITE_SEPARATORS

__all__ = ["carried_paper", "names_a_place", "title_names_a_place"]

#: The name of a file that holds a paper: "paper.md", "manuscript.pdf", "preprint.tex", "article.html".
_PAPER_FILE = re.compile(r"^(?:paper|manuscript|preprint|article)\.(?:md|pdf|tex|html?|rst)$", re.IGNORECASE)


def names_a_place(text: str, url: str) -> bool:
    """Whether `text` (a link's text, a page's title) is a path of two names or more ("Owner / project") whose last
    name is one word, the last segment of `url` as written there: a place named by its handle. A title with a slash
    in its words ("Input/Output Scheduling", "A / B Testing at Scale") ends in more than one word and so is no path."""
    names = [name.strip() for name in text.split(" / ")]
    if len(names) < 2 or not all(names):
        return False
    handle = names[-1]
    segment = unquote(urlsplit(url).path.rstrip("/").rpartition("/")[2])
    return bool(segment) and " " not in handle and handle.casefold() == segment.casefold()


def title_names_a_place(title: str, url: str) -> bool:
    """Whether a page's `<title>`, its site's name cut ("Cryosphere Group / rinlis · Halvard Code"), names the page
    at `url` as a place by its handle."""
    head = title
    for separator in SITE_SEPARATORS:
        head = head.partition(separator)[0]
    return names_a_place(head.strip(), url)


def carried_paper(page: Page) -> Link | None:
    """The link to the one file of a paper that `page`, a place named by its handle, carries among its own files
    (its address under the place's): "paper/paper.md" of a research project. None when the page is no place, or
    links no such file, or several (which one is the place's work is then not plain)."""
    if not title_names_a_place(page.title, page.final_url):
        return None
    place = urlsplit(page.final_url).path.rstrip("/") + "/"
    files = {
        link.url
        for link in page.links
        if link.same_site
        and urlsplit(link.url).path.startswith(place)
        and _PAPER_FILE.match(unquote(urlsplit(link.url).path.rpartition("/")[2]))
    }
    if len(files) != 1:
        return None
    return page.link_for_url(files.pop())
