"""Where the real saved pages of ``shared/realweb`` are: beside the repository (``../shared/realweb``),
or at ``$RESEARCH_CRAWLER_REALWEB``. Missing pages skip their tests on a developer's machine and fail
the suite under ``CI=true`` (CI always has shared/ beside the clone)."""

from __future__ import annotations

import csv
import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
REALWEB = Path(os.environ.get("RESEARCH_CRAWLER_REALWEB", REPO_ROOT.parent / "shared" / "realweb"))
AVAILABLE = (REALWEB / "MANIFEST.tsv").is_file()

if not AVAILABLE and os.environ.get("CI", "").lower() in ("1", "true", "yes"):
    raise RuntimeError(f"CI=true but the real saved pages are missing at {REALWEB} (expected ../shared/realweb)")

MISSING_REASON = f"real saved pages not found at {REALWEB} (set RESEARCH_CRAWLER_REALWEB)"

#: Marks a test that reads the real saved pages.
needs_realweb = pytest.mark.skipif(not AVAILABLE, reason=MISSING_REASON)


def manifest() -> list[dict[str, str]]:
    """The rows of MANIFEST.tsv ([] when the pages are not available)."""
    if not AVAILABLE:
        return []
    with (REALWEB / "MANIFEST.tsv").open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))
