"""A Swiss night of 8 people over two ``scopa serve`` processes on PostgreSQL and Redis, its
director killed (``kill -9``) between two rounds, with the round's last game still in play on
its tables: the other process takes the tournament's lease and the dead one's tables, the last
game's result comes in there, and the pairing goes on, no round paired twice, no pair met
twice, no result lost."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as redis
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from scopa.server.client import Lobby, TableConnection
from scopa.server.store.storage import async_url

from .server_support import (
    TIMEOUT,
    Seated,
    anyio_backend,
    play_moves,
    room_processes,
    until,
)

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]

NAMES = ("Ada", "Bea", "Cid", "Dan", "Eva", "Fay", "Gus", "Hal")


async def register(url: str, name: str) -> Lobby:
    lobby = Lobby(url)
    answer = await lobby.http.post(
        "/api/account/register", json={"name": name, "password": "a good password"})
    assert answer.status_code == 201, answer.text
    return lobby


async def resign(url: str, lobbies: dict[str, Lobby], name: str, tournament_id: int) -> None:
    """Player ``name`` resigns their game in play, through the process at ``url``, once each
    side has made its 2 moves (a game given up sooner counts for neither)."""
    view = await lobbies[name].tournament(tournament_id)
    me = view["me"]
    assert me["table"] is not None
    game = next(g for g in view["games"] if g["table"] == me["table"])
    other = game["second"] if game["first"]["name"] == name else game["first"]
    theirs = (await lobbies[other["name"]].tournament(tournament_id))["me"]
    people = [Seated(seat, token, await TableConnection.open(url, me["table"], token))
              for seat, token in ((0, me["token"]), (1, theirs["token"]))]
    try:
        await asyncio.gather(*(play_moves(seated, 2, random.Random(seated.seat))
                               for seated in people))
        await people[0].connection.resign()
        await people[0].connection.wait_for(lambda m: m["type"] == "over", TIMEOUT)
    finally:
        for seated in people:
            await seated.connection.close()


def live(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [g for g in view["games"] if g["live"]]


async def test_a_swiss_goes_on_when_its_director_is_killed_between_rounds(
    tmp_path: Path,
) -> None:
    rng = random.Random(24)
    options = ("--bot-delay", "0", "--register-per-address", "1000/second",
               "--lobby-writes", "1000/second", "--lobby-reads", "1000/second")
    async with room_processes(("one", "two"), *options) as room:
        db, redis_url, servers = room.db, room.redis, room.servers
        urls = [server.url for server in servers.values()]
        lobbies = {name: await register(urls[k % 2], name) for k, name in enumerate(NAMES)}
        leases = redis.Redis.from_url(redis_url, decode_responses=True)
        try:
            made = await lobbies["Ada"].create_tournament(
                name="Club night", kind="swiss", rounds=3,
                starts_at=(datetime.now(UTC) + timedelta(hours=1)).isoformat())
            tid = made["id"]
            for lobby in lobbies.values():
                await lobby.join_tournament(tid)
            await lobbies["Ada"].start_tournament(tid)  # everyone is here
            watcher = lobbies["Hal"]

            async def round_paired(number: int) -> bool:
                view = await watcher.tournament(tid)
                return view["round"] == number and all(
                    g["table"] for g in view["games"] if g["second"])

            await until(lambda: round_paired(1), "round 1 paired")
            director = room.known_as(await leases.get(f"scopa:lease:tournament-{tid}"))
            assert director in servers
            survivor = next(name for name in servers if name != director)

            # Round 1: every game but one ends; then the director dies.
            games = live(await watcher.tournament(tid))
            assert len(games) == 4
            for game in games[:-1]:
                loser = rng.choice((game["first"]["name"], game["second"]["name"]))
                await resign(servers[survivor].url, lobbies, loser, tid)
            for lobby in lobbies.values():  # the players' pages reach the survivor now
                lobby.http.base_url = lobby.url = servers[survivor].url
            servers[director].kill()
            last = games[-1]
            await resign(servers[survivor].url, lobbies, last["second"]["name"], tid)

            await until(lambda: round_paired(2), "round 2 paired by the survivor")
            assert room.known_as(await leases.get(f"scopa:lease:tournament-{tid}")) == survivor
            for number in (2, 3):
                for game in live(await watcher.tournament(tid)):
                    loser = rng.choice((game["first"]["name"], game["second"]["name"]))
                    await resign(servers[survivor].url, lobbies, loser, tid)
                if number == 2:
                    await until(lambda: round_paired(3), "round 3 paired")

            async def finished() -> bool:
                return (await watcher.tournament(tid))["status"] == "finished"

            await until(finished, "the Swiss finished")
            view = await watcher.tournament(tid)
        finally:
            await leases.aclose()
            for lobby in lobbies.values():
                await lobby.aclose()
        # Every process stops before the checks, as when the room ended (the database stays).
        room.stop()

        games = view["games"]
        assert [sum(1 for g in games if g["round"] == n) for n in (1, 2, 3)] == [4, 4, 4]
        met = [frozenset((g["first"]["id"], g["second"]["id"])) for g in games]
        assert len(set(met)) == 12, "no pair met twice"
        for number in (1, 2, 3):
            seated = [p for g in games if g["round"] == number
                      for p in (g["first"]["id"], g["second"]["id"])]
            assert len(seated) == len(set(seated)) == 8, f"round {number} paired once"
        assert all(g["winner"] in (g["first"]["id"], g["second"]["id"]) for g in games)
        assert last["id"] in {g["id"] for g in games if g["winner"] == last["first"]["id"]}, (
            "the game that ended after the director died counts")
        assert sum(s["points"] for s in view["standings"]) == 12
        engine = create_async_engine(async_url(db))
        try:
            async with engine.connect() as connection:
                pairings = await connection.scalar(
                    sa.text("SELECT pairings FROM tournaments WHERE id = :id"), {"id": tid})
        finally:
            await engine.dispose()
        assert pairings == 3, "one stored pairing per round, none twice"
