"""The fresh held-out sites (`eval/testbed/fresh_heldout.py`) as built: their pages, and requests whose ground truth
lies on them. No crawler runs here: their first benchmark run is the measure (benchmarks/unfamiliar_sites.py)."""

from __future__ import annotations

from research_crawler.eval.table import HELDOUT_SITES
from research_crawler.eval.testbed.fresh_heldout import FRESH_PLANS, FRESH_SITE_SPECS
from research_crawler.eval.testbed.layouts import make_site_app, offline_links
from research_crawler.eval.testbed.site_app import Request
from research_crawler.eval.testbed.unfamiliar_corpus import generate_unfamiliar_web


def _get(site: str, path: str, **query: str) -> str:
    web = generate_unfamiliar_web(2024)
    app = make_site_app(web, site, offline_links(web, site))
    response = app.handle(Request(method="GET", path=path, query={k: [v] for k, v in query.items()}))
    assert response.status == 200, (site, path, response.status)
    return response.body.decode()


def test_each_fresh_site_has_its_requests_with_ground_truth_on_it_and_is_held_out() -> None:
    web = generate_unfamiliar_web(2024)
    for spec in FRESH_SITE_SPECS:
        queries = [q for q in web.queries if q.site == spec.name]
        assert len(queries) == len(FRESH_PLANS[spec.name]) and spec.name in HELDOUT_SITES
        for query in queries:
            assert query.relevant_item_ids and all(web.item(i).site == spec.name for i in query.relevant_item_ids)


def test_the_working_papers_are_paged_newest_first_and_their_pages_carry_no_tags() -> None:
    web = generate_unfamiliar_web(2024)
    newest = sorted(web.items_on("fresh-bulletin"), key=lambda item: item.date, reverse=True)
    second = _get("fresh-bulletin", "/papers", page="2")
    assert newest[6].path in second and newest[5].path not in second and 'rel="next"' in second
    paper = _get("fresh-bulletin", newest[0].path)
    assert "citation_" not in paper and "DC." not in paper and "Released on" in paper and "Written by" in paper


def test_the_observatory_opens_on_a_language_chooser() -> None:
    chooser = _get("fresh-lang", "/")
    assert 'href="/en/"' in chooser and "Choose your language" in chooser and "/en/publication/" not in chooser
    assert "/en/collection/" in _get("fresh-lang", "/en/")
