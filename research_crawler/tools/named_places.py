"""A link or a page that names a place by its handle, not a work by its title: "Cryosphere Group / dem-downloader",
"alice / thesis-template", "Teaching / course-geo4410" — a code forge's project, a group's folder, a user's space,
written as a path of names whose last name is the address's own last segment, one word as the address writes it.

Such a place may hold works (a research project carries its software paper in paper.md, a README cites it), and so
may lead to them, but it is not one of them: a repository, a course, a meeting-notes project is no paper, whatever
the line under its name says. The Item Collector's `collect_items` refuses to store it and says to open it.
"""

from __future__ import annotations

from urllib.parse import unquote, urlsplit

from research_crawler.pages.title_tails import SITE_SEPARATORS

__all__ = ["names_a_place", "title_names_a_place"]


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
