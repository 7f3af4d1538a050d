"""Shared fixtures: the testbed web, loopback fault servers, fast fetch settings, and the browser-test rule for CI.

Browser tests (``@pytest.mark.browser``) need a system Chromium. Without one they skip on a developer's
machine but FAIL when ``CI=true``: a CI run must never pass by silently skipping them.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_rule import browser_gate, chromium_found
from fault_server import FaultServer
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from research_crawler.config.settings import FetchSettings
from research_crawler.eval.testbed import TestbedServer, generate_testbed
from research_crawler.eval.testbed.models import Testbed

#: Property tests take as long as they take: these machines are shared and a test run's load varies, so Hypothesis's
#: per-example deadline (200 ms) and its too-slow check would fail a correct property at random (the speed targets
#: are benchmarks').
hypothesis_settings.register_profile("shared-machines", deadline=None, suppress_health_check=[HealthCheck.too_slow])
hypothesis_settings.load_profile("shared-machines")

# The suite never writes into the user's own library or page cache (`ask` records into the library by default): the
# user data and cache folders point into one scratch directory for the session, subprocesses included. Model weights
# already downloaded stay where they are.
os.environ.setdefault("HF_HOME", str(Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "huggingface"))
_SCRATCH_HOME = Path(tempfile.mkdtemp(prefix="research-crawler-tests-"))
atexit.register(shutil.rmtree, _SCRATCH_HOME, ignore_errors=True)
os.environ["XDG_DATA_HOME"] = str(_SCRATCH_HOME / "data")
os.environ["XDG_CACHE_HOME"] = str(_SCRATCH_HOME / "cache")


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("browser") is None:
        return
    gate = browser_gate(chromium_found=chromium_found(), ci=os.environ.get("CI"))
    if gate == "fail":
        pytest.fail(
            "this browser test needs Chromium, which is missing, and CI=true forbids skipping it: "
            "install it with `apt-get install chromium` (or run scripts/setup.sh)",
            pytrace=False,
        )
    if gate == "skip":
        pytest.skip("no Chromium on this machine (apt-get install chromium); under CI=true this fails")


@pytest.fixture
def fault_server() -> Iterator[FaultServer]:
    """A programmable server on 127.0.0.1:<free port>; robots.txt answers 404 (allow all) by default."""
    server = FaultServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def other_server() -> Iterator[FaultServer]:
    """A second host (another port) for tests where hosts must not hold each other back."""
    server = FaultServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def fast_settings() -> FetchSettings:
    """Fetch settings scaled down so fault tests take fractions of a second.

    The URL guard refuses loopback by default; these tests' servers all listen on 127.0.0.1 (any port), which
    is allowed here explicitly. The SSRF tests (tests/security/) use exact host:port allowlists instead.
    """
    return FetchSettings(
        allowed_hosts=["127.0.0.1"],
        per_host_delay_s=0.0,
        connect_timeout_s=2.0,
        read_timeout_s=2.0,
        page_deadline_s=5.0,
        backoff_base_s=0.05,
        backoff_max_s=0.2,
        max_retry_after_s=5.0,
        browser_wait_s=0.2,
    )


@pytest.fixture(scope="session")
def testbed() -> Testbed:
    """The testbed web's content (generated once per test session, from the default seed)."""
    return generate_testbed()


@pytest.fixture(scope="session")
def testbed_server(testbed: Testbed) -> Iterator[TestbedServer]:
    """The testbed web served on loopback (one port per site), with its slow pages 0.3 s slow."""
    with TestbedServer(testbed, slow_seconds=0.3) as server:
        yield server
