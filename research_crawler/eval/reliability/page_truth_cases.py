"""Catalogue case of a page that lies: hidden ``citation_*`` tags naming another title, author and year than the
page shows. Fetched over HTTP from a loopback server and read as the report reads an item's page, the item takes
what the page shows and says which tag it did not believe; a page whose tags agree with it keeps its tags."""

from __future__ import annotations

from research_crawler.eval.reliability.catalogue import Outcome, case
from research_crawler.eval.reliability.fault_web import FaultServer, Reply
from research_crawler.eval.reliability.fetch_cases import fast_settings, fetch_all
from research_crawler.pages.metadata import ItemMetadata, read_item_metadata

__all__: list[str] = []

_GROUP = "answers that agree with themselves"
_SHOWN = ("Erasure Conversion in Neutral Atom Arrays", ["Ana Lee", "Bo Chen"], "2024-03-12")
_HIDDEN = ("Totally Different Fabricated Title About Quantum Gravity", "Fabricated Author", "1999/01/01")


def _page(tags: tuple[str, str, str]) -> str:
    title, authors, _shown_date = _SHOWN
    return (
        f'<html><head><title>{title} | Example Journal</title><meta name="citation_title" content="{tags[0]}">'
        f'<meta name="citation_author" content="{tags[1]}"><meta name="citation_publication_date" content="{tags[2]}">'
        f"</head><body><nav>Home · Issues · Search</nav><main><h1>{title}</h1><p>{' and '.join(authors)}</p>"
        f"<p>Published: 12 March 2024</p><h2>Abstract</h2><p>We convert erasures in arrays of neutral atoms.</p>"
        f"</main></body></html>"
    )


def _shows_the_page(meta: ItemMetadata) -> bool:
    title, authors, shown_date = _SHOWN
    return meta.title == title and list(meta.authors) == authors and meta.date == shown_date


@case(_GROUP, "a page whose hidden citation tags name another title, author and year: what it shows wins, said so")
async def _hidden_tags_do_not_overrule_the_page() -> Outcome:
    honest = (_SHOWN[0], " and ".join(_SHOWN[1]), "2024/03/12")
    with FaultServer() as server:
        server.route("/lying", Reply(200, _page(_HIDDEN)))
        server.route("/honest", Reply(200, _page(honest)))
        lying, truthful = await fetch_all(fast_settings(server), server.url("/lying"), server.url("/honest"))
    lie = read_item_metadata(lying.html, url=lying.final_url)
    truth = read_item_metadata(truthful.html, url=truthful.final_url)
    said = set(lie.notes) == {"title", "authors", "date"}
    kept_tags = truth.sources.get("title") == "citation" and not truth.notes
    return Outcome(
        held=_shows_the_page(lie) and said and _shows_the_page(truth) and kept_tags,
        detail=f"lying page read as {lie.title!r}, {list(lie.authors)}, {lie.date} "
        f"from {sorted(set(lie.sources.values()))}; notes on {sorted(lie.notes)}; "
        f"the honest page's title from {truth.sources.get('title')}, notes {sorted(truth.notes)}",
    )
