"""The page stores. Revisits across runs: a page kept with its validators is asked for conditionally by the next
run's fetcher, a 304 costs no download (the kept page comes back, marked revisited), a changed page replaces it,
and the cache keeps to its size and age limits. The run archive and the revisit cache keep one format (raw HTML
included), and an entry that cannot be read back counts as absent."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from fault_server import FaultServer, Reply

from research_crawler.config.settings import FetchSettings
from research_crawler.errors import ConfigError
from research_crawler.pages.page import Determination, Page
from research_crawler.web.fetcher import Fetcher
from research_crawler.web.page_store import PageArchive, RevisitCache

PAGE_V1 = "<html><head><title>Listing v1</title></head><body><a href='/a'>Paper A on proteins</a></body></html>"
PAGE_V2 = (
    "<html><head><title>Listing v2</title></head><body><a href='/a'>Paper A on proteins</a>"
    "<a href='/b'>Paper B on proteins</a></body></html>"
)


def _cache(tmp_path: Path, **limits: float) -> RevisitCache:
    return RevisitCache(
        tmp_path / "pages.sqlite3",
        max_bytes=int(limits.get("max_bytes", 10_000_000)),
        max_age_s=limits.get("max_age_s", 3600.0),
    )


async def _fetch_in_a_new_run(settings: FetchSettings, cache: RevisitCache, url: str) -> Page:
    """Each run has its own Fetcher (its own in-memory page cache); only the revisit cache is shared."""
    async with Fetcher(settings, revisits=cache) as fetcher:
        return await fetcher.fetch(url)


async def test_a_revisit_is_a_conditional_request_and_a_304_downloads_nothing(
    tmp_path: Path, fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    fault_server.route(
        "/list",
        Reply(200, PAGE_V1, headers={"ETag": '"v1"'}),
        Reply(304, b"", content_type=None, headers={"ETag": '"v1"'}),
        Reply(200, PAGE_V2, headers={"ETag": '"v2"'}),
        Reply(304, b"", content_type=None, headers={"ETag": '"v2"'}),
    )
    cache = _cache(tmp_path)
    url = fault_server.url("/list")

    first = await _fetch_in_a_new_run(fast_settings, cache, url)
    assert first.ok and not first.revisited and first.title == "Listing v1"
    assert "if-none-match" not in fault_server.hits_for("/list")[0].headers

    second = await _fetch_in_a_new_run(fast_settings, cache, url)
    assert fault_server.hits_for("/list")[1].headers["if-none-match"] == '"v1"'
    assert second.ok and second.revisited and second.status == first.status == 200
    assert (second.title, second.markdown, second.links, second.html) == (
        first.title,
        first.markdown,
        first.links,
        first.html,
    )

    changed = await _fetch_in_a_new_run(fast_settings, cache, url)  # the site answers 200 with a new version
    assert changed.ok and not changed.revisited and changed.title == "Listing v2" and len(changed.links) == 2

    again = await _fetch_in_a_new_run(fast_settings, cache, url)
    assert fault_server.hits_for("/list")[3].headers["if-none-match"] == '"v2"'
    assert again.revisited and again.title == "Listing v2"
    assert len(fault_server.hits_for("/list")) == 4


async def test_last_modified_is_sent_back_as_if_modified_since(
    tmp_path: Path, fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    stamp = "Wed, 21 Oct 2025 07:28:00 GMT"
    fault_server.route("/p", Reply(200, PAGE_V1, headers={"Last-Modified": stamp}), Reply(304, b"", content_type=None))
    cache = _cache(tmp_path)
    await _fetch_in_a_new_run(fast_settings, cache, fault_server.url("/p"))
    page = await _fetch_in_a_new_run(fast_settings, cache, fault_server.url("/p"))
    assert fault_server.hits_for("/p")[1].headers["if-modified-since"] == stamp
    assert page.revisited and page.title == "Listing v1"


async def test_a_page_without_validators_or_past_its_age_is_fetched_in_full(
    tmp_path: Path, fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    fault_server.route("/plain", Reply(200, PAGE_V1))
    fault_server.route("/old", Reply(200, PAGE_V1, headers={"ETag": '"x"'}))
    fresh = _cache(tmp_path)
    for _ in range(2):
        page = await _fetch_in_a_new_run(fast_settings, fresh, fault_server.url("/plain"))
        assert not page.revisited
    assert all("if-none-match" not in hit.headers for hit in fault_server.hits_for("/plain"))

    aged = _cache(tmp_path / "aged", max_age_s=0.05)
    await _fetch_in_a_new_run(fast_settings, aged, fault_server.url("/old"))
    time.sleep(0.1)
    page = await _fetch_in_a_new_run(fast_settings, aged, fault_server.url("/old"))
    assert not page.revisited and "if-none-match" not in fault_server.hits_for("/old")[1].headers


async def test_a_304_whose_copy_went_meanwhile_is_fetched_again_in_full(
    tmp_path: Path, fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    class Forgetful(RevisitCache):
        def page(self, url: str) -> Page | None:
            return None  # as if another process evicted it between the request and the answer

    fault_server.route(
        "/p", Reply(200, PAGE_V1, headers={"ETag": '"v1"'}), Reply(304, b"", content_type=None), Reply(200, PAGE_V1)
    )
    await _fetch_in_a_new_run(fast_settings, _cache(tmp_path), fault_server.url("/p"))
    forgetful = Forgetful(tmp_path / "pages.sqlite3", max_bytes=10_000_000, max_age_s=3600)
    page = await _fetch_in_a_new_run(fast_settings, forgetful, fault_server.url("/p"))
    assert page.ok and not page.revisited and page.title == "Listing v1"
    hits = fault_server.hits_for("/p")
    assert len(hits) == 3 and "if-none-match" in hits[1].headers and "if-none-match" not in hits[2].headers


async def test_the_cache_keeps_under_its_size_dropping_the_pages_used_longest_ago(
    tmp_path: Path, fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    for n in range(6):
        words = f"unique words {n} " * 400
        body = f"<html><title>Page {n}</title><body>{words}</body></html>"
        fault_server.route(f"/p{n}", Reply(200, body, headers={"ETag": f'"{n}"'}))
    one_page = _cache(tmp_path / "probe")
    await _fetch_in_a_new_run(fast_settings, one_page, fault_server.url("/p0"))
    limit = one_page.total_bytes() * 3 + 100  # room for three pages
    cache = _cache(tmp_path, max_bytes=limit)
    for n in range(6):
        await _fetch_in_a_new_run(fast_settings, cache, fault_server.url(f"/p{n}"))
    assert 0 < cache.total_bytes() <= limit
    kept = [n for n in range(6) if cache.validators(fault_server.url(f"/p{n}"))]
    assert kept == [3, 4, 5]


async def test_the_setting_turns_it_on_with_its_own_file(
    tmp_path: Path, fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    fault_server.route("/p", Reply(200, PAGE_V1, headers={"ETag": '"v1"'}), Reply(304, b"", content_type=None))
    settings = fast_settings.model_copy(
        update={"revisit_cache": True, "revisit_cache_path": tmp_path / "own" / "pages.sqlite3"}
    )
    for expected in (False, True):
        async with Fetcher(settings) as fetcher:
            assert fetcher.revisits is not None
            page = await fetcher.fetch(fault_server.url("/p"))
        assert page.revisited is expected
    assert (tmp_path / "own" / "pages.sqlite3").is_file()
    async with Fetcher(fast_settings) as fetcher:
        assert fetcher.revisits is None  # off by default: only watch (or the setting) keeps pages across runs


async def test_a_cache_file_that_cannot_be_used_is_one_line_and_a_failing_one_a_miss(
    tmp_path: Path, fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    broken = tmp_path / "pages.sqlite3"
    broken.write_text("not a database " * 300, encoding="utf-8")
    settings = fast_settings.model_copy(update={"revisit_cache": True, "revisit_cache_path": broken})
    with pytest.raises(ConfigError) as caught:
        Fetcher(settings)
    assert "\n" not in str(caught.value) and "--set fetch.revisit_cache_path=FILE" in str(caught.value)

    fault_server.route("/p", Reply(200, PAGE_V1, headers={"ETag": '"v1"'}))
    cache = _cache(tmp_path / "ok")
    cache.close()  # every operation on a closed file fails: the fetch goes on as if nothing were kept
    page = await _fetch_in_a_new_run(fast_settings, cache, fault_server.url("/p"))
    assert page.ok and not page.revisited and page.title == "Listing v1"


def test_both_stores_give_back_the_page_they_kept_html_included_and_an_unreadable_entry_as_absent(
    tmp_path: Path,
) -> None:
    page = Page(
        url="https://example.org/a",
        final_url="https://example.org/b",
        status=200,
        determination=Determination.OK,
        html=PAGE_V2,
    )
    archive, cache = PageArchive(tmp_path / "pages"), _cache(tmp_path)
    archive.put(page)
    assert cache.put(page, {"etag": '"v2"'})
    from_archive, from_cache = archive.get("https://example.org/a"), cache.page("https://example.org/b")
    assert from_archive is not None and from_cache is not None
    assert from_archive.html == from_cache.html == PAGE_V2
    assert archive.get("https://example.org/b") is not None  # kept under the URL its redirect ended at too

    for path in (tmp_path / "pages").glob("*.json"):
        path.write_text('{"url": "https://example.org/a", "status": "not a number"', encoding="utf-8")
    assert archive.get("https://example.org/a") is None
    cache._db.execute("UPDATE pages SET page = ?", (b"not zlib",))
    assert cache.page("https://example.org/b") is None
    assert cache.validators("https://example.org/b") == {}  # the damaged entry was dropped: fetched in full next
    cache.close()
