"""A title and the site's name the page's <title> and tags join to it: joined by a bullet ("Post • EXAMPLE.COM",
as forums write it), the site's name is cut as after a bar or a dash; and a blog whose header heading is its own
name, over its post's heading, both parts of the <title> ("<post> - <blog> - <site>"), in a script written without
spaces (Chinese): the longer, the post's, is the title — its length counted by its characters, not its spaces —
and the site's name in the navigation under the blog's name is no subtitle of it.

Each page below is written for the test in the shape of a kind of page; none is a copy of a real one.
"""

from __future__ import annotations

import json

from research_crawler.pages.metadata import read_item_metadata
from research_crawler.pages.written_length import word_length

POST = "<p>" + "Read the rules before you post, and search the board for an answer before you ask again. " * 3 + "</p>"


def test_a_site_name_after_a_bullet_is_not_part_of_the_title() -> None:
    joined = "How To Post Pictures On Example.com • EXAMPLE.COM"
    data = {"@context": "https://schema.org", "@type": "Article", "headline": joined}
    page = (
        f'<html><head><title>{joined}</title><meta property="og:title" content="{joined}">'
        f'<script type="application/ld+json">{json.dumps(data)}</script></head><body>'
        '<header><a href="/">EXAMPLE.COM</a><nav><a href="/forums">Forums</a> <a href="/events">Events</a></nav>'
        '</header><main><article itemscope itemtype="https://schema.org/CreativeWork">'
        f'<h1 itemprop="headline">How to post pictures on example.com</h1>{POST}</article></main></body></html>'
    )
    item = read_item_metadata(page, url="https://example.com/forums/topic/how-to-post-pictures/")
    assert (item.title or "").casefold() == "how to post pictures on example.com"  # the tags' capitals or the heading's


def test_a_blogs_name_heading_over_its_posts_heading_in_an_unspaced_script_is_not_the_title() -> None:
    text = "<p>" + "这篇文章记录了我们在测试环境中部署容器时遇到的问题，以及最后采用的解决办法。" * 3 + "</p>"
    page = (
        "<html><head><title>关于容器部署的一些经验 - 小王笔记 - 示例博客网</title></head><body>"
        '<div id="header"><div id="blogTitle"><h1><a href="https://blogs.example.cn/xiaowang">小王笔记</a></h1></div>'
        '<div id="navigator"><ul><li><a class="menu" href="https://blogs.example.cn/">示例博客网</a></li>'
        '<li><a class="menu" href="https://blogs.example.cn/xiaowang/">首页</a></li></ul></div></div>'
        '<div id="main"><div class="post"><h1 class="postTitle"><a href="https://blogs.example.cn/xiaowang/p/1">'
        f"关于容器部署的一些经验</a></h1>{text}</div></div></body></html>"
    )
    item = read_item_metadata(page, url="https://blogs.example.cn/xiaowang/p/1")
    assert item.title == "关于容器部署的一些经验"


def test_a_run_of_an_unspaced_script_counts_a_word_for_every_two_characters() -> None:
    assert word_length("关于容器部署的一些经验") == 5
    assert word_length("小王笔记") == 2
    assert word_length("How to post pictures") == 4
