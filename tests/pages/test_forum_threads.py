"""A forum or Q&A thread's writer is its starter: the one who opened the thread, as the thread's own schema.org
object (a DiscussionForumPosting, a QAPage's Question) names them, with the day the first post was written."""

from __future__ import annotations

import json
from typing import Any

from research_crawler.pages.metadata import read_item_metadata


def _thread(data: dict[str, Any], body: str) -> str:
    return (
        f'<html><head><title>Cheap weeknight dinners | Example Talk</title><script type="application/ld+json">'
        f"{json.dumps(data)}</script></head><body><nav><a href='/'>Example Talk</a></nav><main>{body}</main>"
        "</body></html>"
    )


_POSTS = (
    "<h1>Cheap weeknight dinners</h1><p>Discussion in 'Food' started by a member, 3 replies</p>"
    "<table><tr><td><a href='/members/longshot.7/'>longshot</a><div>Registered user</div><div>Posts: 12</div></td>"
    "<td><div>Mar 3, 2026 #1</div><p>I need to cut our food bill: which cheap meals do you make?</p></td></tr>"
    "<tr><td><a href='/members/pasta_fan.9/'>pasta_fan</a><div>Registered user</div><div>Posts: 40</div></td>"
    "<td><div>Mar 3, 2026 #2</div><p>Lentil soup, baked potatoes, a big pot of chilli.</p></td></tr></table>"
)


def test_a_forum_posting_names_the_threads_starter_and_its_first_day() -> None:
    data = {
        "@context": "https://schema.org",
        "@type": "WebPage",
        "mainEntity": {
            "@type": "DiscussionForumPosting",
            "headline": "Cheap weeknight dinners",
            "datePublished": "2026-03-03T19:44:46+00:00",
            "author": {"@type": "Person", "name": "longshot"},
        },
    }
    meta = read_item_metadata(_thread(data, _POSTS), url="https://talk.example.org/threads/cheap-dinners.5/")
    assert meta.authors == ["longshot"]
    assert meta.date == "2026-03-03"


def test_a_qa_pages_question_names_its_asker() -> None:
    data = {
        "@context": "https://schema.org",
        "@type": "QAPage",
        "name": "Cheap weeknight dinners",
        "mainEntity": {
            "@type": "Question",
            "name": "Cheap weeknight dinners",
            "datePublished": "2026-03-03T19:44:46Z",
            "author": {"@type": "Person", "name": "longshot"},
            "acceptedAnswer": {"@type": "Answer", "author": {"@type": "Person", "name": "pasta_fan"}},
        },
    }
    meta = read_item_metadata(_thread(data, _POSTS), url="https://talk.example.org/t/cheap-dinners/5")
    assert meta.authors == ["longshot"]
    assert meta.date == "2026-03-03"


def test_an_faq_pages_questions_name_no_writer() -> None:
    data = {
        "@context": "https://schema.org",
        "@type": "FAQPage",
        "mainEntity": [
            {"@type": "Question", "name": "What is cheap?", "author": {"@type": "Person", "name": "longshot"}},
            {"@type": "Question", "name": "What is quick?", "author": {"@type": "Person", "name": "longshot"}},
        ],
    }
    body = "<h1>Cheap weeknight dinners</h1><h2>What is cheap?</h2><p>Lentils.</p><h2>What is quick?</h2><p>Eggs.</p>"
    meta = read_item_metadata(_thread(data, body), url="https://talk.example.org/faq/dinners")
    assert meta.authors == []
    assert meta.title == "Cheap weeknight dinners"


def test_a_threads_category_link_under_its_heading_is_no_subtitle() -> None:
    page = (
        "<html><head><title>Deploy stopped half way - Support - Example Forums</title>"
        '<meta property="og:title" content="Deploy stopped half way"></head><body>'
        "<h1><a href='/t/deploy-stopped/7'>Deploy stopped half way</a></h1>"
        "<div><a href='/c/support/4'>Support</a></div>"
        "<p>The build passes, then the deploy stage stops with no message at all; what should I look at?</p>"
        "</body></html>"
    )
    meta = read_item_metadata(page, url="https://forums.example.org/t/deploy-stopped/7")
    assert meta.title == "Deploy stopped half way"


def _listed_thread(line: str) -> str:
    return (
        "<html><head><title>Which editor do you use? | Example Board</title></head><body>"
        "<nav><a href='/'>Home</a> <a href='/new'>new</a></nav>"
        f"<h2>Which editor do you use?</h2><div>{line}</div>"
        "<p>I have been switching between two editors for a year and cannot settle; what do you use and why?</p>"
        "<p>Plain vim, with no plug-ins at all, for ten years now.</p></body></html>"
    )


def test_started_by_names_the_threads_starter() -> None:
    page = _listed_thread("Started by Brook Readers, June 04, 2024, 11:23:55 AM")
    meta = read_item_metadata(page, url="https://board.example.org/index.php?topic=42.0")
    assert meta.authors == ["Brook Readers"]
    assert meta.date == "2024-06-04"


def test_points_by_a_linked_handle_names_the_submitter() -> None:
    line = "89 points by <a href='/user?id=jroe'>jroe</a> on Dec 26, 2023 | <a href='/hide'>hide</a> | 137 comments"
    meta = read_item_metadata(_listed_thread(line), url="https://board.example.org/item?id=42")
    assert meta.authors == ["jroe"]


def test_a_members_join_date_beside_the_post_is_not_the_posts_date() -> None:
    page = (
        "<html><head><title>Wrong refresh rate after update - Example Forum</title></head><body>"
        "<h1>Wrong refresh rate after update</h1>"
        "<table><tr><td><a href='/member.php?u=7'>microfan</a><div>Registered User</div>"
        "<div>Join Date: Mar 2016</div><div>Posts: 1</div></td>"
        "<td><p>Since the last driver update my screen runs at 60 Hz, not 144 Hz; how do I set it back?</p></td></tr>"
        "<tr><td>30th March 2025, 16:26</td></tr></table></body></html>"
    )
    meta = read_item_metadata(page, url="https://forum.example.org/showthread.php?t=42")
    assert meta.date == "2025-03-30"
