"""Who may use the web app: loopback names only, no cross-origin writes, the token and its CSRF check, bounded
bodies, and files served only from inside a run directory."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import BASE_URL
from fastapi import FastAPI
from fastapi.testclient import TestClient

from research_crawler.config.settings import Settings
from research_crawler.report.models import Report
from research_crawler.run.run_dir import RunMeta, new_run_dir
from research_crawler.serve.access import CSRF_COOKIE, CSRF_HEADER, TOKEN_COOKIE
from research_crawler.serve.app import create_app

#: A body the guard lets through to validation (422), so nothing is started by these tests.
INVALID_BODY = {"query": ""}


def _finished_run(settings: Settings) -> Path:
    run_dir = new_run_dir(settings.runs_dir, "papers on graph neural networks")
    RunMeta(query="papers on graph neural networks", backend="simulated").write(run_dir)
    report = Report(query="papers on graph neural networks", simulated_model=True, stop_reason="all_sites_done")
    (run_dir / "report.json").write_text(report.model_dump_json(), encoding="utf-8")
    (run_dir / "report.md").write_text("# Report\n", encoding="utf-8")
    (run_dir / "items.bib").write_text("@article{a, title={A}}\n", encoding="utf-8")
    return run_dir


def test_only_loopback_host_names_are_answered(client: TestClient) -> None:
    assert client.get("/").status_code == 200
    assert client.get("/", headers={"host": "localhost:8765"}).status_code == 200
    rebound = client.get("/api/runs", headers={"host": "attacker.example:8765"})
    assert rebound.status_code == 400 and "attacker.example" in rebound.json()["detail"]


@pytest.mark.parametrize(
    "host", ["evil@127.0.0.1", "evil@127.0.0.1:8765", "127.0.0.1#x", "127.0.0.1#x:8765", "127.0.0.1/x", "127.0.0.1 x",
             "[::1", "localhost:80:80", ""]
)
def test_a_host_header_that_only_ends_in_a_loopback_name_is_refused(client: TestClient, host: str) -> None:
    response = client.get("/api/runs", headers={"host": host})
    assert response.status_code == 400, host
    assert "does not answer to the host" in response.json()["detail"]


def test_loopback_names_in_every_spelling_are_answered(client: TestClient) -> None:
    for host in ("127.0.0.1", "127.0.0.1:8765", "LOCALHOST:8765", "[::1]:8765", "[::1]"):
        assert client.get("/api/runs", headers={"host": host}).status_code == 200, host


def test_a_post_from_another_site_is_refused(client: TestClient) -> None:
    for headers in ({"origin": "http://evil.example"}, {"origin": "null"}, {"sec-fetch-site": "cross-site"}):
        response = client.post("/api/runs", json={"query": "papers"}, headers=headers)
        assert response.status_code == 403, headers
        assert "refused" in response.json()["detail"]
    same_origin = client.post("/api/runs", json=INVALID_BODY, headers={"origin": BASE_URL})
    assert same_origin.status_code == 422
    other_port = client.post("/api/runs", json=INVALID_BODY, headers={"origin": "http://127.0.0.1:9999"})
    assert other_port.status_code == 403


def test_pages_carry_a_policy_that_runs_only_the_apps_own_script(client: TestClient) -> None:
    response = client.get("/")
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy and "unsafe-inline" not in policy
    assert response.headers["x-content-type-options"] == "nosniff"
    assert "<script>" not in response.text, "no inline script: the policy would block it"
    assert client.get("/static/app.js").status_code == 200


def test_bodies_of_unknown_or_excessive_length_are_refused(client: TestClient) -> None:
    assert client.post("/api/runs", content=b"{" + b" " * 70_000 + b"}").status_code == 413

    def chunks() -> object:
        yield b'{"query": "papers"}'

    assert client.post("/api/runs", content=chunks()).status_code == 411  # type: ignore[arg-type]


def test_a_body_longer_than_its_content_length_is_counted_as_it_arrives(client: TestClient) -> None:
    """`Content-Length: 10` in front of a long chunked body: the guard counts what arrives, not what was announced."""

    def long_body() -> object:
        for _ in range(1000):
            yield b" " * 1024

    headers = {"content-length": "10", "content-type": "application/json"}
    response = client.post("/api/runs", content=long_body(), headers=headers)  # type: ignore[arg-type]
    assert response.status_code == 413 and "larger than 65536 bytes" in response.json()["detail"]
    small = client.post("/api/runs", content=b'{"query": ""}', headers={"content-type": "application/json"})
    assert small.status_code == 422, "a body within the limit still reaches the app whole"


def test_with_a_token_every_request_needs_it(serve_settings: Settings) -> None:
    serve_settings.serve.token = "s3cret-token"  # type: ignore[assignment]
    with TestClient(create_app(serve_settings, backend="simulated"), base_url=BASE_URL) as client:
        assert client.get("/").status_code == 401
        assert client.get("/api/runs").status_code == 401
        assert client.get("/api/runs", headers={"authorization": "Bearer wrong"}).status_code == 401
        assert client.get("/api/runs", headers={"authorization": "Bearer s3cret-token"}).status_code == 200
        assert client.get("/?token=wrong").status_code == 401
        # Bearer: no cookie, so no CSRF check
        bearer = client.post("/api/runs", json=INVALID_BODY, headers={"authorization": "Bearer s3cret-token"})
        assert bearer.status_code == 422

        signed_in = client.get("/?token=s3cret-token", follow_redirects=False)
        assert signed_in.status_code == 303 and signed_in.headers["location"] == "/"
        for path, stays in (("//evil.example/", "/evil.example/"), ("///evil.example", "/evil.example"),
                            ("/\\evil.example/", "/%5Cevil.example/")):
            elsewhere = client.get(f"{BASE_URL}{path}?token=s3cret-token", follow_redirects=False)
            assert elsewhere.status_code == 303 and elsewhere.headers["location"] == stays, path
        assert client.cookies.get(TOKEN_COOKIE) and "s3cret" not in str(client.cookies.get(TOKEN_COOKIE))
        assert client.get("/").status_code == 200, "the cookie opens the pages"
        forged = TestClient(client.app, base_url=BASE_URL, cookies={TOKEN_COOKIE: "s3cret-token"})
        assert forged.get("/").status_code == 401, "the cookie holds a value derived from the token, not the token"
        without_csrf = client.post("/api/runs", json=INVALID_BODY)
        assert without_csrf.status_code == 403 and "CSRF" in without_csrf.json()["detail"]
        wrong = client.post("/api/runs", json=INVALID_BODY, headers={CSRF_HEADER: "guess"})
        assert wrong.status_code == 403
        csrf = client.cookies.get(CSRF_COOKIE)
        assert csrf and client.post("/api/runs", json=INVALID_BODY, headers={CSRF_HEADER: csrf}).status_code == 422


def test_without_a_token_a_cookie_from_another_local_app_does_not_block_writes(app: FastAPI) -> None:
    """Cookies ignore ports: the browser sends another app's cookie on 127.0.0.1 here too (asgi-csrf refuses it)."""
    with TestClient(app, base_url=BASE_URL, cookies={"session": "another-app"}) as client:
        assert client.post("/api/runs", json=INVALID_BODY, headers={"origin": BASE_URL}).status_code == 422


def test_signing_in_again_replaces_a_stale_csrf_cookie(serve_settings: Settings) -> None:
    """A CSRF cookie from before (another token, another server) is replaced at sign-in, so writes work again
    (starlette-csrf keeps a cookie it cannot verify, refusing every write)."""
    serve_settings.serve.token = "s3cret-token"  # type: ignore[assignment]
    with TestClient(create_app(serve_settings, backend="simulated"), base_url=BASE_URL) as client:
        client.cookies.set(CSRF_COOKIE, "stale")
        signed_in = client.get("/?token=s3cret-token", follow_redirects=False)
        fresh = [value for value in signed_in.headers.get_list("set-cookie") if value.startswith(f"{CSRF_COOKIE}=")]
        assert len(fresh) == 1 and not fresh[0].startswith(f"{CSRF_COOKIE}=stale;")
        csrf = fresh[0].split(";", 1)[0].split("=", 1)[1]
        assert client.post("/api/runs", json=INVALID_BODY, headers={CSRF_HEADER: "stale"}).status_code == 403
        assert client.post("/api/runs", json=INVALID_BODY, headers={CSRF_HEADER: csrf}).status_code == 422


def test_files_are_served_from_the_run_directory_only(client: TestClient, serve_settings: Settings) -> None:
    run_dir = _finished_run(serve_settings)
    secret = serve_settings.runs_dir.parent / "secret.txt"
    secret.write_text("do not serve", encoding="utf-8")
    base = f"/api/runs/{run_dir.name}/files"
    bib = client.get(f"{base}/items.bib")
    assert bib.status_code == 200 and bib.text.startswith("@article")
    assert "attachment" in bib.headers["content-disposition"]
    assert client.get(f"{base}/report.md").text == "# Report\n"
    for name in ("run.json", "state.json", "..%2F..%2Fsecret.txt", "%2E%2E%2Fsecret.txt", "..%5Csecret.txt",
                 "pages", "report.md%00.txt"):
        response = client.get(f"{base}/{name}")
        assert response.status_code == 404, name
        assert "do not serve" not in response.text
    assert client.get(f"/api/runs/..%2F{run_dir.name}/files/report.md").status_code == 404
    assert client.get("/api/runs/..%2F..%2F/files/secret.txt").status_code == 404


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links here")
def test_a_link_leading_out_of_the_run_directory_is_not_followed(client: TestClient, serve_settings: Settings) -> None:
    run_dir = _finished_run(serve_settings)
    secret = serve_settings.runs_dir.parent / "secret.txt"
    secret.write_text("do not serve", encoding="utf-8")
    (run_dir / "report.md").unlink()
    (run_dir / "report.md").symlink_to(secret)
    response = client.get(f"/api/runs/{run_dir.name}/files/report.md")
    assert response.status_code == 404 and "do not serve" not in response.text
    outside = serve_settings.runs_dir.parent / "elsewhere"
    outside.mkdir()
    RunMeta(query="q").write(outside)
    (serve_settings.runs_dir / "linked").symlink_to(outside, target_is_directory=True)
    assert client.get("/api/runs/linked").status_code == 404
