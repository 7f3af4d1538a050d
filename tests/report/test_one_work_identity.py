"""One work, one item: a preprint and its journal version merge with both places listed, whatever order they come
in; a DOI names a work only where the titles agree; the merged item is the version of record by one rule; a
"Cite" string or a PDF link met on a work's own page is that work, not a paper of its own."""

from __future__ import annotations

import itertools

from research_crawler.report.identity import merge_same_works, same_work, work_keys
from research_crawler.report.models import FOUND_ON_SOURCE, ReportItem

SITE = "https://s.test/"


def item(n: int, **fields: object) -> ReportItem:
    values: dict[str, object] = {
        "rank": n,
        "title": f"Paper number {n} on graph networks",
        "url": f"{SITE}abs/{n}",
        "site": SITE,
        "found_on": SITE,
        "collector_score": 8,
    }
    values.update(fields)
    return ReportItem.model_validate(values)


PREPRINT = item(
    1,
    url="https://arxiv.org/abs/2401.01234v2",
    authors=["Ana Lee", "Bo Chen"],
    title="Deep Graph Kernels for Sparse Molecules",
    date="2023-11-02",
    metadata_sources={"title": "citation", "authors": "citation", "date": "citation"},
)
JOURNAL = item(
    2,
    url="https://journal.test/article/10.1234/dgk",
    site="https://journal.test/",
    doi="10.1234/dgk",
    authors=["Lee, Ana", "Chen, Bo"],
    title="Deep graph kernels for sparse molecules",
    date="2024-05-01",
    metadata_sources={"title": "citation", "authors": "citation", "date": "citation", "doi": "citation"},
)


def test_a_preprint_and_its_journal_version_are_one_item_listing_both_places() -> None:
    merged = merge_same_works([PREPRINT, JOURNAL, item(3)])
    assert [m.url for m in merged] == [JOURNAL.url, item(3).url] and [m.rank for m in merged] == [1, 2]
    assert merged[0].also_at == [PREPRINT.url] and merged[0].date == "2024-05-01" and merged[0].doi == "10.1234/dgk"
    assert "arxiv:2401.01234" in work_keys(PREPRINT)


def test_the_merged_item_is_the_same_whatever_order_its_copies_come_in() -> None:
    """Two sites claim one DOI: the URL, title and authors come from the version of record, not the first listed."""
    fake_doi_copy = JOURNAL.model_copy(
        update={"url": "https://a-mirror.test/p/9", "site": "https://a-mirror.test/", "authors": ["Someone Else"]}
    )
    results = set()
    for order in itertools.permutations([PREPRINT, JOURNAL, fake_doi_copy]):
        (merged,) = merge_same_works(list(order))
        results.add((merged.url, tuple(merged.authors), merged.title, tuple(sorted(merged.also_at))))
    assert len(results) == 1, results
    (url, authors, _, also_at), *_ = results
    # the publisher's page (its address holds the DOI) over a mirror that only names it; never the preprint
    assert url == JOURNAL.url and authors == ("Lee, Ana", "Chen, Bo") and PREPRINT.url in also_at


def test_the_version_of_record_is_read_from_its_own_page_before_a_listing() -> None:
    listed = JOURNAL.model_copy(update={"metadata_sources": {"date": FOUND_ON_SOURCE}, "authors": []})
    (merged,) = merge_same_works([listed, PREPRINT])
    assert merged.url == PREPRINT.url and merged.authors == ["Ana Lee", "Bo Chen"]
    assert merged.also_at == [JOURNAL.url] and merged.doi == "10.1234/dgk"  # a field it lacks, from the other copy


def test_the_same_title_without_authors_or_identifiers_is_one_work() -> None:
    """A journal page with no metadata tags gives a title and nothing else: its preprint is still the same work."""
    bare = item(5, url="https://journal.test/a/77", title="Deep Graph Kernels for Sparse Molecules.")
    assert same_work(PREPRINT, bare)
    assert not same_work(item(6, title="Deep Graph Kernels", authors=["X Y"]), item(7, title="Deep Graph Kernels"))
    assert not same_work(PREPRINT, bare.model_copy(update={"authors": ["Zoe Quist"]}))  # first authors disagree


def test_one_doi_on_three_pages_of_three_papers_names_none_of_them() -> None:
    pages = [
        item(n, doi="10.5555/shared", title=title)
        for n, title in enumerate(
            [
                "Sulfide Glass Ceramics with Fast Lithium Conduction",
                "Totally Different Fabricated Title About Quantum Gravity",
                "Coral Bleaching Forecasts from Sea Surface Temperature",
            ],
            1,
        )
    ]
    assert len(merge_same_works(pages)) == 3
    numbered = [item(n, doi="10.5555/shared", title=f"Paper number {n} on graph networks") for n in (1, 2)]
    assert len(merge_same_works(numbered)) == 2  # titles that differ by a number are two papers
    retitled = item(9, doi="10.5555/shared", title="Sulfide glass-ceramics with fast lithium-ion conduction")
    assert len(merge_same_works([pages[0], retitled])) == 1  # a journal's small edit: the titles still agree


def test_one_identifier_in_both_addresses_is_one_work_whatever_the_titles() -> None:
    v1 = item(1, url="https://arxiv.org/abs/2401.01234v1", title="Graph kernels")
    v3 = item(2, url="https://arxiv.org/abs/2401.01234v3", title="Deep Graph Kernels for Sparse Molecules")
    assert same_work(v1, v3)


def test_a_cite_string_or_pdf_link_on_a_works_page_is_that_work() -> None:
    record = item(
        1,
        url=f"{SITE}hal-02454105",
        title="Leakage-Robust Lattice Surgery for Quantum LDPC Codes",
        authors=["Xin Benali", "Camille Nakamura"],
        date="2022-10-13",
        metadata_sources={"title": "dublin_core", "authors": "dublin_core", "date": "dublin_core"},
    )
    cite = item(
        2,
        url=f"{SITE}hal-02454105/document",
        found_on=f"{SITE}hal-02454105",
        title="Xin Benali, Camille Nakamura. Leakage-Robust Lattice Surgery for Quantum LDPC Codes. 2022. "
        "⟨hal-02454105⟩",
    )
    merged = merge_same_works([cite, record])
    assert len(merged) == 1 and merged[0].url == record.url and merged[0].also_at == [cite.url]
    assert merged[0].title == record.title and merged[0].date == "2022-10-13"
    # the same words elsewhere are another paper: an extended version listed on a listing page
    extended = cite.model_copy(update={"found_on": SITE, "title": f"{record.title}: Extended Version, 2023"})
    assert len(merge_same_works([record, extended])) == 2
    pdf = item(3, url="https://cdn.test/x.pdf", title="Download PDF")
    assert len(merge_same_works([record.model_copy(update={"pdf_url": "https://cdn.test/x.pdf"}), pdf])) == 1


def test_a_file_found_on_a_works_untagged_page_is_that_work_and_the_page_is_the_record() -> None:
    # an untagged repository record ("Download (PDF) - Accepted Version"): no tag names its PDF, yet the file found
    # on the work's own page is that work's, and the entry is the page with its title, never the link's words
    page = item(
        1,
        url=f"{SITE}id/eprint/40/",
        title="Bloodstream Infection before Culture Results",
        authors=["Liu, Kwame"],
        date="2024-07-20",
        metadata_sources={"title": "page_heading", "authors": "page_field", "date": "page_field"},
    )
    pdf = item(2, url=f"{SITE}id/eprint/40/1/bloodstream.pdf", found_on=page.url, title="Download (PDF) - Accepted")
    for order in ([pdf, page], [page, pdf]):
        (merged,) = merge_same_works(order)
        assert merged.url == page.url and merged.title == page.title and merged.also_at == [pdf.url]
    elsewhere = pdf.model_copy(update={"found_on": f"{SITE}latest/"})  # a file on a listing names no work of its own
    assert len(merge_same_works([page, elsewhere])) == 2


def test_a_works_data_code_or_poster_record_is_that_work_and_never_its_version_of_record() -> None:
    sources = {"title": "citation", "authors": "citation", "date": "citation"}
    paper = item(1, title="Deep Graph Kernels for Sparse Molecules", authors=["Ana Lee"], date="2024-05-03",
                 metadata_sources=sources)  # fmt: skip
    data = item(2, title="Data for: Deep Graph Kernels for Sparse Molecules", authors=["Ana Lee"], date="2024-05-01",
                metadata_sources=sources, url=f"{SITE}abs/2-data")  # fmt: skip
    code = item(3, title="Deep graph kernels for sparse molecules (code)", authors=["Lee, Ana"], url=f"{SITE}abs/3")
    for order in itertools.permutations([data, paper, code]):
        merged = merge_same_works(list(order))
        assert [m.url for m in merged] == [paper.url]
        assert sorted(merged[0].also_at) == sorted([data.url, code.url])
    # another person's work of that title, a numbered part, or words run on without a mark are other works
    assert not same_work(paper, data.model_copy(update={"authors": ["Kim Park"]}))
    assert not same_work(paper, data.model_copy(update={"title": "Part 2: Deep Graph Kernels for Sparse Molecules"}))
    assert not same_work(paper, data.model_copy(update={"title": "Learning Deep Graph Kernels for Sparse Molecules"}))
