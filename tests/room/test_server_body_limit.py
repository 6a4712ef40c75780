"""The request body limit: a body over 64 KiB gets 413 and a sentence, before the server has
read it, whether its length is declared or it comes chunked, and makes nothing; a body at the
limit is read as ever; the tables' sockets are not touched by it.

Some requests are written by hand on a socket, so that the test can stop sending halfway: a
server that answers then has not waited for (or kept) the rest of the body.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from scopa.server.client import Lobby, TableConnection
from scopa.server.http_guards import MAX_BODY_BYTES, too_large_sentence

from .server_support import (
    TIMEOUT,
    anyio_backend,
    running_server,
    settings_for,
    sqlite_url,
    subprocess_server,
)

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]

REFUSED = {"detail": too_large_sentence(MAX_BODY_BYTES), "code": "body_too_large",
           "params": {"bytes": MAX_BODY_BYTES}}


def padded(size: int, start: bytes = b'{"name": "Ada", ') -> bytes:
    """A table request of exactly ``size`` bytes: an unknown field pads it, and the lobby
    ignores unknown fields (so without a limit such a body makes a table)."""
    start, end = start + b'"pad": "', b'"}'
    return start + b"x" * (size - len(start) - len(end)) + end


async def raw_answer(url: str, head: str, *parts: bytes) -> tuple[int, dict[str, str], Any]:
    """Send a request head and then ``parts`` on a fresh connection, and read the answer
    without sending anything more; the status, headers and JSON body."""
    where = urlsplit(url)
    assert where.hostname is not None and where.port is not None
    reader, writer = await asyncio.open_connection(where.hostname, where.port)
    try:
        writer.write(head.replace("\n", "\r\n").encode() + b"\r\n")
        for part in parts:
            writer.write(part)
        await writer.drain()
        status_line = await asyncio.wait_for(reader.readline(), TIMEOUT)
        assert status_line, "the server closed the connection without an answer"
        headers: dict[str, str] = {}
        while (line := await asyncio.wait_for(reader.readline(), TIMEOUT)) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            headers[name.strip().lower()] = value.strip()
        body = await asyncio.wait_for(reader.readexactly(int(headers["content-length"])), TIMEOUT)
        return int(status_line.split()[1]), headers, json.loads(body)
    finally:
        writer.close()


def post_head(url: str, framing: str) -> str:
    return (
        f"POST /api/tables HTTP/1.1\nHost: {urlsplit(url).netloc}\n"
        f"Content-Type: application/json\n{framing}\n"
    )


def chunk(data: bytes) -> bytes:
    return f"{len(data):x}\r\n".encode() + data + b"\r\n"


async def test_a_declared_length_over_the_limit_is_refused_before_the_body_is_sent(
    tmp_path: Path,
) -> None:
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        # 128 MiB announced, 1 KiB sent: the answer comes with the rest never sent.
        head = post_head(server.url, f"Content-Length: {128 * 1024 * 1024}")
        status, headers, body = await raw_answer(server.url, head, padded(128 * 1024)[:1024])
        assert (status, body) == (413, REFUSED)
        assert headers["content-type"] == "application/json"
        assert await lobby.open_tables() == []


async def test_a_chunked_body_over_the_limit_is_refused_while_it_streams(tmp_path: Path) -> None:
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        # Chunks of 8 KiB, one more than the limit holds, and no last chunk: the server can
        # only answer by counting what came.
        body = padded(MAX_BODY_BYTES + 8 * 1024)
        parts = [chunk(body[k : k + 8 * 1024]) for k in range(0, len(body), 8 * 1024)]
        head = post_head(server.url, "Transfer-Encoding: chunked")
        status, _, answer = await raw_answer(server.url, head, *parts)
        assert (status, answer) == (413, REFUSED)
        assert await lobby.open_tables() == []


async def test_a_large_body_from_an_ordinary_client_makes_nothing(tmp_path: Path) -> None:
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        big = padded(8 * 1024 * 1024)

        async def streamed() -> AsyncIterator[bytes]:
            for k in range(0, len(big), 64 * 1024):
                yield big[k : k + 64 * 1024]

        headers = {"content-type": "application/json"}
        declared = await lobby.http.post("/api/tables", content=big, headers=headers)
        chunked = await lobby.http.post("/api/tables", content=streamed(), headers=headers)
        assert "content-length" not in chunked.request.headers  # it went chunked
        for answer in (declared, chunked):
            assert (answer.status_code, answer.json()) == (413, REFUSED)
        assert await lobby.open_tables() == []
        # The connection is still good for the next request.
        assert (await lobby.create_table(name="Bea"))["table"]["seats"][0]["name"] == "Bea"


async def test_a_body_at_the_limit_is_read_and_one_byte_more_is_not(tmp_path: Path) -> None:
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        headers = {"content-type": "application/json"}
        over = await lobby.http.post(
            "/api/tables", content=padded(MAX_BODY_BYTES + 1), headers=headers
        )
        assert (over.status_code, over.json()) == (413, REFUSED)
        assert await lobby.open_tables() == []
        at = await lobby.http.post("/api/tables", content=padded(MAX_BODY_BYTES), headers=headers)
        assert at.status_code == 201, at.text
        invalid = await lobby.http.post(
            "/api/tables", content=padded(MAX_BODY_BYTES, b'{"players": 99, '), headers=headers
        )
        assert (invalid.status_code, invalid.json()["detail"]) == (
            422, "players: input should be less than or equal to 16")  # fmt: skip
        listed = [table["code"] for table in await lobby.open_tables()]
        assert listed == [at.json()["table"]["code"]]


async def test_the_tables_sockets_are_not_held_to_it(tmp_path: Path) -> None:
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        created = await lobby.create_table(name="Ada")
        code, token = created["table"]["code"], created["token"]
        async with await TableConnection.open(server.url, code, token) as connection:
            table = await connection.wait_for(lambda m: m["type"] == "table", TIMEOUT)
            assert table["table"]["code"] == code


def test_scopa_serve_alone_refuses_a_large_body(tmp_path: Path) -> None:
    """The default way to run the room, with no nginx in front: the limit is in the app."""
    with subprocess_server(sqlite_url(tmp_path / "room.db"), "--bot-delay", "0") as server:
        head = post_head(server.url, f"Content-Length: {128 * 1024 * 1024}")
        status, _, body = asyncio.run(raw_answer(server.url, head))
        assert (status, body) == (413, REFUSED)
