"""Benchmark 2: the tokens of each page as each agent sees it, against the page's raw HTML, on the real saved
pages of shared/realweb (prints a table and writes JSON; not a timed test).

For every page: the Crawler's view (`default`: the numbered links with their context; `paper`: the whole
page Markdown) and the Item Collector's (`default`: the main content; `paper`: the whole Markdown), each as
built and as read (the Collector reads at most `max_chunks_per_page` chunks). Median and worst ratio to the
HTML's tokens (o200k), with the targets: Crawler <= 10 %, Collector <= 25 % of the HTML.

Usage: .venv/bin/python benchmarks/agent_views.py [--realweb DIR] [--out benchmarks/out/agent_views.json]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path
from typing import Any

from bench_output import print_table, ratio, write_json
from testbed_runs import OUT_DIR, REALWEB, machine

from research_crawler.config.settings import Settings
from research_crawler.pages.main_content import main_content_markdown
from research_crawler.pages.page import Page
from research_crawler.pages.view import PageView, link_view, split_into_chunks
from research_crawler.text.tokens import count_tokens
from research_crawler.web.fetcher import page_from_file

TARGETS = {"crawler": 0.10, "collector": 0.25, "collector, as read": 0.25}


def crawler_view(page: Page, settings: Settings) -> str:
    if settings.page_view.crawler_view == "markdown":
        return page.markdown
    return link_view(PageView(title=page.title, markdown=page.markdown, links=page.links, base_url=page.final_url))


def collector_view(page: Page, settings: Settings) -> str:
    if settings.page_view.collector_view == "markdown":
        return page.markdown
    return main_content_markdown(
        page, max_links=settings.fetch.max_links_per_page, max_link_text_chars=settings.page_view.max_link_text_chars
    )


def read_tokens(text: str, settings: Settings) -> int:
    """Tokens of the chunks of `text` the Collector reads (the first max_chunks_per_page)."""
    chunks = split_into_chunks(text, token_budget=settings.page_view.chunk_tokens)
    return sum(count_tokens(chunk) for chunk in chunks[: settings.run.max_chunks_per_page])


def measure(path: Path, presets: dict[str, Settings]) -> dict[str, Any]:
    page = page_from_file(path)
    html_tokens = count_tokens(page.html)
    row: dict[str, Any] = {"page": path.name, "html_tokens": html_tokens}
    for name, settings in presets.items():
        started = time.perf_counter()
        crawler = count_tokens(crawler_view(page, settings))
        collector_text = collector_view(page, settings)
        row[name] = {
            "crawler_tokens": crawler,
            "collector_tokens": count_tokens(collector_text),
            "collector_read_tokens": read_tokens(collector_text, settings),
            "crawler_ratio": crawler / html_tokens,
            "collector_ratio": count_tokens(collector_text) / html_tokens,
            "collector_read_ratio": read_tokens(collector_text, settings) / html_tokens,
            "seconds": round(time.perf_counter() - started, 3),
        }
    return row


def summary(rows: list[dict[str, Any]], preset: str, key: str) -> dict[str, Any]:
    values = [row[preset][key] for row in rows]
    worst = max(rows, key=lambda row: row[preset][key])
    return {"median": round(statistics.median(values), 4), "worst": round(max(values), 4), "worst_page": worst["page"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--realweb", type=Path, default=REALWEB, help="directory holding pages/*.html")
    parser.add_argument("--out", type=Path, default=OUT_DIR / "agent_views.json")
    args = parser.parse_args()
    paths = sorted((args.realweb / "pages").glob("*.html"))
    if not paths:
        raise SystemExit(f"no pages under {args.realweb / 'pages'}: set --realweb or RESEARCH_CRAWLER_REALWEB")
    presets = {"default": Settings.from_preset("default"), "paper": Settings.from_preset("paper")}
    rows = [measure(path, presets) for path in paths]

    keys = [
        ("crawler", "crawler_ratio"),
        ("collector", "collector_ratio"),
        ("collector, as read", "collector_read_ratio"),
    ]
    summaries = {preset: {label: summary(rows, preset, key) for label, key in keys} for preset in presets}
    total_html = sum(row["html_tokens"] for row in rows)
    totals = {
        preset: {
            "crawler": sum(row[preset]["crawler_tokens"] for row in rows),
            "collector": sum(row[preset]["collector_read_tokens"] for row in rows),
        }
        for preset in presets
    }
    print(f"Tokens of each agent's view / raw HTML tokens, {len(rows)} real pages ({machine()})")
    table = []
    for label, _key in keys:
        default, paper = summaries["default"][label], summaries["paper"][label]
        target = TARGETS.get(label)
        table.append(
            [
                label,
                default["median"],
                default["worst"],
                paper["median"],
                paper["worst"],
                ratio(default["median"], paper["median"]),
                target,
                None
                if target is None
                else ("met" if default["worst"] <= target else f"NOT met ({default['worst_page']})"),
            ]
        )
    print_table(
        [
            "agent",
            "default median",
            "default worst",
            "paper median",
            "paper worst",
            "median vs paper",
            "target",
            "worst <= target",
        ],
        table,
    )
    for agent in ("crawler", "collector"):
        print(
            f"{agent}: all pages together, default reads {ratio(totals['default'][agent], total_html)} of the HTML's "
            f"tokens, paper {ratio(totals['paper'][agent], total_html)} "
            f"(default/paper {ratio(totals['default'][agent], totals['paper'][agent])})"
        )
    write_json(
        args.out,
        {
            "benchmark": "agent_views",
            "machine": machine(),
            "pages": len(rows),
            "targets": TARGETS,
            "summary": summaries,
            "totals": {"html_tokens": total_html, **totals},
            "rows": rows,
        },
    )


if __name__ == "__main__":
    main()
