"""A table's ownership follows its sockets: the owner hands a table over to the process its
people connect to when it has none of its own there, mid-match with nothing lost or played
twice; it keeps it when one of its own sockets is at it (no back and forth); and behind nginx
every table's sockets end on its owner, so nothing is relayed.

Real ``scopa serve`` processes on PostgreSQL and Redis (and nginx), on loopback.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from pathlib import Path
from typing import Any

import pytest

from scopa import Game
from scopa.server.client import Lobby, TableConnection

from .server_support import (
    TIMEOUT,
    Seated,
    ServerProcess,
    anyio_backend,
    fresh_postgres,
    fresh_redis,
    nginx_in_front,
    play_randomly,
    seat_people,
    subprocess_server,
    until,
)
from .test_server_cluster import owner_of, play_moves, plays_seen
from .test_server_round_end import open_continuing, play_to_the_round_end

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]


async def health(server: ServerProcess | str) -> dict[str, Any]:
    async with Lobby(server if isinstance(server, str) else server.url) as lobby:
        return await lobby.health()


@contextlib.contextmanager
def two_processes(db: str, redis: str) -> Any:
    with contextlib.ExitStack() as stack:
        yield [
            stack.enter_context(
                subprocess_server(db, "--redis", redis, "--name", f"p{k}", "--bot-delay", "0")
            )
            for k in (1, 2)
        ]


async def test_a_table_goes_mid_match_to_the_process_its_person_plays_from() -> None:
    async with fresh_postgres() as db, fresh_redis() as redis:
        with two_processes(db, redis) as (p1, p2):
            async with Lobby(p1.url) as lobby:
                made = await lobby.play_computer(name="Ada", level="random")
            code = made["table"]["code"]
            assert await owner_of([p1, p2], code) == ["p1"]
            # The match runs (the bot may have played); Ada plays it all from p2 at once.
            ada = Seated(made["seat"], made["token"], await TableConnection.open(
                p2.url, code, made["token"]))
            first = ada.connection.version
            seen = await play_randomly(ada, random.Random(3))
            assert await owner_of([p1, p2], code) == ["p2"]
            assert (await health(p2))["relaying"] == 0
            async with Lobby(p2.url) as lobby:
                record = await lobby.match_record(ada.connection.match or 0)
            # Every stored move was shown to Ada once, in its place, and nothing else was.
            stored = dict(enumerate(record["moves"], start=1))
            shown = plays_seen(seen)
            assert set(shown) | set(range(1, (first or 0) + 1)) == set(stored)
            assert all(stored[version] == move for version, move in shown.items())
            assert Game.replay(record).winner == ada.connection.over["winner"]  # type: ignore[index]


async def test_an_owner_with_a_socket_of_its_own_keeps_its_table() -> None:
    async with fresh_postgres() as db, fresh_redis() as redis:
        with two_processes(db, redis) as (p1, p2):
            async with Lobby(p1.url) as lobby:
                made = await lobby.create_table(name="Ada")
                code = made["table"]["code"]
                bea_seat = await lobby.join(code, "Bea")
                # Bea comes first, at p2: p1 has no socket there, so the table follows her.
                bea = Seated(1, bea_seat["token"], await TableConnection.open(
                    p2.url, code, bea_seat["token"]))

                async def at_p2() -> bool:
                    return await owner_of([p1, p2], code) == ["p2"]

                await until(at_p2, "the table handed over to p2")
                # Ada, at p1, is relayed to p2, which keeps the table: Bea's socket is there.
                ada = Seated(0, made["token"], await TableConnection.open(
                    p1.url, code, made["token"]))
                await lobby.start(code, made["token"])
                people = [ada, bea]
                for person in people:
                    await person.connection.wait_for(lambda m: m["type"] == "state", TIMEOUT)
                before = (await health(p1))["relayed"]
                await play_moves(people, 10, random.Random(8))
            assert await owner_of([p1, p2], code) == ["p2"]
            at_p1 = await health(p1)
            assert at_p1["relaying"] == 1 and at_p1["relayed"] - before == 5  # Ada's moves
            assert (await health(p2))["relaying"] == 0


async def test_behind_nginx_every_tables_sockets_end_on_its_owner(tmp_path: Path) -> None:
    async with fresh_postgres() as db, fresh_redis() as redis:
        with contextlib.ExitStack() as stack:
            servers = [
                stack.enter_context(
                    subprocess_server(db, "--redis", redis, "--name", f"p{k}")
                )
                for k in (1, 2, 3)
            ]
            front = stack.enter_context(
                nginx_in_front([server.url for server in servers], tmp_path / "nginx")
            )
            async with Lobby(front) as lobby:
                # Each table made at one process (round-robin), its people through nginx.
                tables = [await seat_people(lobby, front) for _ in range(6)]

                async def all_on_owners() -> bool:
                    found = [await health(server) for server in servers]
                    owned = sorted(code for each in found for code in each["owned"])
                    return not sum(each["relaying"] for each in found) and owned == sorted(
                        code for code, _ in tables
                    )

                await until(all_on_owners, "every table's sockets on its owner")
                owners = {code: await owner_of(servers, code) for code, _ in tables}
                before = [(await health(server))["relayed"] for server in servers]
                await asyncio.gather(
                    *(play_moves(people, 4, random.Random(k))
                      for k, (_, people) in enumerate(tables))
                )
                assert [(await health(server))["relayed"] for server in servers] == before
                assert {code: await owner_of(servers, code) for code, _ in tables} == owners


async def test_a_relayed_person_who_continues_holds_the_round_end_at_the_owner() -> None:
    """The hello's ``continues`` goes with a relayed socket to the owner: the bot waits for
    Ada, on the other process, to read the breakdown, as it would for a socket of its own."""
    async with fresh_postgres() as db, fresh_redis() as redis:
        with two_processes(db, redis) as (p1, p2):
            async with Lobby(p1.url) as lobby:
                grant = await lobby.play_computer(name="Ada", level="random", target=21)
                code = grant["table"]["code"]
                # A spectator at p1 keeps the table there, so Ada, at p2, is relayed to it.
                watcher = await TableConnection.open(p1.url, code, None)
                ada = await open_continuing(p2.url, code, grant["token"])
                ended = await play_to_the_round_end(ada, random.Random(3))
                assert ada.table is not None and ada.table["continuing"] == [0]
                assert (await health(p2))["relaying"] == 1
                await ada.sync()
                synced = await ada.wait_for(lambda m: m["type"] == "state", TIMEOUT)
                assert synced["version"] == ended, "the bot played while Ada read the breakdown"
                await ada.send({"type": "continue", "round": 1})
                state = await ada.wait_for(
                    lambda m: m["type"] == "state" and m["version"] == ended + 1, TIMEOUT
                )
                assert state["play"]["seat"] == 1
                await ada.close()
                await watcher.close()
