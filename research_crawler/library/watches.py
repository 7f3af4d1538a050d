"""A watch: one request followed over time. Two watches are the same when their request reads the same (case and
spacing aside) and they name the same sites (order and URL spelling aside)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass

from research_crawler.context.urls import try_canonicalize_url

__all__ = ["Watch"]


@dataclass(frozen=True)
class Watch:
    """The request and sites of a watch, and the key its runs are filed under."""

    request: str
    sites: list[str]

    @classmethod
    def of(cls, request: str, sites: Sequence[str] = ()) -> Watch:
        """The watch of `request` on `sites` (none: the sites the Web Selector picks)."""
        canonical = sorted({try_canonicalize_url(site) or site.strip() for site in sites if site.strip()})
        return cls(request=" ".join(request.split()), sites=canonical)

    @property
    def key(self) -> str:
        """A stable key: a hash of the request (case-folded) and the sorted canonical sites."""
        text = json.dumps([self.request.casefold(), self.sites], ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]
