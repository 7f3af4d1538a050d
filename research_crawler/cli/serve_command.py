"""`research-crawler serve`: the web app on uvicorn, with the run options of ``ask`` as its defaults. It binds
loopback unless told otherwise; any other address needs an access token.
"""

from __future__ import annotations

import socket
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from research_crawler.config.settings import Settings
from research_crawler.cli.options import (
    NO_RUN_OPTIONS,
    RunOptions,
    load_settings,
    with_run_options,
)
from research_crawler.cli.output import console, fail, friendly_errors
from research_crawler.errors import extra_needed

__all__ = ["serve"]


@friendly_errors
@with_run_options
def serve(
    ctx: typer.Context,
    host: Annotated[
        str | None, typer.Option("--host", help="Address to bind (default 127.0.0.1; another needs --token).")
    ] = None,
    port: Annotated[int | None, typer.Option("--port", min=0, max=65535, help="Port (default 8765; 0: any).")] = None,
    token: Annotated[
        str | None,
        typer.Option(
            "--token",
            help="Access token checked on every request (or RESEARCH_CRAWLER_SERVE__TOKEN); needed off loopback.",
        ),
    ] = None,
    run: RunOptions = NO_RUN_OPTIONS,
) -> None:
    """The web app: ask in the browser, watch the agents work, read reports, follow up, reopen past runs."""
    with extra_needed("serve", "the web app"):  # a core install has no FastAPI, uvicorn, Jinja2 or sse-starlette
        import uvicorn

        from research_crawler.serve.access import is_loopback
        from research_crawler.serve.app import create_app

    from research_crawler.cli.run_helpers import check_can_run

    backend, flags = run.backend_and_flags()
    flags.update({"serve.host": host, "serve.port": port, "serve.token": token})
    settings = load_settings(ctx, flags, preset=run.preset)
    if not is_loopback(settings.serve.host) and settings.serve.token is None:
        fail(
            f"binding {settings.serve.host} lets other machines start crawls: give an access token, e.g. "
            f'research-crawler serve --host {settings.serve.host} --token "$(openssl rand -hex 16)"',
            code=2,
        )
    check_can_run(settings, needs_model=backend == "openai")
    listener = _bind(settings.serve.host, settings.serve.port)
    app = create_app(settings, backend=backend)
    console.print(f"research-crawler serve: {_address(settings, listener)}  (Ctrl-C stops)", highlight=False)
    console.print(f"Runs: {settings.runs_dir}", highlight=False, markup=False)
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=3)
    uvicorn.Server(config).run(sockets=[listener])


def _bind(host: str, port: int) -> socket.socket:
    """A listening socket on host:port, so the address printed is the one bound (port 0 picks a free port)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host.strip("[]"), port))
    except OSError as exc:
        listener.close()
        why = (exc.strerror or str(exc)).lower()
        fail(f"cannot listen on {host}:{port}: {why}; choose another with --port (0 picks a free one)", code=1)
    listener.listen(128)
    listener.set_inheritable(True)
    return listener


def _address(settings: Settings, listener: socket.socket) -> str:
    port = listener.getsockname()[1]
    host = settings.serve.host
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else (f"[{host}]" if ":" in host else host)
    url = f"http://{shown}:{port}/"
    if settings.serve.token is not None:
        url += f"?token={settings.serve.token.get_secret_value()}"
    return url
