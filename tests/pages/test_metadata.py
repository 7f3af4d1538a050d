"""Item metadata is read from the page's own tags: checked on the real saved pages of shared/realweb."""

from __future__ import annotations

import html
import json
import re
from urllib.parse import urljoin

import lxml.html
import pytest
import realweb
from hypothesis import given, settings
from hypothesis import strategies as st

from research_crawler.context.urls import canonicalize_url
from research_crawler.pages.metadata import ItemMetadata, normalise_date, normalise_doi, read_item_metadata

REALWEB = realweb.REALWEB


MANIFEST = realweb.manifest()
ROWS = {row["file"]: row for row in MANIFEST}
needs_realweb = realweb.needs_realweb
WITH_TAGS = [row["file"] for row in MANIFEST if "yes" in (row["has_citation_meta"], row["has_jsonld"])]
DATE_TAGS = ("citation_date", "citation_publication_date", "citation_cover_date", "citation_online_date")


def _page(name: str) -> tuple[str, str]:
    """The page's text (as a fetcher would decode it) and the URL it was saved from."""
    text = (REALWEB / "pages" / name).read_bytes().decode("utf-8", errors="replace")
    url = ROWS[name]["original_url"].split()[0].rstrip(",")
    return text, url if url.startswith("http") else f"https://{ROWS[name]['site']}.example.org/"


def _tree(text: str) -> lxml.html.HtmlElement:
    return lxml.html.document_fromstring(text.encode("utf-8"), parser=lxml.html.HTMLParser(encoding="utf-8"))


def _norm(value: str) -> str:
    """The same text whatever its escaping, markup or spacing."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", value)).split())


def _tag_values(tree: lxml.html.HtmlElement, name: str) -> list[str]:
    values = []
    for meta in tree.xpath("//meta[@name]"):
        if meta.get("name").strip().lower() == name:
            value = meta.get("content", meta.get("value")) or ""
            if _norm(value):
                values.append(_norm(value))
    return values


def _json_ld_headline(tree: lxml.html.HtmlElement) -> str | None:
    for script in tree.xpath('//script[@type="application/ld+json"]/text()'):
        stack = [json.loads(script)]
        while stack:
            node = stack.pop(0)
            if isinstance(node, list):
                stack.extend(node)
            elif isinstance(node, dict):
                if isinstance(node.get("headline") or node.get("name"), str) and node.get("@type") != "WebPage":
                    return _norm(node.get("headline") or node["name"])
                stack.extend(v for k, v in node.items() if k in ("@graph", "mainEntity"))
    return None


def _without_meta_tags(text: str) -> str:
    tree = _tree(text)
    for meta in tree.xpath("//meta"):
        meta.getparent().remove(meta)
    return lxml.html.tostring(tree, encoding="unicode")


# ---------------------------------------------------------------------------------------------- every page


@needs_realweb
def test_the_manifest_lists_pages_with_tags() -> None:
    assert len(WITH_TAGS) >= 30


@needs_realweb
@pytest.mark.parametrize("name", WITH_TAGS)
def test_title_authors_date_match_the_pages_own_tags(name: str) -> None:
    text, url = _page(name)
    tree = _tree(text)
    found = read_item_metadata(text, url=url)

    titles = _tag_values(tree, "citation_title")
    expected_title = titles[0] if titles else _json_ld_headline(tree)
    assert expected_title, "the manifest says this page carries tags"
    assert found.title == expected_title
    assert found.sources["title"] == ("citation" if titles else "json_ld")

    authors = _tag_values(tree, "citation_author")
    if authors:
        assert found.authors == authors
        assert found.sources["authors"] == "citation"

    raw_date = next((v for tag in DATE_TAGS for v in _tag_values(tree, tag)), None)
    if raw_date:
        assert found.date is not None and re.fullmatch(r"\d{4}(-\d{2}(-\d{2})?)?", found.date), found.date
        raw_numbers = {int(n) for n in re.findall(r"\d+", raw_date)}
        assert raw_numbers <= {int(n) for n in found.date.split("-")}, (raw_date, found.date)

    dois = _tag_values(tree, "citation_doi")
    if dois:
        assert found.doi == dois[0]
    pdfs = _tag_values(tree, "citation_pdf_url")
    if pdfs:
        assert found.pdf_url == canonicalize_url(urljoin(url, pdfs[0]))
    assert set(found.sources) == {
        f for f in ("title", "authors", "date", "abstract", "doi", "pdf_url") if getattr(found, f)
    }


# ------------------------------------------------------------------------------------------ specific pages


@needs_realweb
def test_arxiv_uses_citation_date_and_has_no_doi() -> None:
    text, url = _page("arxiv__abstract__1.html")
    found = read_item_metadata(text, url=url)
    assert found.title == "Attention Is All You Need"
    assert found.date == "2017-06-12"  # citation_date, not citation_online_date (2023/08/02)
    assert found.doi is None and "doi" not in found.sources  # never made up from the arXiv id
    assert found.authors[:2] == ["Vaswani, Ashish", "Shazeer, Noam"] and len(found.authors) == 8
    assert found.pdf_url == "https://arxiv.org/pdf/1706.03762"
    assert found.abstract is not None and found.abstract.startswith("The dominant sequence transduction models")


@needs_realweb
def test_biorxiv_prefers_the_posting_date_to_the_year_placeholder() -> None:
    text, url = _page("biorxiv__article__1.html")
    found = read_item_metadata(text, url=url)
    assert found.date == "2020-03-27"  # citation_date; citation_publication_date says 2020/01/01
    assert found.abstract is not None and found.abstract.startswith("An outbreak of the novel coronavirus")
    assert "<" not in found.abstract and "ABSTRACT" not in found.abstract  # the HTML heading is gone


@needs_realweb
def test_elife_is_read_from_dublin_core_tags() -> None:
    text, url = _page("elife__article__1.html")
    tree = _tree(text)
    found = read_item_metadata(text, url=url)
    assert found.title == "Parallel visual circuitry in a basal chordate"
    assert found.doi == "10.7554/eLife.44753"  # dc.identifier "doi:10.7554/eLife.44753"
    assert found.date == "2019-04-18"
    assert found.authors == _tag_values(tree, "dc.contributor")
    assert found.authors[0] == "Matthew J Kourakis" and len(found.authors) == 7
    assert {found.sources[f] for f in ("title", "authors", "date", "doi")} == {"dublin_core"}
    # eLife's plain <meta name="description"> is not Dublin Core, although extruct files it as such.
    assert found.abstract is None and "abstract" not in found.sources


@needs_realweb
def test_json_ld_webpage_main_entity_when_no_meta_tags() -> None:
    text, url = _page("nature__article__1.html")
    script = _tree(text).xpath('//script[@type="application/ld+json"]/text()')[0]
    article = json.loads(script)["mainEntity"]
    found = read_item_metadata(_without_meta_tags(text), url=url)
    assert found.title == article["headline"] == "Highly accurate protein structure prediction with AlphaFold"
    assert found.authors == [author["name"] for author in article["author"]]
    assert found.date == "2021-07-15"  # datePublished 2021-07-15T00:00:00Z
    assert found.doi == "10.1038/s41586-021-03819-2"  # from sameAs https://doi.org/…
    assert found.abstract is not None and found.abstract.startswith("Proteins are essential to life")
    assert {found.sources[f] for f in ("title", "authors", "date", "doi", "abstract")} == {"json_ld"}


@needs_realweb
def test_json_ld_graph_with_nested_list() -> None:
    text, url = _page("semanticscholar__article__1.html")
    found = read_item_metadata(_without_meta_tags(text), url=url)
    assert found.title is not None and found.title.startswith("Where the Crosswalk Ends")
    assert found.authors == ["Marcel E. Moran"]
    assert found.date == "2022-04-04"  # "4 April 2022"
    assert found.doi == "10.1177/23998083221081530"
    assert found.sources["title"] == "json_ld"


@needs_realweb
def test_ieee_metadata_held_in_the_page_state_script_is_read() -> None:
    """IEEE Xplore's page renders its article from a JSON object in a script: no tag holds the authors."""
    text, url = _page("ieee__article__1.html")
    found = read_item_metadata(text, url=url)
    assert not _tag_values(_tree(text), "citation_author")
    assert found.authors == ["Panayotis Mertikopoulos", "Aris L. Moustakas"]
    assert all(f'"name":"{name}"' in text for name in found.authors)
    assert f'"title":"{found.title}"' in text and found.title in _norm(_tree(text).xpath("string(//title)"))
    assert found.date is not None and found.date.startswith("2013")
    assert {found.sources[f] for f in ("title", "authors", "date")} == {"script_json"}
    assert not found.notes, "the <title> a browser shows agrees with the script's title"


@needs_realweb
def test_listing_pages_have_no_item_fields() -> None:
    text, url = _page("arxiv__listing__2.html")
    found = read_item_metadata(text, url=url)
    assert set(found.sources) == {"title"} and found.sources["title"] == "html_title"


# ----------------------------------------------------------------------------------------- synthetic pages


def _doc(head: str, body: str = "") -> str:
    return f"<!doctype html><html><head>{head}</head><body>{body}</body></html>"


def _ld(data: object) -> str:
    return f'<script type="application/ld+json">{json.dumps(data)}</script>'


def test_priority_citation_over_dublin_core_over_json_ld_over_opengraph_over_title() -> None:
    ld = _ld({"@type": "ScholarlyArticle", "headline": "LD", "author": "L A"})
    layers = [
        ('<meta name="citation_title" content="Citation">', "citation", "Citation"),
        ('<meta name="DC.Title" content="Dublin">', "dublin_core", "Dublin"),
        (ld, "json_ld", "LD"),
        ('<meta property="og:title" content="Open Graph">', "opengraph", "Open Graph"),
        ("<title>Page title</title>", "html_title", "Page title"),
    ]
    for start in range(len(layers)):
        page = _doc("".join(tag for tag, _, _ in layers[start:]))
        found = read_item_metadata(page, url="https://example.org/a")
        assert (found.title, found.sources["title"]) == (layers[start][2], layers[start][1])


def test_dublin_core_prefix_is_case_insensitive_and_dcterms_counts() -> None:
    page = _doc(
        '<meta name="DC.TITLE" content="Upper"><meta name="dcterms.creator" content="Ann Author">'
        '<meta name="DCTERMS.issued" content="2001-02-03"><meta name="dc.identifier" content="https://doi.org/10.1234/X.Y">'
    )
    found = read_item_metadata(page, url="https://example.org/")
    assert (found.title, found.authors, found.date, found.doi) == (
        "Upper",
        ["Ann Author"],
        "2001-02-03",
        "10.1234/X.Y",
    )


def test_json_ld_author_forms() -> None:
    authors = [
        "Plain Name",
        {"@type": "Person", "name": " Named  Person "},
        {"givenName": "Given", "familyName": "Family"},
        7,
    ]
    page = _doc(_ld([{"@type": "Article", "name": "T", "author": authors}]))
    found = read_item_metadata(page, url="https://example.org/")
    assert found.authors == ["Plain Name", "Named Person", "Given Family"]
    single = _doc(_ld({"@type": "CreativeWork", "name": "T", "author": {"name": "Solo"}}))
    assert read_item_metadata(single, url="https://example.org/").authors == ["Solo"]


def test_broken_json_ld_block_does_not_hide_a_good_one() -> None:
    page = _doc(
        '<script type="application/ld+json">{"@type": "Article", "headline": </script>'
        '<script type="application/ld+json">{"@type":"ScholarlyArticle","headline":"Good one"}</script>'
    )
    found = read_item_metadata(page, url="https://example.org/")
    assert (found.title, found.sources["title"]) == ("Good one", "json_ld")


def test_non_article_json_ld_is_ignored() -> None:
    page = _doc(
        '<script type="application/ld+json">{"@type":"Organization","name":"ACME"}</script>'
        '<script type="application/ld+json">{"@type":"ScholarlyArticle","headline":"H","citation":'
        '[{"@type":"ScholarlyArticle","headline":"A cited paper"}]}</script>'
    )
    assert read_item_metadata(page, url="https://example.org/").title == "H"


@pytest.mark.parametrize(
    ("head", "url", "expected"),
    [
        ('<base href="/files/">', "https://example.org/a/b", "https://example.org/files/paper.pdf"),
        (  # as in a browser: a canonical link names the preferred address, relative URLs resolve where the page is
            '<link rel="canonical" href="https://mirror.example.net/x/y">',
            "https://example.org/a/b",
            "https://example.org/a/paper.pdf",
        ),
        (  # a saved page, its address unknown: the canonical link is the best guess of where it was
            '<link rel="canonical" href="https://mirror.example.net/x/y">',
            "file:///tmp/saved.html",
            "https://mirror.example.net/x/paper.pdf",
        ),
        ("", "https://example.org/a/b", "https://example.org/a/paper.pdf"),
    ],
)
def test_relative_pdf_url_is_resolved(head: str, url: str, expected: str) -> None:
    page = _doc(f'{head}<meta name="citation_pdf_url" content="paper.pdf">')
    assert read_item_metadata(page, url=url).pdf_url == expected


def test_pdf_url_that_is_not_http_is_dropped() -> None:
    page = _doc('<meta name="citation_pdf_url" content="javascript:alert(1)">')
    assert read_item_metadata(page, url="https://example.org/").pdf_url is None


def test_entities_markup_and_whitespace_are_stripped() -> None:
    page = _doc(
        '<meta name="citation_title" content=" Growth of &lt;i&gt;E.&#160;coli&lt;/i&gt; '
        '&amp;amp; friends \n">'
        '<meta name="citation_author" content=" Doe,\tJane "><meta name="citation_author" content="  ">'
        '<meta name="citation_abstract" content="&lt;h2&gt;Abstract&lt;/h2&gt;'
        '&lt;p&gt;First.&lt;/p&gt;&lt;p&gt;Second.&lt;/p&gt;">'
    )
    found = read_item_metadata(page, url="https://example.org/")
    assert found.title == "Growth of E. coli & friends"
    assert found.authors == ["Doe, Jane"]
    assert found.abstract == "First. Second."


def test_older_citation_authors_tag_is_split() -> None:
    page = _doc('<meta name="citation_authors" content="Ann One; Bob Two;">')
    assert read_item_metadata(page, url="https://example.org/").authors == ["Ann One", "Bob Two"]


def test_meta_value_attribute_is_read_when_content_is_missing() -> None:
    page = '<html><head><meta value="Minified title"name=citation_title></head></html>'
    assert read_item_metadata(page, url="https://example.org/").title == "Minified title"


@pytest.mark.parametrize(
    "junk",
    [
        "",
        "   \n",
        "\x00\x01\x02\xff\xfe binary junk \x00",
        bytes(range(256)).decode("latin-1"),
        "<<<>>>",
        '<?xml version="1.0" encoding="iso-8859-1"?><html></html>',
        '<html><script type="application/ld+json">{"@type": "Article", "headline": [</script></html>',
        _ld([[[[[[[[[[[[[[[[[[[[{"@type": "Article", "headline": "too deep"}]]]]]]]]]]]]]]]]]]]]),
        '<meta name="citation_title"><meta name="citation_date" content="">',
    ],
)
def test_junk_gives_empty_metadata(junk: str) -> None:
    found = read_item_metadata(junk, url="https://example.org/")
    assert found == ItemMetadata()
    assert found.is_empty


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("<>/=\"' ametcitonl_{}[]:,ds-&;#x0123\x00\n")) | st.characters()))
def test_arbitrary_text_never_raises(text: str) -> None:
    assert isinstance(read_item_metadata(text, url="https://example.org/"), ItemMetadata)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("2017/06/12", "2017-06-12"),
        ("2021/6", "2021-06"),
        ("1955", "1955"),
        ("2014-07-29T00:00:00Z", "2014-07-29"),
        ("Dec 20, 2006", "2006-12-20"),
        ("2012 Nov 26", "2012-11-26"),
        ("4 April 2022", "2022-04-04"),
        ("Sept. 3, 2001", "2001-09-03"),
        ("April 2022", "2022-04"),
        ("2020/13/01", "2020/13/01"),
        ("Spring 2020", "Spring 2020"),
        ("  2010-05-05 ", "2010-05-05"),
    ],
)
def test_normalise_date(raw: str, expected: str) -> None:
    assert normalise_date(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("10.1038/s41586-021-03819-2", "10.1038/s41586-021-03819-2"),
        ("doi:10.7554/eLife.44753", "10.7554/eLife.44753"),
        ("DOI: 10.1000/ABC", "10.1000/ABC"),
        ("https://doi.org/10.1177/23998083221081530", "10.1177/23998083221081530"),
        ("http://dx.doi.org/10.1000/xyz", "10.1000/xyz"),
        ("https://hal.science/jpa-00235190", None),
        ("arXiv:1706.03762", None),
        ("10274", None),
    ],
)
def test_normalise_doi(raw: str, expected: str | None) -> None:
    assert normalise_doi(raw) == expected
