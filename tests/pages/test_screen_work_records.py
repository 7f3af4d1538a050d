"""A film's or a series' record (its page declares it: Open Graph's video.movie / video.tv_show, schema.org's
Movie or TVSeries): the credits box names the work's makers, not a writer of the page; a page of another kind keeps
the writers its labelled field names.

Each page below is written for the test in the shape of a kind of real page; none is a copy of one.
"""

from __future__ import annotations

from research_crawler.pages.metadata import read_item_metadata

URL = "https://films.example.org/title/garden-story"
TEXT = "<p>" + "A sentence about the story that goes on for a while to make a paragraph of it. " * 4 + "</p>"
CREDITS = "<h4>Creators:</h4><p>Jane Gardener, Tom Planter</p><h4>Stars:</h4><p>Ann Actor, Bob Player</p>"


def _authors(head: str, body: str) -> list[str]:
    html = f"<!doctype html><html><head><title>Garden Story</title>{head}</head><body>{body}</body></html>"
    return [str(name) for name in read_item_metadata(html, url=URL).authors]


def test_a_series_record_s_creators_are_no_writers() -> None:
    body = f'<div itemscope itemtype="http://schema.org/TVSeries"><h1>Garden Story</h1>{TEXT}{CREDITS}</div>'
    assert _authors("", body) == []


def test_a_film_record_s_written_by_credit_is_no_writer() -> None:
    head = '<meta property="og:type" content="video.movie">'
    body = (
        f"<h1>Garden Story</h1>{TEXT}"
        "<ul><li>Directed By: Jim Director</li><li>Written By: Jane Gardener, Tom Planter</li></ul>"
    )
    assert _authors(head, body) == []


def test_a_film_record_in_json_ld_too() -> None:
    head = (
        '<script type="application/ld+json">'
        '{"@context": "https://schema.org", "@type": "Movie", "name": "Garden Story"}</script>'
    )
    body = f"<h1>Garden Story</h1>{TEXT}<ul><li>Written By: Jane Gardener, Tom Planter</li></ul>"
    assert _authors(head, body) == []


def test_an_article_s_authors_field_still_names_its_writers() -> None:
    head = '<meta property="og:type" content="article">'
    body = f"<h1>Garden Story</h1><p>Authors: Jane Gardener, Tom Planter</p>{TEXT}"
    assert _authors(head, body) == ["Jane Gardener", "Tom Planter"]
