"""BibTeX export: valid entries that bibtexparser reads back to the very metadata we wrote."""

from __future__ import annotations

import bibtexparser
import pytest
from bibtexparser.middlewares import LatexDecodingMiddleware, MonthIntMiddleware

from research_crawler.report.bibtex import citation_key, to_bibtex
from research_crawler.report.models import ReportItem


def make_item(
    title: str,
    url: str,
    *,
    authors: list[str] | None = None,
    date: str | None = None,
    doi: str | None = None,
    site: str = "https://papers.test/",
) -> ReportItem:
    return ReportItem(
        rank=1,
        title=title,
        url=url,
        site=site,
        found_on=site,
        collector_score=7.0,
        authors=authors or [],
        date=date,
        doi=doi,
    )


def parse(text: str, *, decode: bool = True) -> dict[str, dict[str, object]]:
    """The entries of `text` by key, fields decoded from LaTeX (or raw, for verbatim fields)."""
    middleware = [LatexDecodingMiddleware(), MonthIntMiddleware()] if decode else []
    library = bibtexparser.parse_string(text, append_middleware=middleware)
    assert library.failed_blocks == []
    return {
        entry.key: {"type": entry.entry_type, **{f.key: f.value for f in entry.fields}} for entry in library.entries
    }


DIFFUSION = make_item(
    "Diffusion Models for Protein Design",
    "https://papers.test/abs/1",
    authors=["Alice Smith", "Bob Jones"],
    date="2024-05-01",
    doi="10.1234/pd.2024.1",
)


def test_round_trip_of_a_complete_entry() -> None:
    text = to_bibtex([DIFFUSION])
    entries = parse(text)
    assert entries == {
        "smith2024diffusion": {
            "type": "misc",
            "title": "Diffusion Models for Protein Design",
            "author": "Alice Smith and Bob Jones",
            "year": "2024",
            "month": 5,
            "date": "2024-05-01",
            "doi": "10.1234/pd.2024.1",
            "url": "https://papers.test/abs/1",
            "note": "Found on papers.test",
        }
    }
    assert "month = may," in text  # the standard BibTeX month macro, not a string


def test_special_characters_are_escaped_and_come_back_unchanged() -> None:
    title = "Müller's 50% & $x_1$ {braces} #1 ~ \\ — “quoted” α-helix naïve l'été 蛋白质"
    item = make_item(title, "https://papers.test/abs/9", authors=["José Núñez", "Zoë O'Brien"], date="2023")
    text = to_bibtex([item])
    for raw in ("50%", "& ", "$x_1$", "#1", "{braces}"):
        assert raw not in text  # each would break LaTeX or BibTeX unescaped
    entry = parse(text)["nunez2023mullers"]
    assert entry["title"] == title
    assert entry["author"] == "José Núñez and Zoë O'Brien"
    assert entry["year"] == "2023"
    assert "month" not in entry and "date" not in entry


def test_capitalised_words_are_protected_from_style_lowercasing() -> None:
    text = to_bibtex([make_item("CRISPR screens of mRNA with AlphaFold", "https://papers.test/abs/2")])
    assert "title = {{CRISPR} screens of {mRNA} with {AlphaFold}}" in text
    assert parse(text)["crispr"]["title"] == "CRISPR screens of mRNA with AlphaFold"


def test_url_and_doi_are_verbatim_not_latex_escaped() -> None:
    item = make_item("Trees", "https://papers.test/view?id=7&tab=full_text#top", doi="doi:10.1000/ab_c(1)")
    text = to_bibtex([item])
    assert "url = {https://papers.test/view?id=7&tab=full_text#top}" in text
    raw = parse(text, decode=False)["trees"]
    assert raw["url"] == "https://papers.test/view?id=7&tab=full_text#top"
    assert raw["doi"] == "10.1000/ab_c(1)"


def test_braces_in_a_url_cannot_break_the_entry() -> None:
    text = to_bibtex([make_item("Odd", "https://papers.test/a b}{c")])
    assert parse(text, decode=False)["odd"]["url"] == "https://papers.test/a%20b%7D%7Bc"


def test_item_without_authors_or_date_is_a_valid_misc_entry() -> None:
    text = to_bibtex([make_item("A Benchmark of Things", "https://papers.test/abs/3", site="https://www.biorxiv.org/")])
    assert text.startswith("@misc{benchmark,")
    assert parse(text) == {
        "benchmark": {
            "type": "misc",
            "title": "A Benchmark of Things",
            "url": "https://papers.test/abs/3",
            "note": "Found on biorxiv.org",
        }
    }


def test_item_without_title_authors_or_date_still_gets_a_key() -> None:
    assert parse(to_bibtex([make_item("", "https://papers.test/x")])) == {
        "item": {"type": "misc", "url": "https://papers.test/x", "note": "Found on papers.test"}
    }


def test_keys_are_unique_within_a_file() -> None:
    twin = DIFFUSION.model_copy(update={"url": "https://papers.test/abs/1b"})
    text = to_bibtex([DIFFUSION, twin, DIFFUSION])
    assert list(parse(text)) == ["smith2024diffusion", "smith2024diffusionb", "smith2024diffusionc"]


@pytest.mark.parametrize(
    ("authors", "date", "title", "key"),
    [
        (["Smith, Alice"], "2021-03", "The Effect of Light", "smith2021effect"),
        (["Ludwig van Beethoven"], None, "On Symphonies", "beethovensymphonies"),
        (["Ñoño Pérez"], "March 5, 2020", "Über Alles", "perez2020uber"),
        (["张伟"], "2022", "蛋白质", "2022"),
        # the surname is `pages.person_names.surname`'s, however the name is written
        (["Petrova R"], "2024", "Reading Names", "petrova2024reading"),  # was "r2024reading"
        (["Lee, J."], "2024", "Reading Names", "lee2024reading"),
        (["Jean-Luc Picard"], "2024", "Reading Names", "picard2024reading"),
        (["van der Berg JH"], "2024", "Reading Names", "berg2024reading"),  # was "bergjh2024reading"
        (["Jun LI"], "2024", "Reading Names", "li2024reading"),
        (["王小明"], "2024", "Reading Names", "2024reading"),
    ],
)
def test_citation_key(authors: list[str], date: str | None, title: str, key: str) -> None:
    assert citation_key(make_item(title, "https://papers.test/k", authors=authors, date=date)) == key


def test_author_name_containing_and_is_kept_as_one_author() -> None:
    item = make_item("Reports", "https://papers.test/r", authors=["Research and Development Team", "Alice Smith"])
    text = to_bibtex([item])
    assert "author = {{Research and Development Team} and Alice Smith}" in text
    library = bibtexparser.parse_string(text)
    assert bibtexparser.middlewares.names.split_multiple_persons_names(library.entries[0]["author"]) == [
        "{Research and Development Team}",
        "Alice Smith",
    ]


def test_arxiv_pages_carry_their_eprint_id() -> None:
    item = make_item("Attention", "https://arxiv.org/abs/1706.03762v7", authors=["Ashish Vaswani"], date="2017-06-12")
    entry = parse(to_bibtex([item]))["vaswani2017attention"]
    assert entry["eprint"] == "1706.03762v7"
    assert entry["archiveprefix"] == "arXiv"


def test_no_items_give_an_empty_file() -> None:
    assert to_bibtex([]) == ""
