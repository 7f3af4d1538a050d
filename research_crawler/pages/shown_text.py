"""The text of one element as a reader sees it: its blocks apart from each other and without the controls it holds.

``text_content()`` glues the text of an element's blocks together and keeps its buttons' labels: an author box
``<div><a>Jane Doe</a></div><div><button>Follow</button></div>`` reads "Jane DoeFollow", and ``<div>Jane Doe</div>
<div>Business Columnist</div>`` reads "Jane DoeBusiness Columnist", though a browser shows each on a line of its own
and a button is a control, no part of the text. Here each block ends a line (a space) and a control's label is left
out, so that a byline element reads as the names it shows. A page that hides a byline's words from assistive
readers (``aria-hidden``) and says them in the element's ``aria-label`` instead shows them all the same."""

from __future__ import annotations

from copy import deepcopy
from typing import Any

from research_crawler.pages.cleanup import collapse_whitespace
from research_crawler.pages.links import BLOCK_TAGS

__all__ = ["CONTROL_TAGS", "shown_text"]

#: Elements a reader presses or fills in, whose labels are no part of the text around them.
CONTROL_TAGS = frozenset({"button", "select", "input", "textarea"})


def shown_text(element: Any) -> str:
    """`element`'s text with a space at each block's edge (a line break is a block too) and its controls left out; the
    element itself is left as it was. An element whose shown parts are all gone (hidden from assistive readers
    and taken out of the page read) while its ``aria-label`` says what they showed ("By Jane Doe") reads as that
    label."""
    if not collapse_whitespace(element.text_content()) and (label := element.get("aria-label")):
        return str(label)
    if not any(_parts_or_controls(node) for node in element.iterdescendants()):
        return str(element.text_content())
    copy = deepcopy(element)
    for node in list(copy.iterdescendants()):
        if not isinstance(node.tag, str):
            continue
        if node.tag in CONTROL_TAGS:
            _remove_keeping_tail(node)
            continue
        if node.tag in BLOCK_TAGS:
            node.text = f" {node.text or ''}"
            node.tail = f" {node.tail or ''}"
    return str(copy.text_content())


def _parts_or_controls(node: Any) -> bool:
    return isinstance(node.tag, str) and (node.tag in CONTROL_TAGS or node.tag in BLOCK_TAGS)


def _remove_keeping_tail(node: Any) -> None:
    """Takes `node` out of its tree, the text after it kept in place."""
    parent = node.getparent()
    if parent is None:
        return
    tail, previous = node.tail or "", node.getprevious()
    if previous is not None:
        previous.tail = f"{previous.tail or ''}{tail}"
    else:
        parent.text = f"{parent.text or ''}{tail}"
    parent.remove(node)
