"""A round's end holds the table while its people read the breakdown (issue 22, finding 4: the
bot played round 2's first card behind the dialog, so the new deal was never seen). The bots
and the turn's clock wait until every person whose client said ``continues`` in its hello has
sent ``continue``, or ``HOLD_SECONDS`` have passed; a bad ``continue`` is refused and changes
nothing. The state also carries the turn's clock and whether a stand-in made the last move."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from scopa.server.client import Lobby, ServerError, TableConnection, socket_url
from scopa.server.table import tables

from .server_support import TIMEOUT, anyio_backend, running_server, seat_people, settings_for

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]


async def open_continuing(url: str, code: str, token: str | None) -> TableConnection:
    """A seat's connection that says in its hello that it continues after a breakdown, as
    the web client does."""
    connection = TableConnection(await connect(socket_url(url, code)))
    await connection.send({"type": "hello", "token": token, "continues": True})
    await connection.wait_for(lambda m: m["type"] == "welcome", TIMEOUT)
    await connection.wait_for(lambda m: m["type"] == "state", TIMEOUT)
    return connection


async def play_to_the_round_end(connection: TableConnection, rng: random.Random) -> int:
    """Play random moves until the first round has ended; the version then."""
    sent_for = -1
    while connection.view is None or connection.view["round_number"] == 0:
        if connection.my_turn and connection.version != sent_for:
            assert connection.view is not None and connection.version is not None
            sent_for = connection.version
            await connection.move(rng.choice(connection.view["legal_moves"]))
        await connection.recv(TIMEOUT)
    assert connection.version is not None
    return connection.version


async def refused(connection: TableConnection, message: dict[str, Any]) -> dict[str, Any]:
    await connection.send(message)
    with pytest.raises(ServerError) as error:
        await connection.wait_for(lambda m: False, TIMEOUT)
    return error.value.message


async def test_the_bot_waits_until_the_person_continues(tmp_path: Path) -> None:
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        grant = await lobby.play_computer(name="Ada", level="random", target=21)
        code = grant["table"]["code"]
        ada = await open_continuing(server.url, code, grant["token"])
        ended = await play_to_the_round_end(ada, random.Random(3))
        # Round 2 is the bot's to lead (the deal moved on): it waits for Ada.
        assert ada.view is not None and ada.view["to_move"] == 1
        assert ada.table is not None and ada.table["continuing"] == [0]
        # A continue for another round, or a broken one, is refused and changes nothing...
        assert (await refused(ada, {"type": "continue", "round": 2, "ref": 9}))["code"] == (
            "not_held"
        )
        for bad in ({"type": "continue"}, {"type": "continue", "round": 0},
                    {"type": "continue", "round": "1"},
                    {"type": "continue", "round": True}):  # fmt: skip
            assert (await refused(ada, bad))["code"] == "bad_message"
        await ada.sync()
        synced = await ada.wait_for(lambda m: m["type"] == "state", TIMEOUT)
        assert synced["version"] == ended, "the bot played while Ada read the breakdown"
        # ...and once she continues, the bot leads round 2.
        await ada.send({"type": "continue", "round": 1})
        table = await ada.wait_for(lambda m: m["type"] == "table", TIMEOUT)
        assert table["table"]["continuing"] == []
        state = await ada.wait_for(
            lambda m: m["type"] == "state" and m["version"] == ended + 1, TIMEOUT
        )
        assert state["play"]["seat"] == 1
        assert (await refused(ada, {"type": "continue", "round": 1}))["code"] == "not_held"
        await ada.close()


async def test_the_hold_ends_on_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A person who never continues holds the table up for HOLD_SECONDS at most."""
    monkeypatch.setattr(tables, "HOLD_SECONDS", 0.05)
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        grant = await lobby.play_computer(name="Ada", level="random", target=21)
        ada = await open_continuing(server.url, grant["table"]["code"], grant["token"])
        ended = await play_to_the_round_end(ada, random.Random(3))
        state = await ada.wait_for(
            lambda m: m["type"] == "state" and m["version"] == ended + 1, TIMEOUT
        )
        assert state["play"]["seat"] == 1
        await ada.close()


async def test_spectators_are_not_waited_for_and_may_not_continue(tmp_path: Path) -> None:
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        grant = await lobby.play_computer(name="Ada", level="random")
        watcher = await open_continuing(server.url, grant["table"]["code"], None)
        error = await refused(watcher, {"type": "continue", "round": 1, "ref": "c"})
        assert error["code"] == "not_seated" and error["ref"] == "c"
        await watcher.close()


async def test_the_state_says_how_long_the_turn_s_clock_has_left(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, turn_timeout=60.0)
    async with running_server(settings) as server, Lobby(server.url) as lobby:
        _, (ada, _bob) = await seat_people(lobby, server.url)
        await ada.connection.sync()
        state = await ada.connection.wait_for(lambda m: m["type"] == "state", TIMEOUT)
        assert 50 < state["clock"] <= 60 and state["stand_in_played"] is False


async def test_the_state_says_a_stand_in_made_the_move(tmp_path: Path) -> None:
    # The stand-ins' later turns wait ten minutes: after the first, the table stands still.
    settings = settings_for(tmp_path, turn_timeout=0.05, bot_delay=(600.0, 600.0))
    async with running_server(settings) as server, Lobby(server.url) as lobby:
        _, (ada, bob) = await seat_people(lobby, server.url)
        await ada.connection.close()
        state = await bob.connection.wait_for(
            lambda m: m["type"] == "state" and m["version"] == 1, TIMEOUT
        )
        assert state["play"]["seat"] == 0 and state["stand_in_played"] is True
