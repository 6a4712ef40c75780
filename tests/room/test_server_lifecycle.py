"""Tables that end: waiting tables nobody joins expire (and stay gone after a restart), idle
tables leave memory and come back from the database, and a person whose turn times out has a
stand-in bot, shown as such, until they come back.

The sweeps are called with the time they are for, so no test waits on the clock.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from scopa.server.client import Lobby, LobbyRefused, TableConnection
from scopa.server.store.storage import now

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


def _stand_in(seat: int, on: bool) -> Callable[[dict[str, Any]], bool]:
    """The ``table`` message that shows ``seat``'s stand-in ``on`` (or off)."""
    return lambda m: m["type"] == "table" and m["table"]["seats"][seat]["stand_in"] is on


def _played_by(seat: int, version: int) -> Callable[[dict[str, Any]], bool]:
    """The ``state`` message of ``version``, whose last move ``seat`` made."""
    return lambda m: m["type"] == "state" and m["version"] == version and m["play"]["seat"] == seat


# A stand-in plays its first move as the clock runs out, and every later turn after the bots'
# pause: with that pause at ten minutes, the table stands still once both seats have timed out,
# so each step below is one message to wait for, however slow the machine.
IMPATIENT = {"turn_timeout": 0.05, "bot_delay": (600.0, 600.0)}


async def test_a_stand_in_plays_for_a_person_who_went_away_until_they_return(
    tmp_path: Path,
) -> None:
    async with running_server(settings_for(tmp_path, **IMPATIENT)) as server, Lobby(
        server.url
    ) as lobby:
        code, (ada, bob) = await seat_people(lobby, server.url)
        assert ada.connection.my_turn
        await ada.connection.close()
        marked = await bob.connection.wait_for(_stand_in(0, True), TIMEOUT)
        assert not marked["table"]["seats"][0]["connected"]
        await bob.connection.wait_for(_played_by(0, 1), TIMEOUT)
        assert (await lobby.table(code))["seats"][0]["stand_in"]
        # Ada comes back: the seat is hers again, and everyone is told.
        ada.connection = await TableConnection.open(server.url, code, ada.token)
        back = await bob.connection.wait_for(_stand_in(0, False), TIMEOUT)
        assert back["table"]["seats"][0]["connected"]
        await bob.connection.close()
        await ada.connection.close()


async def test_a_connected_silent_person_times_out_and_comes_back_with_their_next_command(
    tmp_path: Path,
) -> None:
    async with running_server(settings_for(tmp_path, **IMPATIENT)) as server, Lobby(
        server.url
    ) as lobby:
        code, (ada, bob) = await seat_people(lobby, server.url)
        # Both stay connected and say nothing: Ada's turn times out, then Bob's.
        marked = await bob.connection.wait_for(_stand_in(0, True), TIMEOUT)
        assert marked["table"]["seats"][0]["connected"]
        await bob.connection.wait_for(_played_by(0, 1), TIMEOUT)
        await ada.connection.wait_for(_stand_in(1, True), TIMEOUT)
        await ada.connection.wait_for(_played_by(1, 2), TIMEOUT)
        assert ada.connection.my_turn
        # A ping is no sign of a person (a client may send it by itself): still a stand-in.
        await ada.connection.send({"type": "ping"})
        await ada.connection.wait_for(lambda m: m["type"] == "pong", TIMEOUT)
        assert (await lobby.table(code))["seats"][0]["stand_in"]
        # Her next command is: she is back, everyone is told, and her turn has a fresh clock.
        await ada.connection.sync()
        back = await bob.connection.wait_for(_stand_in(0, False), TIMEOUT)
        assert back["table"]["seats"][0]["connected"]
        await bob.connection.wait_for(_stand_in(0, True), TIMEOUT)
        await bob.connection.wait_for(_played_by(0, 3), TIMEOUT)
        # Bob's move is his sign of life and his move both; the next turn is the stand-in's.
        assert bob.connection.my_turn and bob.connection.view is not None
        await bob.connection.move(bob.connection.view["legal_moves"][0])
        await ada.connection.wait_for(_stand_in(1, False), TIMEOUT)
        await ada.connection.wait_for(_played_by(1, 4), TIMEOUT)
        assert [seat["stand_in"] for seat in (await lobby.table(code))["seats"]] == [True, False]
        await bob.connection.close()
        await ada.connection.close()
