"""Fixtures of the security tests: a guarded fetcher's settings (the allowlist names one fixture server,
host:port), an "admin" server listening on the same port at every loopback address the tests aim at, and a
resolver the test controls.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from fault_server import FaultServer, loopback_alias

from research_crawler.config.settings import FetchSettings


@dataclass
class AdminServers:
    """One port, listening on 127.0.0.1, 127.0.0.2 (when bindable) and ::1 (when IPv6 works): every spelling
    of a loopback URL the tests try reaches one of them if it is not refused."""

    servers: list[FaultServer]

    @property
    def port(self) -> int:
        return self.servers[0].port

    @property
    def hits(self) -> list[str]:
        return [f"{server.host} {hit.method} {hit.path}" for server in self.servers for hit in server.hits]

    def url(self, host: str, path: str = "/") -> str:
        return f"http://{host}:{self.port}{path}"


def _bind_admins() -> AdminServers:
    for _ in range(20):
        first = FaultServer("127.0.0.1").start()
        servers = [first]
        try:
            for host in (loopback_alias(2), "::1" if socket.has_ipv6 else None):
                if host is not None:
                    servers.append(FaultServer(host, port=first.port).start())
        except OSError:  # the port is taken on another address: try another one
            for server in servers:
                server.stop()
            continue
        return AdminServers(servers)
    raise RuntimeError("no port free on every loopback address")


@pytest.fixture
def admin() -> Iterator[AdminServers]:
    servers = _bind_admins()
    try:
        yield servers
    finally:
        for server in servers.servers:
            server.stop()


@pytest.fixture
def guarded(fast_settings: FetchSettings, fault_server: FaultServer) -> FetchSettings:
    """Fast settings whose allowlist names only the fixture server (host:port), as a real deployment would."""
    return fast_settings.model_copy(update={"allowed_hosts": [fault_server.host_port]})


@dataclass
class FakeResolver:
    """Answers from a script: host -> list of answers, one list per call (the last repeats)."""

    answers: dict[str, list[list[str]]]
    calls: list[str] = field(default_factory=list)

    async def __call__(self, host: str, port: int) -> list[str]:
        self.calls.append(host)
        script = self.answers.get(host)
        if not script:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        index = min(self.calls.count(host) - 1, len(script) - 1)
        return list(script[index])


@pytest.fixture
def make_resolver() -> type[FakeResolver]:
    """`make_resolver({"host": [["answer", …], …]})`: a resolver whose answers the test scripts."""
    return FakeResolver
