"""A deleted account lives on at no table (issue 34, item 12): the match it was playing is
resigned for it and rates nobody, its seat reads "deleted player" to the others and its token
opens nothing, its sockets (the seat's, a spectator's, ``/ws/me``) close with 1008 after
saying why, a seat it held at a table still waiting is free again, and no guest may sit
under its name while registration refuses it (``name_kept``). With two processes, the
deletion asked of one reaches the table and the sockets the other holds, through the hub."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from scopa.server.client import Closed, Lobby, ServerError, TableConnection
from scopa.server.store.schema import account_matches, ratings

from .chat_support import PASSWORD, cookie, register
from .server_support import (
    TIMEOUT,
    Seated,
    Server,
    anyio_backend,
    play_moves,
    room_processes,
    running_server,
    settings_for,
)

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]


async def _rows(server: Server, table: sa.Table) -> list[dict[str, Any]]:
    async with server.room.storage.engine.connect() as connection:
        return [dict(row._mapping) for row in (await connection.execute(sa.select(table)))]


async def _me(url: str, lobby: Lobby) -> ClientConnection:
    """``lobby``'s person's ``/ws/me`` at ``url``, past its first message."""
    socket = await connect(url.rstrip("/").replace("http", "ws", 1) + "/ws/me",
                           additional_headers={"Cookie": cookie(lobby)})
    async with asyncio.timeout(TIMEOUT):
        await socket.recv()
    return socket


async def _closed(socket: ClientConnection) -> tuple[int | None, str | None]:
    """How ``socket`` was closed by the server, read to its end."""
    with pytest.raises(ConnectionClosed):
        async with asyncio.timeout(TIMEOUT):
            while True:
                await socket.recv()
    return socket.close_code, socket.close_reason


async def _told_and_closed(connection: TableConnection) -> None:
    """A seat's socket of the deleted account: told why, then closed with 1008."""
    told = await connection.wait_for(lambda m: m["type"] == "error", TIMEOUT)
    assert told["code"] == "account_deleted", told
    with pytest.raises(Closed) as closed:
        while True:
            await connection.recv(TIMEOUT)
    assert closed.value.code == 1008


async def _delete(lobby: Lobby) -> None:
    answer = await lobby.http.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert answer.status_code == 204, answer.text


async def _refused_as_guest(url: str, code: str, name: str) -> None:
    """A guest may neither join nor make a table under ``name``: 409 ``name_kept``."""
    async with Lobby(url) as guest:
        for path, body in ((f"/api/tables/{code}/join", {"name": name}),
                           ("/api/tables", {"name": name})):
            answer = await guest.http.post(path, json=body)
            assert answer.status_code == 409, answer.text
            assert answer.json()["code"] == "name_kept"
            assert "belonged to an account deleted on" in answer.json()["detail"]


def _names(connection: TableConnection) -> list[str | None]:
    assert connection.table is not None
    return [seat["name"] for seat in connection.table["seats"]]


async def test_a_deleted_account_resigns_unrated_and_its_seat_and_sockets_go(
    tmp_path: Path,
) -> None:
    settings = settings_for(tmp_path, newcomer_matches=0, provisional_matches=1)
    async with running_server(settings) as server, Lobby(server.url) as anna, Lobby(
        server.url
    ) as bruno:
        await register(anna, "Anna")
        await register(bruno, "Bruno")
        made = await anna.create_table(players=2, name="Anna", rated=True, target=11)
        code = made["table"]["code"]
        joined = await bruno.join(code, "Bruno")
        seated = [Seated(seat, token, await TableConnection.open(server.url, code, token))
                  for seat, token in ((made["seat"], made["token"]),
                                      (joined["seat"], joined["token"]))]
        await anna.start(code, made["token"])
        for each in seated:
            await each.connection.wait_for(lambda m: m["type"] == "state", TIMEOUT)
        # Two moves each: a resignation now would be rated, were it Anna's own.
        await asyncio.gather(*(play_moves(each, 2, random.Random(each.seat)) for each in seated))
        waiting = await anna.create_table(players=2, name="Anna")
        me = await _me(server.url, anna)
        watching = await TableConnection.open(server.url, code, cookie=cookie(anna))

        await _delete(anna)
        ada, other = seated[0].connection, seated[1].connection
        await _told_and_closed(ada)
        assert await _closed(me) == (1008, "account deleted")
        await _told_and_closed(watching)  # the account watching the table, too
        over = await other.wait_for(lambda m: m["type"] == "over", TIMEOUT)
        assert over["winner"] == 1
        assert _names(other) == ["deleted player", "Bruno"]  # told before the end

        # Her token opens nothing: no seat at the table, no rematch.
        with pytest.raises(ServerError) as refused:
            await TableConnection.open(server.url, code, made["token"])
        assert refused.value.message["code"] == "bad_token"
        answer = await bruno.http.post(f"/api/tables/{code}/rematch",
                                       json={"token": made["token"]})
        assert answer.status_code == 403, answer.text
        # The match is Bruno's, recorded, and rated for nobody; her waiting table's seat is free.
        assert await _rows(server, ratings) == []
        played = await _rows(server, account_matches)
        assert [(row["result"], row["rated"]) for row in played] == [("win", False)]
        seats = (await bruno.table(waiting["table"]["code"]))["seats"]
        assert (seats[0]["open"], seats[0]["name"]) == (True, None)
        await _refused_as_guest(server.url, code, "Anna")
        await _refused_as_guest(server.url, code, "ANNA")  # a look-alike, too
        await other.close()


async def test_a_deletion_asked_of_one_process_reaches_the_table_another_holds() -> None:
    async with room_processes(("p1", "p2"), "--bot-delay", "0") as room:
        owner, other = room.servers["p1"], room.servers["p2"]
        async with Lobby(owner.url) as bruno, Lobby(other.url) as anna:
            await register(anna, "Anna")
            made = await bruno.create_table(players=2, name="Bruno")
            code = made["table"]["code"]
            joined = await anna.join(code, "Anna")  # through p2, to p1's table
            seats = [await TableConnection.open(owner.url, code, token)
                     for token in (made["token"], joined["token"])]
            await bruno.start(code, made["token"])
            for connection in seats:
                await connection.wait_for(lambda m: m["type"] == "state", TIMEOUT)
            me = await _me(owner.url, anna)

            await _delete(anna)  # at p2, which holds neither the table nor her sockets
            await _told_and_closed(seats[1])
            assert await _closed(me) == (1008, "account deleted")
            over = await seats[0].wait_for(lambda m: m["type"] == "over", TIMEOUT)
            assert over["winner"] == 0
            assert _names(seats[0]) == ["Bruno", "deleted player"]
            with pytest.raises(ServerError) as refused:
                await TableConnection.open(owner.url, code, joined["token"])
            assert refused.value.message["code"] == "bad_token"
            await _refused_as_guest(owner.url, code, "Anna")
            await seats[0].close()
