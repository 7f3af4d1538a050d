"""Benchmark: what research-crawler reads off real pages it has never seen, beside trafilatura, field by field.

On the page corpus (``benchmarks/pagecorpus`` in the repository, or ``$RESEARCH_CRAWLER_PAGECORPUS``, or
``../shared/pagecorpus``; see research_crawler/eval/page_corpus.py), each item page is read as ``research-crawler
page FILE --url URL`` reads it (the saved page, its links resolved against its original address, then the item
metadata) and by trafilatura's ``extract_metadata`` (htmldate inside). Scored against what a person read off each
page: the title, the first author's surname, the number of authors, the year (and the exact date where the page
shows a day). On listings: the share of the item links a person counted that the page's numbered links keep. On
pages a person could search from: whether a search form is found, and found usable. Blocked pages (bot challenges):
whether the page is told blocked. Every miss is printed with what was expected and what came.

``--realweb`` adds ../shared/realweb's item pages, scored against their own citation tags (they carry
them), so that a change is seen not to make them worse.

Usage: .venv/bin/python benchmarks/page_understanding.py [--part PART|all] [--corpus DIR]
       [--realweb DIR] [--quiet] [--out benchmarks/out/page_understanding.json]
PART: dev, heldout (first batch), development2, heldout2 (second), development3, heldout3 (third), development4,
heldout4 (fourth), development5, heldout5 (fifth), development6, heldout6 (sixth), development7, heldout7 (seventh),
heldout8 (eighth, held out whole), development9, heldout9 (ninth), heldout10 (tenth, held out whole), heldout11
(eleventh, held out whole), heldout12 and heldout13 (twelfth and thirteenth, held out whole), development12 and
development13 (the twelfth and thirteenth batches rebuilt in the repository), academic (academic pages), heldout14
(a batch held out whole).
"""

from __future__ import annotations

import argparse
import logging
import re
import statistics
import sys
import tempfile
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any, get_args

from bench_output import print_table, write_json
from testbed_runs import OUT_DIR, REALWEB, machine

from research_crawler.config.settings import Settings
from research_crawler.eval.addresses import address_key
from research_crawler.eval.page_corpus import (
    CorpusPage,
    PageLabels,
    Part,
    author_count_matches,
    corpus_parts,
    exact_date_matches,
    find_page_corpus,
    first_author_matches,
    read_page_corpus,
    title_matches,
    year_matches,
)
from research_crawler.eval.saved_pages import read_saved_pages
from research_crawler.pages.metadata import read_item_metadata
from research_crawler.pages.page import Determination, Page
from research_crawler.pages.search_forms import find_search_mechanism
from research_crawler.web.fetcher import page_from_file

REPO = Path(__file__).resolve().parents[1]
FIELDS = ("title", "first author", "author count", "year", "exact date")


def corpus_dir(given: str | None, part: str | None) -> Path:
    """The corpus: --corpus, else $RESEARCH_CRAWLER_PAGECORPUS, else the first of benchmarks/pagecorpus,
    ../shared/pagecorpus and ../pagecorpus that holds `part` (any part for --part all)."""
    found = find_page_corpus(REPO, given, part=part)
    if found is None:
        sys.exit("no page corpus found: give --corpus DIR or set RESEARCH_CRAWLER_PAGECORPUS")
    return found


# --- what each system reads -------------------------------------------------------------------------------


def project_page(page: CorpusPage, settings: Settings) -> Page:
    """The saved page as `research-crawler page FILE --url URL` builds it."""
    with tempfile.NamedTemporaryFile(suffix=".html") as handle:
        handle.write(page.html().encode("utf-8"))
        handle.flush()
        return page_from_file(
            handle.name,
            url=page.labels.original_url or None,
            settings=settings.page_view,
            max_links=settings.fetch.max_links_per_page,
        )


def project_metadata(html: str, url: str) -> dict[str, Any]:
    meta = read_item_metadata(html, url=url)
    return {"title": meta.title, "authors": list(meta.authors), "date": meta.date, "sources": dict(meta.sources)}


def trafilatura_metadata(html: str, url: str) -> dict[str, Any]:
    from trafilatura.metadata import extract_metadata

    logging.getLogger("trafilatura").setLevel(logging.ERROR)
    logging.getLogger("htmldate").setLevel(logging.ERROR)
    document = extract_metadata(html, default_url=url or None)
    authors = [name.strip() for name in (document.author or "").split(";") if name.strip()] if document else []
    return {
        "title": document.title if document else None,
        "authors": authors,
        "date": document.date if document else None,
    }


SYSTEMS: dict[str, Callable[[str, str], dict[str, Any]]] = {
    "research-crawler": project_metadata,
    "trafilatura": trafilatura_metadata,
}


# --- scoring ------------------------------------------------------------------------------------------------


def score_item(labels: PageLabels, read: dict[str, Any]) -> dict[str, bool | None]:
    return {
        "title": title_matches(labels, read["title"]),
        "first author": first_author_matches(labels, read["authors"]),
        "author count": author_count_matches(labels, read["authors"]),
        "year": year_matches(labels, read["date"]),
        "exact date": exact_date_matches(labels, read["date"]),
    }


def expected_of(labels: PageLabels, field: str) -> str:
    values = {
        "title": labels.title,
        "first author": labels.first_author if labels.authors_count != 0 else "(none)",
        "author count": labels.authors_count,
        "year": labels.date or "(none)",
        "exact date": labels.date,
    }
    also = {"title": labels.title_also, "year": labels.date_also}.get(field)
    return f"{values[field]!s}" + (f" (or {' | '.join(also)})" if also else "")


def got_of(read: dict[str, Any], field: str) -> str:
    if field == "title":
        return repr(read["title"])
    if field in ("first author", "author count"):
        names = read["authors"]
        return f"{len(names)}: {'; '.join(names[:4])}{' …' if len(names) > 4 else ''}"
    return repr(read["date"])


def measure_corpus(pages: list[CorpusPage], settings: Settings) -> dict[str, Any]:
    results: dict[str, Any] = {"items": [], "listings": [], "forms": [], "blocked": []}
    for page in pages:
        labels = page.labels
        built = project_page(page, settings)
        if labels.page_kind == "blocked":
            results["blocked"].append({"id": page.id, "told_blocked": built.determination is Determination.BLOCKED})
            continue
        if labels.search_form == "usable":
            mechanism = find_search_mechanism(built.html, url=built.final_url) if built.html else None
            results["forms"].append(
                {"id": page.id, "found": mechanism is not None, "usable": bool(mechanism and mechanism.usable)}
            )
        if page.is_listing and labels.item_links:
            kept = {address_key(link.url) for link in built.links}
            expected = [address_key(url) for url in labels.item_links]
            found = sum(1 for url in expected if url in kept)
            results["listings"].append(
                {
                    "id": page.id,
                    "expected": len(expected),
                    "found": found,
                    "links": len(built.links),
                    "missing": [url for url in expected if url not in kept][:3],
                }
            )
        if page.is_item:
            html = page.html()
            row: dict[str, Any] = {"id": page.id, "site": page.site}
            for name, read_with in SYSTEMS.items():
                read = read_with(html, labels.original_url)
                row[name] = {"read": read, "score": score_item(labels, read)}
            row["labels"] = labels
            results["items"].append(row)
    return results


def field_scores(items: list[dict[str, Any]], system: str, field: str) -> tuple[int, int]:
    marks = [row[system]["score"][field] for row in items if row[system]["score"][field] is not None]
    return sum(1 for mark in marks if mark), len(marks)


def print_corpus(title: str, results: dict[str, Any], *, quiet: bool) -> dict[str, Any]:
    items = results["items"]
    print(
        f"\n== {title}: {len(items)} item pages, {len(results['listings'])} listings with item links, "
        f"{len(results['forms'])} pages a person can search from, {len(results['blocked'])} blocked pages"
    )
    rows, summary = [], {}
    for field in FIELDS:
        row: list[Any] = [field]
        for system in SYSTEMS:
            good, total = field_scores(items, system, field)
            row += [f"{good}/{total}", round(good / total, 3) if total else None]
            summary.setdefault(system, {})[field] = {"correct": good, "of": total}
        rows.append(row)
    print_table(["field", "research-crawler", "share", "trafilatura", "share"], rows)
    listings = results["listings"]
    if listings:
        shares = [row["found"] / row["expected"] for row in listings]
        found, expected = sum(r["found"] for r in listings), sum(r["expected"] for r in listings)
        summary["item links"] = {
            "found": found,
            "of": expected,
            "median_share": statistics.median(shares),
            "worst_share": min(shares),
        }
        print(
            f"item links on listings: {found}/{expected} ({found / expected:.3f}); median share per listing "
            f"{statistics.median(shares):.3f}, worst {min(shares):.3f}"
        )
    forms = results["forms"]
    if forms:
        found = sum(1 for row in forms if row["found"])
        usable = sum(1 for row in forms if row["usable"])
        summary["search forms"] = {"found": found, "usable": usable, "of": len(forms)}
        print(f"search forms (research-crawler): found {found}/{len(forms)}, found usable {usable}/{len(forms)}")
    if results["blocked"]:
        told = sum(1 for row in results["blocked"] if row["told_blocked"])
        summary["blocked"] = {"told_blocked": told, "of": len(results["blocked"])}
        print(f"bot-challenge pages told blocked: {told}/{len(results['blocked'])}")
    if not quiet:
        print_misses(results)
    return summary


def print_misses(results: dict[str, Any]) -> None:
    for system in SYSTEMS:
        for field in FIELDS:
            misses = [row for row in results["items"] if row[system]["score"][field] is False]
            if not misses:
                continue
            print(f"\n-- {system} wrong on {field} ({len(misses)}):")
            for row in misses:
                print(
                    f"   {row['id']}: expected {expected_of(row['labels'], field)}; "
                    f"got {got_of(row[system]['read'], field)}"
                    + (
                        f" [{row[system]['read'].get('sources', {}).get(_source_key(field), '')}]"
                        if system == "research-crawler"
                        else ""
                    )
                )
    for row in results["listings"]:
        if row["found"] < row["expected"]:
            print(
                f"   listing {row['id']}: {row['found']}/{row['expected']} item links kept "
                f"({row['links']} links numbered); missing e.g. {row['missing']}"
            )
    for row in results["forms"]:
        if not row["usable"]:
            print(f"   search form {row['id']}: {'found, not usable' if row['found'] else 'not found'}")
    for row in results["blocked"]:
        if not row["told_blocked"]:
            print(f"   blocked page {row['id']}: not told blocked")


def _source_key(field: str) -> str:
    return {"title": "title", "year": "date", "exact date": "date"}.get(field, "authors")


# --- realweb: pages scored against their own tags ---------------------------------------------------------


#: The ways citation tags write a date ("2017/06/12", "2020-03-27", "2021/8", "1988"), and the few written in words
#: ("Dec 20, 2006", "2012 Nov 26"), as the label reads them — the instrument's own reading, not the product's.
_NUMERIC_TAG_DATE = re.compile(r"(\d{4})(?:[-/](\d{1,2}))?(?:[-/](\d{1,2}))?")
_WORDED_TAG_DATES = ("%b %d, %Y", "%B %d, %Y", "%Y %b %d", "%Y %B %d", "%d %b %Y", "%d %B %Y")


def _tag_date(value: str) -> str | None:
    """A citation tag's date as a label writes it: YYYY-MM-DD, YYYY-MM or YYYY; None where it is none of those."""
    if numeric := _NUMERIC_TAG_DATE.fullmatch(value.strip()):
        year, month, day = numeric.groups()
        return "-".join([year, *(f"{int(part):02d}" for part in (month, day) if part)])
    for layout in _WORDED_TAG_DATES:
        try:
            return datetime.strptime(value.strip(), layout).date().isoformat()
        except ValueError:
            continue
    return None


def realweb_results(realweb: Path) -> dict[str, Any]:
    """../shared/realweb's item pages with citation tags, each field scored against those tags."""
    import lxml.html

    items = []
    for saved in read_saved_pages(realweb):
        if not saved.is_item:
            continue
        html = saved.file.read_bytes().decode(saved.charset, errors="replace")
        tree = lxml.html.document_fromstring(html.encode("utf-8"), parser=lxml.html.HTMLParser(encoding="utf-8"))
        tags: dict[str, list[str]] = {}
        for meta in tree.xpath("//meta[@name]"):
            value = " ".join((meta.get("content") or "").split())
            if value:
                tags.setdefault(meta.get("name").strip().lower(), []).append(value)
        if "citation_title" not in tags:
            continue
        authors = tags.get("citation_author", [])
        date = next(
            (tags[k][0] for k in ("citation_date", "citation_publication_date", "citation_online_date") if k in tags),
            None,
        )
        surname = (
            authors[0].split(",")[0] if authors and "," in authors[0] else (authors[0].split()[-1] if authors else None)
        )
        labels = PageLabels(
            page_kind="item",
            original_url=saved.original_url,
            title=tags["citation_title"][0],
            first_author=surname,
            authors_count=len(authors) if authors else None,
            date=_tag_date(date) if date else None,
        )
        row: dict[str, Any] = {"id": saved.file.name, "site": saved.site, "labels": labels}
        for name, read_with in SYSTEMS.items():
            read = read_with(html, saved.original_url)
            row[name] = {"read": read, "score": score_item(labels, read)}
        items.append(row)
    return {"items": items, "listings": [], "forms": [], "blocked": []}


#: The corpus's parts, batch by batch (each batch's development part, then the part it kept aside), as the corpus
#: reader names them.
PARTS = tuple(part for part in get_args(Part) if part != "dropped")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--part", choices=(*PARTS, "all"), default="development12")
    parser.add_argument("--corpus", default=None)
    parser.add_argument("--realweb", nargs="?", const=str(REALWEB), default=None)
    parser.add_argument("--quiet", action="store_true", help="figures only, no list of misses")
    parser.add_argument("--out", type=Path, default=OUT_DIR / "page_understanding.json")
    args = parser.parse_args()
    settings = Settings()
    root = corpus_dir(args.corpus, None if args.part == "all" else args.part)
    print(f"machine: {machine()}; corpus: {root}")
    document: dict[str, Any] = {"machine": machine(), "corpus": str(root), "parts": {}}
    held = corpus_parts(root)
    parts = tuple(part for part in PARTS if part in held) if args.part == "all" else (args.part,)
    for part in parts:
        pages = read_page_corpus(root, parts=(part,))
        sites = len({page.site for page in pages})
        summary = print_corpus(
            f"corpus, {part} part ({len(pages)} pages, {sites} sites)",
            measure_corpus(pages, settings),
            quiet=args.quiet,
        )
        document["parts"][part] = {"pages": len(pages), "sites": sites, **summary}
    if args.realweb:
        document["realweb"] = print_corpus(
            "realweb (scored against its pages' own tags)", realweb_results(Path(args.realweb)), quiet=args.quiet
        )
    write_json(args.out, document)


if __name__ == "__main__":
    main()
