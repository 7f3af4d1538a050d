"""The system Chromium, launched headless by us and reached over CDP (never Playwright's browser download).

Closing it ends its whole process group and removes its temporary profile, so long runs leak no
browsers (crawl4ai #943, #2202); `chromium_process_count` lets tests check exactly that.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import signal
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import psutil

from research_crawler.config.settings import FetchSettings
from research_crawler.errors import BrowserError

__all__ = [
    "CHROMIUM_NAMES",
    "BrowserHandle",
    "ChromiumProcess",
    "chromium_flags",
    "chromium_process_count",
    "find_chromium",
    "launch_chromium",
]

logger = logging.getLogger(__name__)

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
_DIR_PREFIX = "research-crawler-chromium-"
_INSTALL_HINT = (
    "install it with `apt-get install chromium` (Debian/Ubuntu; `chromium-browser` elsewhere), "
    "or set RESEARCH_CRAWLER_FETCH__CHROMIUM_PATH to its binary, "
    "or RESEARCH_CRAWLER_FETCH__CDP_URL to a running browser"
)
_POLL_S = 0.1
_STOP_GRACE_S = 5.0
_MIB = 1024 * 1024
#: How long the list of the browser's processes is reused (finding them scans all of /proc; their sizes are read
#: afresh every time).
_MEMBERS_TTL_S = 0.5


@dataclass(frozen=True, slots=True)
class BrowserHandle:
    """Where a browser listens (its CDP URL) and, when we launched it, its process and profile."""

    cdp_url: str
    pid: int | None = None
    user_data_dir: Path | None = None


def find_chromium(explicit: str | None = None) -> str:
    """The Chromium binary to run: `explicit` (a path or a name on PATH), else the first of CHROMIUM_NAMES."""
    if explicit:
        found = shutil.which(explicit)
        if found is None:
            raise BrowserError(f"the configured Chromium {explicit!r} is not an executable; {_INSTALL_HINT}")
        return found
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found is not None:
            return found
    raise BrowserError(
        "a JavaScript-rendered page needs Chromium, but none was found on PATH "
        f"({', '.join(CHROMIUM_NAMES)}); "
        f"{_INSTALL_HINT}"
    )


#: Chromium's own traffic, switched off: update and component checks, sync, metrics and crash uploads, Safe
#: Browsing lists, hyperlink-auditing pings, network-time and translation queries, the media router's discovery.
_QUIET_FLAGS = (
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-domain-reliability",
    "--disable-breakpad",
    "--disable-client-side-phishing-detection",
    "--safebrowsing-disable-auto-update",
    "--metrics-recording-only",
    "--no-pings",
    "--no-default-browser-check",
    "--disable-default-apps",
    "--disable-extensions",
    "--disable-component-extensions-with-background-pages",
    "--disable-features=MediaRouter,DialMediaRouteProvider,OptimizationHints,Translate,NetworkTimeServiceQuerying,"
    "CertificateTransparencyComponentUpdater,AutofillServerCommunication,InterestFeedContentSuggestions,"
    "DnsOverHttps,NetworkPrediction",
)


def chromium_flags(
    *,
    user_data_dir: Path,
    port: int = 0,
    proxy_url: str | None = None,
    as_root: bool | None = None,
    js_heap_mb: int | None = None,
) -> list[str]:
    """The command-line flags of DESIGN §4. Port 0 lets Chromium pick a free port and write it down.

    With `proxy_url` (the URL guard's proxy) every connection the browser makes goes through it, loopback
    included; Chromium resolves no name itself (the proxy does, and checks it) and WebRTC may not send UDP around
    the proxy, so a page's STUN/TURN, prefetch and DNS prefetch cannot reach a host the guard refuses. With
    `js_heap_mb`, a page's JavaScript heap stops there (V8's old space: its renderer ends, out of memory).
    """
    heap = [f"--js-flags=--max-old-space-size={js_heap_mb}"] if js_heap_mb is not None else []
    flags = [
        "--headless",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        *_QUIET_FLAGS,
        "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
        "--webrtc-ip-handling-policy=disable_non_proxied_udp",
        *heap,
        f"--remote-debugging-port={port}",
        f"--user-data-dir={user_data_dir}",
    ]
    if proxy_url is not None:
        flags += [
            f"--proxy-server={proxy_url}",
            "--proxy-bypass-list=<-loopback>",  # Chromium sends loopback direct otherwise
            f"--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE {urlsplit(proxy_url).hostname}",
        ]
    root = os.geteuid() == 0 if as_root is None else as_root
    if root:
        flags.append("--no-sandbox")  # Chromium refuses to start as root with its sandbox on
    return flags


def _profile_prefix() -> str:
    """The start of the name of every profile this process gives a browser it launches: its pid is in it, so the
    browsers of other processes on the machine (another run, another test session) are never counted as ours."""
    return f"{_DIR_PREFIX}{os.getpid()}-"


def chromium_process_count(user_data_dir: Path | str | None = None) -> int:
    """Running processes whose command line names `user_data_dir` (default: any profile this process launched a
    browser with, whether or not the process is still its child).

    Read from /proc; 0 where /proc does not exist.
    """
    if user_data_dir is not None:
        needle = f"--user-data-dir={user_data_dir}"
    else:
        needle = f"--user-data-dir={Path(tempfile.gettempdir()) / _profile_prefix()}"
    return len(_pids_whose_cmdline_contains(needle))


def _pids_whose_cmdline_contains(needle: str) -> list[int]:
    # Chromium's helpers rewrite their argv into one space-separated string, so match anywhere in it.
    wanted = needle.encode()
    pids: list[int] = []
    proc = Path("/proc")
    if not proc.is_dir():
        return pids
    own = os.getpid()
    for entry in proc.iterdir():
        if not entry.name.isdigit() or int(entry.name) == own:
            continue
        try:
            command_line = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if wanted in command_line:
            pids.append(int(entry.name))
    return pids


class ChromiumProcess:
    """A headless Chromium we launched: its CDP endpoint, and a `close` that leaves nothing behind."""

    def __init__(self, process: asyncio.subprocess.Process, *, handle: BrowserHandle, work_dir: Path) -> None:
        self._process = process
        self._work_dir = work_dir
        self.handle = handle
        self._members: list[tuple[psutil.Process, bool]] = []  # its processes, and which are renderers
        self._members_read = -_MEMBERS_TTL_S

    @property
    def cdp_url(self) -> str:
        """The http://127.0.0.1:<port> DevTools endpoint."""
        return self.handle.cdp_url

    @property
    def user_data_dir(self) -> Path:
        """The fresh temporary profile this browser runs with."""
        assert self.handle.user_data_dir is not None
        return self.handle.user_data_dir

    @property
    def running(self) -> bool:
        """True while the main browser process has not exited."""
        return self._process.returncode is None

    @classmethod
    async def launch(cls, settings: FetchSettings, *, proxy_url: str | None = None) -> ChromiumProcess:
        """Start Chromium (all its traffic through `proxy_url`, the URL guard's proxy, when given) and wait until
        its ``/json/version`` answers; BrowserError when it cannot."""
        binary = find_chromium(settings.chromium_path)
        work_dir = Path(tempfile.mkdtemp(prefix=_profile_prefix()))
        profile = work_dir / "profile"
        profile.mkdir()
        stderr_path = work_dir / "stderr.log"
        try:
            with stderr_path.open("wb") as stderr:
                process = await asyncio.create_subprocess_exec(
                    binary,
                    *chromium_flags(
                        user_data_dir=profile, proxy_url=proxy_url, js_heap_mb=settings.browser_max_memory_mb // 2
                    ),
                    "about:blank",
                    stdin=asyncio.subprocess.DEVNULL,
                    stdout=asyncio.subprocess.DEVNULL,
                    stderr=stderr,
                    start_new_session=True,  # its own process group, so close() can end all of it
                )
        except OSError as exc:
            shutil.rmtree(work_dir, ignore_errors=True)
            raise BrowserError(f"could not start Chromium at {binary}: {exc}") from exc
        chromium = cls(
            process,
            handle=BrowserHandle(cdp_url="", pid=process.pid, user_data_dir=profile),
            work_dir=work_dir,
        )
        try:
            port = await asyncio.wait_for(chromium._wait_for_endpoint(), settings.browser_start_timeout_s)
        except BaseException as exc:
            tail = chromium._stderr_tail()
            await chromium.close()
            if isinstance(exc, TimeoutError):
                raise BrowserError(
                    f"Chromium ({binary}) did not open its DevTools endpoint within "
                    f"{settings.browser_start_timeout_s:.0f} s; its stderr ends with:\n{tail}"
                ) from exc
            raise
        chromium.handle = BrowserHandle(cdp_url=f"http://127.0.0.1:{port}", pid=process.pid, user_data_dir=profile)
        logger.info("started Chromium pid %d, DevTools at %s", process.pid, chromium.cdp_url)
        return chromium

    def memory(self) -> tuple[float, float]:
        """What the browser's processes hold in memory together, and its largest renderer (resident sizes, MiB)."""
        sizes = self._sizes()
        largest = max((rss for rss, renderer, _ in sizes if renderer), default=0)
        return sum(rss for rss, _, _ in sizes) / _MIB, largest / _MIB

    def stop_largest_renderer(self) -> float | None:
        """End (SIGKILL) the renderer process holding the most memory — the page that grew —, and say how much it
        held (MiB); None when there is no renderer. The browser lives on; that page's tab reports a crash."""
        renderers = [(rss, process) for rss, renderer, process in self._sizes() if renderer]
        if not renderers:
            return None
        rss, largest = max(renderers, key=lambda entry: entry[0])
        with contextlib.suppress(psutil.Error):
            largest.kill()
        return rss / _MIB

    def _sizes(self) -> list[tuple[int, bool, psutil.Process]]:
        """(resident set size, is a renderer, process) of the browser's main process and every process under it.
        Who they are is read again every `_MEMBERS_TTL_S`; their sizes every time."""
        now = time.monotonic()
        if now - self._members_read > _MEMBERS_TTL_S:
            try:
                main = psutil.Process(self._process.pid)
                members = [main, *main.children(recursive=True)]
            except psutil.Error:
                members = []
            known = {process.pid: renderer for process, renderer in self._members}
            self._members = [
                (process, known[process.pid] if process.pid in known else _is_renderer(process)) for process in members
            ]
            self._members_read = now
        sizes = []
        for process, renderer in self._members:
            with contextlib.suppress(psutil.Error):
                sizes.append((process.memory_info().rss, renderer, process))
        return sizes

    async def _wait_for_endpoint(self) -> int:
        """Poll for the DevToolsActivePort file, then for ``/json/version`` on that port."""
        port_file = self.user_data_dir / "DevToolsActivePort"
        async with httpx.AsyncClient(trust_env=False, timeout=2.0) as client:
            while True:
                if self._process.returncode is not None:
                    raise BrowserError(
                        f"Chromium exited at start with status {self._process.returncode}; "
                        "its stderr ends with:\n"
                        f"{self._stderr_tail()}"
                    )
                port = _read_port(port_file)
                if port is not None:
                    with contextlib.suppress(httpx.HTTPError, ValueError):
                        response = await client.get(f"http://127.0.0.1:{port}/json/version")
                        if response.status_code == 200 and "webSocketDebuggerUrl" in response.json():
                            return port
                await asyncio.sleep(_POLL_S)

    def _stderr_tail(self, lines: int = 15) -> str:
        try:
            text = (self._work_dir / "stderr.log").read_text(errors="replace")
        except OSError:
            return "(no stderr)"
        return "\n".join(text.strip().splitlines()[-lines:]) or "(empty)"

    async def close(self) -> None:
        """End the browser's whole process group (TERM, then KILL) and remove its profile; safe to repeat."""
        pid = self._process.pid
        if self._process.returncode is None:
            _signal_group(pid, signal.SIGTERM)
            try:
                await asyncio.wait_for(self._process.wait(), _STOP_GRACE_S)
            except TimeoutError:
                _signal_group(pid, signal.SIGKILL)
                await self._process.wait()
        # Children that outlived the main process (zygotes, renderers) are still in its group.
        _signal_group(pid, signal.SIGKILL)
        for _ in range(int(_STOP_GRACE_S / _POLL_S)):
            leftovers = _pids_whose_cmdline_contains(f"--user-data-dir={self.user_data_dir}")
            if not leftovers:
                break
            for leftover in leftovers:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(leftover, signal.SIGKILL)
            await asyncio.sleep(_POLL_S)
        shutil.rmtree(self._work_dir, ignore_errors=True)


def _is_renderer(process: psutil.Process) -> bool:
    try:
        return "--type=renderer" in process.cmdline()
    except psutil.Error:
        return False


def _signal_group(pid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, sig)


def _read_port(port_file: Path) -> int | None:
    try:
        first_line = port_file.read_text().splitlines()[0]
        port = int(first_line)
    except (OSError, IndexError, ValueError):
        return None
    return port if 0 < port < 65536 else None


async def launch_chromium(settings: FetchSettings, *, proxy_url: str | None = None) -> ChromiumProcess:
    """Launch the system Chromium headless with a fresh profile (see `ChromiumProcess.launch`)."""
    return await ChromiumProcess.launch(settings, proxy_url=proxy_url)
