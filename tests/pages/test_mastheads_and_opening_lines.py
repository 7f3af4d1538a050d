"""Titles and dates as a reader takes them on kinds of page the reader had missed: a blog's name in a heading that
links home (its masthead) over the post's own heading; a tag that titles the item with the site's name; a footer
past the title's last lines, which is no byline; a word processor's notice with no <title> and no heading; a date
and a reading time set side by side with nothing between; a box of popular stories that lists the item again
under another story's date; a "Created:" stamp; and an essay whose heading is an image over its date.

Each page below is written for the test in the shape of a kind of page; none is a copy of a real one.
"""

from __future__ import annotations

from research_crawler.pages.html_tree import parse_html
from research_crawler.pages.item_dates import dates_in_text
from research_crawler.pages.metadata import read_item_metadata
from research_crawler.pages.page_shows import read_visible_page

URL = "https://blog.example.org/guides/patterns/anti-patterns/"
TITLE = "Anti-patterns: things to avoid"
SENTENCES = "The change is small enough to be reviewed, and the reviewer's time is not wasted on it. " * 3
PARAGRAPH = f"<p>{SENTENCES}</p>"


def test_a_heading_that_links_home_is_the_sites_masthead_not_the_posts_title() -> None:
    page = (
        f"<html><head><title>{TITLE} - Patterns - Jane Roe's Weblog</title>"
        f'<meta property="og:title" content="{TITLE} - Patterns"></head><body>'
        '<div id="top"><h1><a href="/">Jane Roe’s Weblog</a></h1></div>'
        f'<p><a href="/guides/">Guides</a> &gt; <a href="/guides/patterns/">Patterns</a></p><h2>{TITLE}</h2>'
        f"{PARAGRAPH}</body></html>"
    )
    assert read_item_metadata(page, url=URL).title == TITLE


def test_a_heading_that_links_to_the_post_itself_stays_a_title() -> None:
    page = (
        f'<html><head><title>{TITLE} - Weblog</title></head><body><h1><a href="{URL}">{TITLE}</a></h1>'
        f"{PARAGRAPH}</body></html>"
    )
    blocks = read_visible_page(parse_html(page)).blocks
    assert not blocks[0].home and read_item_metadata(page, url=URL).title == TITLE


def test_a_tag_that_titles_the_item_with_the_sites_name_gives_way_to_the_headline() -> None:
    headline = "Ministry extends the emergency measures by a month"
    page = (
        f'<html><head><meta name="dc.title" content="EXNEWS"><meta property="og:title" content="{headline}">'
        f"<title>{headline} - Nation EXNEWS.com</title></head><body><p>EXNEWS</p><h1>{headline}</h1>{PARAGRAPH}"
        "</body></html>"
    )
    assert read_item_metadata(page, url="https://www.exnews.com/news/extended").title == headline


def test_a_footer_past_the_title_is_no_byline_that_makes_a_teaser_the_title() -> None:
    """A story's headline, and under it a list of other stories, the last of which the site's footer follows:
    the footer's names are no byline, and the story's headline stays the title."""
    headline = "Revised climate action guidelines released by the ministry"
    teasers = "".join(
        f"<h2>{text}</h2><p>11/18/2023 09:4{n} PM</p><p>Politics</p>"
        for n, text in enumerate(["Two parties go on negotiating a joint ticket", "Founder of a group dies at 95"])
    )
    page = (
        "<html><head><title></title></head><body>"
        f"<main><h1>{headline}</h1><p>11/17/2023 05:40 PM</p>{PARAGRAPH}{teasers}<p>More</p></main>"
        "<footer><p>Example Focus</p><p>About us</p><p>Jane Roe</p></footer></body></html>"
    )
    item = read_item_metadata(page, url="https://focus.example.tw/")
    assert (item.title, item.date) == (headline, "2023-11-17")


def test_a_notice_with_no_title_or_heading_is_titled_by_its_opening_lines() -> None:
    page = (
        "<html><head></head><body><p><b>CITY OF EXAMPLE</b></p><p><b>NOTICE OF CANCELLATION OF</b></p>"
        "<p><b>CITY COUNCIL MEETING</b></p><p>Please note that the regular meeting scheduled for Tuesday will not "
        "be held. The next meeting will take place as announced.</p><p>City Clerk's Office</p>"
        "<p>January 14, 2016</p></body></html>"
    )
    item = read_item_metadata(page, url="http://services.example.gov/notice/Agenda.htm")
    assert item.title == "CITY OF EXAMPLE NOTICE OF CANCELLATION OF CITY COUNCIL MEETING"


def test_a_page_that_opens_with_running_text_gets_no_title_from_it() -> None:
    page = f"<html><head></head><body>{PARAGRAPH}{PARAGRAPH}</body></html>"
    assert read_item_metadata(page, url="http://example.gov/a.htm").title is None


def test_a_date_and_a_reading_time_set_side_by_side_are_two_values() -> None:
    """The dateline writes "Mar 4, 2026" and "4 mins" in two elements with nothing between: the day it shows
    (not "20264") beats the JSON-LD timestamp of the evening before in another time zone."""
    head = '<script type="application/ld+json">{"@type": "NewsArticle", "datePublished": "2026-03-03T22:26:57-08:00"}'
    page = (
        f"<html><head><title>An ode to craftsmanship | Example World</title>{head}</script></head><body>"
        "<h1>An ode to craftsmanship</h1><div><span>Mar 4, 2026</span><span>4 mins</span></div>"
        f"{PARAGRAPH}</body></html>"
    )
    assert read_visible_page(parse_html(page)).blocks[1].text == "Mar 4, 2026 4 mins"
    assert read_item_metadata(page, url="https://www.example.com/article/1/ode.html").date == "2026-03-04"


def test_the_item_listed_again_among_popular_stories_is_not_dated_by_its_neighbour() -> None:
    title = "The right way to architect modern web applications"
    head = (
        '<script type="application/ld+json">{"@type": "NewsArticle", "datePublished": "2026-02-27T19:58:44", '
        f'"headline": "{title}"}}'
    )
    popular = (
        "<h3>How AI redefines software engineering expertise</h3><p>Feb 23, 2026 7 mins</p><h2>Show me more</h2>"
        f"<p>Popular Articles</p><p>feature</p><h3>{title}</h3><p>By Jane Roe</p><p>Mar 4, 2026 9 mins</p>"
    )
    page = (
        f"<html><head><title>{title} | Example World</title>{head}</script></head><body><h1>{title}</h1>"
        f"<p>feature</p><p>Mar 4, 2026 9 mins</p>{PARAGRAPH * 8}{popular}</body></html>"
    )
    assert read_item_metadata(page, url="https://www.example.com/article/2/web.html").date == "2026-03-04"


def test_a_created_stamp_dates_a_page_that_gives_no_publication_day() -> None:
    page = (
        f"<html><head><title>{TITLE} - Weblog</title></head><body><h2>{TITLE}</h2>{PARAGRAPH * 3}"
        "<p>Created: 4th March 2026<br>Last modified: 4th March 2026<br><a href='changes/'>2 changes</a></p>"
        "</body></html>"
    )
    assert read_item_metadata(page, url=URL).date == "2026-03-04"


def test_an_essay_headed_by_an_image_is_dated_by_the_line_above_its_text() -> None:
    page = (
        "<html><head><title>Maker's Schedule</title></head><body><table><tr><td>"
        '<img src="title.gif" alt="Maker\'s Schedule"><p>July 2009</p>'
        f"{PARAGRAPH}{PARAGRAPH}</td></tr></table></body></html>"
    )
    assert read_item_metadata(page, url="http://www.example.com/makers.html").date == "2009-07"


def test_a_japanese_day_with_its_time_glued_on_is_read() -> None:
    assert dates_in_text("（2011年4月15日12時24分 読売新聞）") == ["2011-04-15"]
    assert dates_in_text("2011年4月号") == []


def test_a_photos_caption_under_the_title_is_no_byline() -> None:
    headline = "Lawmaker urges the emergency measures to go on until August"
    head = (
        '<script type="application/ld+json">{"@type": "NewsArticle", "headline": "' + headline + '", '
        '"author": {"@type": "Person", "name": "Boy"}}</script>'
    )
    page = (
        f"<html><head><title>{headline} - Nation EXNEWS.com</title>{head}</head><body><h1>{headline}</h1>"
        '<div><span>Minggu, 18 Juli 2021 – 18:52 WIB</span></div><img src="photo.jpg" alt="">'
        '<div class="caption">Jane Roe (ANTARA/Facebook/Jane Roe)</div>'
        f"{PARAGRAPH}<p>Redaktur &amp; Reporter : Boy</p></body></html>"
    )
    assert read_item_metadata(page, url="https://www.exnews.com/news/measures").authors == ["Boy"]


def test_a_blogs_motto_over_the_dateline_above_the_title_is_no_other_story() -> None:
    title = "Standard Flavored Markdown"
    page = (
        f"<html><head><title>{title}</title></head><body><header><h1>Example Horror</h1></header>"
        "<h2>programming and human factors</h2><article><span>03 Sep 2014</span>"
        f"<h1>{title}</h1>{PARAGRAPH * 3}<h3>More about {title}</h3></article></body></html>"
    )
    assert read_item_metadata(page, url="https://blog.example.com/standard-flavored-markdown/").date == "2014-09-03"


def test_a_page_streamed_in_hidden_parts_is_read_where_its_placeholders_put_them() -> None:
    """React's streamed rendering sends the page's body hidden (<div hidden id="S:1">) after a placeholder
    (<template id="B:1">) its script fills: a browser shows the body there, title, byline and date."""
    page = (
        "<html><head><title>Simulators — Example Forum</title></head><body><template id='B:1'></template>"
        "<div style='opacity:0.001'>x</div><div hidden id='S:1'><h1>Simulators</h1><p>by janus</p>"
        f"<p><time datetime='2022-09-02T12:45:33Z'>2nd Sep 2022</time></p><template id='P:2'></template></div>"
        f"<div hidden id='S:2'>{PARAGRAPH}</div><div hidden id='S:9'><p>Never placed</p></div></body></html>"
    )
    texts = [block.text for block in read_visible_page(parse_html(page)).blocks]
    assert texts[:3] == ["Simulators", "by janus", "2nd Sep 2022"] and "Never placed" not in texts
    assert read_item_metadata(page, url="https://forum.example.com/posts/1/simulators").date == "2022-09-02"
