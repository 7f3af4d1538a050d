"""A page about a person — an encyclopedia's biography with a card of facts (microformats' hCard) at its top — marks
its subject's name as a person's; the name the item is titled by is what the page is about, not its writer.

The page below is written for the test in the shape of a kind of real page; it is no copy of one.
"""

from __future__ import annotations

from research_crawler.pages.metadata import read_item_metadata

URL = "https://encyclopedia.example.org/wiki/Jane_Gardener"
TEXT = "<p>" + "Jane Gardener was a botanist whose work on hedges is read to this day by many. " * 4 + "</p>"


def _authors(card_name: str) -> list[str]:
    card = f'<table class="infobox biography vcard"><tr><th><div class="fn">{card_name}</div></th></tr></table>'
    html = (
        "<!doctype html><html><head><title>Jane Gardener - Encyclopedia</title></head>"
        f"<body><h1>Jane Gardener</h1>{card}{TEXT}</body></html>"
    )
    return [str(name) for name in read_item_metadata(html, url=URL).authors]


def test_the_card_of_the_person_the_page_is_titled_by_names_no_writer() -> None:
    assert _authors("Jane Gardener") == []


def test_a_card_naming_someone_else_is_still_read_as_marked() -> None:
    assert _authors("Tom Planter") == ["Tom Planter"]
