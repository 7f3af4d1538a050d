"""Dates and titles of kinds of page the blind batches brought: a script-drawn page that writes its work (heading,
byline, date) only in ``<noscript>`` for readers without scripts; a dateline with a two-digit year ("on 11/15/13")
that confirms htmldate's day; a year told as the start of a period ("Member since 2006"), which dates no item; a
month in a caption under the title that a dateline elsewhere gives to the day ("Taken on July 27, 2011"); a date
label and its date with no colon, after a comma ("from Symmetry, released September 14, 2013"); and a record's
heading that names a daily programme's issue by its weekday and day, which is its title whole.

Each page below is written for the test in the shape of a kind of page; none is a copy of a real one.
"""

from __future__ import annotations

from research_crawler.pages.field_labels import label_kind
from research_crawler.pages.item_dates import date_label_in_line, short_year_dates
from research_crawler.pages.metadata import read_item_metadata
from research_crawler.pages.record_headings import without_trailing_date

URL = "https://media.example.com/tracks/harbour-lights"
TITLE = "Harbour Lights (extended mix)"


def _script_drawn(noscript: str) -> str:
    return (
        f"<!doctype html><html><head><title>{TITLE} by Example Band | Example Media</title></head><body>"
        '<div id="app"></div><noscript><div class="error"><p>JavaScript is disabled</p>'
        "<p>You need to enable JavaScript to use Example Media</p></div></noscript>"
        f"<noscript>{noscript}</noscript><script>window.boot()</script></body></html>"
    )


def test_a_script_drawn_page_is_read_as_its_noscript_block_shows_it() -> None:
    """Its heading, byline and date are written only for a browser without scripts: that is what the page shows."""
    article = (
        f'<article><header><h1><a href="/tracks/harbour-lights">{TITLE}</a> by <a href="/band">Example Band</a>'
        "</h1>published on <time pubdate>2015-02-19T09:11:40Z</time></header><p>Genre</p><p>Dance</p></article>"
    )
    item = read_item_metadata(_script_drawn(article), url=URL)
    assert item.date == "2015-02-19"


def test_noscript_blocks_stay_unseen_where_the_page_shows_its_heading() -> None:
    """A page that shows its own heading: its ``<noscript>`` (a pixel's fallback, an old copy) is no part of it."""
    html = (
        f"<html><head><title>{TITLE}</title></head><body><h1>{TITLE}</h1><p>Genre: Dance</p>"
        "<noscript><h1>Old copy</h1><p>published on 2001-05-04</p></noscript></body></html>"
    )
    assert read_item_metadata(html, url=URL).date is None


def test_a_dateline_with_a_two_digit_year_confirms_htmldates_day() -> None:
    """A snippet's page with no date tags: "Posted By … on 11/15/13" is the day htmldate reads off the page."""
    html = (
        "<html><head><title>Better starter template - Example Snippets</title></head><body>"
        "<div><h3>Posted By</h3><p><a href='/users/jdoe'>jdoe</a> on 11/15/13</p><h3>Tagged</h3><p>html</p></div>"
        "<h1>Better starter template</h1><p>A basic starter template I use when I start a new project.</p>"
        "</body></html>"
    )
    assert short_year_dates("jdoe on 11/15/13") == ["2013-11-15"]
    assert short_year_dates("release v1.2.13") == []
    assert read_item_metadata(html, url="https://snippets.example.com/view/72914").date == "2013-11-15"


def test_a_year_told_as_the_start_of_a_period_dates_no_item() -> None:
    """ "Doing strange things to CSS since 2001" under the writer's name near a slide deck's title: a career's start,
    not the deck's date (the page shows none)."""
    html = (
        "<html><head><title>responsive-svg</title></head><body><h1>Responsive SVG</h1><p>Alex Walker</p>"
        "<p>Doing strange things to CSS since 2001</p><h2>Firstly, a trip back</h2></body></html>"
    )
    assert read_item_metadata(html, url="https://slides.example.com/alex/responsive-svg/").date is None


def test_a_month_under_the_title_is_given_to_the_day_a_dateline_writes() -> None:
    """A photo's caption says "July 2011"; its details say "Taken on July 27, 2011", the day htmldate reads (off
    the link to the photos of that day)."""
    html = (
        "<html><head><title>Los Angeles View | Example Photos</title></head><body><h1>Los Angeles View</h1>"
        "<p>The view from the observatory; July 2011</p><p>Panorama stitched</p>"
        "<div class='details'><p>Taken on <a href='/photos/jdoe/archives/date-taken/2011/07/27/'>July 27, 2011</a></p>"
        "<p>3,557 Views</p></div></body></html>"
    )
    assert read_item_metadata(html, url="https://photos.example.com/photos/jdoe/6038315155/").date == "2011-07-27"


def test_a_date_label_and_its_date_after_a_comma_label_the_date() -> None:
    assert date_label_in_line("from Symmetry, released September 14, 2013", label_kind) == (
        "released",
        "September 14, 2013",
    )
    assert date_label_in_line("Jean Jean Jul 2010", label_kind) is None
    assert date_label_in_line("Updated May 3, 2020", label_kind) is None


def test_an_albums_release_line_dates_its_track_over_a_teasers_date() -> None:
    html = (
        f"<html><head><title>{TITLE} | Example Band</title></head><body><h2>{TITLE}</h2>"
        "<h3>from Symmetry by Example Band</h3><p>Buy Digital Track</p>"
        + "".join(f"<p>Format {n}: streaming, download and the booklet, shipped out</p>" for n in range(12))
        + "<h4>credits</h4>"
        "<div>from <a href='/album/symmetry'>Symmetry</a>, released September 14, 2013</div>"
        "<h4>license</h4><p>all rights reserved</p>"
        "<div><a href='/other'>Cauldron by Another Band</a> featured on Example Radio <time datetime='2019-07-29'>"
        "Jul 29, 2019</time></div></body></html>"
    )
    assert read_item_metadata(html, url="https://band.example.com/track/harbour-lights").date == "2013-09-14"


def test_a_day_named_with_its_weekday_stays_in_a_programmes_title() -> None:
    assert without_trailing_date("Democracy Today! Friday, February 20, 2015") == (
        "Democracy Today! Friday, February 20, 2015"
    )
    assert without_trailing_date("Letters of a Mill Manager, 12 March 2024") == "Letters of a Mill Manager"


def test_the_tags_day_written_only_under_teasers_does_not_outweigh_the_dateline() -> None:
    """A review re-dated by a site's move: JSON-LD says 2012-02-29, the dateline under the title says 1 June 2018,
    and 29/02/2012 is written only under the linked headlines of a list of other stories."""
    head = '<script type="application/ld+json">{"@type": "NewsArticle", "datePublished": "2012-02-29"}</script>'
    teasers = "".join(
        f"<div><a href='/news/{n}'>Another story of that week, number {n} of the list</a>"
        f"<p>What that other story said, in a line or two of its own.</p><p>29/02/2012 <a href='/t'>Telecom</a></p>"
        "</div>"
        for n in range(4)
    )
    html = (
        f"<html><head><title>Two graphics cards tested</title>{head}</head><body><h1>Two graphics cards tested</h1>"
        "<p>Jane Roe</p><p>01 juin 2018 à 15h36</p><p>"
        + "A long first paragraph of the review, with enough words to be its running text. " * 3
        + f"</p><h2>Stories of the moment</h2>{teasers}</body></html>"
    )
    assert read_item_metadata(html, url="https://tech.example.com/article-478936.html").date == "2018-06-01"


def test_a_live_page_is_dated_by_the_dateline_under_its_one_main_heading() -> None:
    """A live page's tags title it by its standing name, which it does not show, and date it by its first entry;
    the dateline under its one main heading (today's update) is the date it shows."""
    head = (
        '<script type="application/ld+json">{"@type": "NewsArticle", "headline": "Harbour works: the news as it '
        'comes", "datePublished": "2023-10-07T08:00:00Z"}</script>'
    )
    others = "".join(
        f"<div><h3><a href='/story/{n}'>An earlier story about the works, number {n}</a></h3>"
        f"<p>Jonas Roth 1{n}.12.2023 4 min</p></div>"
        for n in range(3)
    )
    html = (
        f"<html><head><title>Harbour works: the news as it comes</title>{head}</head><body>"
        "<h1>Ships return to the harbour +++ the works end a week early</h1><p>Example Desk 18.07.2024, 11.08 Uhr"
        "</p><p>" + "The newest entries of the live page stand at its top, the older ones below them. " * 3 + "</p>"
        f"<h2>More on the works</h2>{others}</body></html>"
    )
    assert read_item_metadata(html, url="https://news.example.com/harbour-works-live-ld.1759794").date == "2024-07-18"


def test_a_tag_titling_the_group_an_event_stands_in_gives_way_to_the_events_heading() -> None:
    """An event's page: og:title names the group (the <title>'s later part), the event's heading is the <title>'s
    first part; "Hey Folks," over the event's notes is a salutation, no byline."""
    html = (
        "<html><head><title>February Harbour Meet-up - Toronto Harbour Club (Toronto, ON) | Example Events</title>"
        '<meta property="og:title" content="Toronto Harbour Club"></head><body><h1>Toronto Harbour Club</h1>'
        "<nav><a href='/club'>Home</a> <a href='/club/members'>Members</a></nav><h1>February Harbour Meet-up</h1>"
        "<p>Feb 5, 2015 · 6:30 PM</p><p>Hey Folks,</p><p>"
        + "We are trying new venues on for size this year, starting with a bigger room by the water. " * 2
        + "</p></body></html>"
    )
    item = read_item_metadata(html, url="https://events.example.com/Toronto-Harbour-Club/events/219939537/")
    assert item.title == "February Harbour Meet-up"
    assert item.authors == []
    assert item.date == "2015-02-05"


def test_a_year_in_the_items_own_title_is_not_its_date() -> None:
    """A concert video titled with its festival's year, and no date shown (its upload stamp is only in the markup,
    where htmldate finds it): the year names the festival."""
    title = "Example Band - Summer Festival 2013."
    html = (
        f"<html><head><title>{title} - Example Video</title><meta property='og:title' content='{title}'></head>"
        f"<body><div itemscope itemtype='http://schema.org/VideoObject'><meta itemprop='uploadDate' "
        "content='2013-07-30T19:53:26+02:00'></div>"
        f"<h1>{title}</h1><p>By <a href='/festival'>SummerFestival</a></p><p>12,345 views</p>"
        "<footer>© 2005 - 2013 Example Video</footer></body></html>"
    )
    assert read_item_metadata(html, url="https://video.example.com/video/x12h020_summer-festival-2013").date is None


def test_a_blogs_name_over_its_post_keeps_the_posts_tag_title() -> None:
    """The <title> joins the blog's name (its h1, first) and the post's title (the tag's): the tag names the post."""
    html = (
        "<html><head><title>Lost in Space: Rockets and the road to Mars</title>"
        '<meta property="og:title" content="Rockets and the road to Mars"></head><body><h1>Lost in Space</h1>'
        "<h2>Rockets and the road to Mars</h2><p>Posted on October 27, 2011</p><p>"
        + "What the rockets of this decade mean for the long road to Mars, told in some detail. " * 2
        + "</p></body></html>"
    )
    assert read_item_metadata(html, url="https://lost.example.com/2011/10/rockets.html").title == (
        "Rockets and the road to Mars"
    )
