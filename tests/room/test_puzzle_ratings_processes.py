"""Puzzle ratings across real ``scopa serve`` processes on one PostgreSQL: one player, logged in
on two processes at once, sends tries to both together. The same puzzle tried on both counts
once, and tries of different puzzles at the same moment each start from the rating the other
left (none is lost): the database, not a process, keeps the rating."""

from __future__ import annotations

import asyncio
import itertools

import pytest

from scopa.puzzles.sets import shipped
from scopa.server.client import Lobby

from .server_support import anyio_backend, fresh_postgres, fresh_redis, subprocess_server

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]

ROUNDS = 8


async def test_tries_on_two_processes_at_once_count_once_and_lose_nothing() -> None:
    puzzles = shipped("scopa")
    async with fresh_postgres() as db, fresh_redis() as redis:
        options = ("--redis", redis, "--bot-delay", "0", "--lobby-writes", "1000/second")
        with subprocess_server(db, *options, "--name", "p1") as first, \
                subprocess_server(db, *options, "--name", "p2") as second:
            async with Lobby(first.url) as one, Lobby(second.url) as two:
                registered = await one.http.post(
                    "/api/account/register", json={"name": "Doppia", "password": "a good password"})
                assert registered.status_code == 201
                two.http.cookies.update(one.http.cookies)

                async def attempt(lobby: Lobby, index: int) -> bool:
                    puzzle = puzzles[index]
                    answer = await lobby.http.post(f"/api/puzzles/scopa/{puzzle.id}/try",
                                                   json={"move": str(puzzle.best)})
                    assert answer.status_code == 200, answer.text
                    counted: bool = answer.json()["player"]["counted"]
                    return counted

                same: list[list[bool]] = []
                for number in range(ROUNDS):
                    # The same puzzle on both processes at once...
                    same.append(list(await asyncio.gather(attempt(one, 2 * number),
                                                          attempt(two, 2 * number))))
                    # ...then two different ones at once.
                    await asyncio.gather(attempt(one, 100 + 2 * number),
                                         attempt(two, 101 + 2 * number))
                mine = (await two.http.get("/api/puzzles/scopa/mine")).json()

    assert all(sorted(pair) == [False, True] for pair in same), same
    tries = mine["tries"]
    assert mine["rating"]["tries"] == len(tries) == 3 * ROUNDS
    assert mine["rating"]["solved"] == 3 * ROUNDS
    # Every try was right, so the rating only rose: in order, each try starts where the one
    # before ended, from a newcomer's 1000 to the rating now. A lost update would show as two
    # tries starting from the same rating.
    chain = sorted((row["before"], row["after"]) for row in tries)
    assert chain[0][0] == 1000 and chain[-1][1] == mine["rating"]["rating"]
    assert all(earlier[1] == later[0] for earlier, later in itertools.pairwise(chain))
