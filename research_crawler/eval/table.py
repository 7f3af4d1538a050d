"""Per-site tables in the shape of the paper's Table I: one row per site, one column per metric, and an Overall row.

A site's cell is the mean ± sample standard deviation over its queries (for a binary verdict the mean is the
success rate). As in the paper, the Overall row is the mean ± sample standard deviation of the site means, so
every site weighs the same. Undefined values and judge errors are left out of the means and counted.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pydantic import BaseModel

from research_crawler.eval.results import EvaluationResult, QueryResult
from research_crawler.eval.testbed.fresh_batches import fresh_site_names
from research_crawler.eval.testbed.heldout_web import HELDOUT_SITE_SPECS

#: The kind of the unfamiliar web's requests, and its held-out sites (the first two, and every fresh batch's).
UNFAMILIAR = "unfamiliar"
HELDOUT_SITES = frozenset(spec.name for spec in HELDOUT_SITE_SPECS) | fresh_site_names()

__all__ = [
    "COMPLIANCE_COLUMNS",
    "COST_COLUMNS",
    "GROUND_TRUTH_COLUMNS",
    "TABLE_FILE",
    "TRIAD_COLUMNS",
    "Cell",
    "Column",
    "SiteRow",
    "SiteTable",
    "honoured",
    "render_markdown",
    "site_table",
    "tables_markdown",
    "works_table",
]

TABLE_FILE = "table.md"


@dataclass(frozen=True)
class Column:
    """One metric column: the name `QueryResult.value` knows, its heading, and how many decimals it shows."""

    metric: str
    label: str
    digits: int = 2


TRIAD_COLUMNS = (
    Column("answer_relevance", "Answer Relevance"),
    Column("context_relevance", "Context Relevance"),
    Column("groundedness", "Groundedness"),
    Column("supported_share", "Supported share"),
)
GROUND_TRUTH_COLUMNS = (
    Column("recall", "Recall"),
    Column("precision", "Precision"),
    Column("recall_at_k", "Recall@k"),
    Column("ndcg_at_k", "nDCG@k"),
    Column("path_efficiency", "Path efficiency"),
    Column("relevant_collected", "Relevant collected", 1),
)
COMPLIANCE_COLUMNS = (
    Column("compliance", "Compliance"),
    Column("compliance_dates", "Dates kept"),
    Column("compliance_count", "Count kept"),
    Column("compliance_order", "Newest first"),
    Column("compliance_most_recent", "Exactly the N most recent"),
    Column("compliance_named_site", "Named site explored"),
    Column("compliance_author", "Author kept"),
)
COST_COLUMNS = (
    Column("items_collected", "Items collected", 1),
    Column("items_reported", "Items reported", 1),
    Column("pages_fetched", "Pages fetched", 1),
    Column("subpages_used", "Subpages used", 1),
    Column("model_calls", "LLM calls", 1),
    Column("input_tokens", "Input tokens", 0),
    Column("output_tokens", "Output tokens", 0),
    Column("cost_usd", "Cost (USD)", 4),
    Column("wall_time_s", "Wall time (s)", 1),
)


class Cell(BaseModel):
    mean: float | None = None
    std: float | None = None
    n: int = 0
    missing: int = 0


class SiteRow(BaseModel):
    site: str
    label: str
    queries: int
    cells: dict[str, Cell]


class SiteTable(BaseModel):
    title: str
    columns: list[tuple[str, str, int]]
    rows: list[SiteRow]
    overall: SiteRow
    note: str = ""


def _cell(values: Sequence[float | None]) -> Cell:
    present = [v for v in values if v is not None]
    missing = len(values) - len(present)
    if not present:
        return Cell(n=0, missing=missing)
    std = statistics.stdev(present) if len(present) > 1 else None
    return Cell(mean=statistics.fmean(present), std=std, n=len(present), missing=missing)


def site_table(result: EvaluationResult, columns: Sequence[Column], *, title: str) -> SiteTable:
    """The table of `columns` for `result`, one row per site in the dataset's order."""
    rows = []
    for site in result.sites:
        queries = result.for_site(site)
        if not queries:
            continue
        cells = {c.metric: _cell(result.values(c.metric, site=site)) for c in columns}
        rows.append(SiteRow(site=site, label=result.site_titles.get(site, site), queries=len(queries), cells=cells))
    overall_cells = {}
    for column in columns:
        means = [row.cells[column.metric].mean for row in rows]
        cell = _cell(means)
        overall_cells[column.metric] = cell.model_copy(
            update={"missing": sum(row.cells[column.metric].missing for row in rows)}
        )
    overall = SiteRow(site="overall", label="Overall", queries=sum(r.queries for r in rows), cells=overall_cells)
    return SiteTable(
        title=title,
        columns=[(c.metric, c.label, c.digits) for c in columns],
        rows=rows,
        overall=overall,
        note="Sites: mean ± sample std over the site's queries. Overall: mean ± sample std of the site means "
        "(as in the paper's Table I). Undefined values and judge errors are left out and counted in brackets.",
    )


def _format(cell: Cell, digits: int) -> str:
    if cell.mean is None:
        text = "–"
    elif cell.std is None:
        text = f"{cell.mean:.{digits}f}"
    else:
        text = f"{cell.mean:.{digits}f} ± {cell.std:.{digits}f}"
    return text + (f" ({cell.missing} n/a)" if cell.missing else "")


def render_markdown(table: SiteTable) -> str:
    """The table as GitHub Markdown, with its title and note."""
    header = ["Source", *[label for _, label, _ in table.columns], "Queries"]
    lines = [f"### {table.title}", "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in [*table.rows, table.overall]:
        cells = [_format(row.cells[metric], digits) for metric, _, digits in table.columns]
        label = f"**{row.label}**" if row.site == "overall" else row.label
        lines.append("| " + " | ".join([label, *cells, str(row.queries)]) + " |")
    lines += ["", f"_{table.note}_", ""]
    return "\n".join(lines)


def _share(part: int, whole: int) -> str:
    return f"{part / whole:.2f} ({part}/{whole})" if whole else "– (0/0)"


def honoured(query: QueryResult) -> bool:
    """Whether `query`'s report lists at least one item and meets every constraint of its request."""
    checks = query.compliance.checks if query.compliance is not None else {}
    return bool(query.works and query.works.entries) and all(value == 1.0 for value in checks.values())


def works_table(result: EvaluationResult) -> str:
    """Issue 26's figures over the requests of kind ``unfamiliar``, pooled (counts summed over requests): the
    visible sites, the held-out ones, and all, beside the goals."""
    groups = {
        "visible sites": [q for q in result.queries if q.kind == UNFAMILIAR and q.site not in HELDOUT_SITES],
        "held-out sites": [q for q in result.queries if q.kind == UNFAMILIAR and q.site in HELDOUT_SITES],
    }
    groups["all"] = groups["visible sites"] + groups["held-out sites"]

    def total(queries: list[QueryResult], name: str) -> int:
        return sum(getattr(q.works, name) for q in queries if q.works is not None)

    def robots(queries: list[QueryResult]) -> str:
        if result.robots_violations is None:
            return "not counted"
        return str(sum(len(result.robots_violations.get(site, [])) for site in {q.site for q in queries}))

    def compliant(queries: list[QueryResult]) -> str:
        asked = [q for q in queries if q.compliance is not None and q.compliance.checks]
        return _share(sum(1 for q in asked if honoured(q)), len(asked))

    def ratio(part: str, whole: str) -> Callable[[list[QueryResult]], str]:
        return lambda queries: _share(total(queries, part), total(queries, whole))

    rows: list[tuple[str, Callable[[list[QueryResult]], str], str]] = [
        ("relevant works reported", ratio("relevant_works_reported", "relevant_works"), "≥ 0.9"),
        ("reported items that are relevant", ratio("relevant_entries", "entries"), "≥ 0.9"),
        ("requests whose report honours count / year / newest first / author", compliant, "≥ 0.9"),
        ("relevant item pages fetched and read", ratio("relevant_works_read", "relevant_works"), "≥ 0.95"),
        ("items with a wrong title, year or first author", ratio("wrong_entries", "entries"), "0"),
        ("one work reported twice", lambda queries: str(total(queries, "works_twice")), "0"),
        ("robots.txt violations", robots, "0"),
        ("failed runs", lambda queries: str(sum(1 for q in queries if q.works is None)), "0"),
    ]
    header = ["figure", *(f"{name} ({len(queries)} requests)" for name, queries in groups.items()), "goal"]
    lines = [
        "### Sites built unlike ours (requests of kind unfamiliar)",
        "",
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
    ]
    lines += [
        f"| {label} | " + " | ".join(figure(qs) for qs in groups.values()) + f" | {goal} |"
        for label, figure, goal in rows
    ]
    note = (
        "Counts are summed over the requests. A work on two sites (a preprint and its journal version) is one work. "
        "An entry that is no item (a listing, a citation string) counts as wrong. A request is honoured when its "
        "report lists something and keeps every constraint (an empty report would keep them all by saying "
        "nothing). A page counts as read when it is the item's own page (not a consent notice or a sign-in form "
        "answering in its place) or its PDF."
    )
    return "\n".join([*lines, "", f"_{note}_", ""])


def tables_markdown(result: EvaluationResult) -> str:
    """The Markdown of ``table.md``: the RAG triad, then (testbed) ground truth, then cost and effort — for the
    requests of the first kinds; then the unfamiliar web's requests, in their own tables."""
    unfamiliar = [q for q in result.queries if q.kind == UNFAMILIAR]
    first = result.model_copy(update={"queries": [q for q in result.queries if q.kind != UNFAMILIAR]})
    parts = _tables(first, heading=f"# Evaluation of {result.dataset}") if first.queries else []
    if unfamiliar:
        web = result.model_copy(update={"queries": unfamiliar})
        parts += _tables(web, heading="## The unfamiliar web (kind unfamiliar)", works=True)
    return "\n".join(parts)


def _tables(result: EvaluationResult, *, heading: str, works: bool = False) -> list[str]:
    judge = f"simulated judge ({result.judge_model})" if result.judge == "simulated" else f"judge {result.judge_model}"
    model = (
        "the simulated model (a test double)"
        if result.simulated_model
        else ", ".join(sorted(set(result.models.values())))
    )
    parts = [
        heading,
        "",
        f"{len(result.queries)} queries on {len(result.sites)} site(s); agents: {model}; {judge}; "
        f"experiment {result.experiment_name or '(none)'}"
        + (" (uploaded to LangSmith)" if result.uploaded else " (local, not uploaded)")
        + ".",
        "",
        *([works_table(result)] if works else []),
        render_markdown(site_table(result, TRIAD_COLUMNS, title="RAG triad (success rate per site)")),
    ]
    if result.source == "testbed":
        k = next((q.ground_truth.k for q in result.queries if q.ground_truth is not None), None)
        title = "Ground truth (testbed)" + (f", k = {k}" if k is not None else "")
        parts.append(render_markdown(site_table(result, GROUND_TRUTH_COLUMNS, title=title)))
    constrained = [q for q in result.queries if q.compliance is not None]
    if constrained:
        title = f"Request compliance ({len(constrained)} requests with constraints; share of constraints met)"
        table = site_table(result.model_copy(update={"queries": constrained}), COMPLIANCE_COLUMNS, title=title)
        note = "Only requests with constraints count; a check a request does not call for is left out (n/a)."
        parts.append(render_markdown(table.model_copy(update={"note": f"{table.note} {note}"})))
    parts.append(render_markdown(site_table(result, COST_COLUMNS, title="Effort and cost per query")))
    return parts
