"""The evaluation's own reading of addresses, and that the modules that score runs use it, not the crawler's."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from research_crawler.eval.addresses import address_key, page_address, same_site

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("HTTP://Example.COM:80/a b?z=1&a=2#part", "http://example.com/a%20b?a=2&z=1"),
        ("https://example.com:443", "https://example.com/"),
        ("http://127.0.0.1:8123/p/", "http://127.0.0.1:8123/p/"),
        ("http://example.com./x", "http://example.com/x"),
        # Nothing is taken for a tracking or session parameter: the page a report names is the page it names.
        ("http://example.com/x?utm_source=feed", "http://example.com/x?utm_source=feed"),
        ("http://example.com/x;jsessionid=ab12", "http://example.com/x;jsessionid=ab12"),
    ],
)
def test_page_address_reads_an_address_as_a_browser_would_and_removes_nothing_else(url: str, expected: str) -> None:
    assert page_address(url) == expected


@pytest.mark.parametrize(
    "url", ["", "mailto:a@b.org", "ftp://example.com/f", "/relative/only", "http://[::1", "http://"]
)
def test_what_is_no_web_address_has_none(url: str) -> None:
    assert page_address(url) is None
    assert address_key(url) == url


def test_a_relative_address_is_read_against_its_page() -> None:
    assert page_address("../b?y=2&x=1", base="http://example.com/a/c/") == "http://example.com/a/b?x=1&y=2"


def test_same_site_takes_subdomains_and_www_and_tells_ports_apart() -> None:
    assert same_site("http://www.example.com/p", "http://example.com/")
    assert same_site("https://journals.example.com/p", "http://example.com/")
    assert not same_site("http://example.com.evil.org/", "http://example.com/")
    assert not same_site("http://127.0.0.1:8001/", "http://127.0.0.1:8002/")
    assert not same_site("not an address", "http://example.com/")


#: The modules that decide which report entry is which testbed page, and what the known answer is.
SCORING_MODULES = [
    "research_crawler/eval/metrics.py",
    "research_crawler/eval/work_figures.py",
    "research_crawler/eval/compliance.py",
    "research_crawler/eval/simulated_judge.py",
    "research_crawler/eval/testbed_sites.py",
    "research_crawler/eval/saved_sites_server.py",
    "research_crawler/eval/testbed/server.py",
    "research_crawler/eval/reliability/faulty_testbed.py",
    "research_crawler/eval/reliability/one_work_cases.py",
    "benchmarks/page_understanding.py",
    "benchmarks/peer_crawl4ai.py",
]


@pytest.mark.parametrize("path", SCORING_MODULES)
def test_scoring_never_tells_pages_apart_with_the_crawlers_own_url_code(path: str) -> None:
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    assert "research_crawler.context.urls" not in imported
