"""The web app's pages, rendered on the server: the start page (a request box and the past runs), a run's page
(the conversation, live progress, the report, the navigation graph, follow-ups) and the API's documentation.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from research_crawler.config.site_pool import load_site_pool
from research_crawler.errors import ConfigError, StateError
from research_crawler.run.run_dir import RunMeta
from research_crawler.serve.api_routes import run_graph_svg
from research_crawler.serve.run_files import DOWNLOADS, read_report
from research_crawler.serve.run_manager import RunManager
from research_crawler.text.untrusted import untrusted

__all__ = ["authors_text", "router", "safe_href", "template_environment"]

# Page and model text as the web app's HTML shows it: the Jinja2 environment (autoescaping every value, so a title
# like ``<script>`` is text), and the one rule for links — only http(s) URLs become links; ``javascript:``, ``data:``
# and the rest are shown as text, never made clickable.


def safe_href(url: Any) -> str | None:
    """`url` when it may be a link target (http or https, with a host), else None."""
    if not isinstance(url, str):
        return None
    text = untrusted(url).strip()
    try:
        parts = urlsplit(text)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname or any(c in text for c in ' "<>`'):
        return None
    return text


def authors_text(authors: list[str], *, shown: int = 3) -> str:
    """'A, B, C et al.' — the first `shown` authors of an item."""
    names = [untrusted(name) for name in authors[:shown]]
    return ", ".join(names) + (" et al." if len(authors) > shown else "")


def template_environment() -> Environment:
    """The templates of serve/templates, every value HTML-escaped unless marked safe by our own code."""
    environment = Environment(
        loader=PackageLoader("research_crawler.serve", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    environment.filters["href"] = safe_href
    environment.filters["authors"] = authors_text
    environment.filters["clean"] = lambda value: untrusted(str(value)) if value is not None else ""
    return environment


router = APIRouter(include_in_schema=False)
_templates = template_environment()


def _render(template: str, request: Request, **context: Any) -> HTMLResponse:
    manager: RunManager = request.app.state.manager
    page = _templates.get_template(template).render(
        simulated=manager.backend == "simulated", token_needed=manager.settings.serve.token is not None, **context
    )
    return HTMLResponse(page)


@router.get("/", response_class=HTMLResponse)
def index(request: Request) -> HTMLResponse:
    """A request box with the sites and run options, and the runs in runs_dir."""
    manager: RunManager = request.app.state.manager
    settings = manager.settings
    try:
        pool = [(untrusted(site.name), site.url) for site in load_site_pool(settings.explore.site_pool_file).sites]
    except ConfigError:
        pool = []
    return _render(
        "index.html",
        request,
        runs=manager.list(),
        pool=pool,
        defaults={
            "model": "simulated" if manager.backend == "simulated" else settings.models.strong_model,
            "reranker": settings.rerank.kind,
            "max_subpages": settings.explore.max_subpages,
            "item_kind": settings.explore.item_kind,
        },
        runs_dir=str(settings.runs_dir),
        active=manager.active(),
        limit=settings.serve.max_concurrent_runs,
    )


@router.get("/runs/{run_id}", response_class=HTMLResponse)
def run_page(run_id: str, request: Request) -> HTMLResponse:
    """One run: its queries, live progress while it works, then its report, downloads and navigation graph."""
    manager: RunManager = request.app.state.manager
    run_dir = manager.run_dir(run_id)
    status, error = manager.status(run_id)
    web_run = manager.live(run_id)
    report = read_report(run_dir) if status != "running" else None
    numbered = web_run.lines_after(0)[0] if web_run is not None else []
    downloads = [name for name in ("report.md", "report.json", "items.bib", "graph.json") if (run_dir / name).is_file()]
    return _render(
        "run.html",
        request,
        run_id=run_id,
        queries=manager.queries(run_id) or [""],
        status=status,
        error=error,
        log=[line for _, line in numbered[-200:]],
        log_cursor=numbered[-1][0] if numbered else 0,
        progress=web_run.progress.snapshot() if web_run is not None else None,
        report=report,
        downloads=downloads,
        graph=Markup(run_graph_svg(manager, run_id)),  # built from escaped parts (graph_svg.py)
        run_backend=web_run.crawler.backend if web_run is not None else _backend(run_dir),
    )


@router.get("/api", response_class=HTMLResponse)
def api_page(request: Request) -> HTMLResponse:
    """The API, read from its OpenAPI description (the same as /openapi.json)."""
    schema = request.app.openapi()
    operations = [
        {
            "method": method.upper(),
            "path": path,
            "summary": operation.get("summary", ""),
            "description": operation.get("description", ""),
            "body": _body_fields(schema, operation),
        }
        for path, methods in schema.get("paths", {}).items()
        for method, operation in methods.items()
    ]
    return _render("api.html", request, operations=operations, downloads=list(DOWNLOADS))


def _body_fields(schema: dict[str, Any], operation: dict[str, Any]) -> list[tuple[str, str]]:
    """(field, description) of an operation's JSON body, read from its schema."""
    content = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
    reference = content.get("schema", {}).get("$ref", "")
    if not reference:
        return []
    model = schema.get("components", {}).get("schemas", {}).get(reference.rsplit("/", 1)[-1], {})
    required = set(model.get("required", []))
    return [
        (name + ("" if name in required else "?"), str(field.get("description", "")))
        for name, field in model.get("properties", {}).items()
    ]


def _backend(run_dir: Path) -> str:
    try:
        return RunMeta.read(run_dir).backend
    except StateError:
        return ""
