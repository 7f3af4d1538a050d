"""News pages whose web-vocabulary title (Open Graph, JSON-LD) says something other than the heading the page shows:
a social-media rewording, the subtitle, the site's name glued on. What a reader sees wins: the heading the <title>
repeats, or the page's one main heading where the tag is written nowhere but the <title>. A publisher's scholarly
tags are left to the rules for them. Also a <title> whose site name and section follow the headline the page shows, and
ruby annotations (furigana), which are reading aids shown over the text, not part of it.

Each page below is written for the test in the shape of a kind of page; none is a copy of a real one.
"""

from __future__ import annotations

from research_crawler.pages.metadata import read_item_metadata

URL = "https://news.example.com/2010/11/13/story.html"
HEADLINE = "Harbour Dissident Is Freed After Long Detention"
REWORDED = "Junta Frees Harbour Dissident After Seven Years"
TEXT = "<p>" + "The city woke to the news on Saturday, and crowds gathered by the gate of her house. " * 4 + "</p>"


def _page(title: str, head: str, body: str) -> str:
    return f"<!doctype html><html><head><title>{title}</title>{head}</head><body>{body}</body></html>"


def _og(title: str) -> str:
    return f'<meta property="og:title" content="{title}">'


def test_the_one_main_heading_beats_a_social_title_written_only_in_the_tab() -> None:
    body = f"<div class='nav'><a href='/'>Home</a></div><h1>{HEADLINE}</h1><h6>By Jane Doe</h6>{TEXT}"
    found = read_item_metadata(_page(f"{REWORDED} - News", _og(REWORDED), body), url=URL)
    assert found.title == HEADLINE
    assert found.sources["title"] == "page_heading"


def test_the_heading_the_title_element_repeats_beats_a_social_title_shown_elsewhere() -> None:
    body = f"<h1>{HEADLINE}</h1><h6>By Jane Doe</h6>{TEXT}<div class='video'><h1>{REWORDED}</h1></div>"
    found = read_item_metadata(_page(f"{HEADLINE} - News", _og(REWORDED), body), url=URL)
    assert found.title == HEADLINE


def test_the_heading_the_title_element_gives_after_the_sites_name_beats_a_social_title() -> None:
    # "News - Headline: its second half": the <title>'s longest part is no heading, the <title> less the site's is
    headline = "Harbour escape: A dissident's survival tale from the old port"
    body = f"<h1>{headline}</h1><h6>By Jane Doe</h6>{TEXT}<ol><li><a href='/other'>{REWORDED}</a></li></ol>"
    found = read_item_metadata(_page(f"News - {headline}", _og(REWORDED), body), url=URL)
    assert found.title == headline


def test_a_subtitle_given_as_the_social_title_gives_way_to_the_headline() -> None:
    body = f"<h1>{HEADLINE}</h1><h3>Seven years on</h3>{TEXT}"
    found = read_item_metadata(_page(f"{HEADLINE}: Seven years on | News", _og("Seven years on"), body), url=URL)
    assert found.title in (HEADLINE, f"{HEADLINE}: Seven years on")


def test_a_section_heading_does_not_beat_a_social_title() -> None:
    body = f"<h1>Opinion</h1><h2>{REWORDED}</h2>{TEXT}"
    assert read_item_metadata(_page(f"{REWORDED} - News", _og(REWORDED), body), url=URL).title == REWORDED


def test_a_title_elements_site_and_section_are_cut_where_the_page_shows_the_headline() -> None:
    headline = "港特首就住宅违建事件道歉"
    body = f"<div id='blq-main'><h1 class='nav'>{headline}</h1></div>"  # the page's only heading, in its chrome
    page = _page(f"{headline} - 新闻网 - 两岸三地", "", f"<nav>{body}</nav>")
    assert read_item_metadata(page, url=URL).title == headline


def test_furigana_are_no_part_of_the_heading() -> None:
    ruby = "".join(f"<ruby>{kanji}<rt>{reading}</rt></ruby>{kana}" for kanji, reading, kana in _FURIGANA)
    tab = "やさしいニュース|子どもへの体罰を禁止する"
    page = _page(tab, _og(tab), f"<h1>{ruby}</h1>{TEXT}")
    assert read_item_metadata(page, url=URL).title == "子どもへの体罰を禁止する"


_FURIGANA = [("子", "こ", "どもへの"), ("体罰", "たいばつ", "を"), ("禁止", "きんし", "する")]


def test_a_byline_and_its_date_line_glued_by_two_elements_give_the_name_alone() -> None:
    body = (
        f"<h2 class='title'>Harbour</h2><h1 class='subhead'>{HEADLINE}</h1><span class='byline'>By Chad Harbach</span>"
        f"<span class='dateline'>Posted Friday, Nov. 26, 2010, at 7:21 AM ET</span>{TEXT}"
    )
    found = read_item_metadata(_page(f"Harbour: {HEADLINE} - By Chad Harbach - News", "", body), url=URL)
    assert found.authors == ["Chad Harbach"]
