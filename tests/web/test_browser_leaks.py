"""The browser we launch talks only through the URL guard's proxy: a page's WebRTC (STUN/TURN over UDP), prefetch,
preconnect and DNS prefetch reach no host the guard would refuse, and Chromium's own background traffic (updates,
components, sync, metrics) is switched off at launch."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fault_server import FaultServer, loopback_alias

from research_crawler.config.settings import FetchSettings
from research_crawler.web import browser
from research_crawler.web.browser import chromium_flags
from research_crawler.web.fetcher import Fetcher


class UdpCanary:
    """A UDP socket that counts every datagram it receives (a STUN/TURN server a page names)."""

    def __init__(self, host: str) -> None:
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self._socket.bind((host, 0))
        self._socket.settimeout(0.2)
        self.port = int(self._socket.getsockname()[1])
        self.datagrams = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._receive, daemon=True)
        self._thread.start()

    def _receive(self) -> None:
        while not self._stop.is_set():
            try:
                self._socket.recvfrom(4096)
            except TimeoutError:
                continue
            except OSError:
                return
            self.datagrams += 1

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        self._socket.close()


def _leaky_page(canary_host: str, http_port: int, udp_port: int) -> str:
    http = f"http://{canary_host}:{http_port}"
    return f"""<!doctype html><html><head><title>Leaky page</title>
<link rel="dns-prefetch" href="//leak-dns-prefetch.invalid">
<link rel="preconnect" href="{http}/preconnect">
<link rel="prefetch" href="{http}/prefetch">
<link rel="prerender" href="{http}/prerender">
</head><body><h1>Leaky page</h1><a href="{http}/hover">a link</a>
<img src="{http}/image.png">
<script>
  fetch("{http}/fetch").catch(function () {{}});
  try {{
    var peer = new RTCPeerConnection({{iceServers: [
      {{urls: "stun:{canary_host}:{udp_port}"}},
      {{urls: "turn:{canary_host}:{udp_port}?transport=udp", username: "u", credential: "p"}}
    ]}});
    peer.createDataChannel("leak");
    peer.createOffer().then(function (offer) {{ return peer.setLocalDescription(offer); }});
    peer.onicecandidate = function (event) {{
      if (event.candidate) {{ document.title = "candidate " + event.candidate.candidate; }}
    }};
  }} catch (error) {{ document.body.setAttribute("data-webrtc", String(error)); }}
</script></body></html>"""


@pytest.fixture
def canary_host() -> str:
    host = loopback_alias(3)
    if host is None:
        pytest.skip("127.0.0.3 cannot be bound here (the canary must be another loopback address)")
    return host


@pytest.fixture
def udp_canary(canary_host: str) -> Iterator[UdpCanary]:
    canary = UdpCanary(canary_host)
    yield canary
    canary.close()


def test_the_launch_flags_switch_off_background_traffic_and_non_proxied_udp(tmp_path: Path) -> None:
    flags = chromium_flags(user_data_dir=tmp_path, proxy_url="http://127.0.0.1:4100", as_root=False)
    for flag in (
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-domain-reliability",
        "--metrics-recording-only",
        "--disable-breakpad",
        "--no-pings",
        "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
        "--proxy-server=http://127.0.0.1:4100",
        "--proxy-bypass-list=<-loopback>",
    ):
        assert flag in flags, flag
    rules = next(flag for flag in flags if flag.startswith("--host-resolver-rules="))
    assert "MAP * ~NOTFOUND" in rules, "Chromium resolves no name itself: the proxy does"


def _net_log_events(path: Path) -> list[tuple[str, dict[str, Any]]]:
    """(event type, params) of a Chromium net log, which a browser that was killed leaves unterminated."""
    text = path.read_text(encoding="utf-8", errors="replace")
    head, _, body = text.partition('"events": [')
    names = {number: name for name, number in json.loads(head.rstrip().rstrip(",") + "}")["constants"][
        "logEventTypes"
    ].items()}
    events = []
    for line in body.splitlines():
        line = line.strip().rstrip(",")
        if line.startswith("{"):
            with contextlib.suppress(ValueError):
                event = json.loads(line)
                events.append((names.get(event["type"], "?"), event.get("params") or {}))
    return events


@pytest.mark.browser
async def test_a_pages_webrtc_prefetch_and_dns_prefetch_never_leave_the_proxy(
    fault_server: FaultServer,
    fast_settings: FetchSettings,
    canary_host: str,
    udp_canary: UdpCanary,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    net_log = tmp_path / "netlog.json"
    designed = browser.chromium_flags

    def with_net_log(**options: Any) -> list[str]:  # Chromium's own record of every socket and name lookup
        return [*designed(**options), f"--log-net-log={net_log}", "--net-log-capture-mode=Everything"]

    monkeypatch.setattr(browser, "chromium_flags", with_net_log)
    with FaultServer(canary_host) as canary:
        fault_server.page("/leaky", _leaky_page(canary_host, canary.port, udp_canary.port))
        # Only the page's own host:port is allowed: the canary's address is one the guard refuses.
        settings = fast_settings.model_copy(
            update={"allowed_hosts": [fault_server.host_port], "page_deadline_s": 15.0, "browser_wait_s": 2.0}
        )
        async with Fetcher(settings) as fetcher:
            page = await fetcher.fetch(fault_server.url("/leaky"), render="browser")
            time.sleep(1.0)  # ICE gathering and prefetches run on after the load: give them time to try
        assert page.ok and page.render == "browser", page.reason
        assert canary.hit_count == 0, [hit.path for hit in canary.page_hits]
    assert udp_canary.datagrams == 0, f"{udp_canary.datagrams} STUN/TURN datagrams went around the proxy"
    events = _net_log_events(net_log)
    kinds = {kind for kind, _ in events}
    assert "TCP_CONNECT" in kinds, "the net log holds no connection: the test proves nothing"
    lookups = kinds & {"DNS_TRANSACTION", "HOST_RESOLVER_DNS_TASK", "HOST_RESOLVER_SYSTEM_TASK"}
    assert not lookups, f"Chromium looked names up itself: {lookups}"
    sent = [params for kind, params in events if kind in ("UDP_BYTES_SENT", "UDP_SEND_ERROR")]
    assert not sent, f"Chromium sent UDP: {sent[:3]}"
    connected = {
        str(address)
        for kind, params in events
        if kind == "TCP_CONNECT"
        for address in params.get("address_list", [])
    }
    assert connected and all(address.startswith("127.0.0.1:") for address in connected), connected
    assert fault_server.host_port not in connected, "the page's host was reached around the proxy"
