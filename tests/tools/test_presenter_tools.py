"""The items as the Presenter reads them: every field it may use, each summary cut to its first sentences."""

from __future__ import annotations

from research_crawler.config.sections import MAX_SUMMARY_CHARS
from research_crawler.report.models import ReportItem
from research_crawler.tools.presenter_tools import PresenterTools, summary_start

ABSTRACT = (
    "Diffusion models for images now rival photography in realism. Sampling them remains slow. "
    "We propose FewStep, which needs four network evaluations per image! Is that enough? "
    "Experiments on ImageNet show a 13% gain in human preference rate over the strongest competing method."
)


def test_summary_start_keeps_whole_sentences_that_fit() -> None:
    assert summary_start(ABSTRACT, 1000) == ABSTRACT
    cut = summary_start(ABSTRACT, 100)
    assert cut == "Diffusion models for images now rival photography in realism. Sampling them remains slow. …"
    assert len(cut) <= 100 + 2
    assert summary_start(ABSTRACT, 160).endswith("per image! …")


def test_summary_start_cuts_a_long_first_sentence_at_a_word() -> None:
    sentence = "A first sentence that runs on and on without any full stop for a very long time indeed"
    cut = summary_start(sentence + ". Second.", 40)
    assert cut.endswith("…") and len(cut) <= 40 and sentence.startswith(cut[:-1].rstrip())
    assert summary_start("Short. " + sentence + ".", 60) != "Short. …", "a cut far too early is not taken"


def _item(abstract: str) -> ReportItem:
    return ReportItem(
        rank=1,
        title="FewStep",
        url="https://site.example/abs/1",
        site="https://site.example/",
        found_on="https://site.example/list",
        collector_score=8,
        abstract=abstract,
    )


def test_the_presenter_reads_summaries_cut_to_its_setting() -> None:
    tools = PresenterTools(summary_chars=100)
    tools.load([_item(ABSTRACT)], requested=None)
    listing = tools.listing()
    assert "about: Diffusion models for images now rival photography in realism. Sampling them remains slow. …\n" in (
        listing + "\n"
    )
    assert "13% gain" not in listing
    default = PresenterTools()
    default.load([_item(ABSTRACT * 3)], requested=None)
    about = next(line for line in default.listing().splitlines() if "about:" in line)
    assert len(about.split("about: ", 1)[1]) <= MAX_SUMMARY_CHARS + 2
    silent = PresenterTools(summary_chars=0)
    silent.load([_item(ABSTRACT)], requested=None)
    assert "about:" not in silent.listing() and "link: https://site.example/abs/1" in silent.listing()
