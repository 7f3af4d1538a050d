"""The fault web for tests: re-exported from the package (the reliability report serves the same faults)."""

from __future__ import annotations

from research_crawler.eval.reliability.fault_web import (
    HTML,
    FaultServer,
    Hit,
    Reply,
    brotli_bomb,
    gzip_bomb,
    loopback_alias,
)

__all__ = ["HTML", "FaultServer", "Hit", "Reply", "brotli_bomb", "gzip_bomb", "loopback_alias"]
