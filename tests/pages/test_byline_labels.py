"""Bylines written after a label, in the languages of the page corpus (byline_labels.py): a line of labelled credits
is split at its labels and the writer's label gives the writer ("时间：… 来源：光明日报 作者：南帆 分享到：", "作者：
涅阳城 2020年01月12日", "كتب سيد الخلفاوى"); a reporter's credit by trade before a source's label ("中青网记者 魏其濛
来源：中国青年报"); a wire story's closing credit "(Reporting by A and B; Editing by C)" names its reporters, not its
editor; a box of credits that sets each name over its role ("Penulis", "Editor") names the writer, and a tag's author
the page shows only as an editor wrote nothing.

Each page below is written for the test in the shape of a kind of real page; none is a copy of one.
"""

from __future__ import annotations

import json

from research_crawler.pages.byline_labels import OTHER_LABELS, WRITER_LABELS, writers_labelled
from research_crawler.pages.metadata import read_item_metadata

TEXT = "<p>" + "这是正文的一句话，说了很多事情，也说了别的事情。" * 4 + "</p>"
ENGLISH = "<p>" + "A sentence of the story that goes on for a while to make a paragraph of it. " * 4 + "</p>"


def _page(body: str, *, head: str = "") -> str:
    return f"<!doctype html><html><head><title>Example</title>{head}</head><body>{body}</body></html>"


def _authors(body: str, *, head: str = "", url: str = "https://news.example.cn/a/1.html") -> list[str]:
    return list(read_item_metadata(_page(body, head=head), url=url).authors)


def test_the_labels_are_data_by_language() -> None:
    assert "作者" in WRITER_LABELS["zh"] and "来源" in OTHER_LABELS["zh"]
    assert "penulis" in WRITER_LABELS["id"] and "editor" in OTHER_LABELS["id"]
    assert "كتب" in WRITER_LABELS["ar"]


def test_a_line_of_labelled_fields_gives_the_writers_part() -> None:
    line = "<p>时间：2024.05.11 来源：光明日报 作者：南帆 分享到：</p>"
    assert _authors(f"<h1>短视频与大众文化</h1>{line}{TEXT}") == ["南帆"]


def test_a_pen_name_after_its_label_ends_at_the_date() -> None:
    line = "<p>作者：涅阳城 2020年01月12日18:32 浏览：272 收藏</p>"
    assert _authors(f"<h1>静夜思</h1><p>床前明月光</p>{line}") == ["涅阳城"]


def test_a_reporters_credit_before_the_sources_label() -> None:
    assert _authors(f"<h1>养老专业本科生迎来毕业季</h1>{TEXT}<p>中青报·中青网记者 魏其濛 来源：中国青年报</p>") == [
        "魏其濛"
    ]
    # the source's label alone names no writer
    assert _authors(f"<h1>养老专业本科生迎来毕业季</h1><p>发稿时间：2024-05-13 来源： 中国青年报</p>{TEXT}") == []


def test_an_arabic_byline_after_its_verb() -> None:
    body = f"<h1>وزارة النقل تشغل سيارات كهربائية</h1><p>كتب سيد الخلفاوى</p>{ENGLISH}"
    assert _authors(body, url="https://www.example.com/story/1") == ["سيد الخلفاوى"]


def test_a_wire_storys_closing_credit_names_its_reporters_not_its_editor() -> None:
    credit = "<p>(Reporting by Jane Roe and John Doe; Editing by Max Moe)</p>"
    body = f"<h1>Groups urge government to rethink</h1>{ENGLISH}{credit}"
    assert _authors(body, url="https://www.example.com/news/1") == ["Jane Roe", "John Doe"]
    assert writers_labelled("Photo: Jane Roe / Editing by Max Moe") == []


def test_a_box_of_credits_names_the_writer_over_the_editor_a_tag_gives() -> None:
    tag = {"@context": "https://schema.org", "@type": "NewsArticle", "author": {"@type": "Person", "name": "Ana Lee"}}
    head = f'<script type="application/ld+json">{json.dumps(tag)}</script>'
    box = "<h6>Budi Santoso</h6><h6>Penulis</h6><h6>Ana Lee</h6><h6>Editor</h6>"
    body = f"<h1>Momen Presiden Kunjungi Pasar</h1><p>13/05/2024, 14:04 WIB</p>{box}{ENGLISH}"
    assert _authors(body, head=head, url="https://www.example.co.id/read/1") == ["Budi Santoso"]
    # a tag's author the page shows only as its editor wrote nothing
    body = f"<h1>Momen Presiden Kunjungi Pasar</h1><p>13/05/2024, 14:04 WIB</p>{ENGLISH}<h6>Ana Lee</h6><h6>Editor</h6>"
    assert _authors(body, head=head, url="https://www.example.co.id/read/1") == []


def test_a_threads_first_poster_in_a_user_card_is_its_writer() -> None:
    card = '<div>asked May 19 at 13:08</div><div><a href="/users/1/lezzup">Lezzup</a></div>'
    editor = '<div>edited May 19 at 14:17</div><div><a href="/users/2/rand">Rand Moe</a></div>'
    body = f"<h1>Which digit is 6 or 9?</h1>{ENGLISH}{editor}{card}<h2>4 Answers</h2>{ENGLISH}"
    assert _authors(body, url="https://puzzles.example.com/questions/1/which-digit") == ["Lezzup"]


def test_a_forum_posts_date_over_its_posters_handle() -> None:
    body = f"<h1>Account bonus with top up</h1><div>July 3, 2023</div><div>10:07 am</div><div>pdops</div>{ENGLISH}"
    assert _authors(body, url="https://forum.example.ca/topic/bonus/") == ["pdops"]


def test_a_blogs_posted_at_footer_names_its_handle() -> None:
    footer = '<div>posted @ 2024-05-09 14:45 <a href="/u/hk">好看的hk</a> 阅读(430) 评论(2) <a href="#">编辑</a></div>'
    assert _authors(f"<h1>对于Docker的一点使用经验</h1>{TEXT}{footer}", url="https://blog.example.com/p/1") == [
        "好看的hk"
    ]


def test_a_tags_author_by_the_date_under_the_title_beats_a_row_of_tag_links() -> None:
    tag = {"@context": "https://schema.org", "@type": "NewsArticle", "author": {"@type": "Person", "name": "Yordan"}}
    head = f'<script type="application/ld+json">{json.dumps(tag)}</script>'
    lines = (
        '<p><a href="/a/32">Yordan</a> 22 July 2020</p><p><a href="/t/tcl">TCL</a> <a href="/t/android">Android</a></p>'
    )
    body = f"<h1>TCL introduces a new brand ambassador</h1>{lines}{ENGLISH}"
    assert _authors(body, head=head, url="https://www.example-phones.com/news-1.php") == ["Yordan"]


def test_a_label_left_empty_before_the_editors_label_names_no_writer() -> None:
    # "作者：" with nothing after it, then the editor's label: the editor is no writer, and "责任" no name
    assert writers_labelled("2021-05-06 10:20 来源：示例网 作者：责任编辑：王小明") == []


def test_a_writers_label_set_with_a_full_width_bar_names_the_writer() -> None:
    body = (
        "<h1>月球上的一杯酒</h1><p>2021-05-06 10:20 来源：示例网 作者：责任编辑：王小明</p>"
        + "<p>这是一篇关于太空饮酒的文章，讲述了宇航员在轨道上的生活与规定，以及未来旅行的可能。</p>" * 3
        + "<p>作者︱李明</p><p>[责任编辑:王小明]</p>"
    )
    assert _authors(body) == ["李明"]
