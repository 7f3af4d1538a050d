"""A page's breadcrumb trail, read from schema.org's BreadcrumbList (JSON-LD, microdata) or a breadcrumb navigation;
short, cleaned, never more than the page shows; real saved pages read as a person reads their trail."""

from __future__ import annotations

from pathlib import Path

import pytest

from research_crawler.pages.breadcrumbs import MAX_LEVELS, breadcrumb_trail
from research_crawler.web.html_body import decode_html

REALWEB = Path(__file__).resolve().parents[3] / "shared" / "realweb" / "pages"

JSON_LD = """<script type="application/ld+json">{"@context": "https://schema.org", "@graph": [{"@type": "WebPage"},
{"@type": "BreadcrumbList", "itemListElement": [
 {"@type": "ListItem", "position": 3, "name": "2024"},
 {"@type": "ListItem", "position": 1, "item": {"@id": "/", "name": "Home"}},
 {"@type": "ListItem", "position": 2, "name": "Physics"}]}]}</script>"""
MICRODATA = """<ol itemscope itemtype="https://schema.org/BreadcrumbList">
<li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem"><a itemprop="item" href="/">
<span itemprop="name">Home</span></a></li> ›
<li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem">
<span itemprop="name">Biology</span></li>
</ol>"""
NAV = """<nav aria-label="breadcrumb"><a href="/">Home</a> / <a href="/cs">Computer Science</a> /
<span aria-current="page">March 2025</span></nav>"""
LIST = '<ul class="breadcrumbs"><li><a href="/">Archive</a></li><li>»</li><li><a href="/m">Maths</a></li></ul>'


@pytest.mark.parametrize(
    ("markup", "trail"),
    [
        (JSON_LD, ["Home", "Physics", "2024"]),
        (MICRODATA, ["Home", "Biology"]),
        (NAV, ["Home", "Computer Science", "March 2025"]),
        (LIST, ["Archive", "Maths"]),
        ("<nav class='main-menu'><a href='/'>Home</a><a href='/x'>About</a></nav>", []),
        ("<div class='breadcrumb'>Home</div>", []),  # one level is no trail
    ],
)
def test_trails_are_read_from_what_the_page_marks_as_its_breadcrumbs(markup: str, trail: list[str]) -> None:
    assert breadcrumb_trail(f"<html><head></head><body>{markup}<main><p>Text</p></main></body></html>") == trail


def test_a_long_or_hostile_trail_is_bounded_and_cleaned() -> None:
    levels = "".join(f"<li><a href='/{n}'>Level {n} \x1b[31m\u202e</a></li>" for n in range(20))
    trail = breadcrumb_trail(f"<html><body><ol class='breadcrumb'>{levels}<li>{'x' * 300}</li></ol></body></html>")
    assert len(trail) == MAX_LEVELS and trail[1] == "…" and trail[0].startswith("Level 0")
    assert all("\x1b" not in name and "\u202e" not in name and len(name) <= 60 for name in trail)


def test_real_pages_trails() -> None:
    def trail(name: str) -> list[str]:
        return breadcrumb_trail(decode_html((REALWEB / name).read_bytes(), None))

    assert trail("firstmonday__article__1.html") == [
        "Home",
        "Archives",
        "Volume 25, Number 10 - 5 October 2020",
        "Articles",
    ]
    assert trail("springer__article__2.html") == ["Home", "Journal of Polymers and the Environment", "Article"]
    assert trail("aclanthology__listing__1.html") == []
