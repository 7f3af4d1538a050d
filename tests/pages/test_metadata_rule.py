"""The metadata rule: a page's tags are believed where the page shows them; where they say what it does not show
and it shows something else, what it shows wins and the item says so; without tags, what the page shows is read.

Each page below is written for the test in the shape of a kind of real page (the corpus's pages are read by
benchmarks/page_understanding.py); none is a copy of one.
"""

from __future__ import annotations

from research_crawler.pages.metadata import read_item_metadata

URL = "https://journal.example.org/articles/42"


def _page(head: str = "", body: str = "", *, title: str = "") -> str:
    return f"<!doctype html><html><head><title>{title}</title>{head}</head><body>{body}</body></html>"


def _meta(name: str, content: str) -> str:
    return f'<meta name="{name}" content="{content}">'


def test_hidden_tags_that_contradict_the_page_lose_and_the_item_says_so() -> None:
    head = (
        _meta("citation_title", "Totally Different Fabricated Title About Quantum Gravity")
        + _meta("citation_author", "Fabricated Author")
        + _meta("citation_publication_date", "1999/01/01")
    )
    body = "<h1>Coral Bleaching Forecasts</h1><p>Ana Lee and Bo Chen</p><p>Published: 30 January 2017</p>"
    found = read_item_metadata(_page(head, body, title="Coral Bleaching Forecasts | Example"), url=URL)
    assert (found.title, found.authors, found.date) == (
        "Coral Bleaching Forecasts",
        ["Ana Lee", "Bo Chen"],
        "2017-01-30",
    )
    assert found.sources == {"title": "page_heading", "authors": "page_byline", "date": "page_field"}
    assert "Fabricated" in found.notes["title"] and set(found.notes) == {"title", "authors", "date"}


def test_tags_the_page_shows_are_believed() -> None:
    head = _meta("citation_title", "Coral Bleaching Forecasts") + _meta("citation_author", "Lee, Ana")
    head += _meta("citation_author", "Chen, Bo") + _meta("citation_publication_date", "2017/01/30")
    body = "<h1>Coral Bleaching Forecasts</h1><p>Ana Lee and Bo Chen</p><p>30 January 2017</p>"
    found = read_item_metadata(_page(head, body), url=URL)
    assert (found.title, found.authors, found.date) == (
        "Coral Bleaching Forecasts",
        ["Lee, Ana", "Chen, Bo"],
        "2017-01-30",
    )
    assert set(found.sources.values()) == {"citation"} and not found.notes


def test_a_tag_kept_when_the_page_shows_no_title_says_it_is_not_shown() -> None:
    found = read_item_metadata(_page(_meta("citation_title", "Only In A Tag"), "<p>x</p>"), url=URL)
    assert found.title == "Only In A Tag" and found.sources["title"] == "citation"
    assert found.notes == {"title": "the citation title is not shown on the page"}


def test_the_title_element_s_site_name_is_not_part_of_the_title() -> None:
    body = "<h1>The STAR experiment</h1><h1>Two-particle Correlations of Identified Particles</h1>"
    body += "<p>Author: Prabhat Bhattarai</p>"
    found = read_item_metadata(
        _page(body=body, title="Two-particle Correlations of Identified Particles | The STAR experiment"), url=URL
    )
    assert found.title == "Two-particle Correlations of Identified Particles" and found.authors == ["Prabhat Bhattarai"]


def test_a_generic_title_element_gives_way_to_the_title_above_a_byline() -> None:
    body = (
        "<div>Journal Article</div><div>Nonlinear Dynamics, Volume 9, Numbers 1-2 / February, 1996</div>"
        "<div>On the use of linear graph theory in multibody system dynamics</div><div>J. J. McPhee1</div>"
        "<div>Systems Design Engineering, University of Waterloo</div><div>Abstract Multibody dynamics …</div>"
    )
    found = read_item_metadata(_page(body=body, title="SpringerLink - Journal Article"), url=URL)
    assert found.title == "On the use of linear graph theory in multibody system dynamics"
    assert found.authors == ["J. J. McPhee"] and found.date == "1996-02"


def test_a_journal_name_joined_to_a_tag_title_is_cut() -> None:
    head = _meta("dc.title", "Many-Body Localization: Annual Review of Physics")
    head += _meta("citation_journal_title", "Annual Review of Physics")
    body = (
        "<h1>Many-Body Localization</h1><div>Annual Review of Physics</div><p>Rahul Nandkishore and David A. Huse</p>"
    )
    found = read_item_metadata(_page(head, body), url=URL)
    assert found.title == "Many-Body Localization"


def test_a_subtitle_joins_the_title_only_where_the_title_element_writes_them_together() -> None:
    body = "<h1>The Effect of Vaccination</h1><div>An Observational Study</div>"
    body += "<p>Michael L. Anderson, PhD, and Ann Bee</p>"
    joined = read_item_metadata(
        _page(body=body, title="The Effect of Vaccination: An Observational Study: Annals"), url=URL
    )
    assert joined.title == "The Effect of Vaccination: An Observational Study"
    apart = read_item_metadata(_page(body=body, title="The Effect of Vaccination | An Observational Study"), url=URL)
    assert apart.title == "The Effect of Vaccination"


def test_one_author_tag_holding_the_whole_list_is_split() -> None:
    head = _meta("citation_title", "Soil Moisture") + _meta("citation_author", "MOGHADDAM, M.;CHEN, R.H.;DUAN, X.")
    found = read_item_metadata(_page(head, "<h1>Soil Moisture</h1>"), url=URL)
    assert found.authors == ["MOGHADDAM, M.", "CHEN, R.H.", "DUAN, X."]


def test_the_page_s_order_of_authors_wins_over_its_tags_order() -> None:
    head = (
        _meta("citation_title", "Order Matters")
        + _meta("citation_author", "Bo Chen")
        + _meta("citation_author", "Ana Lee")
    )
    found = read_item_metadata(_page(head, "<h1>Order Matters</h1><p>Ana Lee, Bo Chen</p>"), url=URL)
    assert found.authors == ["Ana Lee", "Bo Chen"] and "order" in found.notes["authors"]


def test_a_repository_record_s_labelled_fields_are_read_and_its_advisor_is_not_an_author() -> None:
    rows = [
        ("dc.contributor.advisor", "Jeffrey C. Grossman"),
        ("dc.contributor.author", "Tomasik, Michelle Ruth"),
        ("dc.date.accessioned", "2015-10-14T15:03:22Z"),
        ("dc.date.issued", "2015"),
        ("dc.title", "Theoretical investigation of energy alignment"),
    ]
    table = "<table>" + "".join(f"<tr><td>{k}</td><td>{v}</td><td>en_US</td></tr>" for k, v in rows) + "</table>"
    found = read_item_metadata(_page(body=table, title="DSpace@MIT: full item record"), url=URL)
    assert (found.title, found.authors, found.date) == (
        "Theoretical investigation of energy alignment",
        ["Tomasik, Michelle Ruth"],
        "2015",
    )
    assert set(found.sources.values()) == {"page_field"}


def test_a_catalogue_record_drops_the_statement_of_responsibility_and_the_catalogue_s_own_dates() -> None:
    body = (
        "<p>Aufnahmedatum: 03.09.2019</p><table><tr><th>Titel</th><td>Harry Potter and the philosopher's stone / "
        "J. K. Rowling</td></tr><tr><th>Verfasser</th><td>Rowling, Joanne K.</td></tr>"
        "<tr><th>erschienen</th><td>London : Bloomsbury, 2014</td></tr></table>"
    )
    found = read_item_metadata(_page(body=body, title="MSB-Katalog"), url=URL)
    assert (found.title, found.authors, found.date) == (
        "Harry Potter and the philosopher's stone",
        ["Rowling, Joanne K."],
        "2014",
    )


def test_dates_of_other_events_than_publication_are_not_the_item_s_date() -> None:
    body = (
        "<h1>Two-particle Correlations at STAR</h1>"
        "<p>Updated on Mon, 2016-07-11 15:26. Originally created on 2016-07-11.</p>"
        "<p>Author : Prabhat Bhattarai</p><p>Date</p><p>:</p><p>May. 13, 2016</p>"
    )
    assert read_item_metadata(_page(body=body), url=URL).date == "2016-05-13"


def test_a_year_in_the_citation_line_under_the_title_is_the_date() -> None:
    body = "<h2>Novel pneumatic features in sauropod ribs</h2><p>Michael P. Taylor and Mathew J. Wedel</p>"
    body += "<p>Acta Palaeontologica Polonica 68 (4), 2023: 709-718</p><p>References: Owen, R. 1841. Odontography.</p>"
    found = read_item_metadata(_page(body=body, title="Novel pneumatic features in sauropod ribs - Acta"), url=URL)
    assert found.date == "2023" and found.authors == ["Michael P. Taylor", "Mathew J. Wedel"]


def test_a_tag_date_the_page_shows_more_precisely_is_read_as_shown() -> None:
    head = _meta("citation_title", "DRESS Syndrome") + _meta("citation_publication_date", "2017/01")
    found = read_item_metadata(_page(head, "<p>Published: 30 January 2017</p><h1>DRESS Syndrome</h1>"), url=URL)
    assert found.date == "2017-01-30" and found.sources["date"] == "page_field"


def test_the_page_state_json_a_script_renders_from_is_read() -> None:
    state = (
        '{"title":"Computing the alpha-channel for colorization","authors":[{"name":"Oscar Dalmau"},'
        '{"firstName":"Mariano","lastName":"Rivera"}],"publicationDate":"Oct. 2007","related":[]}'
    )
    html = _page(
        f"<script>var page = {{}}; xpl.document.metadata={state};</script>",
        "<div id=app></div>",
        title="Computing the alpha-channel for colorization - Conference Publication",
    )
    found = read_item_metadata(html, url=URL)
    assert (found.title, found.authors, found.date) == (
        "Computing the alpha-channel for colorization",
        ["Oscar Dalmau", "Mariano Rivera"],
        "2007-10",
    )
    assert set(found.sources.values()) == {"script_json"} and not found.notes


def test_a_listing_s_repeated_title_labels_are_no_item_s_title() -> None:
    entries = "".join(
        f"<dl><dt>Title:</dt><dd>Paper {n} on graphs</dd><dt>Authors:</dt><dd>Ann Bee, Cee Dee</dd></dl>"
        for n in range(3)
    )
    found = read_item_metadata(_page(body=entries, title="Computer Science: recent listings"), url=URL)
    assert found.title == "Computer Science: recent listings" and found.authors == []


def test_what_a_script_writes_with_document_write_is_read_as_the_browser_shows_it() -> None:
    script = (
        "<script>document.write('<table><tr><td>Haupttitel:</td><td>Kletterf\\u00fchrer Band 2</td></tr>');"
        "document.write('<tr><td>Autor:</td><td>Schwertner, Sebastian</td></tr>"
        "<tr><td>Erscheinungsjahr:</td><td>2018</td></tr></table>');</script>"
    )
    found = read_item_metadata(_page(body=script, title="WebOPAC"), url=URL)
    assert found.authors == ["Schwertner, Sebastian"] and found.date == "2018"


def test_contributors_marked_with_an_author_s_role_are_the_authors_and_the_others_are_not() -> None:
    body = (
        "<h1>The Electrostatic Field-Effect in Nanopores</h1><h3>Contributors</h3>"
        "<p>Jiang, Zhijun (creator)</p><p>Stein, Derek (Director)</p><p>Valles, James (Reader)</p>"
        "<p>Copyright Date</p><p>01-01-2011</p>"
    )
    found = read_item_metadata(_page(body=body, title="Repository | Item"), url=URL)
    assert found.authors == ["Jiang, Zhijun"] and found.sources["authors"] == "page_field"


def test_a_title_written_with_and_or_an_ampersand_is_one_title() -> None:
    body = "<p>Full text …</p><p>Surveillance, stigma &amp; sociotechnical design for HIV</p>"
    body += "<p>by Calvin Liang, Jevan Alexander Hutson, and Os Keyes.</p>"
    body += "<p>First Monday, Volume 25, Number 10 - 5 October 2020</p>"
    found = read_item_metadata(
        _page(body=body, title="Surveillance, stigma and sociotechnical design for HIV"), url=URL
    )
    assert found.title == "Surveillance, stigma & sociotechnical design for HIV"
    assert found.authors == ["Calvin Liang", "Jevan Alexander Hutson", "Os Keyes"] and found.date == "2020-10-05"


def test_a_title_with_its_byline_under_a_citation_line_beats_related_articles_listed_before_it() -> None:
    # A saved page body without <head>: other items' titles and bylines come first, the page's own heading has
    # its journal reference and DOI between it and its byline.
    related = "".join(
        f'<div><a href="/doi/10.1/{n}">{title}</a><div>{names}</div></div>'
        for n, (title, names) in enumerate(
            [
                (
                    "Configuration interaction study of the excited states of small oxide ring structures",
                    "Ann Lee and Bo Chen",
                ),
                ("Silver as an electron source for the photodissociation of hydronium", "Bo Chen and Cy Diaz"),
            ]
        )
    )
    body = (
        related + "<h1>Excitonic states in a nanotube</h1>"
        "<div>J. Chem. Phys. 138, 054312 (2013);</div><div>https://doi.org/10.1063/1.4789815</div>"
        "<div>Dana Evans and Eli Fox</div><p>Published Online: 07 February 2013</p>"
    )
    found = read_item_metadata(f"<html><body>{body}</body></html>", url=URL)
    assert found.title == "Excitonic states in a nanotube"
    assert found.authors == ["Dana Evans", "Eli Fox"]


def test_a_journal_citation_line_is_no_title() -> None:
    body = (
        "<h1>Total reflection mirrors for free electron lasers</h1>"
        "<div>Appl. Phys. Lett. 84, 657 (2004); https://doi.org/10.1063/1.1645320</div>"
        "<div>B. Steeg, L. Juha, and J. Feldhaus</div>"
    )
    found = read_item_metadata(f"<html><body>{body}</body></html>", url=URL)
    assert found.title == "Total reflection mirrors for free electron lasers"
    assert found.authors == ["B. Steeg", "L. Juha", "J. Feldhaus"]


def test_a_byline_whose_names_alternate_with_addresses_is_read_whole() -> None:
    people = [("A. Berg", "Notkestrasse 85, 22603 Hamburg, Germany"), ("C. Dahl", "University of Oslo, Norway")]
    others = ["E. Falk", "G. Hahn", "I. Jung", "K. Lang", "M. Nagel", "O. Pohl"]
    people += [(name, f"Lab {n}, Hauptstrasse {n}, 1010{n} Wien, Austria") for n, name in enumerate(others)]
    byline = "".join(f"<div>{name}</div><div>{address}</div>" for name, address in people)
    body = f"<h1>Total reflection mirrors for free electron lasers</h1>{byline}<p>Abstract</p>"
    found = read_item_metadata(f"<html><body>{body}</body></html>", url=URL)
    assert found.authors is not None and len(found.authors) == 8
    assert found.authors[:2] == ["A. Berg", "C. Dahl"] and found.authors[-1] == "O. Pohl"


def test_a_byline_of_linked_names_with_only_spaces_between_them_is_read_name_by_name() -> None:
    names = ["Zukeran, A.", "Looy, P.C.", "Chakrabarti, A.", "Jen-Shih Chang"]
    byline = "&nbsp;&nbsp;".join(f'<a href="/search?au={n}">{n}</a>' for n in names)
    body = f"<div>Collection efficiency of ultrafine particles under pulse operating modes</div><div>{byline}</div>"
    body += "<div>Dept. of Electr. Eng., Musashi Inst. of Technol.;</div><div>Publication Date: Sep/Oct 1999</div>"
    found = read_item_metadata(_page(body=body, title="Xplore: Collection efficiency of ultrafine particles"), url=URL)
    assert found.authors == names and found.date == "1999"
    mixed = body.replace("&nbsp;&nbsp;", " with thanks to ", 1)  # words between the links: no linked byline
    assert read_item_metadata(_page(body=mixed), url=URL).authors != names


def test_names_the_markup_marks_in_a_reference_list_are_not_the_item_s_authors() -> None:
    head = _meta("citation_title", "Potential energy curve of Cr2")
    body = "<h1>Potential energy curve of Cr2</h1><p>Alexander O. Mitrushenkov a, Paolo Palmieri b</p>"
    references = '<div class="paginatedReferences"><h2>References</h2><ul>'
    references += "".join(f'<li><span class="author">{n}</span> et al.</li>' for n in ("V.E. Bondybey", "A.D. McLean"))
    found = read_item_metadata(_page(head, body + references + "</ul></div>"), url=URL)
    assert found.authors == ["Alexander O. Mitrushenkov", "Paolo Palmieri"]
    unread = read_item_metadata(_page(head, "<h1>Potential energy curve of Cr2</h1>" + references), url=URL)
    assert unread.authors == []


def test_a_tag_s_first_of_the_month_the_page_never_shows_gives_way_to_the_day_it_labels_as_published() -> None:
    head = _meta("citation_title", "Fatigue of welded joints") + _meta("citation_publication_date", "2016/06/01")
    body = "<h1>Fatigue of welded joints</h1><p>Volume 45, Issue 6, June 2016</p>"
    body += "<p>First published: 10 November 2015</p>"
    found = read_item_metadata(_page(head, body), url=URL)
    assert found.date == "2015-11-10" and found.sources["date"] == "page_field" and "2016-06-01" in found.notes["date"]
    shown = body.replace("June 2016", "1 June 2016")  # the page shows the tag's day too: the tag stands
    assert read_item_metadata(_page(head, shown), url=URL).date == "2016-06-01"


def test_a_layout_wrapper_whose_class_mentions_a_sidebar_is_no_chrome_and_a_corporate_byline_is_read() -> None:
    article = (
        '<article><h1>Now Available: Our 2023 Annual Report</h1><p class="entry-meta">March 12, 2024 By '
        '<span class="entry-author"><a href="/author/orcid/" rel="author">ORCID</a></span></p>'
        "<p>We are pleased to invite you to explore the report.</p></article>"
    )
    html = (
        '<html><head><title>Now Available: Our 2023 Annual Report</title></head><body class="mega-menu-primary">'
        f'<nav class="site-nav"><a href="/">Home</a></nav><div class="content-sidebar-wrap">{article}'
        '<aside class="sidebar"><a href="/x">Other post</a></aside></div></body></html>'
    )
    found = read_item_metadata(html, url=URL)
    assert found.title == "Now Available: Our 2023 Annual Report" and found.authors == ["ORCID"]
    assert found.date == "2024-03-12"


def test_a_tag_title_with_the_site_s_name_is_read_as_the_page_shows_it_and_the_date_in_its_heading_is_read() -> None:
    head = '<meta property="og:title" content="Forschungsprojekt legt Grundstein für Datenschutz - BMBF">'
    heading = (
        '<h1><span>Forschungsprojekt legt Grundstein für Datenschutz</span><span class="aural">: </span>'
        '<small><span class="aural">Datum:</span> <time datetime="2022-01-26">26.01.2022</time> '
        "<span>Pressemitteilung: 6/2022</span></small></h1><p>Heute ist der Kick-off des Projekts.</p>"
    )
    found = read_item_metadata(
        _page(head, heading, title="Forschungsprojekt legt Grundstein für Datenschutz - BMBF"), url=URL
    )
    assert found.title == "Forschungsprojekt legt Grundstein für Datenschutz" and found.date == "2022-01-26"


def test_an_article_whose_theme_calls_its_column_a_sidebar_is_read_and_its_byline_and_day_found() -> None:
    article = (
        '<div id="sidebar" class="site-content content-area"><article><header><h1>The First Decade</h1>'
        '<span class="author vcard"><a class="url fn" href="/a/">Maximilian Steinbeis</a></span>'
        "<p>Sa 13 Jul 2019</p></header><p>Ten years have passed since 2009.</p></article></div>"
    )
    found = read_item_metadata(_page(body=article, title="The First Decade | Verfassungsblog"), url=URL)
    assert found.authors == ["Maximilian Steinbeis"] and found.date == "2019-07-13"


def test_a_title_shown_twice_then_a_byline_heading_gives_the_page_s_order_over_the_tags() -> None:
    names = ["Zhou Zhao", "Zhu Zhang", "Shuwen Xiao"]
    head = _meta("citation_title", "Long-form Video Question Answering") + "".join(
        _meta("citation_author", name) for name in reversed(names)
    )
    body = "<h1>Long-form Video Question Answering</h1><h1></h1><p>Long-form Video Question Answering</p>"
    body += f"<h2>{', '.join(names)}</h2><p>Proceedings of the Twenty-Seventh IJCAI</p>"
    assert read_item_metadata(_page(head, body), url=URL).authors == names


def test_a_tag_author_cut_short_or_naming_the_site_gives_way_to_the_byline_the_page_shows() -> None:
    head = '<script type="application/ld+json">{"@type": "NewsArticle", "headline": "New Robot Samples Blood",'
    head += ' "author": {"@type": "Person", "name": "Todd"}}</script>'
    body = "<h1>New Robot Samples Blood</h1><p>By</p><p>Todd Bates</p><p>February 5, 2020</p>"
    assert read_item_metadata(_page(head, body), url=URL).authors == ["Todd Bates"]
    site = head.replace('"Person", "name": "Todd"', '"Organization", "name": "Helmholtz Klima"')
    above = "<p>22.11.2022</p><h5>Christian Mihatsch</h5><h1>New Robot Samples Blood</h1><p>The results are in.</p>"
    found = read_item_metadata(
        _page(site, above, title="New Robot Samples Blood | Helmholtz-Klima-Initiative"), url=URL
    )
    assert found.authors == ["Christian Mihatsch"] and found.date == "2022-11-22"


def test_a_later_label_giving_the_first_labelled_date_more_precisely_is_the_date() -> None:
    body = "<h1>Diversity and Inclusion Metrics</h1><p>Margaret Mitchell, Dylan Baker</p>"
    body += "<p>Publication: AIES '20: Proceedings of the Conference, 2020</p><p>Published: 7 February 2020</p>"
    assert read_item_metadata(_page(body=body), url=URL).date == "2020-02-07"


def test_a_labelled_author_list_separated_by_semicolons_is_read_whole() -> None:
    # a repository record: "Authors: Surname, Given; …" on one line, and a deposit date after the publication date
    body = (
        "<h1>Cold-Season Respiration as Permafrost Thaws</h1><p>Authors: Kaur, Jamal; Fernández, Lucía; Okafor, Ada"
        "</p><h2>Abstract</h2><p>Winter fluxes.</p><table><tr><th>Publication date:</th><td>3rd March 2024</td></tr>"
        "<tr><th>Date deposited:</th><td>12th June 2024</td></tr></table>"
    )
    found = read_item_metadata(
        _page(body=body, title="Cold-Season Respiration as Permafrost Thaws - Repository"), url=URL
    )
    assert found.authors == ["Kaur, Jamal", "Fernández, Lucía", "Okafor, Ada"]
    assert found.date == "2024-03-03"


def test_a_label_naming_the_year_or_date_of_an_event_is_a_date_unless_the_event_is_another_than_publication() -> None:
    # a thesis record: "Year of completion", a defence day, a release day; the full text locked until a later day
    # written first, above the record (an embargo's end is no publication date)
    body = (
        "<h1>Salt Marsh Accretion under Rising Seas</h1><p>Full text: thesis.pdf (locked until 05.05.2025)</p>"
        "<table><tr><th>Author:</th><td>Okafor, Ada</td></tr><tr><th>Date of last update:</th><td>01.02.2026</td></tr>"
        "<tr><th>Year of completion:</th><td>2023</td></tr>"
        "<tr><th>Tag der mündlichen Prüfung:</th><td>12.04.2023</td></tr></table>"
    )
    found = read_item_metadata(_page(body=body, title="Salt Marsh Accretion under Rising Seas"), url=URL)
    assert found.date == "2023-04-12" and found.sources["date"] == "page_field"
    # no label at all: the locked-until day is still no publication date
    bare = "<h1>Salt Marsh Accretion under Rising Seas</h1><p>Okafor, Ada</p><p>Embargoed until 5 May 2025</p>"
    assert read_item_metadata(_page(body=bare), url=URL).date is None


def test_an_other_event_s_date_label_is_not_the_publication_date() -> None:
    from research_crawler.pages.field_labels import label_kind

    assert label_kind("Jahr der Fertigstellung:") == "date"
    assert label_kind("Date de mise en ligne") == "date"
    assert label_kind("Date of birth") == "other"
    assert label_kind("Datum der letzten Änderung:") == "other"


def test_a_date_line_after_the_byline_ends_it_and_its_venue_is_no_author() -> None:
    # a group's article page: the byline (its last name a link to a profile), then "date · venue" in a line of its own
    body = (
        "<h1>Storm Surge Records on Barrier Islands</h1><p>Sofia Weber, Diego Moreno, <a href='/people/ines-novak/'>"
        "Ines Novak</a></p><p>Oct 5, 2025 · <em>Marine Geology Reports</em></p><h2>Abstract</h2><p>Surges.</p>"
    )
    found = read_item_metadata(_page(body=body, title="Storm Surge Records on Barrier Islands | Group"), url=URL)
    assert found.authors == ["Sofia Weber", "Diego Moreno", "Ines Novak"] and found.date == "2025-10-05"


def test_tags_that_write_each_author_surname_first_without_a_comma_are_read_as_the_page_shows_them() -> None:
    # an index of working papers: its tags write "Rahman Laura", the page lists "Laura Rahman"; two authors who
    # share a surname side by side ("Amélie Fischer", "Lucía Fischer") show one tag's order by chance
    head = "".join(
        _meta("citation_author", name) for name in ("Rahman Laura", "Fischer Amélie", "Fischer Lucía", "Asante Wei")
    ) + _meta("citation_title", "Money from Abroad and Child Labour")
    body = (
        "<h1>Money from Abroad and Child Labour</h1><h3>Author</h3><ul><li>Listed:<ul><li>Laura Rahman</li>"
        "<li>Amélie Fischer</li><li>Lucía Fischer</li><li>Wei Asante</li></ul></li></ul>"
        "<p>Laura Rahman &amp; Amélie Fischer &amp; Lucía Fischer &amp; Wei Asante, 2024. "
        '"Money from Abroad and Child Labour," Working Papers 2024-01.</p><p>Date: 2024-12-05</p>'
    )
    found = read_item_metadata(_page(head, body, title="Money from Abroad and Child Labour | Index"), url=URL)
    assert found.authors == ["Laura Rahman", "Amélie Fischer", "Lucía Fischer", "Wei Asante"]
    assert "surname first" in found.notes["authors"]


def test_tags_the_page_shows_as_written_are_not_turned_round() -> None:
    # names written family name first on the page too ("Wang Wei") stay as the tags and the page write them
    head = _meta("citation_author", "Wang Wei") + _meta("citation_author", "Li Na")
    body = "<h1>Rice Yields in Hunan</h1><p>Wang Wei, Li Na</p><p>A note on Li Na Wang and others.</p>"
    found = read_item_metadata(_page(head, body, title="Rice Yields in Hunan"), url=URL)
    assert found.authors == ["Wang Wei", "Li Na"]
