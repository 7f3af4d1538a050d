"""The citation guard on adversarial drafts: every change it makes is asserted exactly."""

from __future__ import annotations

import pytest

from research_crawler.report.guard import GuardResult, guard_report
from research_crawler.report.models import ReportItem
from research_crawler.report.title_match import TitleMatcher

SITE = "https://papers.test/"
LISTING = "https://papers.test/list?q=protein"


def make_item(
    rank: int,
    title: str,
    url: str,
    *,
    authors: list[str] | None = None,
    date: str | None = None,
    doi: str | None = None,
    pdf_url: str | None = None,
) -> ReportItem:
    return ReportItem(
        rank=rank,
        title=title,
        url=url,
        site=SITE,
        found_on=LISTING,
        collector_score=8.0,
        authors=authors or [],
        date=date,
        doi=doi,
        pdf_url=pdf_url,
    )


DIFFUSION = make_item(
    1,
    "Diffusion Models for Protein Design",
    "https://papers.test/abs/1",
    authors=["Alice Smith", "Bob Jones"],
    date="2024-05-01",
    doi="10.1234/pd.2024.1",
    pdf_url="https://papers.test/pdf/1.pdf",
)
GNN = make_item(
    2,
    "Graph Neural Networks for Molecules",
    "https://papers.test/abs/2",
    authors=["Chen, Carol"],
    date="2023-11",
    doi="10.1234/gnn.2023",
)
PLM = make_item(
    3, "Protein Language Models at Scale", "https://papers.test/abs/3", authors=["Dan Park", "Eve Adams"], date="2025"
)
ITEMS = [DIFFUSION, GNN, PLM]
ALLOWED = [LISTING, "https://papers.test/", DIFFUSION.url, GNN.url, PLM.url, "https://papers.test/pdf/1.pdf"]


def guard(
    draft: str, *, items: list[ReportItem] | None = None, requested: int | None = None, item_kind: str = "paper"
) -> GuardResult:
    return guard_report(
        draft,
        items=ITEMS if items is None else items,
        allowed_urls=ALLOWED,
        requested_count=requested,
        item_kind=item_kind,
    )


CLEAN_NUMBERED = """# Papers on protein design

Here are the papers I found:

1. [Diffusion Models for Protein Design](https://papers.test/abs/1) — Alice Smith, Bob Jones (2024-05-01). \
Generates backbones with diffusion, improving on 2021 methods.
2. [Graph Neural Networks for Molecules](https://papers.test/abs/2) — Carol Chen (November 2023). Message passing.
3. [Protein Language Models at Scale](https://papers.test/abs/3) — Dan Park, Eve Adams (2025). Scaling laws.

These three cover the field; see the [search results](https://papers.test/list?q=protein).
"""


def test_clean_draft_is_unchanged_with_no_notes() -> None:
    result = guard(CLEAN_NUMBERED, requested=3)
    assert result.markdown == CLEAN_NUMBERED
    assert result.notes == [] and result.removed_items == [] and result.removed_fields == []
    assert result.removed_links == []
    assert result.supported_share == 1.0
    assert result.entries_checked == 3
    # links 3 + listing link 1; authors 2 + 1 + 2; dates 3 ("2021" inside a sentence is prose, not a field)
    assert result.fields_checked == 12


CLEAN_SHAPES = {
    "bullets with sub-bullets": """## Top papers

- **[Diffusion Models for Protein Design](https://papers.test/abs/1)**
  - Authors: Alice Smith, Bob Jones
  - Published: May 1, 2024
  - DOI: 10.1234/pd.2024.1
  - PDF: [download](https://papers.test/pdf/1.pdf)
- **[Graph Neural Networks for Molecules](https://papers.test/abs/2)**
  - Authors: C. Chen
  - Published: 2023-11

### Notes

- **Key trend:** diffusion models dominate.
- Only papers from 2023 onward were considered.
""",
    "table": """| # | Title | Authors | Year |
|:-:|:--|:--|--:|
| 1 | [Diffusion Models for Protein Design](https://papers.test/abs/1) | A. Smith, B. Jones | 2024 |
| 2 | [Graph Neural Networks for Molecules](https://papers.test/abs/2) | Chen, C. | 2023 |
""",
    "heading sections": """# Report

## 1. Diffusion Models for Protein Design

**Authors:** Alice Smith, Bob Jones
**Date:** 1 May 2024
**DOI:** [10.1234/pd.2024.1](https://doi.org/10.1234/pd.2024.1)

Generates protein backbones.

## 2. Protein Language Models at Scale

*Dan Park et al., 2025* — <https://papers.test/abs/3>

## Conclusion

Both are relevant.
""",
    "paragraphs and a reference link": """**[Diffusion Models for Protein Design][d]** (Smith et al., 2024)
A strong paper.

**Protein Language Models at Scale** — Dan Park, Eve Adams · 2025 · https://papers.test/abs/3

In summary, both use large models.

[d]: https://papers.test/abs/1
""",
    "plain numbered lines with bare URLs": """1. Diffusion Models for Protein Design (Alice Smith, Bob Jones, 2024) https://papers.test/abs/1
2. Graph Neural Networks for Molecules (Carol Chen, 2023-11) https://papers.test/abs/2
""",
    "code is never touched": """1. [Diffusion Models for Protein Design](https://papers.test/abs/1) (2024)

```
1. [Made Up Paper](http://evil.example/) (1999) ![x](http://127.0.0.3/)
```

Use `![x](http://127.0.0.3/)` literally.
""",
}


@pytest.mark.parametrize("draft", CLEAN_SHAPES.values(), ids=CLEAN_SHAPES.keys())
def test_clean_drafts_of_every_shape_are_unchanged(draft: str) -> None:
    result = guard(draft)
    assert result.markdown == draft
    assert result.notes == []
    assert result.supported_share == 1.0
    assert result.entries_checked >= 1 and result.fields_checked >= 2


def test_invented_paper_is_removed() -> None:
    draft = """- [Diffusion Models for Protein Design](https://papers.test/abs/1) (2024)
- [Equivariant Transformers for Docking](https://arxiv.org/abs/2401.00001) (2024)
- [Graph Neural Networks for Molecules](https://papers.test/abs/2) (2023)
"""
    result = guard(draft)
    assert (
        result.markdown
        == """- [Diffusion Models for Protein Design](https://papers.test/abs/1) (2024)
- [Graph Neural Networks for Molecules](https://papers.test/abs/2) (2023)
"""
    )
    assert result.removed_items == ["Equivariant Transformers for Docking"]
    assert result.notes == [
        'Removed a paper that is not among the collected papers: "Equivariant Transformers for Docking".'
    ]
    assert result.entries_checked == 3
    assert result.removed_links == []  # the whole entry went, its link with it


def test_wrong_date_is_removed_and_the_line_kept_intact() -> None:
    draft = "1. [Diffusion Models for Protein Design](https://papers.test/abs/1) — Alice Smith (2023). Diffusion.\n"
    result = guard(draft)
    assert (
        result.markdown
        == "1. [Diffusion Models for Protein Design](https://papers.test/abs/1) — Alice Smith. Diffusion.\n"
    )
    assert result.removed_fields == ['date "2023" of "Diffusion Models for Protein Design"']
    assert result.notes == [
        'Removed the date "2023" from "Diffusion Models for Protein Design": its page gives 2024-05-01.'
    ]


@pytest.mark.parametrize(
    ("shown", "kept"),
    [
        ("2024", True),
        ("May 2024", True),
        ("2024-05-01", True),
        ("01.05.2024", True),
        ("June 2024", False),  # the month disagrees
        ("2024-05-02", False),  # the day disagrees
    ],
)
def test_date_must_agree_in_every_part_it_shows(shown: str, kept: bool) -> None:
    draft = f"- [Diffusion Models for Protein Design](https://papers.test/abs/1), {shown}\n"
    result = guard(draft)
    expected = draft if kept else "- [Diffusion Models for Protein Design](https://papers.test/abs/1)\n"
    assert result.markdown == expected


def test_date_more_precise_than_the_page_or_absent_from_it_is_removed() -> None:
    undated = make_item(4, "A Survey of Folding", "https://papers.test/abs/4")
    draft = """- [Protein Language Models at Scale](https://papers.test/abs/3) — published 2025-03-14
- [A Survey of Folding](https://papers.test/abs/4) (2022)
"""
    result = guard(draft, items=[*ITEMS, undated])
    assert (
        result.markdown
        == """- [Protein Language Models at Scale](https://papers.test/abs/3)
- [A Survey of Folding](https://papers.test/abs/4)
"""
    )
    assert result.notes == [
        'Removed the date "published 2025-03-14" from "Protein Language Models at Scale": its page gives 2025.',
        'Removed the date "2022" from "A Survey of Folding": its page gives no date.',
    ]


def test_wrong_doi_is_removed_with_its_label() -> None:
    draft = """- **[Graph Neural Networks for Molecules](https://papers.test/abs/2)**
  - DOI: 10.9999/invented.42
  - Carol Chen, 2023. DOI: 10.1234/GNN.2023. Message passing.
"""
    result = guard(draft)
    assert (
        result.markdown
        == """- **[Graph Neural Networks for Molecules](https://papers.test/abs/2)**
  - Carol Chen, 2023. DOI: 10.1234/GNN.2023. Message passing.
"""
    )
    assert result.removed_fields == ['DOI "10.9999/invented.42" of "Graph Neural Networks for Molecules"']
    assert result.notes == [
        'Removed the DOI "10.9999/invented.42" from "Graph Neural Networks for Molecules": '
        "its page gives 10.1234/gnn.2023."
    ]


def test_wrong_doi_link_is_removed_with_its_text() -> None:
    draft = (
        "- [Diffusion Models for Protein Design](https://papers.test/abs/1) ([doi](https://doi.org/10.1234/gnn.2023))\n"
    )
    result = guard(draft)
    assert result.markdown == "- [Diffusion Models for Protein Design](https://papers.test/abs/1) (doi)\n"
    assert result.removed_links == ["https://doi.org/10.1234/gnn.2023"]
    assert result.notes == [
        'Removed a link to https://doi.org/10.1234/gnn.2023, from "Diffusion Models for Protein Design": '
        "not the DOI its page gives (its text is kept)."
    ]


def test_invented_author_is_removed_from_the_list() -> None:
    draft = (
        "1. [Diffusion Models for Protein Design](https://papers.test/abs/1) — "
        "Alice Smith, Mallory Fake and Bob Jones (2024)\n"
    )
    result = guard(draft)
    assert (
        result.markdown
        == "1. [Diffusion Models for Protein Design](https://papers.test/abs/1) — Alice Smith and Bob Jones (2024)\n"
    )
    assert result.removed_fields == ['author "Mallory Fake" of "Diffusion Models for Protein Design"']
    assert result.notes == [
        'Removed the author "Mallory Fake" from "Diffusion Models for Protein Design": not an author its page lists.'
    ]


def test_author_list_with_no_real_author_goes_with_its_label() -> None:
    draft = """- **[Protein Language Models at Scale](https://papers.test/abs/3)**
  - Authors: John Doe, Jane Roe
  - Year: 2025
"""
    result = guard(draft)
    assert (
        result.markdown
        == """- **[Protein Language Models at Scale](https://papers.test/abs/3)**
  - Year: 2025
"""
    )
    assert result.removed_fields == [
        'author "John Doe" of "Protein Language Models at Scale"',
        'author "Jane Roe" of "Protein Language Models at Scale"',
    ]


def test_author_of_another_item_is_recognised_and_removed() -> None:
    draft = "- [Graph Neural Networks for Molecules](https://papers.test/abs/2) — Alice Smith (2023)\n"
    result = guard(draft)
    assert result.markdown == "- [Graph Neural Networks for Molecules](https://papers.test/abs/2) (2023)\n"
    assert result.removed_fields == ['author "Alice Smith" of "Graph Neural Networks for Molecules"']


def test_et_al_with_a_wrong_first_author_goes_whole() -> None:
    draft = "- [Protein Language Models at Scale](https://papers.test/abs/3) (Hinton et al., 2025)\n"
    result = guard(draft)
    assert result.markdown == "- [Protein Language Models at Scale](https://papers.test/abs/3) (2025)\n"
    assert result.removed_fields == ['author "Hinton" of "Protein Language Models at Scale"']


def test_padding_to_the_requested_count_is_removed_and_the_shortfall_said() -> None:
    draft = """Here are five papers on protein design:

1. **Diffusion Models for Protein Design** — Alice Smith (2024) — https://papers.test/abs/1
2. **Graph Neural Networks for Molecules** — Carol Chen (2023) — https://papers.test/abs/2
3. **Protein Language Models at Scale** — Dan Park (2025) — https://papers.test/abs/3
4. **Folding Proteins with Transformers** — John Doe (2024) — https://arxiv.org/abs/2405.00001
5. **Protein Design in the Wild** — Jane Roe (2023)
"""
    result = guard(draft, requested=5)
    assert (
        result.markdown
        == """Here are five papers on protein design:

1. **Diffusion Models for Protein Design** — Alice Smith (2024) — https://papers.test/abs/1
2. **Graph Neural Networks for Molecules** — Carol Chen (2023) — https://papers.test/abs/2
3. **Protein Language Models at Scale** — Dan Park (2025) — https://papers.test/abs/3

Found 3 of the 5 requested papers.
"""
    )
    assert result.removed_items == ["Folding Proteins with Transformers", "Protein Design in the Wild"]
    assert result.notes == [
        'Removed a paper that is not among the collected papers: "Folding Proteins with Transformers".',
        'Removed a paper that is not among the collected papers: "Protein Design in the Wild".',
        'Added "Found 3 of the 5 requested papers.": fewer papers were found than requested.',
    ]
    assert result.entries_checked == 5


def test_shortfall_sentence_already_there_is_not_added_again() -> None:
    draft = (
        "- [Diffusion Models for Protein Design](https://papers.test/abs/1)\n\nI found 3 of the 5 requested papers.\n"
    )
    result = guard(draft, requested=5)
    assert result.markdown == draft
    assert result.notes == []


def test_no_shortfall_sentence_when_enough_were_found() -> None:
    draft = "- [Diffusion Models for Protein Design](https://papers.test/abs/1)\n"
    assert guard(draft, requested=2).markdown == draft
    assert guard(draft, requested=None).markdown == draft


def test_removed_entry_in_the_middle_renumbers_the_list() -> None:
    draft = """1. [Diffusion Models for Protein Design](https://papers.test/abs/1)

2. [Invented Paper on Folding](https://example.org/fake)

3. [Graph Neural Networks for Molecules](https://papers.test/abs/2)
"""
    result = guard(draft)
    assert (
        result.markdown
        == """1. [Diffusion Models for Protein Design](https://papers.test/abs/1)

2. [Graph Neural Networks for Molecules](https://papers.test/abs/2)
"""
    )


def test_repeated_entry_is_removed() -> None:
    draft = """1. [Diffusion Models for Protein Design](https://papers.test/abs/1)
2. [Graph Neural Networks for Molecules](https://papers.test/abs/2)
3. [Diffusion models for protein design (v2)](https://papers.test/abs/1)
"""
    result = guard(draft)
    assert (
        result.markdown
        == """1. [Diffusion Models for Protein Design](https://papers.test/abs/1)
2. [Graph Neural Networks for Molecules](https://papers.test/abs/2)
"""
    )
    assert result.notes == ['Removed a repeated entry for "Diffusion Models for Protein Design".']


def test_real_title_with_a_wrong_link_is_corrected() -> None:
    draft = """- [Diffusion Models for Protein Design](https://arxiv.org/abs/2401.99999) (2024)
- [Protein Language Models at Scale](https://papers.test/abs/2) (2025)
- **Graph Neural Networks for Molecules** — https://fake.example/gnn
"""
    result = guard(draft)
    assert (
        result.markdown
        == """- [Diffusion Models for Protein Design](https://papers.test/abs/1) (2024)
- [Protein Language Models at Scale](https://papers.test/abs/3) (2025)
- **Graph Neural Networks for Molecules** — https://papers.test/abs/2
"""
    )
    assert result.notes == [
        'Corrected the link of "Diffusion Models for Protein Design" from https://arxiv.org/abs/2401.99999 '
        "to https://papers.test/abs/1.",
        'Corrected the link of "Protein Language Models at Scale" from https://papers.test/abs/2 '
        "to https://papers.test/abs/3.",
        'Corrected the link of "Graph Neural Networks for Molecules" from https://fake.example/gnn '
        "to https://papers.test/abs/2.",
    ]
    assert result.removed_links == [
        "https://arxiv.org/abs/2401.99999",
        "https://papers.test/abs/2",
        "https://fake.example/gnn",
    ]
    assert result.removed_items == []


def test_images_and_links_to_never_fetched_urls_are_removed() -> None:
    draft = """![](http://127.0.0.3/?q=protein+design) Results below.

- [Diffusion Models for Protein Design](https://papers.test/abs/1), see [the code](https://github.com/x/y).

More on the [search page](https://papers.test/list?q=protein&utm_source=x), \
<img src="http://127.0.0.3/p.png"> and <https://evil.example/>. ![logo][l]
<script>fetch("http://127.0.0.3/")</script>

[l]: http://127.0.0.3/logo.png
"""
    result = guard(draft)
    assert (
        result.markdown
        == """Results below.

- [Diffusion Models for Protein Design](https://papers.test/abs/1), see the code.

More on the [search page](https://papers.test/list?q=protein&utm_source=x), and.
"""
    )
    assert result.removed_links == [  # raw HTML goes first, before the guard reads the draft
        "<img>",
        "<script>",
        "http://127.0.0.3/?q=protein+design",
        "https://github.com/x/y",
        "https://evil.example/",
        "http://127.0.0.3/logo.png",
    ]
    assert result.notes == [
        'Removed raw HTML "<img src="http://127.0.0.3/p.png">".',
        'Removed raw HTML "<script>fetch("http://127.0.0.3/")</script>".',
        "Removed an image from http://127.0.0.3/?q=protein+design, which was never fetched.",
        "Removed a link to https://github.com/x/y, which was never fetched (its text is kept).",
        "Removed the URL https://evil.example/, which was never fetched.",
        "Removed a link to http://127.0.0.3/logo.png, which was never fetched (its text is kept).",
    ]
    assert "127.0.0.3" not in result.markdown


def test_table_rows_are_checked_cell_by_cell() -> None:
    draft = """| # | Title | Authors | Date | DOI |
|---|---|---|---|---|
| 1 | [Diffusion Models for Protein Design](https://papers.test/abs/1) | Alice Smith, Mallory Fake | \
2023 | 10.1234/pd.2024.1 |
| 2 | Graph Neural Networks for Molecules | Carol Chen | Nov 2023 | 10.1234/gnn.2023 |
| 3 | Folding at Home Revisited | John Doe | 2022 | |
"""
    result = guard(draft)
    assert (
        result.markdown
        == """| # | Title | Authors | Date | DOI |
|---|---|---|---|---|
| 1 | [Diffusion Models for Protein Design](https://papers.test/abs/1) | Alice Smith | | 10.1234/pd.2024.1 |
| 2 | Graph Neural Networks for Molecules | Carol Chen | Nov 2023 | 10.1234/gnn.2023 |
"""
    )
    assert result.removed_items == ["Folding at Home Revisited"]
    assert result.removed_fields == [
        'date "2023" of "Diffusion Models for Protein Design"',
        'author "Mallory Fake" of "Diffusion Models for Protein Design"',
    ]


def test_heading_sections_are_entries_and_prose_headings_stay() -> None:
    draft = """# Report

## 1. Diffusion Models for Protein Design

**Authors:** Alice Smith, Bob Jones
**Date:** 2022
**Link:** https://papers.test/abs/1

Generates protein backbones.

## 2. Invented Paper About Folding

**Authors:** Some One
**Link:** https://fake.example/paper

## Conclusion

Diffusion is promising.
"""
    result = guard(draft)
    assert (
        result.markdown
        == """# Report

## 1. Diffusion Models for Protein Design

**Authors:** Alice Smith, Bob Jones
**Link:** https://papers.test/abs/1

Generates protein backbones.

## Conclusion

Diffusion is promising.
"""
    )
    assert result.removed_items == ["Invented Paper About Folding"]
    assert result.removed_fields == ['date "2022" of "Diffusion Models for Protein Design"']


def test_paragraph_entries_and_an_invented_paragraph() -> None:
    draft = """Two papers stand out.

**[Diffusion Models for Protein Design](https://papers.test/abs/1)** — Alice Smith, 2024.

**[Neural Origami for Proteins](https://example.org/origami)** — Jane Roe, 2021.

Both are recent.
"""
    result = guard(draft)
    assert (
        result.markdown
        == """Two papers stand out.

**[Diffusion Models for Protein Design](https://papers.test/abs/1)** — Alice Smith, 2024.

Both are recent.
"""
    )
    assert result.removed_items == ["Neural Origami for Proteins"]


def test_non_english_draft_is_checked_the_same_way() -> None:
    draft = """# Ergebnisse

Hier sind die gefundenen Arbeiten:

1. **[Diffusion Models for Protein Design](https://papers.test/abs/1)** — Alice Smith, Bob Jones (Mai 2024). \
Relevant, weil es Proteine entwirft.
2. **[Erfundener Titel über Faltung](https://beispiel.example/1)** — Hans Müller (2023).
3. **[Graph Neural Networks for Molecules](https://papers.test/abs/2)** — Autoren: Carol Chen, Klaus Erfunden \
(März 2021).

Nur zwei von fünf gefunden.
"""
    result = guard(draft, items=[DIFFUSION, GNN], requested=5)
    assert (
        result.markdown
        == """# Ergebnisse

Hier sind die gefundenen Arbeiten:

1. **[Diffusion Models for Protein Design](https://papers.test/abs/1)** — Alice Smith, Bob Jones (Mai 2024). \
Relevant, weil es Proteine entwirft.
2. **[Graph Neural Networks for Molecules](https://papers.test/abs/2)** — Autoren: Carol Chen.

Nur zwei von fünf gefunden.

Found 2 of the 5 requested papers.
"""
    )
    assert result.notes == [
        'Removed a paper that is not among the collected papers: "Erfundener Titel über Faltung".',
        'Removed the date "März 2021" from "Graph Neural Networks for Molecules": its page gives 2023-11.',
        'Removed the author "Klaus Erfunden" from "Graph Neural Networks for Molecules": not an author its page lists.',
        'Added "Found 2 of the 5 requested papers.": fewer papers were found than requested.',
    ]


def test_everything_invented_when_nothing_was_collected() -> None:
    draft = """Here are two papers:

1. [Protein Design Is Solved](https://fake.example/1) — A. Author (2024)
2. [Folding for Everyone](https://fake.example/2) — B. Author (2023)
"""
    result = guard(draft, items=[], requested=2, item_kind="preprint")
    assert result.markdown == "Here are two papers:\n\nFound 0 of the 2 requested preprints.\n"
    assert result.removed_items == ["Protein Design Is Solved", "Folding for Everyone"]
    assert (
        result.notes[0] == 'Removed a preprint that is not among the collected preprints: "Protein Design Is Solved".'
    )
    assert result.supported_share == 0.0


def test_supported_share_counts_entries_and_fields() -> None:
    draft = """1. [Diffusion Models for Protein Design](https://papers.test/abs/1) — Alice Smith (2022)
2. [Made Up Entirely](https://fake.example/x) — Jo Nobody (2020)
"""
    result = guard(draft)
    # entries: 1 real + 1 invented; fields of the real one: link ok, author ok, date wrong
    assert (result.entries_checked, result.fields_checked) == (2, 3)
    assert result.supported_share == pytest.approx(3 / 5)


def test_item_kind_names_the_notes() -> None:
    draft = "- **Imaginary Protein Atlas** — https://fake.example/atlas\n- [Diffusion Models for Protein Design](https://papers.test/abs/1)\n"
    result = guard(draft, item_kind="dataset")
    assert result.notes[0] == 'Removed a dataset that is not among the collected datasets: "Imaginary Protein Atlas".'


def test_prose_bullets_without_entry_signs_stay_in_an_item_list() -> None:
    draft = """- [Diffusion Models for Protein Design](https://papers.test/abs/1)
- Nothing else matched the request.
"""
    assert guard(draft).markdown == draft


def test_crlf_line_endings_are_kept() -> None:
    draft = "- [Diffusion Models for Protein Design](https://papers.test/abs/1) (2021)\r\n- [Fake Paper Title](https://f.example/)\r\n"
    result = guard(draft)
    assert result.markdown == "- [Diffusion Models for Protein Design](https://papers.test/abs/1)\r\n"


def test_empty_draft() -> None:
    result = guard("")
    assert (result.markdown, result.notes, result.supported_share) == ("", [], 1.0)


def test_draft_must_be_text() -> None:
    with pytest.raises(TypeError, match="draft must be a str"):
        guard_report(None, items=[], allowed_urls=[], requested_count=None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Diffusion Models for Protein Design", 0),
        ("diffusion models for protein-design.", 0),  # case and punctuation
        ("Diffusion Model for Protein Design", 0),  # a dropped plural s: ratio 0.99
        ("Difusion Models for Protein Desing", 0),  # two typos: ratio 0.97
        ("Diffusion Models for Drug Design", None),  # a different title sharing most words: 0.87 < 0.9
        ("Diffusion", None),
    ],
)
def test_title_matching_threshold(text: str, expected: int | None) -> None:
    assert TitleMatcher([DIFFUSION.title, PLM.title]).match(text) == expected


def test_heading_that_repeats_a_title_over_a_list_of_items_is_not_an_entry() -> None:
    draft = """# Diffusion Models for Protein Design

- [Diffusion Models for Protein Design](https://papers.test/abs/1) — Alice Smith (2024)
- [Graph Neural Networks for Molecules](https://papers.test/abs/2) — Carol Chen (2023)
"""
    result = guard(draft)
    assert result.markdown == draft
    assert result.entries_checked == 2


def test_link_to_another_items_pdf_is_pointed_at_this_items_pdf() -> None:
    survey = make_item(4, "A Survey of Folding", "https://papers.test/abs/4", pdf_url="https://papers.test/pdf/4.pdf")
    draft = "- [A Survey of Folding](https://papers.test/abs/4) ([PDF](https://papers.test/pdf/1.pdf))\n"
    result = guard(draft, items=[*ITEMS, survey])
    assert (
        result.markdown == "- [A Survey of Folding](https://papers.test/abs/4) ([PDF](https://papers.test/pdf/4.pdf))\n"
    )
    assert result.notes == [
        'Corrected the link of "A Survey of Folding" from https://papers.test/pdf/1.pdf to https://papers.test/pdf/4.pdf.'
    ]


def test_an_invented_looking_heading_never_takes_the_real_entries_under_it() -> None:
    # the Presenter echoed a chat follow-up that names a page never fetched in its heading
    draft = """# Results for: protein design — follow-up: continue on https://elsewhere.test/list

1. [Diffusion Models for Protein Design](https://papers.test/abs/1) — Alice Smith (2024-05-01).
"""
    result = guard(draft)
    assert "[Diffusion Models for Protein Design](https://papers.test/abs/1)" in result.markdown
    assert result.removed_items == ["Results for: protein design — follow-up: continue on https://elsewhere.test/list"]


NAMED_AUTHORS = make_item(
    4,
    "Reading Names Written Every Way",
    "https://papers.test/abs/4",
    authors=["Rosa Petrova", "Jae Lee", "Jean-Luc Picard", "Jan Hendrik van der Berg", "Jun Li", "王小明"],
    date="2024",
)


@pytest.mark.parametrize(
    ("shown", "kept"),
    [
        ("Petrova R", True),  # Vancouver style: the surname before the initials
        ("Petrova K", False),  # the same surname, another person's initial
        ("Lee, J.", True),
        ("Jean-Luc Picard", True),
        ("van der Berg JH", True),  # was removed: "JH" was read as a word of the name the page does not show
        ("Jun LI", True),
        ("王小明", True),
        ("王大明", False),
    ],
)
def test_an_author_is_the_pages_by_the_one_reading_of_names(shown: str, kept: bool) -> None:
    # the guard knows a person however the report writes the name: `pages.person_names.same_person`
    draft = f"- **[Reading Names Written Every Way](https://papers.test/abs/4)**\n  - Authors: Rosa Petrova, {shown}\n"
    result = guard(draft, items=[NAMED_AUTHORS])
    removed = [f'author "{shown}" of "Reading Names Written Every Way"']
    assert result.removed_fields == ([] if kept else removed)
