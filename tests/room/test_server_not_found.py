"""Every answer of the room says a sentence: an unknown path or a method a route does not take
gets one too, not Starlette's bare "Not Found"."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

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
                "detail": f"there is nothing at {path}: the routes are listed at /docs"
            }
        answer = await client.delete("/api/tables")
        assert answer.status_code == 405
        assert answer.json() == {"detail": "/api/tables does not take DELETE: see /docs"}
        assert "GET" in answer.headers["allow"]
        # A route's own 404 keeps its own sentence.
        answer = await client.get("/api/tables/ZZZZZZ")
        assert answer.status_code == 404
        assert "nothing at" not in answer.json()["detail"]
