"""The URL guard on its own: address rules, every spelling of an address, the allowlist, resolve-once pins."""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from research_crawler.config.settings import FetchSettings
from research_crawler.web.url_guard import UrlGuard, address_refusal, parse_address

# -- spellings of an address ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("host", "address"),
    [
        ("127.0.0.1", "127.0.0.1"),
        ("2130706433", "127.0.0.1"),
        ("0x7f.1", "127.0.0.1"),
        ("0x7f000001", "127.0.0.1"),
        ("0177.0.0.1", "127.0.0.1"),
        ("0177.1", "127.0.0.1"),
        ("127.1", "127.0.0.1"),
        ("127.0.1", "127.0.0.1"),
        ("0", "0.0.0.0"),
        ("0x0A.0.0.1", "10.0.0.1"),
        ("169.254.169.254.", "169.254.169.254"),
        ("[::1]", "::1"),
        ("[::ffff:127.0.0.1]", "::ffff:7f00:1"),
        ("::ffff:7f00:1", "::ffff:7f00:1"),
        ("fe80::1%eth0", "fe80::1"),
        ("[fe80::1%25eth0]", "fe80::1"),
    ],
)
def test_every_spelling_of_an_address_is_read_as_the_resolver_reads_it(host: str, address: str) -> None:
    assert str(parse_address(host)) == address


@pytest.mark.parametrize("host", ["example.org", "1.2.3.4.5", "08.0.0.1", "256.1.1.1", "0x", "1e3", "", "a.b..c"])
def test_names_and_impossible_addresses_are_not_addresses(host: str) -> None:
    assert parse_address(host) is None


def test_loose_spellings_agree_with_the_c_library() -> None:
    for spelling in ("2130706433", "0x7f.1", "0177.0.0.1", "127.1", "0x7f000001", "10.1", "0xa.0xb.0xc.0xd"):
        assert str(parse_address(spelling)) == socket.inet_ntoa(socket.inet_aton(spelling)), spelling


@st.composite
def _spelled_ipv4(draw: st.DrawFn) -> tuple[ipaddress.IPv4Address, str]:
    address = ipaddress.IPv4Address(draw(st.integers(0, 2**32 - 1)))
    octets = list(address.packed)
    parts_count = draw(st.integers(1, 4))
    leading = octets[: parts_count - 1]
    rest = int.from_bytes(bytes(octets[parts_count - 1 :]), "big")
    parts = [*leading, rest]
    styles = draw(st.lists(st.sampled_from(["dec", "hex", "HEX", "oct"]), min_size=len(parts), max_size=len(parts)))
    spelled = []
    for value, style in zip(parts, styles, strict=True):
        if style == "hex":
            spelled.append(hex(value))
        elif style == "HEX":
            spelled.append(f"0X{value:X}")
        elif style == "oct":
            spelled.append(f"0{value:o}")
        else:
            spelled.append(str(value))
    return address, ".".join(spelled)


@given(_spelled_ipv4())
def test_any_spelling_of_any_ipv4_address_parses_to_it(case: tuple[ipaddress.IPv4Address, str]) -> None:
    address, spelled = case
    assert parse_address(spelled) == address
    assert socket.inet_aton(spelled) == address.packed  # what the C library (and so a connect) would use


# -- address rules --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("address", "rule"),
    [
        ("127.0.0.2", "loopback"),
        ("10.1.2.3", "private"),
        ("172.16.0.1", "private"),
        ("172.31.255.255", "private"),
        ("192.168.1.1", "private"),
        ("169.254.169.254", "link-local"),
        ("100.64.0.1", "carrier-grade NAT"),
        ("0.0.0.0", "unspecified"),
        ("224.0.0.1", "multicast"),
        ("239.255.255.250", "multicast"),
        ("255.255.255.255", "reserved"),
        ("240.0.0.1", "reserved"),
        ("192.0.2.1", "documentation"),
        ("198.18.0.1", "benchmarking"),
        ("::1", "loopback"),
        ("::", "unspecified"),
        ("fc00::1", "unique-local"),
        ("fd12:3456::1", "unique-local"),
        ("fe80::1", "link-local"),
        ("ff02::1", "multicast"),
        ("::ffff:127.0.0.1", "IPv6 form of 127.0.0.1, a loopback"),
        ("::ffff:169.254.169.254", "IPv6 form of 169.254.169.254, a link-local"),
        ("2002:7f00:1::", "IPv6 form of 127.0.0.1"),
        ("64:ff9b::a00:1", "IPv6 form of 10.0.0.1"),
        ("2001:db8::1", "documentation"),
    ],
)
def test_non_public_addresses_are_refused_with_the_rule_named(address: str, rule: str) -> None:
    refusal = address_refusal(ipaddress.ip_address(address))
    assert refusal is not None and rule in refusal


@pytest.mark.parametrize("address", ["93.184.216.34", "8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])
def test_public_addresses_pass(address: str) -> None:
    assert address_refusal(ipaddress.ip_address(address)) is None


# -- the guard: static rules ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("file:///etc/passwd", "not file:"),
        ("gopher://127.0.0.1:70/_stats", "not gopher:"),
        ("data:text/html,<h1>x</h1>", "not data:"),
        ("javascript:alert(1)", "not javascript:"),
        ("ftp://example.org/x", "not ftp:"),
        ("FILE:///etc/passwd", "not file:"),
        ("http://allowed@127.0.0.1/", "credentials"),
        ("http://user:pw@example.org/", "credentials"),
        ("https://example.org@evil.example/", "credentials"),
    ],
)
def test_schemes_and_credentials_are_refused_without_dns(url: str, words: str) -> None:
    refusal = UrlGuard().static_refusal(url)
    assert refusal is not None and refusal.startswith("refused by the URL guard") and words in refusal


@pytest.mark.parametrize("url", ["http://example.org/", "https://example.org/a?b=c", "/relative", "not a url"])
def test_plain_urls_pass_the_static_rules(url: str) -> None:
    assert UrlGuard().static_refusal(url) is None


# -- the guard: resolution and pins -------------------------------------------------------------------


async def test_a_name_resolving_to_a_private_address_is_refused(make_resolver: Any) -> None:
    resolver = make_resolver({"intranet.example": [["10.0.0.7"]]})
    refusal = await UrlGuard(resolver=resolver).refusal("http://intranet.example/admin")
    assert refusal is not None and "intranet.example resolves to 10.0.0.7, a private address" in refusal


async def test_one_private_answer_among_public_ones_refuses_the_host(make_resolver: Any) -> None:
    resolver = make_resolver({"mixed.example": [["93.184.216.34", "127.0.0.1"]]})
    refusal = await UrlGuard(resolver=resolver).refusal("http://mixed.example/")
    assert refusal is not None and "127.0.0.1" in refusal


async def test_a_public_name_is_resolved_once_and_pinned(make_resolver: Any) -> None:
    resolver = make_resolver({"rebind.example": [["93.184.216.34"], ["127.0.0.1"]]})
    guard = UrlGuard(resolver=resolver)
    assert await guard.refusal("http://rebind.example/a") is None
    pins = [await guard.pin("rebind.example", 80) for _ in range(3)]
    assert {pin.address for pin in pins} == {"93.184.216.34"}
    assert resolver.calls == ["rebind.example"]


async def test_an_expired_pin_is_resolved_and_checked_again(make_resolver: Any) -> None:
    now = [0.0]
    resolver = make_resolver({"rebind.example": [["93.184.216.34"], ["127.0.0.1"]]})
    guard = UrlGuard(resolver=resolver, pin_ttl_s=60, clock=lambda: now[0])
    assert (await guard.pin("rebind.example", 80)).address == "93.184.216.34"
    now[0] = 61.0
    later = await guard.pin("rebind.example", 80)
    assert later.address is None and later.refusal is not None and "127.0.0.1" in later.refusal


async def test_concurrent_checks_of_one_host_resolve_it_once(make_resolver: Any) -> None:
    resolver = make_resolver({"busy.example": [["93.184.216.34"]]})
    guard = UrlGuard(resolver=resolver)
    pins = await asyncio.gather(*(guard.pin("busy.example", 443) for _ in range(10)))
    assert {pin.address for pin in pins} == {"93.184.216.34"} and resolver.calls == ["busy.example"]


async def test_a_name_that_does_not_resolve_is_a_failure_not_a_refusal_and_is_asked_again(
    make_resolver: Any,
) -> None:
    resolver = make_resolver({})
    guard = UrlGuard(resolver=resolver)
    assert await guard.refusal("http://nowhere.invalid/") is None  # the request fails as a network error
    pin = await guard.pin("nowhere.invalid", 80)
    assert pin.address is None and pin.refusal is None and pin.failure and "cannot resolve" in pin.failure
    assert resolver.calls == ["nowhere.invalid", "nowhere.invalid"]  # failures are not pinned


async def test_a_resolver_that_hangs_is_cut_at_the_timeout() -> None:
    async def hanging(host: str, port: int) -> list[str]:
        await asyncio.sleep(30)
        return []

    pin = await UrlGuard(resolver=hanging, resolve_timeout_s=0.05).pin("slow.example", 80)
    assert pin.failure is not None and "no answer within 0.05 s" in pin.failure


async def test_address_literals_need_no_resolver(make_resolver: Any) -> None:
    resolver = make_resolver({})
    guard = UrlGuard(resolver=resolver)
    for url in ("http://2130706433:8080/", "http://0x7f.1/", "http://[::ffff:127.0.0.1]/", "http://0/"):
        refusal = await guard.refusal(url)
        assert refusal is not None and "refused by the URL guard" in refusal, url
    assert (await guard.pin("93.184.216.34", 80)).address == "93.184.216.34"
    assert resolver.calls == []


async def test_the_refusal_names_the_spelling_and_the_address() -> None:
    refusal = await UrlGuard().refusal("http://0x7f.1:9/")
    assert refusal is not None and "0x7f.1 (another spelling of 127.0.0.1) is a loopback address" in refusal
    assert "fetch.allowed_hosts" in refusal


# -- the allowlist -------------------------------------------------------------------------------------


async def test_host_port_entries_allow_that_port_only(make_resolver: Any) -> None:
    guard = UrlGuard(allowed_hosts=["127.0.0.1:8000"])
    assert await guard.refusal("http://127.0.0.1:8000/x") is None
    assert await guard.refusal("http://2130706433:8000/x") is None  # the same address, spelled otherwise
    assert await guard.refusal("http://127.0.0.1:8001/x") is not None
    assert await guard.refusal("http://127.0.0.2:8000/x") is not None
    assert await guard.refusal("http://[::ffff:127.0.0.1]:8000/x") is not None  # another address family


async def test_host_entries_allow_every_port_and_ignore_www_case_and_trailing_dots(make_resolver: Any) -> None:
    resolver = make_resolver({"intranet.example": [["10.0.0.7"]], "www.intranet.example": [["10.0.0.7"]]})
    guard = UrlGuard(allowed_hosts=["Intranet.Example."], resolver=resolver)
    for url in ("http://intranet.example/", "https://intranet.example:8443/", "http://www.intranet.example./"):
        assert await guard.refusal(url) is None, url
    assert (await guard.pin("intranet.example", 80)).address == "10.0.0.7"  # allowed hosts are pinned too


async def test_allowlist_entries_never_match_by_prefix_or_suffix(make_resolver: Any) -> None:
    loopback = [["127.0.0.1"]]
    resolver = make_resolver(
        {
            "allowed.com.evil": loopback,
            "evilallowed.com": loopback,
            "allowed.com.": loopback,
            "sub.allowed.com": loopback,
        }
    )
    guard = UrlGuard(allowed_hosts=["allowed.com"], resolver=resolver)
    for url in ("http://allowed.com.evil/", "http://evilallowed.com/", "http://sub.allowed.com/"):
        refusal = await guard.refusal(url)
        assert refusal is not None and "resolves to 127.0.0.1" in refusal, url
    assert await guard.refusal("http://allowed.com./") is None


async def test_idna_names_compare_in_punycode(make_resolver: Any) -> None:
    resolver = make_resolver({"xn--bcher-kva.example": [["192.168.0.9"]]})
    guard = UrlGuard(allowed_hosts=["bücher.example"], resolver=resolver)
    assert await guard.refusal("http://xn--bcher-kva.example/") is None
    assert (await UrlGuard(resolver=resolver).refusal("http://xn--bcher-kva.example/")) is not None


@pytest.mark.parametrize("entry", ["", "  ", "host/path", "two words"])
def test_bad_allowlist_entries_are_rejected_by_the_settings(entry: str) -> None:
    with pytest.raises(ValueError, match="allowed_hosts"):
        FetchSettings(allowed_hosts=[entry])


def test_allowlist_entries_in_every_form_are_understood() -> None:
    guard = UrlGuard(allowed_hosts=["example.org", "127.0.0.1:8000", "[::1]:9000", "::1", "http://10.0.0.1:81/"])
    assert guard.allows("example.org", 1234) and guard.allows("www.example.org", 80)
    assert guard.allows("127.0.0.1", 8000) and not guard.allows("127.0.0.1", 8001)
    assert guard.allows("::1", 9000) and guard.allows("::1", 1)
    assert guard.allows("10.0.0.1", 81) and not guard.allows("10.0.0.1", 80)


def test_parse_address_agrees_with_the_c_library_on_edge_cases() -> None:
    for text in ("0x", "0x.1", "08", "1.2.3.256", "1.0x100", "4294967296", "0x100000000", "00000000000127.1"):
        try:
            expected: str | None = socket.inet_ntoa(socket.inet_aton(text))
        except OSError:
            expected = None
        parsed = parse_address(text)
        assert (None if parsed is None else str(parsed)) == expected, text


async def test_the_refusal_names_the_host_and_port_to_allow_never_the_bare_host(make_resolver: Any) -> None:
    resolver = make_resolver({"intranet.example": [["10.0.0.7"]]})
    guard = UrlGuard(resolver=resolver)
    first = await guard.refusal("http://intranet.example:8080/admin")
    second = await guard.refusal("https://intranet.example/")  # the same pin, another port
    literal = await guard.refusal("http://[::1]:9000/")
    assert first is not None and first.endswith("allow it with: --set fetch.allowed_hosts=intranet.example:8080")
    assert second is not None and second.endswith("--set fetch.allowed_hosts=intranet.example:443")
    assert literal is not None and literal.endswith("--set fetch.allowed_hosts=[::1]:9000")
    assert await UrlGuard(allowed_hosts=["[::1]:9000"]).refusal("http://[::1]:9000/") is None, "the hint works"
