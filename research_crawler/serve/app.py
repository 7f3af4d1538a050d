"""The web app's factory: a FastAPI application (its pages, its API with OpenAPI, its static script and style)
behind the access guard, with the library's errors turned into HTTP answers of one line each.

FastAPI rather than bare Starlette: the API's request and response models are the pydantic models the package
already uses, validated and documented (OpenAPI) from one definition; it runs on uvicorn either way.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.metadata import version
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles

from research_crawler.api import Backend
from research_crawler.config.settings import Settings
from research_crawler.errors import ConfigError, ModelError, StateError
from research_crawler.serve import api_routes, pages
from research_crawler.serve.access import AccessGuard, AccessRules
from research_crawler.serve.run_files import RunNotFound
from research_crawler.serve.run_manager import RunBusy, RunManager, TooManyRuns

__all__ = ["create_app"]

STATIC_DIR = Path(__file__).parent / "static"
#: On shutdown, how long working runs get to write their reports after being cancelled.
SHUTDOWN_WAIT_S = 20.0


def create_app(
    settings: Settings,
    *,
    backend: Backend,
    allowed_hosts: list[str] | None = None,
    extra_host_names: tuple[str, ...] = (),
) -> FastAPI:
    """The web app for runs with `settings` and `backend` (each request may change the run options).

    It answers to loopback names and `settings.serve.host` (plus `extra_host_names`); with `settings.serve.token`
    every request needs the token. `allowed_hosts` is passed to every ResearchCrawler (see its docstring).
    """
    manager = RunManager(settings, backend=backend, allowed_hosts=allowed_hosts)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        await asyncio.to_thread(manager.stop_all, wait_s=SHUTDOWN_WAIT_S)

    app = FastAPI(
        lifespan=lifespan,
        title="research-crawler",
        version=version("research-crawler"),
        description="Start research runs, follow their progress, read their reports. The page at / uses this API.",
        docs_url=None,  # Swagger UI and ReDoc load scripts from a CDN: the API page (/api) reads the schema instead
        redoc_url=None,
    )
    app.state.manager = manager
    app.include_router(api_routes.router)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    _add_error_answers(app)
    token = settings.serve.token.get_secret_value() if settings.serve.token is not None else None
    rules = AccessRules.for_address(
        settings.serve.host, token=token, max_body_bytes=settings.serve.max_body_bytes, extra_hosts=extra_host_names
    )
    app.add_middleware(AccessGuard, rules=rules)
    return app


def _answer(request: Request, status: int, message: str) -> Response:
    if request.url.path.startswith("/api/"):
        return JSONResponse({"detail": message}, status_code=status)
    return PlainTextResponse(f"{message}\n", status_code=status)


def _add_error_answers(app: FastAPI) -> None:
    answers: list[tuple[type[Exception], int]] = [
        (RunNotFound, 404),
        (TooManyRuns, 429),
        (RunBusy, 409),
        (StateError, 409),  # a run directory another process is writing to, or a state that cannot be used
        (ConfigError, 400),
        (ModelError, 400),
    ]
    for kind, status in answers:

        def handler(request: Request, exc: Exception, status: int = status) -> Response:
            message = str(exc.args[0]) if isinstance(exc, LookupError) and exc.args else str(exc)
            return _answer(request, status, message)

        app.add_exception_handler(kind, handler)
