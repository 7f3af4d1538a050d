"""Markup that calls an element the item's author: rel=author and itemprop=author aside, a class or id with an
author's or byline's word ("author", "byline", "creator"), and microformats' "fn" where it names a person — inside
an hCard or an author's element. "fn" alone is the formatted name of whatever item it is in (microformats' hRecipe,
hProduct, hReview): on a recipe's heading, "<h1 class="entry-title fn">Rhubarb Crumble</h1>", it names the recipe."""

from __future__ import annotations

import re
from typing import Any

__all__ = ["AUTHOR_CLASSES", "marks_a_person"]

#: Markup that names an element as the item's author (rel=author, hCard/hAtom and publishers' class names).
AUTHOR_CLASSES = re.compile(r"(?:^|[\s_-])(?:author|authors|byline|creator|writer|fn)(?:$|[\s_-])", re.I)
_FN = re.compile(r"(?:^|(?<=[\s_-]))fn(?=$|[\s_-])", re.I)  # microformats' "fn": a formatted name, of anything
_HCARD = re.compile(r"(?:^|\s)(?:vcard|h-card)(?:$|\s)", re.I)  # a person's (or an organisation's) card


def marks_a_person(element: Any) -> bool:
    """Whether an element's class or id marks a person: an author's or byline's word, or microformats' "fn" inside
    an hCard or an author's element ("fn" alone is the formatted name of whatever item it is in: a recipe, a
    product, a review — microformats' hRecipe, hProduct, hReview)."""
    if AUTHOR_CLASSES.search(_FN.sub(" ", f"{element.get('class') or ''} {element.get('id') or ''}")):
        return True
    return any(
        _HCARD.search(ancestor.get("class") or "") or AUTHOR_CLASSES.search(_FN.sub(" ", ancestor.get("class") or ""))
        for ancestor in element.iterancestors()
        if isinstance(ancestor.tag, str)
    )
