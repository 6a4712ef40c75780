"""A tournament goes on when an entrant's account is deleted, or one of its games cannot
start (issue 34, item 1): the deletion withdraws the account from every tournament not
finished, a game paired before it is the other player's by forfeit, and a game whose table
fails is logged once while the others get theirs and the tournament reaches its end."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

import pytest

from scopa.server.table.room import CardRoom
from scopa.server.tournaments import queries as tournament_queries

from .server_support import Server, anyio_backend
from .test_tournaments import (
    START,
    Player,
    clock,
    director,
    live_pairs,
    register,
    resign_game,
    server,
)

__all__ = ["anyio_backend", "server"]

pytestmark = pytest.mark.anyio


async def delete(player: Player) -> None:
    answer = await player.lobby.http.request(
        "DELETE", "/api/account", json={"password": "a good password"})
    assert answer.status_code == 204, answer.text


def failures(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records
            if r.name.startswith("scopa.server.tournaments") and r.levelno >= logging.ERROR]


async def test_a_deleted_entrant_is_withdrawn_and_the_arena_plays_on_to_its_end(
    server: Server, caplog: pytest.LogCaptureFixture,
) -> None:
    ada, bea, cid, dan = [await register(server, name) for name in ("Ada", "Bea", "Cid", "Dan")]
    made = await ada.lobby.create_tournament(
        name="Arena", kind="arena", minutes=30, starts_at=START.isoformat())
    tid = made["id"]
    for player in (ada, bea, cid, dan):
        await player.lobby.join_tournament(tid)
    await delete(cid)
    clock(server).moment = START
    for _ in range(2):
        await director(server).tend()
    view = await ada.lobby.tournament(tid)
    assert view["withdrawn"] == [cid.id]
    (pair,) = live_pairs(view)
    assert "" not in pair and len(pair) == 2, "the three left: one pair, nobody nameless"
    assert all(g["table"] is not None for g in view["games"] if g["live"])
    clock(server).moment = START + timedelta(minutes=30)
    await director(server).tend()
    assert (await ada.lobby.tournament(tid))["status"] == "finished"
    assert failures(caplog) == []


async def test_a_game_paired_before_the_deletion_is_a_forfeit_and_the_swiss_goes_on(
    server: Server, caplog: pytest.LogCaptureFixture,
) -> None:
    ada, bea, cid, dan = [await register(server, name) for name in ("Ada", "Bea", "Cid", "Dan")]
    await director(server).close()  # the director looks only when the test says
    made = await ada.lobby.create_tournament(
        name="Swiss", kind="swiss", rounds=2, starts_at=(START + timedelta(hours=1)).isoformat())
    tid = made["id"]
    for player in (ada, bea, cid, dan):
        await player.lobby.join_tournament(tid)
    await ada.lobby.start_tournament(tid)
    # Round 1 is paired, then Cid deletes the account before the tables are made.
    assert await tournament_queries.store_pairing(
        server.room.storage, tid, 0, 1, [(cid.id, dan.id), (ada.id, bea.id)], START)
    await delete(cid)
    await director(server).tend()
    view = await ada.lobby.tournament(tid)
    games = {frozenset((g["first"]["id"], g["second"]["id"])): g for g in view["games"]}
    forfeited = games[frozenset((cid.id, dan.id))]
    assert (forfeited["winner"], forfeited["table"], forfeited["live"]) == (dan.id, None, False)
    played = games[frozenset((ada.id, bea.id))]
    assert played["live"] and played["table"] is not None, "the other game got its table"
    await resign_game(bea, tid)
    await director(server).tend()
    view = await ada.lobby.tournament(tid)
    assert view["round"] == 2, "the round ended"
    round_two = [g for g in view["games"] if g["round"] == 2]
    assert cid.id not in {p["id"] for g in round_two for p in (g["first"], g["second"]) if p}
    assert failures(caplog) == []


async def test_a_game_that_cannot_start_is_logged_once_and_stops_nothing_else(
    server: Server, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch,
) -> None:
    ada, bea, cid, dan = [await register(server, name) for name in ("Ada", "Bea", "Cid", "Dan")]
    made = await ada.lobby.create_tournament(
        name="Arena", kind="arena", minutes=30, starts_at=START.isoformat())
    tid = made["id"]
    for player in (ada, bea, cid, dan):
        await player.lobby.join_tournament(tid)
    room: CardRoom = server.room
    create = room.create

    async def failing(*args: Any, **kwargs: Any) -> Any:
        if args[3] in ("Ada", "Bea"):
            raise RuntimeError("this table will not be made")
        return await create(*args, **kwargs)

    monkeypatch.setattr(room, "create", failing)
    clock(server).moment = START
    for _ in range(3):
        await director(server).tend()
    view = await ada.lobby.tournament(tid)
    tabled = [g for g in view["games"] if g["live"] and g["table"] is not None]
    assert len([g for g in view["games"] if g["live"]]) == 2
    assert len(tabled) == 1 and {tabled[0]["first"]["name"], tabled[0]["second"]["name"]} \
        == {"Cid", "Dan"}, "the failing game stopped no other"
    assert len(failures(caplog)) == 1, "logged once, not at every look"
    clock(server).moment = START + timedelta(minutes=30)
    await director(server).tend()
    assert (await ada.lobby.tournament(tid))["status"] == "finished"
    assert len(failures(caplog)) == 1
