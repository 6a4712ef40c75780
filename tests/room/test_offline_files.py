"""Offline play's files (issue 37, item 1): the room serves the runtime and the wheel that
``scripts/pyodide.py`` made, exactly the files its manifest lists, and without them works as
before and says offline play is not installed.

scripts/test.sh runs scripts/pyodide.py first, so the real runtime is in its folder here."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import httpx
import pytest

from scopa.server.offline.settings import OfflineSettings, default_folder

from .server_support import anyio_backend, running_server, settings_for

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]


def runtime() -> Path:
    folder = default_folder()
    if not (folder / "manifest.json").is_file():
        pytest.fail(f"no offline runtime in {folder}: run `python scripts/pyodide.py` "
                    "(scripts/test.sh does)")
    return folder


async def test_the_runtime_and_the_wheel_are_served_as_their_manifest_says(
    tmp_path: Path,
) -> None:
    folder = runtime()
    manifest = json.loads((folder / "manifest.json").read_bytes())
    settings = settings_for(tmp_path, sections=(OfflineSettings(folder=folder),))
    async with running_server(settings) as server, \
            httpx.AsyncClient(base_url=server.url) as client:
        state = (await client.get("/api/offline")).json()
        assert state["installed"] and state["detail"] is None
        assert (state["pyodide"], state["wheel"]) == (manifest["pyodide"], manifest["wheel"])
        assert set(state["files"]) == set(manifest["files"])
        assert state["bytes"] == sum(f["size"] for f in manifest["files"].values())
        assert 5_000_000 < state["bytes"] < 20_000_000
        # httpx accepts gzip: the gzipped copies' sizes where the manifest lists one.
        assert state["wire"] == sum(f.get("gzip") or f["size"]
                                    for f in manifest["files"].values()) < state["bytes"]
        for name in ("pyodide/pyodide.asm.wasm", "pyodide/pyodide.mjs", state["wheel"]):
            answer = await client.get(f"/offline/{name}")
            assert answer.status_code == 200, name
            assert hashlib.sha256(answer.content).hexdigest() == state["files"][name]["sha256"]
        wasm = await client.get("/offline/pyodide/pyodide.asm.wasm")
        assert wasm.headers["content-type"] == "application/wasm"
        module = await client.get("/offline/pyodide/pyodide.mjs")
        assert module.headers["content-type"].startswith("text/javascript")
        # Nothing but what the manifest lists: not the manifest, the tarball, nor a way out.
        for name in ("manifest.json", f"pyodide-{manifest['pyodide']}.tgz",
                     "pyodide/../manifest.json", "..%2F..%2Fetc%2Fpasswd", "x" * 200):
            refused = await client.get(f"/offline/{name}")
            assert refused.status_code in (404, 422), name
            assert refused.json()["code"] in ("no_offline_file", "invalid_request"), name


async def test_without_the_files_the_room_says_offline_play_is_not_installed(
    tmp_path: Path,
) -> None:
    settings = settings_for(tmp_path, sections=(OfflineSettings(folder=tmp_path / "none"),))
    async with running_server(settings) as server, \
            httpx.AsyncClient(base_url=server.url) as client:
        state = (await client.get("/api/offline")).json()
        assert not state["installed"] and state["files"] == {}
        assert state["bytes"] == state["wire"] == 0
        assert "offline play is not installed" in state["detail"]
        answer = await client.get("/offline/pyodide/pyodide.mjs")
        assert (answer.status_code, answer.json()["code"]) == (404, "offline_not_installed")
        assert (await client.get("/api/tables")).status_code == 200  # the room works as before


async def test_a_half_copied_runtime_counts_as_not_installed(tmp_path: Path) -> None:
    """A file of the wrong size (a copy or a fetch that did not finish) is never served."""
    source = runtime()
    folder = tmp_path / "offline"
    shutil.copytree(source, folder, ignore=shutil.ignore_patterns("*.tgz"))
    wasm = folder / "pyodide" / "pyodide.asm.wasm"
    wasm.write_bytes(wasm.read_bytes()[: 1 << 20])
    settings = settings_for(tmp_path, sections=(OfflineSettings(folder=folder),))
    async with running_server(settings) as server, \
            httpx.AsyncClient(base_url=server.url) as client:
        assert not (await client.get("/api/offline")).json()["installed"]
        answer = await client.get("/offline/pyodide/pyodide.mjs")
        assert (answer.status_code, answer.json()["code"]) == (404, "offline_not_installed")


async def test_downloads_are_limited_per_address(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, sections=(OfflineSettings(folder=runtime()),))
    async with running_server(settings) as server, \
            httpx.AsyncClient(base_url=server.url) as client:
        for _ in range(120):
            assert (await client.get("/offline/pyodide/package.json")).status_code == 200
        refused = await client.get("/offline/pyodide/package.json")
        assert (refused.status_code, refused.json()["code"]) == (
            429, "too_many_offline_downloads")
        assert (await client.get("/api/offline")).status_code == 200  # the list still answers


async def wire_bytes(client: httpx.AsyncClient, name: str, encoding: str) -> tuple[int, bytes]:
    """``/offline/NAME`` asked with ``Accept-Encoding: ENCODING``: the bytes that came over the
    wire, and the body once decoded."""
    async with client.stream("GET", f"/offline/{name}",
                             headers={"Accept-Encoding": encoding}) as answer:
        assert answer.status_code == 200, name
        body = await answer.aread()
        return answer.num_bytes_downloaded, body


async def offered(client: httpx.AsyncClient, encoding: str) -> dict[str, Any]:
    """``/api/offline`` asked with ``Accept-Encoding: ENCODING``, as a download would be."""
    answer = await client.get("/api/offline", headers={"Accept-Encoding": encoding})
    assert "Accept-Encoding" in answer.headers["vary"]
    state: dict[str, Any] = answer.json()
    return state


async def sent_for_each(client: httpx.AsyncClient, state: dict[str, Any],
                        encoding: str) -> dict[str, int]:
    """Every file ``state`` lists downloaded with ``Accept-Encoding: ENCODING``: the bytes that
    came over the wire for each, each checked to decode to its listed size and hash."""
    sent = {}
    for name, facts in state["files"].items():
        sent[name], body = await wire_bytes(client, name, encoding)
        assert len(body) == facts["size"], name
        assert hashlib.sha256(body).hexdigest() == facts["sha256"], name
    return sent


async def test_the_first_download_is_gzipped_to_under_7_mb(tmp_path: Path) -> None:
    """The issue's goal for the first download's bytes on the wire: the files that shrink go
    gzipped (copies made by scripts/pyodide.py), and each decodes to its listed hash. What
    /api/offline says is on the wire (each file's and the total, which the page shows as the
    download's size) is what is sent, to a client that accepts gzip and to one that does not."""
    settings = settings_for(tmp_path, sections=(OfflineSettings(folder=runtime()),))
    async with running_server(settings) as server, \
            httpx.AsyncClient(base_url=server.url) as client:
        state = await offered(client, "gzip, deflate, br")
        sent = await sent_for_each(client, state, "gzip, deflate, br")
        assert sent == {name: facts["wire"] for name, facts in state["files"].items()}
        assert state["wire"] == sum(sent.values()) <= 7_000_000 < state["bytes"], state
        plain = await offered(client, "identity")
        assert (plain["bytes"], plain["files"].keys()) == (state["bytes"], state["files"].keys())
        sent = await sent_for_each(client, plain, "identity")
        assert sent == {name: facts["size"] for name, facts in plain["files"].items()}
        assert plain["wire"] == sum(sent.values()) == plain["bytes"]


async def test_a_cut_gzipped_copy_is_left_unused(tmp_path: Path) -> None:
    """A gzipped copy of the wrong size is never sent: the file goes out as it is."""
    source = runtime()
    folder = tmp_path / "offline"
    shutil.copytree(source, folder, ignore=shutil.ignore_patterns("*.tgz"))
    copy = folder / "gzip" / "pyodide" / "pyodide.asm.wasm.gz"
    copy.write_bytes(copy.read_bytes()[:1000])
    settings = settings_for(tmp_path, sections=(OfflineSettings(folder=folder),))
    async with running_server(settings) as server, \
            httpx.AsyncClient(base_url=server.url) as client:
        state = await offered(client, "gzip")
        files = state["files"]
        facts = files["pyodide/pyodide.asm.wasm"]
        sent, body = await wire_bytes(client, "pyodide/pyodide.asm.wasm", "gzip")
        assert sent == len(body) == facts["size"] == facts["wire"]
        assert hashlib.sha256(body).hexdigest() == facts["sha256"]
        sent, body = await wire_bytes(client, "pyodide/pyodide.asm.mjs", "gzip")
        assert sent < len(body) // 2 == files["pyodide/pyodide.asm.mjs"]["size"] // 2
        assert sent == files["pyodide/pyodide.asm.mjs"]["wire"]
        # The total counts the wasm whole: what is sent, not what the manifest says of a copy.
        sent_for = await sent_for_each(client, state, "gzip")
        assert sent_for == {name: f["wire"] for name, f in files.items()}
        assert state["wire"] == sum(sent_for.values())
