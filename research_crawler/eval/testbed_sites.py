"""Where the testbed sites of one evaluation live, and the ground truth and link graphs at those addresses.

Item URLs depend on the ports the testbed is served on, so they are resolved here: from a running
`TestbedServer`, or — when an evaluation is replayed from a recording — from the addresses it recorded in
``testbed.json``, so that recorded pages, ground truth and link graphs all agree.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import urlsplit

from research_crawler.context.durable_files import atomic_write_text
from research_crawler.errors import ConfigError
from research_crawler.eval.addresses import address_key
from research_crawler.eval.dataset import EvalDataset
from research_crawler.eval.metrics import GroundTruth, shortest_paths_from_root
from research_crawler.eval.testbed import Item, Testbed, TestbedServer, generate_testbed, link_graph

__all__ = ["TESTBED_FILE", "TestbedSites"]

#: The file of an evaluation's output directory that records the testbed's seed and addresses.
TESTBED_FILE = "testbed.json"


class TestbedSites:
    """The testbed `testbed` served at `base_urls` (site name → ``http://host:port/``)."""

    __test__ = False  # not a pytest test class despite the name

    def __init__(self, testbed: Testbed, base_urls: Mapping[str, str]) -> None:
        unknown = sorted(set(base_urls) - set(testbed.site_names()))
        if unknown:
            raise ConfigError(f"not testbed sites: {unknown}")
        self.testbed = testbed
        self.base_urls = dict(base_urls)
        self._paths: dict[str, dict[str, list[str]]] = {}
        self._lock = threading.Lock()

    @classmethod
    def from_server(cls, server: TestbedServer) -> TestbedSites:
        return cls(server.testbed, {name: server.base_url(name) for name in server.site_names()})

    @classmethod
    def read(cls, directory: Path) -> TestbedSites:
        """The testbed addresses recorded by an earlier evaluation in `directory`."""
        path = directory / TESTBED_FILE
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            seed, base_urls = int(data["seed"]), dict(data["base_urls"])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ConfigError(f"{directory} holds no readable testbed recording ({path}: {exc})") from exc
        return cls(generate_testbed(seed, unfamiliar=True), base_urls)

    @staticmethod
    def testbed_for(dataset: EvalDataset) -> Testbed:
        """The testbed web `dataset`'s sites are on: the five sites, or with the unfamiliar web when it needs it."""
        assert dataset.seed is not None  # a testbed dataset's validation requires it
        five = generate_testbed(dataset.seed)
        if set(dataset.site_names()) <= set(five.site_names()):
            return five
        return generate_testbed(dataset.seed, unfamiliar=True)

    def write(self, directory: Path) -> None:
        document = {"seed": self.testbed.seed, "base_urls": self.base_urls}
        atomic_write_text(directory / TESTBED_FILE, json.dumps(document, indent=2))

    def check(self, dataset: EvalDataset) -> None:
        """Raise ConfigError unless `dataset` was made from this testbed: same seed, known sites and items."""
        if dataset.seed != self.testbed.seed:
            raise ConfigError(
                f"dataset {dataset.name} was generated from testbed seed {dataset.seed}, "
                f"but the testbed in use has seed {self.testbed.seed}"
            )
        used = {q.site for q in dataset.queries}.union(*(q.run_sites for q in dataset.queries))
        missing_sites = sorted(used - set(self.base_urls))
        if missing_sites:
            raise ConfigError(f"the testbed in use does not serve {missing_sites}")
        known = {item.id for item in self.testbed.items}
        unknown = sorted({item for q in dataset.queries for item in q.relevant} - known)
        if unknown:
            raise ConfigError(f"dataset {dataset.name} names items the testbed does not hold: {unknown[:5]}")

    def base_url(self, site: str) -> str:
        try:
            return self.base_urls[site]
        except KeyError:
            raise ConfigError(f"the testbed in use does not serve {site!r}") from None

    def allowed_hosts(self) -> list[str]:
        """host:port of every site: an evaluation fetches nothing else."""
        return sorted({urlsplit(url).netloc for url in self.base_urls.values()})

    def ground_truth(self, site: str, item_ids: list[str]) -> GroundTruth:
        """The relevant works with the URLs they may be reported under: each copy's page, then its PDF, on the
        copy's own site (a work on two sites — a preprint and its journal version — is one entry, in the order
        of its first copy in `item_ids`)."""
        relevant: dict[str, list[str]] = {}
        for item_id in item_ids:
            item = self.testbed.item(item_id)
            urls = relevant.setdefault(item.work_id, [])
            urls += [url for url in self.urls_of(item) if url not in urls]
        return GroundTruth(relevant=relevant, site=site)

    def urls_of(self, item: Item) -> list[str]:
        """The canonical URLs `item` may be reported under: its page, then its PDF."""
        base = self.base_url(item.site).rstrip("/")
        return [address_key(base + item.path), address_key(base + item.pdf_path)]

    def paths_from_root(self, site: str) -> dict[str, list[str]]:
        """Shortest link paths from the site's root to each of its pages (computed once per site)."""
        with self._lock:
            if site not in self._paths:
                graph = link_graph(self.testbed, site, base_url=self.base_url(site))
                self._paths[site] = shortest_paths_from_root(graph)
            return self._paths[site]
