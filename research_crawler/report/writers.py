"""Writers of a run's report files: report.md, report.json and items.bib (papers), each written atomically."""

from __future__ import annotations

from pathlib import Path

from research_crawler.context.atomic_files import atomic_write_text
from research_crawler.report.bibtex import to_bibtex
from research_crawler.report.models import Report

__all__ = ["SIMULATED_NOTE", "render_markdown", "write_report"]

SIMULATED_NOTE = "Made with the simulated model (a deterministic test double), not a real LLM."


def render_markdown(report: Report) -> str:
    """report.md: the Presenter's report, then how the search ended, and a plain note when simulated."""
    lines = [report.markdown.rstrip(), "", "---", ""]
    if report.request_summary:
        lines.append(f"Asked for: {report.request_summary}.")
    lines += [f"- {line}" for line in report.compliance]
    if report.request_summary or report.compliance:
        lines.append("")
    shortfall = f"Found {len(report.items)} of the {report.requested_count} requested"
    short = report.requested_count is not None and len(report.items) < report.requested_count
    if short and shortfall.lower() not in report.markdown.lower():  # the citation guard usually said it already
        lines.append(f"{shortfall}.")
    ended = report.stop_reason.replace("_", " ") or "unknown"
    lines.append(f"Search ended: {ended}{f' ({report.stop_detail})' if report.stop_detail else ''}.")
    for site in report.sites:
        lines.append(
            f"- {site.name} ({site.url}): {site.reason.replace('_', ' ')}, {site.pages_visited} page(s) visited, "
            f"{site.items_collected} item(s) collected"
        )
    stats = report.stats
    lines.append("")  # ends the list of sites: the figures are not part of its last entry
    lines.append(
        f"Pages fetched: {stats.pages_fetched}; model calls: {stats.model_calls}; tokens: {stats.input_tokens} in, "
        f"{stats.output_tokens} out; estimated cost: ${stats.cost_usd:.4f}."
    )
    if report.guard_notes:
        lines += ["", "Citation guard:", *[f"- {note}" for note in report.guard_notes]]
    if report.simulated_model:
        lines += ["", f"*{SIMULATED_NOTE}*"]
    return "\n".join(lines) + "\n"


def write_report(report: Report, run_dir: Path) -> None:
    """Write report.md and report.json into `run_dir` (never a torn file)."""
    run_dir.mkdir(parents=True, exist_ok=True)
    atomic_write_text(run_dir / "report.json", report.model_dump_json(indent=2))
    atomic_write_text(run_dir / "report.md", render_markdown(report))
    if report.item_kind == "paper":
        atomic_write_text(run_dir / "items.bib", to_bibtex(report.items))
