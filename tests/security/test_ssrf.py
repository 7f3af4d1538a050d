"""SSRF (RELIABILITY.md): with the allowlist naming only the fixture server (host:port), no request reaches the
"admin" server — not by any spelling of its address, not through a redirect hop, not through robots.txt, not
through the browser, and not through a DNS answer that changes after the check.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from fault_server import FaultServer, Reply, loopback_alias

from research_crawler.config.settings import FetchSettings
from research_crawler.pages.page import Determination
from research_crawler.web.fetcher import Fetcher

AdminServers = Any  # tests/security/conftest.py: the admin servers (one port, every loopback address)

LISTING = "<html><head><title>Listing</title></head><body><a href='/abs/1'>Paper one</a></body></html>"


def redirect(location: str, status: int = 302) -> Reply:
    return Reply(status, "", headers={"Location": location})


def admin_targets(admin: AdminServers) -> list[str]:
    port = admin.port
    return [
        f"http://127.0.0.1:{port}/",
        f"http://127.0.0.2:{port}/",
        f"http://[::1]:{port}/",
        f"http://[::ffff:127.0.0.1]:{port}/",
        f"http://0.0.0.0:{port}/",
        f"http://0:{port}/",
        f"http://2130706433:{port}/",
        f"http://0x7f.1:{port}/",
        f"http://0x7f000001:{port}/",
        f"http://127.1:{port}/",
        f"http://localhost:{port}/",
        f"http://localhost.:{port}/",
        f"http://allowed@127.0.0.1:{port}/",
        f"http://allowed.com.evil:{port}/",
        f"http://10.0.0.1:{port}/",
        f"http://172.16.0.1:{port}/",
        f"http://192.168.0.1:{port}/",
        f"http://169.254.169.254:{port}/latest/meta-data/",
        f"http://100.64.0.1:{port}/",
        f"http://224.0.0.1:{port}/",
        f"http://[fe80::1]:{port}/",
        f"http://[fd00::1]:{port}/",
    ]


def evil_resolver(make_resolver: Any) -> Any:
    # An attacker's DNS: names that look harmless (or look like the allowed host) answer with loopback.
    return make_resolver({"allowed.com.evil": [["127.0.0.1"]], "localhost": [["127.0.0.1", "::1"]]})


# -- direct requests ----------------------------------------------------------------------------------


async def test_the_allowed_fixture_server_is_fetched(guarded: FetchSettings, fault_server: FaultServer) -> None:
    fault_server.page("/list", LISTING)
    async with Fetcher(guarded) as fetcher:
        page = await fetcher.fetch(fault_server.url("/list"))
    assert page.ok, page.reason


async def test_every_spelling_of_a_non_public_address_is_refused_before_connecting(
    guarded: FetchSettings, admin: AdminServers, make_resolver: Any
) -> None:
    async with Fetcher(guarded, resolver=evil_resolver(make_resolver)) as fetcher:
        for url in admin_targets(admin):
            page = await fetcher.fetch(url)
            assert page.determination is Determination.REFUSED, (url, page.determination, page.reason)
            assert page.reason.startswith("refused by the URL guard"), page.reason
            assert page.attempts == 0 and page.status is None, url
            raw = await fetcher.fetch_raw(url)
            assert raw.determination is Determination.REFUSED, url
    assert admin.hits == []


async def test_the_refusal_reason_names_the_rule(guarded: FetchSettings, admin: AdminServers) -> None:
    async with Fetcher(guarded) as fetcher:
        metadata = await fetcher.fetch("http://169.254.169.254/latest/meta-data/")
        decimal = await fetcher.fetch(f"http://2130706433:{admin.port}/")
        credentials = await fetcher.fetch(f"http://allowed@127.0.0.1:{admin.port}/")
    assert "169.254.169.254 is a link-local address" in metadata.reason
    assert "2130706433 (another spelling of 127.0.0.1) is a loopback address" in decimal.reason
    assert "credentials" in credentials.reason


@pytest.mark.parametrize("scheme_url", ["file:///etc/passwd", "gopher://127.0.0.1:70/_x", "data:text/html,hi"])
async def test_other_schemes_are_refused(guarded: FetchSettings, scheme_url: str) -> None:
    async with Fetcher(guarded) as fetcher:
        page = await fetcher.fetch(scheme_url)
    assert page.determination is Determination.REFUSED and "only http(s)" in page.reason


async def test_the_guard_is_on_by_default_and_robots_txt_is_not_fetched_either(fault_server: FaultServer) -> None:
    fault_server.page("/list", LISTING)
    async with Fetcher(FetchSettings(per_host_delay_s=0)) as fetcher:
        page = await fetcher.fetch(fault_server.url("/list"))
    assert page.determination is Determination.REFUSED and "loopback" in page.reason
    assert fault_server.hits == []  # not even robots.txt


async def test_fetcher_allowed_hosts_are_merged_into_the_allowlist(fault_server: FaultServer) -> None:
    fault_server.page("/list", LISTING)
    async with Fetcher(FetchSettings(per_host_delay_s=0), allowed_hosts=[fault_server.host_port]) as fetcher:
        page = await fetcher.fetch(fault_server.url("/list"))
    assert page.ok, page.reason


# -- redirect hops ---------------------------------------------------------------------------------


async def test_redirects_to_the_admin_server_are_refused_at_every_hop(
    guarded: FetchSettings, fault_server: FaultServer, admin: AdminServers, make_resolver: Any
) -> None:
    targets = [*admin_targets(admin), "file:///etc/passwd", f"gopher://127.0.0.1:{admin.port}/_x", "data:,hi"]
    for number, target in enumerate(targets):
        fault_server.route(f"/go/{number}", redirect(target))
        # …and one hop later, after an allowed hop, with a relative and a 301/307/308 redirect
        fault_server.route(f"/via/{number}", redirect(f"/go/{number}", status=(301, 307, 308)[number % 3]))
    async with Fetcher(guarded, resolver=evil_resolver(make_resolver)) as fetcher:
        for number, target in enumerate(targets):
            for start in (f"/go/{number}", f"/via/{number}"):
                page = await fetcher.fetch(fault_server.url(start))
                assert page.determination is Determination.REFUSED, (target, page.determination, page.reason)
                assert page.reason.startswith("refused by the URL guard"), page.reason
    assert admin.hits == []


async def test_a_redirect_to_the_admin_port_on_the_same_host_is_refused(
    guarded: FetchSettings, fault_server: FaultServer, admin: AdminServers
) -> None:
    fault_server.route("/go", redirect(f"//127.0.0.1:{admin.port}/internal"))  # scheme-relative
    async with Fetcher(guarded) as fetcher:
        page = await fetcher.fetch(fault_server.url("/go"))
    assert page.determination is Determination.REFUSED
    assert page.final_url == f"http://127.0.0.1:{admin.port}/internal"
    assert admin.hits == []


async def test_robots_txt_goes_through_the_guard_too(
    guarded: FetchSettings, fault_server: FaultServer, admin: AdminServers
) -> None:
    fault_server.route("/robots.txt", redirect(f"http://127.0.0.1:{admin.port}/robots.txt", status=301))
    fault_server.page("/list", LISTING)
    async with Fetcher(guarded) as fetcher:
        page = await fetcher.fetch(fault_server.url("/list"))
    # An unreadable robots.txt (its redirect was refused) disallows the host for now: fail closed.
    assert page.determination is Determination.BLOCKED_BY_ROBOTS and "refused by the URL guard" in page.reason
    assert admin.hits == []


async def test_an_allowed_page_cannot_make_the_fetcher_reach_other_hosts_through_links(
    guarded: FetchSettings, fault_server: FaultServer, admin: AdminServers
) -> None:
    fault_server.page("/list", f"<a href='http://127.0.0.1:{admin.port}/steal'>internal</a>")
    async with Fetcher(guarded) as fetcher:
        page = await fetcher.fetch(fault_server.url("/list"))
        followed = await fetcher.fetch(page.links[0].url)
    assert followed.determination is Determination.REFUSED
    assert admin.hits == []


# -- DNS rebinding -------------------------------------------------------------------------------------


class RecordingTransport(httpx.AsyncBaseTransport):
    """Stands in for the network: records where each request was sent and answers 200."""

    def __init__(self) -> None:
        self.requests: list[httpx.Request] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        status, body = (404, b"none") if request.url.path == "/robots.txt" else (200, b"<title>ok</title>ok")
        headers = {"content-type": "text/html; charset=utf-8", "content-length": str(len(body))}
        return httpx.Response(status, headers=headers, stream=httpx.ByteStream(body))  # streamed, as a socket


async def test_dns_rebinding_the_connection_uses_the_checked_address(
    fast_settings: FetchSettings, make_resolver: Any
) -> None:
    resolver = make_resolver({"rebind.test": [["93.184.216.34"], ["127.0.0.1"]]})
    network = RecordingTransport()
    settings = fast_settings.model_copy(update={"allowed_hosts": []})
    async with Fetcher(settings, resolver=resolver, transport=network) as fetcher:
        pages = [await fetcher.fetch(f"http://rebind.test/p{n}") for n in range(3)]
        secure = await fetcher.fetch("https://rebind.test/secure")
    assert all(page.ok for page in [*pages, secure]), [page.reason for page in pages]
    assert resolver.calls == ["rebind.test"]  # resolved once: the check and every connection share it
    assert {request.url.host for request in network.requests} == {"93.184.216.34"}
    assert {request.headers["host"] for request in network.requests} == {"rebind.test"}
    tls = [request for request in network.requests if request.url.scheme == "https"]
    assert tls and all(request.extensions.get("sni_hostname") == "rebind.test" for request in tls)


async def test_dns_rebinding_after_the_pin_expires_is_checked_again(
    fast_settings: FetchSettings, make_resolver: Any
) -> None:
    import asyncio

    resolver = make_resolver({"rebind.test": [["93.184.216.34"], ["127.0.0.1"]]})
    network = RecordingTransport()
    settings = fast_settings.model_copy(update={"allowed_hosts": [], "dns_pin_ttl_s": 0.05, "obey_robots": False})
    async with Fetcher(settings, resolver=resolver, transport=network) as fetcher:
        first = await fetcher.fetch("http://rebind.test/first")
        await asyncio.sleep(0.1)
        second = await fetcher.fetch("http://rebind.test/second")
    assert first.ok
    assert second.determination is Determination.REFUSED and "rebind.test resolves to 127.0.0.1" in second.reason
    assert [request.url.path for request in network.requests] == ["/first"]


async def test_dns_rebinding_over_real_sockets_never_reaches_the_second_address(
    fast_settings: FetchSettings, fault_server: FaultServer, make_resolver: Any
) -> None:
    other = loopback_alias(2)
    if other is None:
        pytest.skip("127.0.0.2 cannot be bound on this machine")
    with FaultServer(other, port=fault_server.port) as impostor:
        fault_server.page("/a", LISTING)
        fault_server.page("/b", LISTING)
        resolver = make_resolver({"good.test": [["127.0.0.1"], [other]]})
        settings = fast_settings.model_copy(update={"allowed_hosts": [f"good.test:{fault_server.port}"]})
        async with Fetcher(settings, resolver=resolver) as fetcher:
            pages = [await fetcher.fetch(f"http://good.test:{fault_server.port}{path}") for path in ("/a", "/b")]
        assert all(page.ok for page in pages), [page.reason for page in pages]
        assert impostor.hits == []
    assert [hit.path for hit in fault_server.hits] == ["/robots.txt", "/a", "/b"]
    assert {hit.headers["host"] for hit in fault_server.hits} == {f"good.test:{fault_server.port}"}
    assert resolver.calls == ["good.test"]


async def test_an_unresolvable_host_is_a_network_error_after_bounded_retries(
    guarded: FetchSettings, make_resolver: Any
) -> None:
    resolver = make_resolver({})
    settings = guarded.model_copy(update={"obey_robots": False})
    async with Fetcher(settings, resolver=resolver) as fetcher:
        page = await fetcher.fetch("http://no-such-host.invalid/x")
    assert page.determination is Determination.NETWORK_ERROR and "cannot resolve" in page.reason
    assert page.attempts == settings.max_retries + 1


# -- the browser ---------------------------------------------------------------------------------------


@pytest.fixture
def browser_guarded(guarded: FetchSettings) -> FetchSettings:
    return guarded.model_copy(update={"render": "browser", "browser_wait_s": 0.3, "page_deadline_s": 20.0})


@pytest.mark.browser
async def test_browser_redirects_and_requests_to_the_admin_server_are_refused(
    browser_guarded: FetchSettings, fault_server: FaultServer, admin: AdminServers
) -> None:
    port = admin.port
    fault_server.route("/go", redirect(f"http://127.0.0.1:{port}/redirected"))
    fault_server.route("/go-decimal", redirect(f"http://2130706433:{port}/redirected"))
    fault_server.page(
        "/page",
        f"""<html><head><title>Hostile</title>
        <link rel="stylesheet" href="http://127.0.0.2:{port}/style.css">
        <script src="http://[::1]:{port}/script.js"></script></head>
        <body><h1>Hostile</h1><img src="http://127.0.0.1:{port}/pixel.gif">
        <iframe src="http://0x7f.1:{port}/frame"></iframe>
        <script>fetch("http://127.0.0.1:{port}/api").catch(() => 0);
        new Image().src = "http://2130706433:{port}/beacon";
        try {{ new WebSocket("ws://127.0.0.1:{port}/ws"); }} catch (e) {{}}</script>
        <a href="/abs/1">Paper one</a></body></html>""",
    )
    async with Fetcher(browser_guarded) as fetcher:
        redirected = await fetcher.fetch(fault_server.url("/go"))
        decimal = await fetcher.fetch(fault_server.url("/go-decimal"))
        page = await fetcher.fetch(fault_server.url("/page"))
    assert redirected.determination is Determination.REFUSED, (redirected.determination, redirected.reason)
    assert decimal.determination is Determination.REFUSED, (decimal.determination, decimal.reason)
    assert page.ok and page.title == "Hostile"
    assert admin.hits == []
    assert fault_server.hits_for("/page"), "the browser did not load the allowed page through the guard"


@pytest.mark.browser
async def test_browser_first_urls_are_refused_before_any_browser_starts(
    browser_guarded: FetchSettings, admin: AdminServers
) -> None:
    async with Fetcher(browser_guarded) as fetcher:
        page = await fetcher.fetch(f"http://127.0.0.1:{admin.port}/")
        assert fetcher._browser is None  # the refusal needed no browser
    assert page.determination is Determination.REFUSED and page.render == "browser"
    assert admin.hits == []


# -- the browser's guard proxy, spoken to directly ------------------------------------------------------


async def _proxy_exchange(proxy_url: str, request: bytes, then: bytes = b"") -> bytes:
    import asyncio
    from urllib.parse import urlsplit

    address = urlsplit(proxy_url)
    reader, writer = await asyncio.open_connection(address.hostname, address.port)
    writer.write(request)
    await writer.drain()
    if then:
        head = await reader.readuntil(b"\r\n\r\n")
        writer.write(then)
        await writer.drain()
        answer = head + await reader.read()
    else:
        answer = await reader.read()
    writer.close()
    return answer


async def test_the_guard_proxy_forwards_allowed_requests_and_refuses_the_rest(
    guarded: FetchSettings, fault_server: FaultServer, admin: AdminServers
) -> None:
    from research_crawler.web.guard_proxy import GuardProxy
    from research_crawler.web.url_guard import UrlGuard

    fault_server.page("/list", LISTING)
    proxy = await GuardProxy(UrlGuard(allowed_hosts=guarded.allowed_hosts)).start()
    try:
        allowed = await _proxy_exchange(
            proxy.url, f"GET {fault_server.url('/list')} HTTP/1.1\r\nHost: {fault_server.host_port}\r\n\r\n".encode()
        )
        refused = await _proxy_exchange(
            proxy.url, f"GET http://127.0.0.1:{admin.port}/x HTTP/1.1\r\nHost: x\r\n\r\n".encode()
        )
        tunnel_refused = await _proxy_exchange(proxy.url, f"CONNECT [::1]:{admin.port} HTTP/1.1\r\n\r\n".encode())
        tunnel = await _proxy_exchange(
            proxy.url,
            f"CONNECT {fault_server.host_port} HTTP/1.1\r\n\r\n".encode(),
            then=f"GET /list HTTP/1.0\r\nHost: {fault_server.host_port}\r\n\r\n".encode(),
        )
        origin_form = await _proxy_exchange(proxy.url, b"GET /list HTTP/1.1\r\nHost: x\r\n\r\n")
        garbage = await _proxy_exchange(proxy.url, b"\x00\x01 nonsense\r\n\r\n")
    finally:
        await proxy.aclose()
    assert allowed.startswith(b"HTTP/1.0 200") and b"Paper one" in allowed
    assert refused.startswith(b"HTTP/1.1 403") and b"refused by the URL guard" in refused
    assert tunnel_refused.startswith(b"HTTP/1.1 403")
    assert tunnel.startswith(b"HTTP/1.1 200 Connection established") and b"Paper one" in tunnel
    assert origin_form.startswith(b"HTTP/1.1 400") and garbage.startswith(b"HTTP/1.1 400")
    assert admin.hits == []
    assert [hit.path for hit in fault_server.hits] == ["/list", "/list"]
    assert fault_server.hits[0].headers["connection"] == "close"  # one request per upstream connection
