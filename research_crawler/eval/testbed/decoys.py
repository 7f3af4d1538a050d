"""The pages every site has and no query wants: about, help, contact, privacy… (decoys for a crawler).

Their text lives in `decoys.toml`. They are long enough to cost tokens and talk about papers and subjects
in general, as real ones do, but name no item.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Literal, get_args

from research_crawler.errors import ConfigError
from research_crawler.eval.testbed.markup import esc

__all__ = ["DecoyKind", "decoy_content"]

DecoyKind = Literal["about", "help", "contact", "privacy", "accessibility", "members", "submit", "terms"]
_DATA_FILE = "decoys.toml"


def decoy_content(kind: DecoyKind, *, title: str, tagline: str) -> tuple[str, str]:
    """(page title, HTML body fragment) of a decoy page for the site named `title`."""
    heading, sections = _texts()[kind]
    parts = [f"<h1>{esc(heading.format(title=title))}</h1>"]
    for subheading, text in sections:
        parts.append(f"<h2>{esc(subheading)}</h2>\n<p>{esc(text.format(title=title, tagline=tagline))}</p>")
    return heading.format(title=title), '<div class="static-page">\n' + "\n".join(parts) + "\n</div>"


@cache
def _texts() -> dict[str, tuple[str, list[tuple[str, str]]]]:
    raw = tomllib.loads(resources.files(__package__).joinpath(_DATA_FILE).read_text(encoding="utf-8"))
    missing = sorted(set(get_args(DecoyKind)) - set(raw))
    if missing:
        raise ConfigError(f"{_DATA_FILE} lacks the decoy pages {', '.join(missing)}")
    try:
        return {
            kind: (entry["heading"], [(s["subheading"], s["text"]) for s in entry["section"]])
            for kind, entry in raw.items()
        }
    except (KeyError, TypeError) as exc:
        raise ConfigError(f"{_DATA_FILE} is missing a required entry: {exc}") from exc
