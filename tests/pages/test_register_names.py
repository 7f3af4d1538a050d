"""A patent register writes a document's inventors in capitals, surname first, each with the code of the country
they live in ("OKAFOR ADA [GB]; VAN DEN BERG JAN [NL]"), under an "Inventor(s):" label: they are the document's
authors, read surname first. Names written otherwise are read as before.

Each page below is written for the test in the shape of a kind of page; none is a copy of a real one.
"""

from __future__ import annotations

from research_crawler.pages.metadata import read_item_metadata
from research_crawler.pages.person_names import split_people
from research_crawler.report.identity import surname


def _document(inventors: str) -> str:
    return (
        "<!doctype html><html><head><title>Example Register - Self-healing mortar with spores</title></head><body>"
        "<h1>Self-healing mortar with spores</h1><table><tr><th>Inventor(s):</th><td>"
        f"{inventors}</td></tr><tr><th>Applicant(s):</th><td>EXAMPLE MATERIALS LTD [GB]</td></tr></table><p>"
        + "A mortar that closes its own cracks when water reaches the spores it carries. " * 3
        + "</p></body></html>"
    )


def test_a_registers_inventors_are_the_authors_surname_first() -> None:
    found = read_item_metadata(
        _document("OKAFOR ADA [GB]; VAN DEN BERG JAN PIETER [NL]; MÜLLER ELENA [DE]"),
        url="https://register.example.org/publication/XY4300922A1",
    )
    assert [surname(name) for name in found.authors] == ["okafor", "van den berg", "muller"]


def test_a_results_rows_cut_list_and_names_written_otherwise() -> None:
    assert split_people("OKAFOR ADA [GB]; LEE MIN [KR] ...") == ["OKAFOR, ADA", "LEE, MIN"]
    assert split_people("Ada Okafor; Min Lee") == ["Ada Okafor", "Min Lee"]
    assert split_people("OKAFOR ADA; LEE MIN") == ["OKAFOR ADA", "LEE MIN"]  # no country codes: as written
