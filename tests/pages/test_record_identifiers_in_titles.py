"""A catalogue's or knowledge base's record page heads the work with its record identifier in brackets ("… (Q1424)"),
the same identifier its address ends in: the number names the record, not the work, and the title is read without
it. A bracketed part the address does not end in is the title's own.

Each page below is written for the test in the shape of a kind of page; none is a copy of a real one.
"""

from __future__ import annotations

from research_crawler.pages.metadata import read_item_metadata

TITLE = "Ancient Genomes and Horse Domestication"
TEXT = "<p>" + "Statements about the work, its authors and the journal that published it are listed below. " * 3


def _record(heading: str) -> str:
    return (
        f"<!doctype html><html><head><title>{heading} - Example Knowledge Base</title></head><body>"
        f"<h1>{heading}</h1><p>scholarly article published on 28 January 2024</p>{TEXT}</p></body></html>"
    )


def test_the_records_identifier_the_address_ends_in_is_no_part_of_the_title() -> None:
    found = read_item_metadata(_record(f"{TITLE} (Q1424)"), url="https://kb.example.org/wiki/Item:Q1424")
    assert found.title == TITLE
    found = read_item_metadata(_record(f"{TITLE} (ds-2023-07)"), url="https://data.example.org/dataset/ds-2023-07/")
    assert found.title == TITLE


def test_a_bracketed_part_the_address_does_not_end_in_stays() -> None:
    found = read_item_metadata(_record(f"{TITLE} (Q1424)"), url="https://kb.example.org/wiki/Item:Q77")
    assert found.title == f"{TITLE} (Q1424)"
    found = read_item_metadata(_record(f"{TITLE} (2nd edition)"), url="https://kb.example.org/books/2nd")
    assert found.title == f"{TITLE} (2nd edition)"
