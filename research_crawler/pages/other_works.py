"""The containers of other works' entries on an item's page, by their id or class — reference lists, "Cited by",
recommendations, pull quotes, readers' replies and webmentions: the names in them are never the item's authors."""

from __future__ import annotations

import re
from typing import Any

__all__ = ["in_other_works", "without_other_works"]

# Containers of other works' entries, by their id or class: reference lists, "Cited by", recommendations; pull quotes
# name whom they quote, readers' replies and webmentions their writers: no author of the item either.
_OTHER_WORKS = re.compile(
    r"reference|bibliograph|cited-?by|citing|recommend|related-?(?:articles|content)|quote|testimonial|webmention"
    r"|(?<![a-z])repl(?:y|ies)(?![a-z])",
    re.I,
)


def without_other_works(root: Any) -> Any:
    """`root` with the containers of other works' entries (reference lists, "Cited by", recommendations, pull
    quotes) taken out, in place: what is left names only the item's own people."""
    for element in list(root.iter()):
        if isinstance(element.tag, str) and element.getparent() is not None and _other_works_container(element):
            element.drop_tree()
    return root


def _other_works_container(node: Any) -> bool:
    return node.tag == "blockquote" or bool(_OTHER_WORKS.search(f"{node.get('id') or ''} {node.get('class') or ''}"))


def in_other_works(element: Any) -> bool:
    return any(
        isinstance(node.tag, str) and _other_works_container(node) for node in (element, *element.iterancestors())
    )
