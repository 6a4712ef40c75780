"""Every answer of the room says a sentence: an unknown path or a method a route does not take
gets one too, not Starlette's bare "Not Found"."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import httpx
import pytest
import websockets

from .server_support import anyio_backend, running_server, settings_for

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]


async def test_unknown_paths_and_methods_are_answered_with_a_sentence(tmp_path: Path) -> None:
    async with running_server(settings_for(tmp_path)) as server, httpx.AsyncClient(
        base_url=server.url
    ) as client:
        for path in ("/api/nowhere", "/no-such-page.html", "/js/nowhere.js"):
            answer = await client.get(path)
            assert answer.status_code == 404, path
            assert answer.json() == {
                "detail": f"there is nothing at {path}: the routes are listed at /docs",
                "code": "not_found", "params": {"path": path},
            }
        answer = await client.delete("/api/tables")
        assert answer.status_code == 405
        assert answer.json()["detail"] == "/api/tables does not take DELETE: see /docs"
        assert answer.json()["code"] == "method_not_allowed"
        assert "GET" in answer.headers["allow"]
        # A route's own 404 keeps its own sentence.
        answer = await client.get("/api/tables/ZZZZZZ")
        assert answer.status_code == 404
        assert "nothing at" not in answer.json()["detail"]


async def test_a_socket_to_a_path_no_route_serves_is_refused_without_an_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A socket to an unknown path (a doubled slash is one) is refused at its handshake, and
    the server logs no exception for it (it once failed in the static files' mount)."""
    async with running_server(settings_for(tmp_path)) as server:
        base = server.url.replace("http://", "ws://").rstrip("/")
        for path in ("/ws/nowhere", "//ws/lobby", "/js/main.js"):
            with pytest.raises(websockets.InvalidStatus) as refused:
                async with websockets.connect(base + path):
                    pass
            assert refused.value.response.status_code == 403, path
        # The room still answers, and nothing failed on the way.
        async with websockets.connect(base + "/ws/lobby") as lobby:
            assert json.loads(await lobby.recv())["type"] == "tables"
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
