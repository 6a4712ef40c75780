"""Every HTTP response carries the browser's security headers: a Content-Security-Policy with
no inline script and no framing, nosniff, X-Frame-Options, Referrer-Policy and a
Permissions-Policy; /docs has a policy of its own that admits its one inline script by hash.
Behind deploy/nginx/scopa.conf, an https answer adds HSTS and keeps the app's headers.
(tests/web/test_web_csp.py checks in Chromium that the client works under the policy.)"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from scopa.server.client import Lobby
from scopa.server.http_guards import CLIENT_POLICY, MAX_BODY_BYTES, inline_script_hashes

from .server_support import (
    LOCATIONS,
    NGINX,
    NO_NGINX,
    TIMEOUT,
    anyio_backend,
    free_port,
    process_wait,
    running_server,
    settings_for,
)

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]

# What each kind of response is: the client's page, a module, a stylesheet, a translation, the
# lobby's JSON, health, 404s (API and static), a 422, a 413 (made before any route runs), the
# API's documentation and its assets.
REQUESTS = [
    ("GET", "/", None, 200),
    ("GET", "/index.html", None, 200),
    ("GET", "/js/main.js", None, 200),
    ("GET", "/style.css", None, 200),
    ("GET", "/i18n/en.json", None, 200),
    ("GET", "/api/tables", None, 200),
    ("GET", "/healthz", None, 200),
    ("GET", "/api/tables/ABCDEF", None, 404),
    ("GET", "/no/such/file.png", None, 404),
    ("POST", "/api/tables", b'{"players": 99}', 422),
    ("POST", "/api/tables", b" " * (MAX_BODY_BYTES + 1), 413),
    ("GET", "/openapi.json", None, 200),
    ("GET", "/docs", None, 200),
    ("GET", "/docs/assets/swagger-ui-bundle.js", None, 200),
    ("HEAD", "/", None, 200),
]


def directives(policy: str) -> dict[str, list[str]]:
    """A Content-Security-Policy as {directive: sources}."""
    parsed: dict[str, list[str]] = {}
    for part in policy.split(";"):
        name, *sources = part.split()
        assert name not in parsed, f"{name} twice in {policy!r}"
        parsed[name] = sources
    return parsed


@pytest.mark.parametrize(("method", "path", "body", "status"), REQUESTS)
async def test_every_kind_of_response_carries_the_headers(
    tmp_path: Path, method: str, path: str, body: bytes | None, status: int
) -> None:
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        headers = {"content-type": "application/json"} if body is not None else {}
        answer = await lobby.http.request(method, path, content=body, headers=headers)
        assert answer.status_code == status, answer.text
        headers = answer.headers
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY"
        assert headers["referrer-policy"] == "same-origin"
        permissions = dict(
            feature.strip().split("=") for feature in headers["permissions-policy"].split(",")
        )
        for feature in ("camera", "microphone", "geolocation", "payment", "usb"):
            assert permissions[feature] == "()"
        policy = directives(headers["content-security-policy"])
        assert policy["default-src"] == ["'none'"]
        assert policy["frame-ancestors"] == ["'none'"]
        assert policy["base-uri"] == ["'none'"]
        assert policy["connect-src"] == ["'self'"]
        assert policy["style-src"] == ["'self'"]
        assert "'unsafe-inline'" not in policy["script-src"]
        assert "'unsafe-eval'" not in policy["script-src"]
        if path == "/docs":
            # Its inline script (the one that starts Swagger UI), by hash, and no other.
            assert policy["script-src"] == ["'self'", *inline_script_hashes(answer.text)]
            assert len(policy["script-src"]) == 2
        else:
            assert policy["script-src"] == ["'self'"]
        assert len(headers.get_list("content-security-policy")) == 1


async def test_the_headers_do_not_hide_a_response_s_own(tmp_path: Path) -> None:
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        page = await lobby.http.get("/")
        assert page.headers["content-type"].startswith("text/html")
        module = await lobby.http.get("/js/main.js")
        # nosniff makes the browser trust the type: a module must be served as JavaScript.
        kind = module.headers["content-type"].split(";")[0]
        assert kind in ("text/javascript", "application/javascript")
        refused = await lobby.http.post("/api/tables", json={"players": 99})
        assert refused.json()["detail"] == "players: input should be less than or equal to 16"


@contextlib.contextmanager
def deployed_site(upstream: str, folder: Path) -> Iterator[tuple[str, str]]:
    """nginx with deploy/nginx/scopa.conf as it is in the repository, but for its addresses: a
    self-signed certificate, loopback ports for 80 and 443, and ``upstream`` (host:port) for
    each process. Yields the plain and the https URL once nginx listens."""
    if not NGINX:
        pytest.skip(NO_NGINX)
    folder.mkdir(parents=True, exist_ok=True)
    key, cert = folder / "key.pem", folder / "cert.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=room.example.org", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    plain, secure = free_port(), free_port()
    site = (LOCATIONS.parent / "scopa.conf").read_text()
    site = site.replace("/etc/letsencrypt/live/room.example.org/fullchain.pem", str(cert))
    site = site.replace("/etc/letsencrypt/live/room.example.org/privkey.pem", str(key))
    site = site.replace("/etc/nginx/scopa-locations.conf", str(LOCATIONS))
    site = re.sub(r"server 127\.0\.0\.1:\d+", f"server {upstream}", site)
    site = re.sub(r"listen \[::\]:\d+[^;]*;", "", site)
    site = site.replace("listen 80;", f"listen 127.0.0.1:{plain};")
    site = site.replace("listen 443 ", f"listen 127.0.0.1:{secure} ")
    assert f":{plain};" in site and f":{secure} " in site, "scopa.conf's listen lines moved"
    (folder / "scopa.conf").write_text(site)
    config = folder / "nginx.conf"
    config.write_text(
        f"""{"user root;" if os.geteuid() == 0 else ""}
daemon off;
pid {folder}/nginx.pid;
events {{}}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    include {folder}/scopa.conf;
}}
"""
    )
    log = folder / "error.log"
    process = subprocess.Popen(
        [NGINX, "-c", str(config), "-p", str(folder), "-e", str(log)], stdin=subprocess.DEVNULL
    )
    try:
        deadline = TIMEOUT  # nginx says nothing when it is ready: until it accepts, at most this
        while True:
            try:
                socket.create_connection(("127.0.0.1", secure), timeout=1).close()
                break
            except OSError:
                if process.poll() is not None or deadline <= 0:
                    raise AssertionError(log.read_text() if log.exists() else "") from None
                deadline -= 0.05
                process_wait(process, 0.05)
        yield f"http://127.0.0.1:{plain}", f"https://127.0.0.1:{secure}"
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
        process_wait(process, TIMEOUT)
        if process.poll() is None:
            process.kill()
            process.wait(TIMEOUT)


async def test_the_nginx_example_adds_hsts_over_https_and_keeps_the_apps_headers(
    tmp_path: Path,
) -> None:
    async with running_server(settings_for(tmp_path)) as server:
        upstream = server.url.removeprefix("http://")
        with deployed_site(upstream, tmp_path / "nginx") as (plain, secure):
            async with httpx.AsyncClient(verify=False, timeout=TIMEOUT) as client:
                for path in ("/", "/api/tables", "/api/tables/ABCDEF"):
                    answer = await client.get(secure + path)
                    assert answer.status_code in (200, 404), answer.text
                    assert answer.headers.get_list("strict-transport-security") == [
                        "max-age=63072000; includeSubDomains"
                    ]
                    assert answer.headers.get_list("content-security-policy") == [CLIENT_POLICY]
                    assert answer.headers["x-frame-options"] == "DENY"
                # Over plain http: only the way to https (HSTS there would mean nothing).
                moved = await client.get(plain + "/", headers={"host": "room.example.org"})
                assert moved.status_code == 301
                assert moved.headers["location"] == "https://room.example.org/"
                assert "strict-transport-security" not in moved.headers
