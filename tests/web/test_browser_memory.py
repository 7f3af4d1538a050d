"""The browser's bounds count what arrives: a page that allocates in its scripts or inflates a compression bomb is
stopped at the memory a page may take in Chromium, and one that loads more than a render may receive is cut at the
guard proxy; each is reported too large (never retried), and the browser goes on with the next page."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import pytest
from fault_server import FaultServer, Reply, gzip_bomb

from research_crawler.config.settings import FetchSettings
from research_crawler.eval.reliability.resource_cases import GROWING_PAGE
from research_crawler.pages.page import Determination
from research_crawler.web.browser import ChromiumProcess, chromium_flags, chromium_process_count
from research_crawler.web.browser_memory import MemoryBound
from research_crawler.web.fetcher import Fetcher

#: Array buffers live outside V8's heap: only the watch on the renderer's memory stops them. The script runs before the
#: page has loaded, so the render lasts until its renderer is stopped.
BUFFERS = GROWING_PAGE
#: Plain arrays live in V8's heap: its limit (half the page's memory) ends the renderer first.
ARRAYS = BUFFERS.replace(
    "var b = new Uint8Array(8000000); b.fill(i % 250); kept.push(b);", "kept.push(new Array(1e6).fill(i + 0.5));"
)
assert ARRAYS != BUFFERS, "the arrays page is its own"
FETCHES_A_BLOB = """<html><body><p id="said">a page</p><script>
fetch("/blob").then(function (r) { return r.arrayBuffer(); }).then(function (b) {
  document.getElementById("said").textContent = "got " + b.byteLength; });
</script></body></html>"""
PLAIN = "<html><head><title>plain</title></head><body><p>A plain page after a page too large.</p></body></html>"


@pytest.fixture
def bounded(fast_settings: FetchSettings) -> FetchSettings:
    """A page may take 384 MB in the browser (a plain page's renderer takes about 150), a render receive 8 MiB."""
    update = {"page_deadline_s": 30.0, "browser_wait_s": 0.5, "browser_max_memory_mb": 384,
              "max_render_bytes": 8 * 1024 * 1024}  # fmt: skip
    return fast_settings.model_copy(update=update)


def test_a_pages_javascript_heap_is_limited_at_launch(tmp_path: Path) -> None:
    flags = chromium_flags(user_data_dir=tmp_path, js_heap_mb=512)
    assert "--js-flags=--max-old-space-size=512" in flags
    assert not any(flag.startswith("--js-flags") for flag in chromium_flags(user_data_dir=tmp_path))


class _Tree:
    """A browser's process tree as the bound reads it: (total, largest renderer) in MiB, per reading."""

    def __init__(self, *readings: tuple[float, float]) -> None:
        self.readings = [(100.0, 0.0), *readings]  # the first reading is the browser at launch
        self.stopped: list[float] = []

    def memory(self) -> tuple[float, float]:
        return self.readings.pop(0) if len(self.readings) > 1 else self.readings[0]

    def stop_largest_renderer(self) -> float | None:
        largest = self.readings[0][1] if self.readings else 0.0
        if not largest:
            return None
        self.stopped.append(largest)
        return largest


def _bound(tree: _Tree) -> MemoryBound:
    return MemoryBound(cast(ChromiumProcess, tree), max_mb=100, interval_s=0.0)


async def test_a_renderer_past_its_bound_is_stopped_and_the_browser_kept() -> None:
    tree = _Tree((180.0, 50.0), (260.0, 150.0), (150.0, 40.0), (150.0, 40.0))
    bound = _bound(tree)
    for _ in range(3):
        await bound.check()
    assert bound.stops == 1 and not bound.worn_out, "within its bounds again once that renderer is gone"


async def test_a_browser_that_stays_past_its_bound_is_worn_out() -> None:
    # the tree may hold 100 + 3 * 100 MB; it grows past that with every renderer small, and stays there
    tree = _Tree((450.0, 60.0), (420.0, 30.0), (420.0, 30.0))
    bound = _bound(tree)
    await bound.check()
    assert bound.stops == 1 and not bound.worn_out, "the largest renderer is stopped first"
    await bound.check()
    assert bound.worn_out and bound.stops == 1, "then no other page is stopped: the browser is relaunched"
    await bound.check()
    assert bound.stops == 1


async def test_a_browser_past_its_bound_with_no_renderer_is_worn_out() -> None:
    bound = _bound(_Tree((500.0, 0.0)))
    await bound.check()
    assert bound.worn_out and bound.stops == 0


@pytest.mark.browser
@pytest.mark.parametrize("page", ["buffers", "arrays", "gzip bomb"])
async def test_a_page_that_grows_in_the_browser_is_stopped_and_reported_too_large(
    fault_server: FaultServer, bounded: FetchSettings, page: str
) -> None:
    if page == "gzip bomb":  # 600 MB of text from a body of 600 kB: the renderer holds the page it inflates
        fault_server.route("/grows", Reply(200, gzip_bomb(600 * 1024 * 1024), headers={"Content-Encoding": "gzip"}))
    else:
        fault_server.page("/grows", BUFFERS if page == "buffers" else ARRAYS)
    fault_server.page("/plain", PLAIN)
    async with Fetcher(bounded) as fetcher:
        grown = await fetcher.fetch(fault_server.url("/grows"), render="browser")
        browser = fetcher._browser  # the test looks inside at the browser's processes
        assert browser is not None and browser._chromium is not None
        _, largest = browser._chromium.memory()
        after = await fetcher.fetch(fault_server.url("/plain"), render="browser")
    assert grown.determination is Determination.TOO_LARGE, (grown.determination, grown.reason)
    assert "took more memory in the browser than a page may (384 MB, its scripts 192 MB)" in grown.reason
    assert grown.attempts == 1, "a page too large is not rendered again"
    assert largest < 384, f"a renderer still holds {largest:.0f} MB"
    assert fault_server.hits_for("/grows") and len(fault_server.hits_for("/grows")) == 1
    assert after.ok and "a page too large" in after.markdown, "the browser goes on with the next page"


@pytest.mark.browser
async def test_a_render_that_receives_more_than_it_may_is_cut_at_the_proxy(
    fault_server: FaultServer, bounded: FetchSettings
) -> None:
    for name, size in (("big", 40 * 1024 * 1024), ("small", 1024 * 1024)):
        fault_server.page(f"/{name}", FETCHES_A_BLOB.replace("/blob", f"/{name}.bin"))
        fault_server.route(f"/{name}.bin", Reply(200, b"\0" * size, content_type="application/octet-stream"))
    async with Fetcher(bounded) as fetcher:
        page = await fetcher.fetch(fault_server.url("/big"), render="browser")
        small = await fetcher.fetch(fault_server.url("/small"), render="browser")
    assert page.determination is Determination.TOO_LARGE and page.attempts == 1
    assert page.reason == f"the page and what it loads passed {8 * 1024 * 1024} bytes: its render was cut"
    assert small.ok and "got 1048576" in small.markdown, "what stays within the bound is read whole"


@pytest.mark.browser
async def test_a_browser_left_past_its_bound_is_relaunched_and_the_next_page_read(
    fault_server: FaultServer, bounded: FetchSettings
) -> None:
    fault_server.page("/plain", PLAIN)
    # the page stalls 1.5 s before its body: the memory watch (every 0.25 s) reads the browser while it renders, on
    # a quiet machine as on a busy one
    fault_server.route("/other", Reply(200, PLAIN.replace("plain", "other"), stall_s=1.5))
    fault_server.page("/third", PLAIN)
    async with Fetcher(bounded) as fetcher:
        first = await fetcher.fetch(fault_server.url("/plain"), render="browser")
        session = fetcher._browser  # the test looks inside: the browser is made to seem past its bound
        assert session is not None and session._memory is not None and session._chromium is not None
        old = session._chromium
        bound: Any = session._memory
        bound._tree_bound_mb = 0.0
        stopped = await fetcher.fetch(fault_server.url("/other"), render="browser")
        assert session.relaunches == 1 and session._chromium is not old
        assert old._process.returncode is not None, "the worn-out browser is ended"
        assert chromium_process_count(old.user_data_dir) == 0, "and every process of it"
        new = session._chromium
        after = await fetcher.fetch(fault_server.url("/third"), render="browser")
    assert first.ok
    # the renderer stopped for the tree is the largest one, this page's or the browser's own blank tab's
    assert stopped.ok or stopped.determination is Determination.TOO_LARGE, (stopped.determination, stopped.reason)
    assert after.ok and "a page too large" in after.markdown, "the relaunched browser reads the next page"
    assert chromium_process_count(new.user_data_dir) == 0


@pytest.mark.browser
def test_the_reliability_catalogues_case_holds() -> None:
    from research_crawler.eval.reliability import resource_cases  # noqa: F401 - registers the group's cases
    from research_crawler.eval.reliability.catalogue import registered_cases, run_case

    (found,) = [entry for entry in registered_cases(["resource bounds"]) if "grows in Chromium" in entry[1]]
    result = run_case(*found)
    assert result.held, result.detail
    assert "grows: too_large" in result.detail and "bomb: too_large" in result.detail
