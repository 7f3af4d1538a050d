"""Bylines in the structures article pages use in general, on pages with no author tags: an "Authors" heading or
label over one name a block (with or without a colon, a list or line breaks), the links a byline sets beside each
name ("ORCID", "View profile"), the lines between names ("More about this author", "No Bio Available"), and the
names a page shows beside contradicting or missing tags.

Each page below is written for the test in the shape of a kind of page; none is a copy of a real one.
"""

from __future__ import annotations

import json

import pytest

from research_crawler.pages.bylines import without_furniture
from research_crawler.pages.metadata import read_item_metadata
from research_crawler.pages.person_names import is_person_name, split_people

URL = "https://journal.example.org/article/42"
TITLE = "Tidal variation in an enclosed sea"
TEXT = "<p>" + "We study how the tides of an inner sea change across seasons and what drives them. " * 3 + "</p>"


def _page(body: str, *, head: str = "") -> str:
    return (
        f"<!doctype html><html><head><title>{TITLE} | Example Journal</title>{head}</head><body>"
        f'<nav><a href="/">Home</a> <a href="/about">About</a></nav><main><h1>{TITLE}</h1>{body}{TEXT}</main>'
        "<footer>© 2024 Example Press</footer></body></html>"
    )


def _authors(body: str, *, head: str = "") -> list[str]:
    return [str(name) for name in read_item_metadata(_page(body, head=head), url=URL).authors]


@pytest.mark.parametrize(
    "label",
    ["<h2>Authors</h2>", "<h3>Authors:</h3>", "<p><strong>Authors</strong></p>", '<div class="label">Author(s)</div>'],
)
def test_an_authors_label_over_one_name_a_block_gives_every_name_not_the_first(label: str) -> None:
    listed = f'{label}<ul><li><a href="/p/1">Alice Smith</a></li><li><a href="/p/2">Bob Jones</a></li>'
    listed += '<li><a href="/p/3">Carol White</a></li></ul><h2>Abstract</h2>'
    assert _authors(listed) == ["Alice Smith", "Bob Jones", "Carol White"]


def test_names_set_apart_by_line_breaks_under_a_label_are_all_read() -> None:
    body = '<div><div>Authors</div><div><a href="/a">Alice Smith</a><br><a href="/b">Bob Jones</a></div></div>'
    assert _authors(body) == ["Alice Smith", "Bob Jones"]


def test_an_authors_heading_over_names_with_their_affiliations_gives_the_names() -> None:
    body = "<h2>Authors</h2><ul><li>Alice Smith, University of Oslo</li><li>Bob Jones, University of Bergen</li></ul>"
    assert _authors(body + "<h2>Abstract</h2>") == ["Alice Smith", "Bob Jones"]


def test_a_sidebars_authors_heading_over_the_sites_writers_is_no_label_of_the_items_authors() -> None:
    """A blog's sidebar lists its writers under "Authors": they are the site's, and the post names its own."""
    body = '<p>By <a href="/u/as">Alice Smith</a></p>'
    writers = '<li><a href="/u/dg">Dana Green</a></li><li><a href="/u/eb">Evan Brown</a></li>'
    sidebar = f"<aside><h3>Authors</h3><ul>{writers}</ul></aside>"
    html = _page(body).replace("<footer>", f"{sidebar}<footer>")
    assert read_item_metadata(html, url=URL).authors == ["Alice Smith"]


def test_a_profile_link_beside_each_name_is_not_part_of_it() -> None:
    body = (
        '<div><span>Alice Smith</span> <a href="https://orcid.org/0000-0001">ORCID</a></div>'
        '<div><span>Bob Jones</span> <a href="/profile/2">View profile</a></div>'
    )
    assert _authors(body) == ["Alice Smith", "Bob Jones"]


@pytest.mark.parametrize("between", ["More about this author", "See all articles by this author", "No Bio Available"])
def test_a_line_between_two_names_of_a_byline_does_not_end_it_nor_become_a_name(between: str) -> None:
    body = f'<p><a href="/a">Alice Smith</a></p><p>{between}</p><p><a href="/b">Bob Jones</a></p><p>{between}</p>'
    assert _authors(body) == ["Alice Smith", "Bob Jones"]


def test_the_names_the_page_shows_win_over_tags_in_another_order() -> None:
    head = (
        f'<meta name="citation_title" content="{TITLE}">'
        '<meta name="citation_author" content="Jones, Bob"><meta name="citation_author" content="Smith, Alice">'
    )
    assert _authors('<p><a href="/a">Alice Smith</a>, <a href="/b">Bob Jones</a></p>', head=head) == [
        "Alice Smith",
        "Bob Jones",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "No Bio Available",
        "Cited By",
        "Affiliations",
        "More about this author",
        "Recommended Articles",
        "Innovation Fund",
        "Example Newsroom",
        "Staff Writer",
    ],
)
def test_page_furniture_is_no_persons_name(text: str) -> None:
    assert not is_person_name(text) and split_people(text) == []


def test_without_furniture_keeps_a_block_without_such_links_as_it_is() -> None:
    assert without_furniture("Alice Smith ORCID", ("ORCID",)) == ("Alice Smith", ())
    assert without_furniture("Alice Smith, Bob Jones", ("Alice Smith", "Bob Jones")) == (
        "Alice Smith, Bob Jones",
        ("Alice Smith", "Bob Jones"),
    )


def test_an_author_list_that_marks_each_name_gives_the_names_without_their_affiliations() -> None:
    """A journal system's author list: one item a person, the name and the affiliation in elements of their own,
    no comma between them, under a heading only screen readers see."""
    people = "".join(
        f'<li><span class="name">{name}</span> <span class="affiliation">{place}</span></li>'
        for name, place in (("Alice Smith", "University of Oslo"), ("Bob Jones", "Institute of Marine Research"))
    )
    heading = '<h2 class="pkp_screen_reader">Authors</h2>'
    body = f'<section class="item authors">{heading}<ul class="authors">{people}</ul></section>'
    assert _authors(body) == ["Alice Smith", "Bob Jones"]


@pytest.mark.parametrize(
    "byline",
    [
        "<p>Alice Smith, Bob Jones et al.</p>",
        "<p>Alice Smith, Bob Jones and others</p>",
        '<p><a href="/a">Alice Smith</a>, <a href="/b">Bob Jones</a>, <a href="#all">+3 more</a></p>',
        "<p>Dr. Alice Smith and Prof. Bob Jones</p>",
    ],
)
def test_a_shortened_list_and_forms_of_address_leave_the_names(byline: str) -> None:
    assert _authors(byline) == ["Alice Smith", "Bob Jones"]


def test_an_articles_own_footer_is_read_and_its_related_posts_are_not() -> None:
    """HTML's <footer> belongs to its article: a theme's "This entry was posted …" line there dates and signs the
    post; "Related posts" set in that footer (under headings) name other works' writers."""
    related = '<h4>Related posts</h4><h5><a href="/other">Another post</a></h5><p><a href="/u/dg">Dana Green</a></p>'
    html = (
        f"<!doctype html><html><head><title>{TITLE}</title></head><body><article><h1>{TITLE}</h1>{TEXT}"
        '<footer class="entry-meta">This entry was posted in Tides on <time>August 2, 2019</time> by '
        '<span class="author vcard"><a href="/u/as">Alice Smith</a></span>.</footer>'
        f'<footer class="article-footer">{related}</footer></article></body></html>'
    )
    found = read_item_metadata(html, url=URL)
    assert (found.authors, found.date) == (["Alice Smith"], "2019-08-02")


@pytest.mark.parametrize(
    ("byline", "names"),
    [
        ("Ana Lima1, Rui Costa107 and Eva Rocha12*", ["Ana Lima", "Rui Costa", "Eva Rocha"]),
        ("Ana Lima, Rui Costa and for the TIDES study group", ["Ana Lima", "Rui Costa"]),
        ("Ana Lima; Rui Costa; on behalf of the Harbour Trial investigators", ["Ana Lima", "Rui Costa"]),
    ],
)
def test_glued_affiliation_numbers_and_a_group_written_for_are_no_part_of_the_names(
    byline: str, names: list[str]
) -> None:
    assert split_people(byline) == names


@pytest.mark.parametrize("template", ["$author.firstName $author.lastName", "{{ author.name }}", "${name}"])
def test_an_author_tag_the_site_left_as_an_unfilled_template_is_no_author(template: str) -> None:
    head = (
        f'<meta name="citation_title" content="{TITLE}"><meta name="citation_author" content="Ana Lima">'
        f'<meta name="citation_author" content="Rui Costa"><meta name="citation_author" content="{template}">'
    )
    assert _authors("<p>Ana Lima, Rui Costa</p>", head=head) == ["Ana Lima", "Rui Costa"]


@pytest.mark.parametrize(
    ("box", "writer"),
    [
        ('<h4>About the author</h4><p><a href="/u/jd">Jane Doe</a> is a writer on oceans and tides.</p>', "Jane Doe"),
        ("<h3>About The Author</h3><p>Jane</p>", "Jane"),
        ('<div class="box"><p>Über die Autorin</p><p><a href="/u/jd">Jane Doe</a></p></div>', "Jane Doe"),
    ],
)
def test_an_author_box_under_the_article_names_its_writer_where_nothing_above_does(box: str, writer: str) -> None:
    assert _authors(f"<p>3 March 2021</p>{TEXT}{box}") == [writer]


def test_an_author_box_does_not_overrule_the_byline_under_the_title() -> None:
    box = '<h4>About the author</h4><p><a href="/u/dg">Dana Green</a> edits the blog.</p>'
    assert _authors(f"<p>By Alice Smith</p>{TEXT}{box}") == ["Alice Smith"]


def test_a_bio_sentence_without_a_name_leading_it_names_no_one() -> None:
    box = "<h4>About the author</h4><p>She writes on oceans and tides for several magazines.</p>"
    assert _authors(f"<p>3 March 2021</p>{TEXT}{box}") == []


def test_a_json_ld_author_given_by_reference_to_a_node_of_the_graph_is_that_persons_name() -> None:
    graph = (
        '{"@context": "https://schema.org", "@graph": [{"@type": "WebSite", "@id": "/#site", "name": "Example"},'
        f' {{"@type": "BlogPosting", "headline": "{TITLE}", "author": {{"@id": "/#/schema/person/1"}}}},'
        ' {"@type": "Person", "@id": "/#/schema/person/1", "name": "Alice Smith"}]}'
    )
    head = f'<script type="application/ld+json">{graph}</script>'
    # (the page shows its writer: a general web vocabulary's author no one sees on the page is no byline)
    found = read_item_metadata(_page("<p>By Alice Smith</p>", head=head), url=URL)
    assert (found.authors, found.sources["authors"]) == (["Alice Smith"], "json_ld")


@pytest.mark.parametrize(
    ("byline", "names"),
    [
        ("<p>By Alice Smith, Staff Writer</p>", ["Alice Smith"]),
        ("<p>Alice Smith, Senior Correspondent</p><p>March 3, 2021</p>", ["Alice Smith"]),
        ("<p>Alice Smith · Bob Jones · Carol White</p>", ["Alice Smith", "Bob Jones", "Carol White"]),
        ("<p>Story by Alice Smith</p><p>Photos by Bob Jones</p>", ["Alice Smith"]),
    ],
)
def test_a_writers_role_a_middle_dot_and_a_credit_word_before_by_are_read(byline: str, names: list[str]) -> None:
    assert _authors(byline) == names


def test_a_surname_that_is_also_a_word_of_rank_stays_a_name() -> None:
    assert split_people("Senior, Andrew W.; Jones, Bob") == ["Senior, Andrew W.", "Jones, Bob"]


@pytest.mark.parametrize(
    ("byline", "names"),
    [
        ("<p>By Jane Doe and John Roe, Reuters</p><p>March 3, 2021</p>", ["Jane Doe", "John Roe"]),
        ("<p>By Jane Doe, The Example Post</p>", ["Jane Doe"]),
        ("<p>BY JANE DOE, EXAMPLE PRESS</p>", ["JANE DOE"]),
        ("<p>Jane Doe @janedoe</p><p>March 3, 2021</p>", ["Jane Doe"]),
    ],
)
def test_a_credit_line_that_ends_with_the_publication_or_a_handle_gives_the_writers(
    byline: str, names: list[str]
) -> None:
    assert _authors(byline) == names


def test_a_sentence_that_begins_with_by_is_no_credit_line() -> None:
    assert _authors("<p>By clicking Subscribe, you agree</p>") == []


@pytest.mark.parametrize(
    "state",
    [
        '{"props": {"pageProps": {"article": {"headline": "%s", "byline": {"authors": '
        '[{"displayName": "Alice Smith"}, {"displayName": "Bob Jones"}]}}}}}',
        '{"post": {"title": "%s", "authors": {"edges": [{"node": {"name": "Alice Smith"}}, '
        '{"node": {"name": "Bob Jones"}}]}}}',
    ],
)
def test_authors_a_page_state_object_wraps_are_read(state: str) -> None:
    script = f'<script id="__NEXT_DATA__" type="application/json">{state % TITLE}</script>'
    found = read_item_metadata(_page("", head=script), url=URL)
    assert (found.authors, found.sources["authors"]) == (["Alice Smith", "Bob Jones"], "script_json")


def test_a_bare_author_string_in_a_page_state_object_is_no_author() -> None:
    """Teasers and menus write "author": "…" beside a title too; an author list or a person object is needed."""
    state = json.dumps({"teaser": {"title": TITLE, "author": "Alice Smith"}})
    script = f'<script type="application/json">{state}</script>'
    assert read_item_metadata(_page("", head=script), url=URL).authors == []
