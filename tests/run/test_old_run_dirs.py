"""Run directories written by earlier versions still load: `resume` of one rebuilds its report from its state.

`fixtures/run-0.1/` was written by research-crawler 0.1 before the package was laid out in folders (commit
9521346): a simulated run on the testbed's arXiv-like site, stopped by its model-call limit.
"""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

from research_crawler.config.settings import Settings
from research_crawler.run.session import ResearchSession

FIXTURES = Path(__file__).parent / "fixtures"


def test_a_run_of_version_0_1_resumes_with_its_items(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    shutil.copytree(FIXTURES / "run-0.1", run_dir)
    before = json.loads((run_dir / "report.json").read_text(encoding="utf-8"))
    settings = Settings(runs_dir=tmp_path)
    settings.rerank.kind = "bm25"
    report = asyncio.run(ResearchSession(settings, backend="simulated").aresume(run_dir))
    assert report.stop_reason == before["stop_reason"] == "limit_reached"
    assert [(item.url, item.title) for item in report.items] == [(i["url"], i["title"]) for i in before["items"]]
    assert (run_dir / "report.md").read_text(encoding="utf-8").strip()
