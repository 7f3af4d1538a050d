"""What a page presents as its item's writers, on pages of the kinds news sites and blogs are made of: links that
lead to other pages of the site (the next or previous post, a category, a tag) are never writers; a credit line
in the byline's place names its writers as the page writes them, a person or a named group ("By Example Post
Staff", "Example News wire services"); a labelled field in a sidebar of other stories names their writers, not
the item's.

Each page below is written for the test in the shape of a kind of page; none is a copy of a real one.
"""

from __future__ import annotations

from research_crawler.pages.metadata import read_item_metadata

URL = "https://news.example.org/2021/05/04/harbour-seals"
TITLE = "Harbour seals return to the northern estuary"
TEXT = "<p>" + "Counts along the estuary rose for the third spring running, the survey found this week. " * 3 + "</p>"


def _page(header: str, *, after: str = "", aside: str = "") -> str:
    return (
        f"<!doctype html><html><head><title>{TITLE} | Example News</title></head><body>"
        '<nav><a href="/">Home</a> <a href="/world">World</a></nav>'
        f"<main><article><h1>{TITLE}</h1>{header}{TEXT}{after}</article>{aside}</main>"
        "<footer>© 2021 Example News</footer></body></html>"
    )


def _authors(html: str) -> list[str]:
    return [str(name) for name in read_item_metadata(html, url=URL).authors]


def test_links_to_the_previous_and_next_post_are_no_byline() -> None:
    """A blog's post navigation right under the title ("Previous Post", "Next Post") reads like two capitalised
    words; its links say (rel="prev"/"next") they lead to other posts: the byline is the line after them."""
    header = (
        '<p><a href="/2021/04/28/other" rel="prev">Previous Post</a></p>'
        '<p><a href="/2021/05/11/later" rel="next">Next Post</a></p>'
        '<p>May 4, 2021 | by <a href="/author/dana">Dana</a></p>'
    )
    assert _authors(_page(header)) == ["Dana"]


def test_a_category_link_in_the_meta_line_is_no_writer() -> None:
    """The meta line "04/05/2021 Maria Lopez Wildlife, Field Notes": the date, the writer, then the post's
    categories, each a    link the page marks rel="category tag"; the writer is the one the markup calls the author."""
    header = (
        '<p class="meta"><a href="/2021/05/04/">04/05/2021</a> '
        '<a class="author" rel="author" href="/author/maria-lopez/">Maria Lopez</a> '
        '<a href="/category/wildlife/" rel="category tag">Wildlife</a>, '
        '<a href="/category/field-notes/" rel="category tag">Field Notes</a></p>'
    )
    assert _authors(_page(header)) == ["Maria Lopez"]


def test_a_by_label_in_a_sidebar_of_other_stories_names_their_writer_not_the_items() -> None:
    """A sidebar of recent stories labels each one's writer ("By" over "Lee Park"); the story's own byline, a
    staff credit, is what the page shows under its title."""
    aside = (
        '<aside class="sidebar"><h3>Recent stories</h3><h4><a href="/other">Storm closes the coast road</a></h4>'
        "<div>By</div><h3>Lee Park</h3></aside>"
    )
    header = "<p>By Example News Staff | May 4, 2021 at 2:26 PM</p>"
    assert _authors(_page(header, aside=aside)) == ["Example News Staff"]


def test_a_dateline_that_gives_its_update_time_too_still_names_its_writer() -> None:
    """A dateline "By <credit> | <date> at <time> - Updated <date> at <time>": long with its dates, short without
    them."""
    header = (
        "<p>A seal on the sand at dawn, seen from the north shore of the estuary this spring (Photo: Example)</p>"
        "<p>By Example News Staff | May 4, 2021 at 2:26 PM HST - Updated May 4 at 4:46 PM</p>"
    )
    assert _authors(_page(header)) == ["Example News Staff"]


def _under_title(credit: str, date: str = "May 4, 2021") -> list[str]:
    return _authors(_page(f"<p>{credit}</p><p>{date}</p>"))


def test_a_staff_credit_in_capitals_over_the_date_is_the_byline() -> None:
    assert _under_title("By EXAMPLE NEWS STAFF", "MAY 4, 2021 10:43") == ["EXAMPLE NEWS STAFF"]


def test_a_writer_then_the_outlet_the_story_comes_from_over_the_date_is_the_writer() -> None:
    assert _under_title("DANA REED, SEAWATCH", "4 MAY 2021") == ["DANA REED"]


def test_the_sites_own_desk_credited_over_the_date_is_one_named_author() -> None:
    """The credit "Example News wire services" in the byline's place: the site's name, then its desk — one author,
    as written."""
    assert _under_title("Example News wire services", "Published 11:11 PM EST May 4, 2021") == [
        "Example News wire services"
    ]


def test_a_short_subtitle_over_the_date_credits_no_one() -> None:
    assert _under_title("Counts rise again on the coast", "May 4, 2021") == []


def test_a_datelines_byline_of_two_writers_split_by_a_comma_names_both() -> None:
    """A dateline "By A , B on Monday, May 3rd, 2021 at 11:08 a.m.": the names run on past the comma, up to
    "on Monday"."""
    header = (
        '<p>By <a href="/staff/ann">Ann Lee</a> , <a href="/staff/bo">Bo Stone</a> '
        "on Monday, May 3rd, 2021 at 11:08 a.m.</p>"
    )
    assert _authors(_page(header)) == ["Ann Lee", "Bo Stone"]


def test_an_author_field_with_an_email_and_an_info_link_beside_the_name_gives_the_linked_name() -> None:
    """A datasheet's "Author: Jane Roe [email protected] Authors Info & Affiliations": the name is its link,
    the e-mail (hidden by the site's protection) and the panel's link beside it name no one."""
    header = (
        '<p>Author: <a href="/author/roe">Jane Roe</a> <a href="/cdn-cgi/l/email-protection">[email protected]</a>'
        '<a href="#affiliations">Authors Info &amp; Affiliations</a></p><p>Publication: Example Compendium</p>'
    )
    assert _authors(_page(header)) == ["Jane Roe"]


def _with_head(head: str, header: str = "<p>May 4, 2021</p>") -> str:
    return _page(header).replace("</title>", f"</title>{head}", 1)


_JSON_LD = (
    '<script type="application/ld+json">{"@context": "https://schema.org", "@type": "NewsArticle", '
    f'"headline": "{TITLE}", "author": {{"@type": "Person", "name": "Noa Weller"}}}}</script>'
)


def test_a_json_ld_author_the_page_never_shows_is_no_byline() -> None:
    """A press release: the CMS names the account that posted it in JSON-LD; the page shows its title and date and
    names no writer anywhere — a reader sees no byline, so none is read."""
    assert _authors(_with_head(_JSON_LD)) == []


def test_a_json_ld_author_the_page_shows_is_kept() -> None:
    assert _authors(_with_head(_JSON_LD, "<p>By Noa Weller, May 4, 2021</p>")) == ["Noa Weller"]


def test_a_publishers_citation_author_is_believed_though_the_page_does_not_show_it() -> None:
    """Citation tags are written for indexers by a scholarly publisher, whose page may show its authors only by a
    script: they are believed unshown."""
    assert _authors(_with_head('<meta name="citation_author" content="Weller, Noa">')) == ["Weller, Noa"]


def _date(html: str) -> str | None:
    found = read_item_metadata(html, url=URL).date
    return str(found) if found else None


def test_a_json_ld_timestamp_a_day_from_the_date_the_page_shows_gives_way_to_it() -> None:
    """The CMS writes its timestamp in UTC (the next day, late in the evening); the reader sees the local day."""
    stamp = (
        '<script type="application/ld+json">{"@context": "https://schema.org", "@type": "NewsArticle", '
        f'"headline": "{TITLE}", "datePublished": "2021-05-05T02:10:00+00:00"}}</script>'
    )
    assert _date(_with_head(stamp, "<p>By Dana Reed | May 4, 2021</p>")) == "2021-05-04"


def test_a_citation_date_a_day_from_a_shown_date_is_kept() -> None:
    """A publisher's citation date is a day, not a timestamp: a day apart from a shown date is another date."""
    head = '<meta name="citation_publication_date" content="2021/05/05">'
    assert _date(_with_head(head, "<p>By Dana Reed | May 4, 2021</p>")) == "2021-05-05"


def test_the_month_a_title_names_gives_way_to_the_day_its_byline_shows() -> None:
    """ "May 2021 open thread": the title's own month, then the post's dateline with its day."""
    html = _page("<p>May 10, 2021 | by Dana</p>").replace(TITLE, "May 2021 open thread")
    assert _date(html) == "2021-05-10"


def test_the_writer_then_the_outlet_after_a_bar_over_the_date_is_the_writer() -> None:
    assert _under_title("Dana Reed | Harbour Weekly", "Updated 10:42 AM ET, Tue May 4, 2021") == ["Dana Reed"]


def test_the_publishers_organisation_beside_a_person_in_json_ld_authors_is_no_co_writer() -> None:
    authors = '[{"@type": "Person", "name": "Dana Reed"}, {"@type": "Organization", "name": "Example News"}]'
    head = (
        '<script type="application/ld+json">{"@context": "https://schema.org", "@type": "NewsArticle", '
        f'"headline": "{TITLE}", "author": {authors}, '
        '"publisher": {"@type": "Organization", "name": "Example News"}}</script>'
    )
    assert _authors(_with_head(head, "<p>By Dana Reed</p><p>May 4, 2021</p>")) == ["Dana Reed"]


def test_a_readers_comment_under_the_post_names_no_writer_of_it() -> None:
    """A post with no byline, and readers' comments under it ("Lee Park on May 5, 2021 said:"): no writer."""
    comments = (
        '<section id="comments"><h3>3 Comments</h3><p><a href="/u/lp">Lee Park</a> on May 5, 2021 said:</p>'
        "<p>Great piece.</p></section>"
    )
    assert _authors(_page("<p>May 4, 2021</p>", after=comments)) == []


def test_a_line_of_credits_names_the_story_writer_not_the_photographer() -> None:
    assert _under_title("Story by Dana Reed • Photos by Lee Park", "May 4, 2021") == ["Dana Reed"]


def test_posted_on_a_date_by_a_writer_in_a_category_names_the_writer() -> None:
    header = (
        '<p>Posted on May 4, 2021 by <a href="/author/dana">Dana Reed</a> in '
        '<a href="/category/wildlife/" rel="category tag">Wildlife</a></p>'
    )
    assert _authors(_page(header)) == ["Dana Reed"]


def test_an_author_box_that_marks_its_name_gives_the_writer_by_handle_as_written() -> None:
    """A post with no byline over it; the theme's author box under it marks the writer's name (class
    "author-name"), an account's handle of one word: the writer as the page writes them."""
    box = (
        '<footer class="entry-footer"><div class="entry-post-author"><div class="author-name">seal42</div>'
        '<div class="author-desc">We write about the coast.</div></div></footer>'
    )
    assert _authors(_page("<p>May 4, 2021</p>", after=box)) == ["seal42"]


def test_an_interviews_interviewer_is_its_writer() -> None:
    assert _authors(_page("<p>May 4, 2021</p><p>Interview by Dana Reed</p>")) == ["Dana Reed"]
