"""The site pool: the packaged preprint sites, sites named by the user, and clear errors for a broken pool file."""

from __future__ import annotations

from pathlib import Path

import pytest

from research_crawler.config.site_pool import load_site_pool
from research_crawler.errors import ConfigError


def test_default_pool_has_the_preprint_sites() -> None:
    ids = [site.id for site in load_site_pool().sites]
    assert ids[:5] == ["arxiv", "biorxiv", "medrxiv", "chemrxiv", "springer"]
    assert {"pubmed", "acl"} <= set(ids)


def test_named_sites_join_the_pool_and_bad_ones_are_refused() -> None:
    pool = load_site_pool().with_named_sites(["arxiv.org/list/cs.LG", "http://127.0.0.1:8001/"])
    named = pool.named
    assert [site.url for site in named] == ["https://arxiv.org/list/cs.LG", "http://127.0.0.1:8001/"]
    assert named[0].id == "arxiv"
    with pytest.raises(ConfigError):
        load_site_pool().with_named_sites(["ftp://example.org/"])


def test_a_broken_pool_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "sites.toml"
    bad.write_text('[[site]]\nid = "x"\nname = "X"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="cannot read the site pool"):
        load_site_pool(bad)
    bad.write_text('[[site]]\nid = "x"\nname = "X"\nurl = "http://x.org/"\n' * 2, encoding="utf-8")
    with pytest.raises(ConfigError, match="repeats an id"):
        load_site_pool(bad)
