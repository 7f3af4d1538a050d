"""The web app's HTTP API (documented by OpenAPI at /openapi.json and on the /api page), the one the page itself
uses: start a run, read it, stream its events, follow up, cancel, resume, list runs, download a run's files.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request, Response
from fastapi.responses import FileResponse
from pydantic import BaseModel, Field
from sse_starlette import EventSourceResponse

from research_crawler.serve.event_stream import event_response, finished_stream, run_stream
from research_crawler.serve.graph_svg import draw_graph_svg
from research_crawler.serve.run_files import DOWNLOADS, downloadable_file, read_report
from research_crawler.serve.run_manager import RunManager
from research_crawler.serve.run_request import FollowUpRequest, RunRequest

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["runs"])

RunId = Annotated[str, Field(description="The run's id: the name of its run directory in runs_dir.")]


class RunCreated(BaseModel):
    id: str = Field(description="The run's id (its run directory's name).")
    status: str = Field(description="running")
    url: str = Field(description="The run's page.")


class RunState(BaseModel):
    id: str
    status: str = Field(description="running, done, failed, cancelled, or unfinished (killed; can be resumed).")
    error: str | None = Field(None, description="Why the run failed (one line), when it did.")
    queries: list[str] = Field(description="Every query asked in this run directory, first to last.")
    progress: dict[str, Any] | None = Field(None, description="Live numbers, for a run this server works on.")
    report: dict[str, Any] | None = Field(None, description="report.json, once the run has one and is not working.")


class RunList(BaseModel):
    runs: list[dict[str, Any]] = Field(description="The runs in runs_dir, newest first.")


def _manager(request: Request) -> RunManager:
    manager: RunManager = request.app.state.manager
    return manager


def _created(web_run_id: str) -> RunCreated:
    return RunCreated(id=web_run_id, status="running", url=f"/runs/{web_run_id}")


@router.post("/runs", status_code=201, response_model=RunCreated, summary="Start a run")
def start_run(body: RunRequest, request: Request) -> RunCreated:
    """Start a research run (429 when `serve.max_concurrent_runs` are already working)."""
    return _created(_manager(request).start(body).id)


@router.get("/runs", response_model=RunList, summary="List runs")
def list_runs(request: Request) -> RunList:
    """The runs in runs_dir (those started from the command line too), newest first."""
    return RunList(runs=[summary.to_json() for summary in _manager(request).list()])


@router.get("/runs/{run_id}", response_model=RunState, summary="A run's status and report")
def get_run(run_id: RunId, request: Request) -> RunState:
    return RunState(**_manager(request).describe(run_id))


@router.get(
    "/runs/{run_id}/events",
    summary="A run's progress as server-sent events",
    response_class=EventSourceResponse,
    responses={200: {"content": {"text/event-stream": {}}}},
)
async def run_events(
    run_id: RunId,
    request: Request,
    after: Annotated[int, Query(ge=0, description="Send the log lines after this one.")] = 0,
    last_event_id: Annotated[int | None, Header(ge=0)] = None,
) -> EventSourceResponse:
    """Events: `log` (`{"n", "line"}`, numbered), `progress` (the live numbers), `end` (`{"status", "error"}`)."""
    manager = _manager(request)
    status, _ = manager.status(run_id)
    web_run = manager.live(run_id)
    start = max(after, last_event_id or 0)
    return event_response(run_stream(web_run, after=start) if web_run is not None else finished_stream(status))


@router.post("/runs/{run_id}/follow-up", status_code=202, response_model=RunCreated, summary="Ask a follow-up")
def follow_up(run_id: RunId, body: FollowUpRequest, request: Request) -> RunCreated:
    """A follow-up in the same run ("only 2025", "also look at bioRxiv"): what was found is kept (409 while the
    run is working)."""
    return _created(_manager(request).follow_up(run_id, body).id)


@router.post("/runs/{run_id}/cancel", status_code=202, response_model=RunCreated, summary="Cancel a run")
def cancel(run_id: RunId, request: Request) -> RunCreated:
    """Stop a working run gracefully: its report is written from what was collected (status cancelled)."""
    web_run = _manager(request).cancel(run_id)
    return RunCreated(id=web_run.id, status=web_run.status, url=f"/runs/{web_run.id}")


@router.post("/runs/{run_id}/resume", status_code=202, response_model=RunCreated, summary="Resume a run")
def resume(run_id: RunId, request: Request) -> RunCreated:
    """Continue a run that was killed or cancelled: every collected item kept, no page fetched twice."""
    return _created(_manager(request).resume(run_id).id)


@router.get(
    "/runs/{run_id}/files/{name}",
    summary="Download a file of a run",
    response_class=FileResponse,
    responses={200: {"content": {media: {} for media in sorted(set(DOWNLOADS.values()))}}},
)
def download(run_id: RunId, name: str, request: Request) -> FileResponse:
    """One of the run's files: report.md, report.json, items.bib, graph.json, graph.graphml, trace.jsonl. Nothing
    else, and nothing outside the run directory."""
    path = downloadable_file(_manager(request).run_dir(run_id), name)
    return FileResponse(path, media_type=DOWNLOADS[name], filename=f"{run_id}-{name}")


@router.get("/runs/{run_id}/graph.svg", summary="The navigation graph as SVG", response_class=Response)
def graph_svg(run_id: RunId, request: Request) -> Response:
    """Pages visited, links followed and not, dead ends, and where each item was found, drawn on the server."""
    return Response(run_graph_svg(_manager(request), run_id), media_type="image/svg+xml")


def run_graph_svg(manager: RunManager, run_id: str) -> str:
    """The SVG of a run's navigation graph (empty when it has none yet)."""
    run_dir = manager.run_dir(run_id)
    try:
        graph = json.loads((run_dir / "graph.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        graph = {}
    report = read_report(run_dir)
    found_on = [item.found_on for item in report.items] if report is not None else []
    return draw_graph_svg(graph if isinstance(graph, dict) else {}, found_on)
