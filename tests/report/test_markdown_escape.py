"""Page or model text in the Markdown we compose is text: no link, image, HTML, code or emphasis comes out of it,
whatever it holds (markdown-it, the parser Rich renders report.md with, is the judge)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from research_crawler.report.markdown_text import markdown_text
from research_crawler.report.models import Report, SiteSummary
from research_crawler.report.writers import render_markdown

_PARSER = MarkdownIt("commonmark")
_ACTIVE = {"link_open", "image", "html_inline", "html_block", "code_inline", "em_open", "strong_open", "heading_open"}


def _active_tokens(markdown: str) -> set[str]:
    found = set()
    for token in _PARSER.parse(markdown):
        found.add(token.type)
        found.update(child.type for child in token.children or [])
    return found & _ACTIVE


@given(st.text(alphabet=st.sampled_from("[]()<>!*_`#|\\:/ ahx.-="), max_size=40))
def test_escaped_text_parses_to_plain_text(text: str) -> None:
    assert _active_tokens("- " + markdown_text(text)) == set()


def test_a_site_named_like_a_link_stays_text_in_report_md() -> None:
    site = SiteSummary(
        name="[click me](http://evil.example/) ![x](http://127.0.0.3/t.png) <img src=x> **bold**",
        url="http://127.0.0.1:8000/",
        reason="completed",
    )
    text = render_markdown(Report(query="q", markdown="# Results", sites=[site], simulated_model=True))
    (line,) = [line for line in text.splitlines() if "click me" in line]
    assert _active_tokens(line) == set(), line
    assert "evil.example" in line and "127.0.0.3" in line  # shown, not followed
