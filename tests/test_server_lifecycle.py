"""Tables that end: waiting tables nobody joins expire (and stay gone after a restart), idle
tables leave memory and come back from the database, and a person whose turn times out has a
stand-in bot, shown as such, until they come back.

The sweeps are called with the time they are for, so no test waits on the clock.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from scopa.client import Lobby, LobbyRefused, TableConnection
from scopa.server.storage import now

from .server_support import TIMEOUT, anyio_backend, running_server, seat_people, settings_for

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]


async def test_a_waiting_table_nobody_joins_expires_after_30_minutes(tmp_path: Path) -> None:
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        created = await lobby.create_table(name="Ada")
        code = created["table"]["code"]
        watcher = await TableConnection.open(server.url, code)
        await server.room.sweep(now() + timedelta(minutes=29))
        assert [table["code"] for table in await lobby.open_tables()] == [code]
        await server.room.sweep(now() + timedelta(minutes=31))
        gone = await watcher.wait_for(
            lambda m: m["type"] == "table" and m["table"]["status"] == "expired", TIMEOUT
        )
        assert gone["table"]["code"] == code
        assert await lobby.open_tables() == []
        with pytest.raises(LobbyRefused) as refused:
            await lobby.join(code, "Bruno")
        assert refused.value.status == 410
        assert refused.value.detail == "this table expired after 30 minutes with nobody joining it"
        with pytest.raises(LobbyRefused):
            await lobby.start(code, created["token"])
        await watcher.close()


async def test_expired_tables_do_not_come_back_at_restart(tmp_path: Path) -> None:
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        waiting = (await lobby.create_table(name="Ada"))["table"]["code"]
        grant = await lobby.play_computer(name="Bea", level="random")
        playing = grant["table"]["code"]
    # Restarted with an expiry shorter than the time since: the waiting table is over for good,
    # the match being played is back where it was.
    async with running_server(settings_for(tmp_path, waiting_expiry=0.001)) as server, Lobby(
        server.url
    ) as lobby:
        assert await lobby.open_tables() == []
        assert set(server.room.tables) == {playing}
        assert (await lobby.table(waiting))["status"] == "expired"
        with pytest.raises(LobbyRefused) as refused:
            await lobby.join(waiting, "Bruno")
        assert refused.value.status == 410
        assert (await lobby.table(playing))["status"] == "playing"


async def test_an_idle_table_leaves_memory_and_comes_back_on_demand(tmp_path: Path) -> None:
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        grant = await lobby.play_computer(name="Ada", level="random")
        code, token = grant["table"]["code"], grant["token"]
        person = await TableConnection.open(server.url, code, token)
        await person.wait_for(lambda m: m["type"] == "state", TIMEOUT)
        assert person.view is not None
        await person.move(person.view["legal_moves"][0])
        await person.wait_for(lambda m: m["type"] == "state" and person.my_turn, TIMEOUT)
        seen = (person.match, person.version, person.view)
        # Watched, it stays however long it idles.
        await server.room.sweep(now() + timedelta(hours=1))
        assert code in server.room.tables
        await person.close()
        await server.room.sweep(now() + timedelta(minutes=4))
        assert code in server.room.tables
        await server.room.sweep(now() + timedelta(minutes=6))
        assert code not in server.room.tables
        back = await TableConnection.open(server.url, code, token, *seen[:2])
        state = await back.wait_for(lambda m: m["type"] == "state", TIMEOUT)
        assert (state["match"], state["version"], state["view"]) == seen
        assert state["missed"] == []
        assert code in server.room.tables
        await back.move(back.view["legal_moves"][0] if back.view else "")
        after = await back.wait_for(lambda m: m["type"] == "state", TIMEOUT)
        assert after["version"] == state["version"] + 1
        await back.close()


async def test_a_stand_in_plays_for_a_person_who_timed_out_until_they_return(
    tmp_path: Path,
) -> None:
    settings = settings_for(tmp_path, turn_timeout=0.05)
    async with running_server(settings) as server, Lobby(server.url) as lobby:
        code, (ada, bob) = await seat_people(lobby, server.url)
        assert ada.connection.my_turn and ada.connection.view is not None
        assert not any(seat["stand_in"] for seat in (await lobby.table(code))["seats"])
        await bob.connection.close()
        await ada.connection.move(ada.connection.view["legal_moves"][0])
        marked = await ada.connection.wait_for(
            lambda m: m["type"] == "table" and m["table"]["seats"][1]["stand_in"], TIMEOUT
        )
        assert not marked["table"]["seats"][1]["connected"]
        played = await ada.connection.wait_for(
            lambda m: m["type"] == "state" and m["version"] == 2, TIMEOUT
        )
        assert played["play"]["seat"] == 1
        assert (await lobby.table(code))["seats"][1]["stand_in"]
        # Bob comes back: the seat is his again, and everyone is told.
        bob.connection = await TableConnection.open(server.url, code, bob.token)
        back = await ada.connection.wait_for(
            lambda m: m["type"] == "table" and not m["table"]["seats"][1]["stand_in"], TIMEOUT
        )
        assert back["table"]["seats"][1]["connected"]
        await bob.connection.close()
        await ada.connection.close()
