"""Identity keys: one work is one library item, whatever site, URL version or spelling it comes under."""

from __future__ import annotations

from library_helpers import paper

from research_crawler.library.records import Watch, identity_keys, primary_key


def test_a_doi_comes_first_then_arxiv_then_title_and_author_then_url() -> None:
    item = paper(
        "Graph neural networks for protein design",
        url="https://arxiv.org/abs/2401.01234v3",
        doi="10.1234/ABC.5",
        authors=["Lovelace, Ada"],
    )
    keys = identity_keys(item)
    assert keys[0] == "doi:10.1234/abc.5"
    assert keys[1] == "arxiv:2401.01234"  # the version is not part of the work
    assert keys[2] == "title:graph neural networks for protein design|lovelace"
    assert keys[3].startswith("url:https://arxiv.org/abs/2401.01234v3")
    assert primary_key(item) == "doi:10.1234/abc.5"


def test_the_same_work_on_two_sites_shares_a_title_key() -> None:
    one = paper("Diffusion Models for Protein Design!", url="https://a.example/p/1", authors=["Ada Lovelace"])
    two = paper("diffusion models for protein   design", url="https://b.example/x?id=9", authors=["Lovelace, A."])
    assert primary_key(one) == primary_key(two) == "title:diffusion models for protein design|lovelace"


def test_an_item_without_authors_or_identifiers_is_known_by_its_url() -> None:
    item = paper("A short note", url="https://a.example/note#section", authors=())
    assert identity_keys(item) == ["url:https://a.example/note"]


def test_other_works_do_not_share_keys() -> None:
    one = paper("Diffusion models for protein design", url="https://a.example/1", authors=["Ada Lovelace"])
    two = paper("Diffusion models for protein design", url="https://a.example/2", authors=["Alan Turing"])
    assert not set(identity_keys(one)) & set(identity_keys(two))


def test_a_watch_is_the_same_request_whatever_the_spacing_case_or_site_order() -> None:
    one = Watch.of("Find  papers on GNNs", ["http://b.example/", "http://A.example"])
    two = Watch.of("find papers on gnns", ["http://a.example/", "http://b.example/"])
    assert one.key == two.key
    assert Watch.of("find papers on gnns", ["http://a.example/"]).key != one.key
    assert Watch.of("find papers on transformers", ["http://a.example/", "http://b.example/"]).key != one.key
