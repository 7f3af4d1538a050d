"""Writers of a run's report files: report.md, report.json and items.bib (papers), each written atomically."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from research_crawler.context.durable_files import atomic_write_text
from research_crawler.report.bibtex import to_bibtex
from research_crawler.report.markdown_text import markdown_text
from research_crawler.report.models import Report

__all__ = ["SIMULATED_NOTE", "cost_line", "left_out_lines", "render_markdown", "write_report"]

SIMULATED_NOTE = "Made with the simulated model (a deterministic test double), not a real LLM."


def render_markdown(report: Report) -> str:
    """report.md: the Presenter's report, then how the search ended, and a plain note when simulated."""
    lines = [report.markdown.rstrip(), "", "---", ""]
    if report.request_summary:
        lines.append(f"Asked for: {report.request_summary}.")
    lines += [f"- {markdown_text(line)}" for line in report.compliance]
    if report.request_summary or report.compliance:
        lines.append("")
    shortfall = f"Found {len(report.items)} of the {report.requested_count} requested"
    short = report.requested_count is not None and len(report.items) < report.requested_count
    if short and shortfall.lower() not in report.markdown.lower():  # the citation guard usually said it already
        lines.append(f"{shortfall}.")
    ended = report.stop_reason.replace("_", " ") or "unknown"
    detail = f" ({markdown_text(report.stop_detail)})" if report.stop_detail else ""
    lines.append(f"Search ended: {ended}{detail}.")
    for site in report.sites:  # a site's name is its start page's title: the page's text, shown as text
        lines.append(
            f"- {markdown_text(site.name)} ({site.url}): {site.reason.replace('_', ' ')}, "
            f"{site.pages_visited} page(s) visited, {site.items_collected} item(s) collected"
        )
    lines += left_out_lines(report)
    stats = report.stats
    unchanged = (
        f" ({stats.pages_not_modified} unchanged since last read: 304, not downloaded)"
        if stats.pages_not_modified
        else ""
    )
    lines.append("")  # ends the list of sites: the figures are not part of its last entry
    lines.append(
        f"Pages fetched: {stats.pages_fetched}{unchanged}; model calls: {stats.model_calls}; "
        f"tokens: {stats.input_tokens} in "
        f"({stats.cached_input_tokens} cached), {stats.output_tokens} out; {cost_line(report)}."
    )
    if report.guard_notes:
        lines += ["", "Citation guard:", *[f"- {markdown_text(note)}" for note in report.guard_notes]]
    if report.simulated_model:
        lines += ["", f"*{SIMULATED_NOTE}*"]
    return "\n".join(lines) + "\n"


def _pending_page(url: str, site_url: str) -> str:
    """A page nobody fetched, named and never linked: its path (the site's own page) as code, where no Markdown
    renderer makes a link of it (the report links only to pages fetched and items collected)."""
    parts = urlsplit(url)
    shown = url
    if parts.netloc == urlsplit(site_url).netloc:
        shown = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return "`" + shown.replace("`", "%60") + "`"


def left_out_lines(report: Report) -> list[str]:
    """What the budget left out, one entry per site with something left: the best pending pages with their
    scores, a site search not tried, pages that could not be read, the share of promising pages explored."""
    entries = []
    for site in report.coverage:
        parts = []
        if site.pages_pending:
            best = ", ".join(f"{_pending_page(page.url, site.url)} ({page.score:g})" for page in site.best_pending[:3])
            parts.append(
                f"{site.pages_pending} page(s) pending, {site.promising_pending} of them promising (best: {best})"
            )
        if site.search_form and not site.search_tried and site.search_refusal is None:  # a forbidden one is no loss
            parts.append("its search form was not tried")
        if site.failed_pages:
            failed = ", ".join(f"{markdown_text(page.url)} ({page.determination})" for page in site.failed_pages[:3])
            parts.append(f"{len(site.failed_pages)} page(s) could not be read: {failed}")
        if not parts:
            continue
        if site.promising_explored_share is not None:
            parts.append(f"about {site.promising_explored_share:.0%} of its promising pages explored")
        entries.append(f"- {site.url} — {'; '.join(parts)}")
    if not entries:
        return []
    heading = "Left out by the budget (in the chat, `continue on SITE` spends a new budget there, from these pages):"
    return ["", heading, *entries]


def cost_line(report: Report) -> str:
    """The run's cost in words: at the answering models' prices, or, for a simulated run, what the configured
    models would have cost at list prices (cached input counted), with the prices used."""
    stats = report.stats
    if not report.simulated_model:
        return f"estimated cost: ${stats.cost_usd:.4f} at list prices"
    if not stats.list_prices:
        return "no cost (the configured models have no list price)"
    prices = "; ".join(f"{model}: {price.describe()}" for model, price in stats.list_prices.items())
    return (
        f"no cost; with the configured models at list prices it would cost about "
        f"${stats.list_price_cost_usd:.4f} ({prices})"
    )


def write_report(report: Report, run_dir: Path) -> None:
    """Write report.md and report.json into `run_dir` (never a torn file)."""
    run_dir.mkdir(parents=True, exist_ok=True)
    atomic_write_text(run_dir / "report.json", report.model_dump_json(indent=2))
    atomic_write_text(run_dir / "report.md", render_markdown(report))
    if report.item_kind == "paper":
        atomic_write_text(run_dir / "items.bib", to_bibtex(report.items))
