"""The URL guard (SSRF): which URLs the crawler may request, and the one address it connects to for each host.

Pages and agents choose URLs, so a hostile page could point the crawler at the machine it runs on, the
local network or a cloud metadata endpoint. The guard refuses every URL that is not http(s), carries
credentials (``http://allowed@127.0.0.1/``), or whose host *resolves* to an address that is not public —
loopback, private, link-local (with 169.254.169.254), CGNAT, multicast, unspecified, reserved,
documentation and benchmark ranges, and IPv6 forms that embed such an IPv4 address — unless the allowlist
names the host. Deciding on resolved addresses catches every spelling of one (``2130706433``, ``0x7f.1``,
``0177.0.0.1``, ``127.1``, ``[::ffff:127.0.0.1]``, ``localhost.``, IDNA names): what is checked is what the
name means to the resolver, not how it is written.

A host is resolved once, and the address that passed the check is *pinned*: `pin` hands it to the HTTP
transport (`pinned_transport.py`) and to the browser's proxy (`guard_proxy.py`), which connect to that
address and nothing else — a DNS answer that changes between the check and the connection (DNS
rebinding) cannot redirect a request. Pins expire after `pin_ttl_s`; the next request resolves and
checks again.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import re
import socket
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

__all__ = [
    "IPAddress",
    "Pin",
    "Resolver",
    "UrlGuard",
    "address_refusal",
    "parse_address",
    "system_resolver",
    "without_a_sites_allow_hint",
]

logger = logging.getLogger(__name__)

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
#: Resolves (host, port) to the addresses a connection could use, as strings; raises OSError when it cannot.
Resolver = Callable[[str, int], Awaitable[list[str]]]

_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]*):")
_DEFAULT_PORTS = {"http": 80, "https": 443}


def _allow_hint(host: str, port: int) -> str:
    """The exact setting that allows `host` on `port` — that port only, never the host's every port."""
    shown = host.strip("[]")
    entry = f"[{shown}]:{port}" if ":" in shown else f"{shown}:{port}"
    return f"allow it with: --set fetch.allowed_hosts={entry}"


_ALLOW_HINT = re.compile(r"allow it with: --set fetch\.allowed_hosts=([^\s)]+)")


def without_a_sites_allow_hint(asked: str, text: str) -> str:
    """`text` without the guard's "allow it with: --set fetch.allowed_hosts=…" when the address it would allow is not
    the one asked for (`asked`) but one a redirect led to: the site chose it, and a page never chooses what the guard
    allows, not even through the fix a message prints."""
    hint = _ALLOW_HINT.search(text)
    if hint is None:
        return text
    parts = urlsplit(asked)
    port = parts.port or _DEFAULT_PORTS.get(parts.scheme, 80)
    if parts.hostname is not None and hint.group(0) == _allow_hint(parts.hostname, port):
        return text
    return _ALLOW_HINT.sub(
        f"{hint.group(1)} is where the site redirected, an address it chose: not allowed here; try another site", text
    )


def _net(spec: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network:
    return ipaddress.ip_network(spec)


#: Ranges that are never fetched (first match names the rule in the refusal). Sources: RFC 6890 and the
#: IANA special-purpose registries; StormCrawler and Nutch block the same families by default.
_BLOCKED: tuple[tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, str], ...] = (
    (_net("0.0.0.0/8"), "an unspecified ('this network') address"),
    (_net("10.0.0.0/8"), "a private address"),
    (_net("100.64.0.0/10"), "a carrier-grade NAT (shared) address"),
    (_net("127.0.0.0/8"), "a loopback address"),
    (_net("169.254.0.0/16"), "a link-local address (cloud metadata lives here)"),
    (_net("172.16.0.0/12"), "a private address"),
    (_net("192.0.0.0/24"), "an IETF protocol address"),
    (_net("192.0.2.0/24"), "a documentation address"),
    (_net("192.88.99.0/24"), "a 6to4 relay address"),
    (_net("192.168.0.0/16"), "a private address"),
    (_net("198.18.0.0/15"), "a benchmarking address"),
    (_net("198.51.100.0/24"), "a documentation address"),
    (_net("203.0.113.0/24"), "a documentation address"),
    (_net("224.0.0.0/4"), "a multicast address"),
    (_net("240.0.0.0/4"), "a reserved address"),
    (_net("::/128"), "the unspecified address"),
    (_net("::1/128"), "a loopback address"),
    (_net("::/96"), "an IPv4-compatible (deprecated) address"),
    (_net("64:ff9b:1::/48"), "a local-use NAT64 address"),
    (_net("100::/64"), "a discard-only address"),
    (_net("2001::/23"), "an IETF protocol address"),
    (_net("2001:db8::/32"), "a documentation address"),
    (_net("fc00::/7"), "a unique-local (private) address"),
    (_net("fe80::/10"), "a link-local address"),
    (_net("fec0::/10"), "a site-local (deprecated) address"),
    (_net("ff00::/8"), "a multicast address"),
)
_NAT64 = _net("64:ff9b::/96")


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address stands for (mapped, 6to4, NAT64 well-known prefix), if any."""
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address in _NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def address_refusal(address: IPAddress) -> str | None:
    """Why `address` may not be fetched ("a loopback address (127.0.0.0/8)"), or None when it is public."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.scope_id:
            address = ipaddress.IPv6Address(str(address).split("%", 1)[0])
        embedded = _embedded_ipv4(address)
        if embedded is not None:
            inner = address_refusal(embedded)
            return None if inner is None else f"an IPv6 form of {embedded}, {inner}"
    for network, name in _BLOCKED:
        if address.version == network.version and address in network:
            return f"{name} ({network})"
    if not address.is_global:
        return "not a public address"
    return None


def _loose_ipv4(text: str) -> ipaddress.IPv4Address | None:
    """`text` read as inet_aton(3) reads it: 1 to 4 parts, each decimal, 0x-hex or 0-octal (``127.1``, ``0x7f.1``)."""
    parts = text.split(".")
    if not 1 <= len(parts) <= 4 or any(not part for part in parts):
        return None
    values: list[int] = []
    for part in parts:
        lowered = part.lower()
        try:
            if lowered.startswith("0x"):
                value = int(lowered[2:], 16)  # a bare "0x" is no number (ValueError)
            elif len(lowered) > 1 and lowered.startswith("0"):
                value = int(lowered[1:], 8)
            else:
                value = int(lowered, 10) if lowered.isdigit() else -1
        except ValueError:
            return None
        if value < 0:
            return None
        values.append(value)
    *leading, last = values
    if any(value > 255 for value in leading) or last >= 256 ** (5 - len(values)):
        return None
    number = last
    for position, value in enumerate(leading):
        number |= value << (24 - 8 * position)
    return ipaddress.IPv4Address(number)


def parse_address(host: str) -> IPAddress | None:
    """The IP address a URL host names literally (any spelling the resolver accepts), or None for a name.

    Accepts ``[::1]``, zone ids (``fe80::1%eth0``), and the loose IPv4 forms of inet_aton(3).
    """
    text = host.strip().strip("[]").rstrip(".")
    if not text:
        return None
    if ":" in text:
        try:
            return ipaddress.IPv6Address(text.split("%", 1)[0].split("%25", 1)[0])
        except ValueError:
            return None
    return _loose_ipv4(text)


async def system_resolver(host: str, port: int) -> list[str]:
    """The addresses the operating system gives for `host` (getaddrinfo), in its order of preference."""
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    addresses: list[str] = []
    for info in infos:
        address = str(info[4][0])
        if address not in addresses:
            addresses.append(address)
    return addresses


@dataclass(frozen=True, slots=True)
class Pin:
    """The outcome of checking one host: the address to connect to, or why not.

    Exactly one of `address` (checked; connect here), `refusal` (the guard's rule, a refusal on purpose)
    and `failure` (the name could not be resolved: a network error, worth a retry) is set.
    """

    address: str | None = None
    refusal: str | None = None
    failure: str | None = None


def _normal_host(host: str) -> str:
    """A host as the allowlist compares it: lower-case, no trailing dot, IDNA (punycode), IP in standard form."""
    text = host.strip().lower().strip("[]").rstrip(".")
    address = parse_address(text)
    if address is not None:
        return str(address)
    return _resolution_name(text).removeprefix("www.")


def _parse_entry(entry: str) -> tuple[str, int | None]:
    """'host', 'host:port', '[v6]:port', a bare IPv6 address or a URL -> (normal host, port; None: any port)."""
    text = entry.strip()
    if not text:
        raise ValueError("empty allowed host")
    if "://" not in text:
        if text.count(":") > 1 and not text.startswith("["):  # a bare IPv6 address
            return _normal_host(text), None
        text = f"http://{text}"
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise ValueError(f"allowed host {entry!r} cannot be read: {exc}") from exc
    if not parts.hostname:
        raise ValueError(f"allowed host {entry!r} names no host")
    return _normal_host(parts.hostname), port


class UrlGuard:
    """Decides whether a URL may be requested, and pins each host to the address that was checked.

    `allowed_hosts` entries are ``host`` (any port) or ``host:port`` (that port only); ``www.`` and a
    trailing dot are ignored, names compare in IDNA form and IPv4 addresses by value (``2130706433`` is
    ``127.0.0.1``). An allowed host is exempt from the address rules (the testbed and the tests live on
    loopback) but is still resolved once and pinned.
    """

    def __init__(
        self,
        *,
        allowed_hosts: Iterable[str] = (),
        resolver: Resolver | None = None,
        resolve_timeout_s: float = 10.0,
        pin_ttl_s: float = 300.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._any_port: set[str] = set()
        self._with_port: set[tuple[str, int]] = set()
        for entry in allowed_hosts:
            host, port = _parse_entry(entry)
            if port is None:
                self._any_port.add(host)
            else:
                self._with_port.add((host, port))
        self._resolver = resolver or system_resolver
        self._resolve_timeout_s = resolve_timeout_s
        self._pin_ttl_s = pin_ttl_s
        self._clock = clock
        self._pins: dict[str, tuple[float, Pin]] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    @property
    def allowed_hosts(self) -> list[str]:
        """The allowlist in normal form (``host`` or ``host:port``), sorted."""
        shown = [*self._any_port, *(f"{h}:{p}" if ":" not in h else f"[{h}]:{p}" for h, p in self._with_port)]
        return sorted(shown)

    def allows(self, host: str, port: int) -> bool:
        """True when the allowlist names `host` (on any port, or on `port`)."""
        normal = _normal_host(host)
        return normal in self._any_port or (normal, port) in self._with_port

    def static_refusal(self, url: str) -> str | None:
        """Why `url` is refused whatever its host resolves to (scheme, credentials), or None. No DNS.

        Meant for raw URLs, before canonicalisation (which would reject them as malformed instead).
        """
        text = url.strip() if isinstance(url, str) else ""
        scheme = _SCHEME.match(text)
        if scheme is None:
            return None  # relative or malformed: canonicalisation says what is wrong
        name = scheme.group(1).lower()
        if name not in _DEFAULT_PORTS:
            return f"refused by the URL guard: only http(s) URLs are fetched, not {name}:"
        try:
            parts = urlsplit(text)
        except ValueError:
            return None
        if parts.username is not None or parts.password is not None:
            return (
                "refused by the URL guard: the URL carries credentials (user@host); the part before '@' is "
                f"not the host, {parts.hostname or 'the part after it'} is"
            )
        return None

    async def refusal(self, url: str) -> str | None:
        """Why `url` may not be requested (the rule, in words), or None when it may.

        A name that cannot be resolved is not refused here: the request fails as a network error when
        it is tried (and retried), like any unreachable host.
        """
        static = self.static_refusal(url)
        if static is not None:
            return static
        try:
            parts = urlsplit(url)
            port = parts.port or _DEFAULT_PORTS.get(parts.scheme.lower(), 80)
        except ValueError as exc:
            return f"refused by the URL guard: malformed URL ({exc})"
        host = parts.hostname
        if not host:
            return "refused by the URL guard: the URL has no host"
        return (await self.pin(host, port)).refusal

    async def pin(self, host: str, port: int) -> Pin:
        """The checked address to connect to for `host`, resolving it at most once per `pin_ttl_s`."""
        literal = parse_address(host)
        allowed = self.allows(host, port)
        if literal is not None:
            refusal = None if allowed else address_refusal(literal)
            if refusal is None:
                return Pin(address=str(literal).split("%", 1)[0])
            hint = _allow_hint(host, port)
            return Pin(refusal=f"refused by the URL guard: {self._spelled(host, literal)} is {refusal}; {hint}")
        name = _resolution_name(host)
        key = f"{name}\n{'allowed' if allowed else 'checked'}"
        lock = self._locks.setdefault(key, asyncio.Lock())
        async with lock:
            cached = self._pins.get(key)
            if cached is not None and cached[0] > self._clock():
                pin = cached[1]
            else:
                pin = await self._resolve(name, port, allowed=allowed)
                if pin.failure is None:  # failures are not remembered: the next try asks again
                    self._pins[key] = (self._clock() + self._pin_ttl_s, pin)
        if pin.refusal is not None:  # the hint names this request's port (the pin is shared by every port)
            return Pin(refusal=f"{pin.refusal}; {_allow_hint(host, port)}")
        return pin

    async def _resolve(self, name: str, port: int, *, allowed: bool) -> Pin:
        try:
            async with asyncio.timeout(self._resolve_timeout_s):
                answers = await self._resolver(name, port)
        except TimeoutError:
            return Pin(failure=f"cannot resolve {name}: no answer within {self._resolve_timeout_s:g} s")
        except (OSError, UnicodeError) as exc:
            return Pin(failure=f"cannot resolve {name}: {exc}")
        addresses = [address for address in (parse_address(answer) for answer in answers) if address is not None]
        if not addresses:
            return Pin(failure=f"cannot resolve {name}: no address")
        if not allowed:
            for address in addresses:
                refusal = address_refusal(address)
                if refusal is not None:
                    logger.info("URL guard: %s resolves to %s, %s", name, address, refusal)
                    return Pin(refusal=f"refused by the URL guard: {name} resolves to {address}, {refusal}")
        return Pin(address=str(addresses[0]).split("%", 1)[0])

    @staticmethod
    def _spelled(host: str, address: IPAddress) -> str:
        shown = host.strip("[]")
        if shown.lower() == str(address):
            return shown
        return f"{shown} (another spelling of {address})"


def _resolution_name(host: str) -> str:
    """The name handed to the resolver: lower-case, IDNA, no trailing dot."""
    text = host.strip().lower().rstrip(".")
    try:
        return text.encode("idna").decode("ascii")
    except UnicodeError:
        return text
