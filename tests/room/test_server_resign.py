"""Resigning at a table (issue 22, item 3): a seated person sends ``resign``, the match is over
for everyone at once with the other side the winner, stored before anyone is told (a ``kill -9``
right after loses nothing), rated as the resigner's loss, and shown by the record and the
replay. A spectator's resign and one after the match are refused and change nothing."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from scopa import Game
from scopa.server.client import Lobby, ServerError, TableConnection
from scopa.server.store.schema import rating_history, ratings

from .server_support import (
    TIMEOUT,
    Seated,
    anyio_backend,
    play_moves,
    running_server,
    seat_people,
    settings_for,
    sqlite_url,
    subprocess_server,
)

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]


async def refused(connection: TableConnection, message: dict[str, Any]) -> dict[str, Any]:
    """The error ``message`` gets (the test fails on a timeout if it gets none)."""
    await connection.send(message)
    with pytest.raises(ServerError) as error:
        await connection.wait_for(lambda m: False, TIMEOUT)
    return error.value.message


async def one_move(people: list[Seated]) -> None:
    """The seat to move plays a move, and everyone has seen it."""
    mover = next(p for p in people if p.connection.my_turn)
    assert mover.connection.view is not None and mover.connection.version is not None
    version = mover.connection.version
    await mover.connection.move(random.Random(version).choice(mover.connection.view["legal_moves"]))
    for person in people:
        await person.connection.wait_for(
            lambda m: m["type"] == "state" and m["version"] == version + 1, TIMEOUT
        )


async def shown(url: str, code: str, token: str | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The state and the ``over`` a fresh connection to the table is sent."""
    async with await TableConnection.open(url, code, token) as connection:
        state = await connection.wait_for(lambda m: m["type"] == "state", TIMEOUT)
        over = await connection.wait_for(lambda m: m["type"] == "over", TIMEOUT)
    return state, over


async def test_a_resignation_ends_the_match_for_both_seats_and_is_stored(
    tmp_path: Path,
) -> None:
    db = sqlite_url(tmp_path / "room.db")
    with subprocess_server(db, "--bot-delay", "0") as server:
        async with Lobby(server.url) as lobby:
            code, people = await seat_people(lobby, server.url)
            await one_move(people)
            ada, bruno = people
            watcher = await TableConnection.open(server.url, code)
            await watcher.wait_for(lambda m: m["type"] == "state", TIMEOUT)
            version = ada.connection.version
            # Bruno resigns, on Ada's turn or his own: it does not matter whose turn it is.
            await bruno.connection.resign(ref=4)
            for connection in (ada.connection, bruno.connection, watcher):
                state = await connection.wait_for(lambda m: m["type"] == "state", TIMEOUT)
                assert state["version"] == version  # no move was played
                assert state["view"]["resigned"] == 1 and state["view"]["winner"] == 0
                assert state["view"]["to_move"] is None and state["view"]["legal_moves"] == []
                over = await connection.wait_for(lambda m: m["type"] == "over", TIMEOUT)
                assert over["winner"] == 0 and over["version"] == version
            assert (await lobby.table(code))["status"] == "over"
            match = ada.connection.match
            assert match is not None
            # Acknowledged, so stored: a kill -9 now loses none of it.
            server.kill()
    with subprocess_server(db, "--bot-delay", "0") as server:
        async with Lobby(server.url) as lobby:
            assert (await lobby.table(code))["status"] == "over"
            for token in (None, ada.token, bruno.token):
                state, over = await shown(server.url, code, token)
                assert state["view"]["resigned"] == 1 and state["view"]["winner"] == 0
                assert over["winner"] == 0
            record = await lobby.match_record(match)
            assert record["resigned"] == 1 and record["winner"] == 0
            again = Game.replay(record)
            assert again.winner == 0 and again.resigned == 1
            answer = await lobby.http.get(f"/api/replays/{match}")
            assert answer.status_code == 200
            replay = answer.json()
            assert (replay["resigned"], replay["winner"]) == (1, 0)
            assert len(replay["frames"]) == len(record["moves"]) + 1
            # After a resignation the table takes a rematch like any finished one.
            await lobby.rematch(code, ada.token)
            assert (await lobby.table(code))["status"] == "playing"
        await watcher.close()


async def test_a_spectator_or_an_over_match_cannot_resign(tmp_path: Path) -> None:
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        code, people = await seat_people(lobby, server.url)
        ada, bruno = people
        async with await TableConnection.open(server.url, code) as watcher:
            await watcher.wait_for(lambda m: m["type"] == "state", TIMEOUT)
            error = await refused(watcher, {"type": "resign", "ref": "r"})
            assert (error["code"], error["ref"]) == ("not_seated", "r")
        await ada.connection.sync()
        state = await ada.connection.wait_for(lambda m: m["type"] == "state", TIMEOUT)
        assert state["view"]["winner"] is None and state["view"]["resigned"] is None
        assert (await lobby.table(code))["status"] == "playing"
        await ada.connection.resign()
        await bruno.connection.wait_for(lambda m: m["type"] == "over", TIMEOUT)
        # The match is over: a second resignation, from either side, is refused.
        for person in (ada, bruno):
            error = await refused(person.connection, {"type": "resign", "ref": 2})
            assert (error["code"], error["ref"]) == ("no_match", 2)
        record = await lobby.match_record(state["match"])
        assert (record["resigned"], record["winner"]) == (0, 1)
        for person in people:
            await person.connection.close()


async def test_a_rated_resignation_is_the_resigners_loss(tmp_path: Path) -> None:
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        answer = await lobby.http.post(
            "/api/account/register", json={"name": "Anna", "password": "a good password"}
        )
        assert answer.status_code == 201
        grant = await lobby.play_computer(name="Anna", level="random", rated=True)
        code = grant["table"]["code"]
        async with await TableConnection.open(server.url, code, grant["token"]) as anna:
            # Anna and the bot make 2 moves each first: a match resigned sooner rates nobody
            # (tests/room/test_rating_farming.py).
            await play_moves(Seated(0, grant["token"], anna), 2, random.Random(2))
            await anna.wait_for(lambda m: m["type"] == "state" and m["version"] == 4, TIMEOUT)
            await anna.resign()
            over = await anna.wait_for(lambda m: m["type"] == "over", TIMEOUT)
        assert over["winner"] == 1
        async with server.room.storage.engine.connect() as connection:
            (history,) = (await connection.execute(sa.select(rating_history))).all()
            (rating,) = (await connection.execute(sa.select(ratings))).all()
        assert history.result == "loss"
        assert (rating.matches, rating.wins, rating.losses) == (1, 0, 1)
