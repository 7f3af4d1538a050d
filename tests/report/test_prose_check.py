"""A written report must be about the items: an echo of the instructions, or text naming no item, is caught."""

from __future__ import annotations

from research_crawler.agents.prompts import system_message
from research_crawler.agents.roles import Role
from research_crawler.config.settings import Settings
from research_crawler.report.models import ReportItem
from research_crawler.report.prose_check import prose_problem, quotes_unescaped

SITE = "https://x.org/"
ITEMS = [
    ReportItem(
        rank=1,
        title="Graph Neural Networks for Protein Design",
        url="https://x.org/abs/1",
        site=SITE,
        found_on=SITE,
        collector_score=8,
    ),
    ReportItem(
        rank=2, title="Message Passing at Scale", url="https://x.org/abs/2", site=SITE, found_on=SITE, collector_score=8
    ),
]
PROMPT = system_message(Role.PRESENTER, Settings())


def test_a_report_of_the_items_passes() -> None:
    report = "# Results\n\n1. [Graph Neural Networks for Protein Design](https://x.org/abs/1) — relevant.\n"
    assert prose_problem(report, items=ITEMS, instructions=[PROMPT]) is None


def test_an_item_named_by_its_link_alone_counts() -> None:
    assert prose_problem("See <https://x.org/abs/2>.", items=ITEMS, instructions=[PROMPT]) is None


def test_the_system_prompt_pasted_back_is_an_echo() -> None:
    report = "Sure!\n" + PROMPT + "\n1. Graph Neural Networks for Protein Design"
    assert "repeats the instructions" in (prose_problem(report, items=ITEMS, instructions=[PROMPT]) or "")


def test_an_echo_is_found_whatever_the_case_and_punctuation() -> None:
    words = PROMPT.split()[20:34]
    report = "Graph Neural Networks for Protein Design. " + " ".join(words).upper().replace(",", ";")
    assert prose_problem(report, items=ITEMS, instructions=[PROMPT]) is not None


def test_text_about_no_item_is_refused_but_a_short_quote_of_the_prompt_is_not_an_echo() -> None:
    unrelated = "Here is a summary of recent trends in machine learning, in the language of the request."
    assert "names none of the items" in (prose_problem(unrelated, items=ITEMS, instructions=[PROMPT]) or "")
    assert prose_problem(unrelated, items=[], instructions=[PROMPT]) is None


def test_escaped_quotes_become_quotes_and_nothing_else_is_unescaped() -> None:
    text = "don&#39;t &quot;x&quot; &#x27;y&#X27; &apos;z&apos; &#034;w&#34; &lt;script&gt; &amp;"
    assert quotes_unescaped(text) == "don't \"x\" 'y' 'z' \"w\" &lt;script&gt; &amp;"
