"""A document's front matter shown on its page: the YAML block a Markdown paper opens with ("---", "title: …",
"authors: - name: …", "date: 26 August 2024", "---"), as a code forge shows a research project's paper.md, a
Pandoc, Quarto or R Markdown source, or a static site's post. Its fields are the document's own title, authors and
date, written by its authors for the tools that typeset it: a reading like a publisher's tags.

Only a block the page shows is read (in a `<pre>` or `<code>` element), only when it opens the
block and names a title, and only a bounded length of it; YAML is parsed safely (no tags, no objects).
"""

from __future__ import annotations

import re
from typing import Any

import lxml.html
import yaml

from research_crawler.pages.item_dates import tag_date

__all__ = ["read_front_matter"]

#: A front matter block: "---" alone on its first line, fields, "---" (or "...") alone on its last.
_BLOCK = re.compile(r"\A\s*---[ \t]*\n(?P<fields>.*?\n)(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.DOTALL)
#: A front matter longer than this is no paper's header (a data file shown whole).
_MAX_CHARS = 20_000


def read_front_matter(tree: lxml.html.HtmlElement) -> dict[str, Any]:
    """The title, authors and date of the first front matter block the page shows that names a title, or {}."""
    for element in tree.iter("pre", "code"):
        if (found := _read(element.text_content())) is not None:
            return found
    return {}


def _read(text: str) -> dict[str, Any] | None:
    block = _BLOCK.match(text[:_MAX_CHARS])
    if block is None:
        return None
    try:
        fields = yaml.safe_load(block["fields"])
    except yaml.YAMLError:
        return None
    if not isinstance(fields, dict) or not isinstance(title := fields.get("title"), str) or not title.strip():
        return None
    date = fields.get("date")
    return {
        "title": " ".join(title.split()),
        "authors": _people(fields.get("authors", fields.get("author"))),
        "date": tag_date(str(date)) if isinstance(date, str | int) or hasattr(date, "isoformat") else None,
    }


def _people(value: Any) -> list[str]:
    """Authors as front matter writes them: one name, a list of names, or a list of {name: …} entries."""
    entries = value if isinstance(value, list) else [value]
    names = []
    for entry in entries:
        name = entry.get("name") if isinstance(entry, dict) else entry
        if isinstance(name, str) and name.strip():
            names.append(" ".join(name.split()))
    return names
