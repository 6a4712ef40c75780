"""The lobby's open tables are live on ``/ws/lobby``: the list at once, then again whenever a
table is made, joined or left, also when that happens on another of the room's processes
(through Redis)."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from scopa.server import lobby_feed
from scopa.server.client import Lobby

from .server_support import (
    TIMEOUT,
    anyio_backend,
    fresh_postgres,
    fresh_redis,
    running_server,
    settings_for,
)

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]


def feed_url(url: str) -> str:
    return url.replace("http://", "ws://") + "/ws/lobby"


async def listed(feed: ClientConnection) -> list[str]:
    """The codes of the next list the feed sends."""
    message: dict[str, Any] = json.loads(await feed.recv(decode=True))
    assert message["type"] == "tables"
    return [table["code"] for table in message["tables"]]


async def next_list_where(feed: ClientConnection, wanted: Any) -> list[str]:
    """Lists until one is ``wanted`` (a burst of changes may be told in one list or two)."""
    while True:
        codes = await listed(feed)
        if wanted(codes):
            return codes


async def test_the_open_tables_come_over_the_socket_as_they_change(tmp_path: Path) -> None:
    async with (
        running_server(settings_for(tmp_path)) as server,
        Lobby(server.url) as lobby,
        connect(feed_url(server.url), open_timeout=TIMEOUT) as feed,
    ):
        assert await listed(feed) == []
        made = await lobby.create_table(players=2, name="Ada")
        code = made["table"]["code"]
        assert await next_list_where(feed, lambda codes: codes) == [code]
        joined = await lobby.join(code, "Bea")
        # Full: it is no longer open.
        assert await next_list_where(feed, lambda codes: code not in codes) == []
        await lobby.leave(code, joined["token"])
        assert await next_list_where(feed, lambda codes: codes) == [code]


async def test_a_table_made_on_another_process_reaches_this_one_s_lobby(
    tmp_path: Path,
) -> None:
    async with fresh_postgres() as db, fresh_redis() as redis:
        shared = {"db_url": db, "redis_url": redis}
        async with running_server(settings_for(tmp_path, process_name="a", **shared)) as a:
            async with Lobby(a.url) as first:
                await first.health()  # started: the second one does not migrate beside it
            async with running_server(
                settings_for(tmp_path, process_name="b", **shared)
            ) as b, Lobby(b.url) as second, connect(feed_url(a.url)) as feed:
                assert await listed(feed) == []
                code = (await second.create_table(players=2, name="Ada"))["table"]["code"]
                assert code not in a.room.tables  # b owns it; a heard of it through Redis
                assert await next_list_where(feed, lambda codes: codes) == [code]


async def test_one_address_keeps_a_bounded_number_of_lobby_sockets(tmp_path: Path) -> None:
    """Past PER_ADDRESS sockets from one address the next is closed with 1013 and a sentence,
    and a place comes free when one closes; a binary frame closes its socket with 1008."""
    async with (
        running_server(settings_for(tmp_path)) as server,
        contextlib.AsyncExitStack() as stack,
    ):
        feeds = []
        for _ in range(lobby_feed.PER_ADDRESS):
            feed = await stack.enter_async_context(connect(feed_url(server.url)))
            assert await listed(feed) == []
            feeds.append(feed)
        async with connect(feed_url(server.url)) as refused:
            with pytest.raises(ConnectionClosed) as closed:
                await refused.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
            assert "try again later" in closed.value.rcvd.reason
        await feeds[0].send(b"\x00")
        with pytest.raises(ConnectionClosed) as closed:
            await feeds[0].recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        async with connect(feed_url(server.url)) as again:  # its place is free again
            assert await listed(again) == []
