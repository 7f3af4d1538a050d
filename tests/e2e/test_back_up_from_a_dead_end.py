"""A branch that holds nothing on the topic is left for the pages passed on the way, not followed down: links the
Crawler judged off the topic (a unit's works on other subjects) wait behind the equally unpromising links of the
pages read before (the portal's list of all research outputs), as a person who found nothing down a branch goes
back up (issue 26: a research portal's five pages went on a unit's off-topic works while its list of outputs,
where the works asked for were, waited).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fault_server import FaultServer
from unlike_sites import Paper, entry, explore, page, serve_papers

ASKED = [
    Paper("gnn-chemistry", "Graph neural networks for reaction yield prediction", "2025-02-11"),
    Paper("gnn-power", "Graph neural networks for power grid state estimation", "2024-06-03"),
]
OFF_TOPIC = [
    Paper("compilers", "Register allocation in optimising compilers for embedded processors", "2025-01-10"),
    Paper("timber", "Moisture movement in cross-laminated timber walls", "2024-11-02"),
    Paper("harbour", "Sediment transport at a tidal harbour entrance", "2024-09-14"),
    Paper("choirs", "Breathing patterns of amateur choir singers", "2024-05-30"),
    Paper("bridges", "Fatigue cracks in riveted railway bridges", "2024-03-03"),
]


@pytest.fixture
def server() -> Iterator[FaultServer]:
    with FaultServer() as running:
        yield running


def test_a_branch_with_nothing_on_the_topic_is_left_for_the_pages_passed(tmp_path: Path, server: FaultServer) -> None:
    serve_papers(server, ASKED + OFF_TOPIC)
    off_topic = "".join(entry(paper) for paper in OFF_TOPIC)
    all_outputs = "".join(entry(paper) for paper in ASKED + OFF_TOPIC)
    server.page(
        "/",
        page(
            "University Research Portal",
            "<h1>University Research Portal</h1><h2>Research units</h2><ul>"
            "<li><a href='/units/machine-learning'>Machine Learning Group</a></li></ul>"
            "<h2>Browse</h2><ul><li><a href='/outputs'>Research outputs</a></li></ul>",
        ),
    )
    server.page(
        "/units/machine-learning",
        page("Machine Learning Group", f"<h1>Machine Learning Group</h1><h2>Recent outputs</h2><ul>{off_topic}</ul>"),
    )
    server.page(
        "/outputs",
        page("Research outputs", f"<h1>Research outputs</h1><ul>{all_outputs}</ul>"),
    )
    report = explore(server, "Find papers on graph neural networks", tmp_path / "run")
    # the code before this test spent the site's pages on the unit's off-topic works and never read the outputs
    assert server.hits_for("/outputs")
    assert {paper.title for paper in ASKED} <= {item.title for item in report.items}
