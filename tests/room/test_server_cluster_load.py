"""``kill -9`` one of three ``scopa serve`` processes (PostgreSQL, Redis) while 20 tables are
being played at once, some on sockets of their owner, some relayed through another process:
every match plays on to its end, each client resuming at its version on any survivor, and every
move anyone was shown is in the match's record, in its place, once.

Deterministic: the kill comes once every table has played a few moves (a condition, not a
pause), and clients wait on messages, never on the clock. Needs the PostgreSQL and Redis
servers that ``scripts/test.sh`` starts on loopback.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import select
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from scopa import Game
from scopa.server.client import Closed, Lobby, TableConnection

from .server_support import (
    TIMEOUT,
    ServerProcess,
    anyio_backend,
    room_processes,
)

# Its own load is the test: it runs with the machine to itself (scripts/test.sh), not beside
# another test file's servers and browser, under which a takeover could lag past its bounds.
pytestmark = [pytest.mark.anyio, pytest.mark.alone]
__all__ = ["anyio_backend"]

TABLES = 20
KILL_AT = 4
"""Moves every table has played when the kill comes."""
TAKEOVER = 10.0
"""Seconds a dead owner's tables may wait for a new one (the issue's bound)."""
REFUSALS = {"stale_version", "not_your_turn"}
"""The errors a client may get here: a move sent twice around the kill, for a version gone."""


@dataclass
class Player:
    """One person against a bot at one table, and everything they were shown."""

    code: str
    token: str
    connection: TableConnection
    rng: random.Random
    seen: dict[int, str] = field(default_factory=dict)
    """Each version's move, from the states and the missed plays this person got."""
    refused: list[str] = field(default_factory=list)
    reconnects: int = 0
    warmed_up: asyncio.Event = field(default_factory=asyncio.Event)
    killed: asyncio.Event = field(default_factory=asyncio.Event)
    """Set once the kill has come: past :data:`KILL_AT` the person waits for it before moving,
    so every table is mid-match when it comes (a match to 1 point, played at once by a
    quick room, could otherwise end between the last table's warm-up and the kill)."""

    def take(self, message: dict[str, Any]) -> None:
        if message["type"] == "state":
            version = message["version"]
            if message["play"] is not None:
                self.note(version, message["play"]["move"])
            missed = message.get("missed") or []
            for k, play in enumerate(missed):
                self.note(version - len(missed) + k + 1, play["move"])
            if version >= KILL_AT:
                self.warmed_up.set()
        elif message["type"] == "error":
            self.refused.append(message["code"])

    def note(self, version: int, move: str) -> None:
        assert self.seen.setdefault(version, move) == move, f"{self.code}: v{version} changed"

    async def play(self, survivors: dict[str, ServerProcess]) -> None:
        """Play random legal moves to the end of the match. A move goes out on every state that
        says it is this seat's turn: one lost with a dead owner is sent again when the new
        owner pushes the state. A dropped socket comes back on any survivor, at its version."""
        while self.connection.over is None:
            try:
                message = await self.connection.recv(TAKEOVER + TIMEOUT)
                self.take(message)
                if message["type"] == "state" and self.connection.my_turn:
                    assert self.connection.view is not None
                    if message["version"] >= KILL_AT:
                        await self.killed.wait()
                    await self.connection.move(self.rng.choice(self.connection.view["legal_moves"]))
            except Closed:
                self.reconnects += 1
                url = self.rng.choice(sorted(s.url for s in survivors.values()))
                self.connection = await TableConnection.open(
                    url, self.code, self.token, self.connection.match, self.connection.version,
                    timeout=TAKEOVER + TIMEOUT,
                )


def descendants(pid: int) -> set[int]:
    """The processes ``pid`` started, and theirs (a server's forkserver and bot workers)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def ends(pid: int, seconds: float) -> bool:
    """Whether process ``pid`` ends (or has ended) within ``seconds``: woken by its exit."""
    try:
        watched = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        return bool(select.select([watched], [], [], seconds)[0])
    finally:
        os.close(watched)


async def healthz(server: ServerProcess) -> dict[str, Any]:
    async with Lobby(server.url) as lobby:
        health: dict[str, Any] = await lobby.health()
        return health


async def test_a_kill_9_under_load_loses_no_move_and_plays_none_twice() -> None:
    async with room_processes(
        ("p1", "p2", "p3"), "--bot-delay", "0", "--lobby-writes", "1000/second"
    ) as room:
        servers = room.servers
        names = sorted(servers)
        players = []
        for k in range(TABLES):
            # Made at one process, played from the same one or the next: local and relayed.
            made_at, played_at = servers[names[k % 3]], servers[names[(k + k // 3) % 3]]
            async with Lobby(made_at.url) as lobby:
                grant = await lobby.play_computer(name=f"P{k}", level="random", target=1)
            code, token = grant["table"]["code"], grant["token"]
            connection = await TableConnection.open(played_at.url, code, token)
            players.append(Player(code, token, connection, random.Random(k)))
        owned = {name: set((await healthz(s))["owned"]) for name, s in servers.items()}
        victim = max(names, key=lambda name: len(owned[name]))
        assert sum(len(codes) for codes in owned.values()) == TABLES
        survivors = {name: server for name, server in servers.items() if name != victim}
        playing = [asyncio.create_task(player.play(survivors)) for player in players]
        try:
            async with asyncio.timeout(TIMEOUT):
                await asyncio.gather(*(player.warmed_up.wait() for player in players))
            helpers = descendants(servers[victim].process.pid)
            assert helpers  # the bots of its tables ran in its worker processes
            servers[victim].kill()  # every table mid-match, every person playing
            for player in players:
                player.killed.set()
            await asyncio.gather(*playing)
        finally:
            for task in playing:
                task.cancel()
        # The victim's workers ended with it (none is left waiting for jobs for ever).
        assert [pid for pid in helpers if not ends(pid, TIMEOUT)] == []
        # The victim's tables have new owners among the survivors, and every match ended.
        now_owned = set()
        for server in survivors.values():
            now_owned |= set((await healthz(server))["owned"])
        assert owned[victim] <= now_owned
        async with Lobby(survivors[min(survivors)].url) as lobby:
            for player in players:
                assert player.connection.over is not None and player.connection.match
                record = await lobby.match_record(player.connection.match)
                stored = dict(enumerate(record["moves"], start=1))
                # Every move shown is stored in its place; the record ends where the
                # person's match ended, and replays to the winner they were told.
                assert {v: stored.get(v) for v in player.seen} == player.seen, player.code
                assert len(stored) == player.connection.version
                assert Game.replay(record).winner == player.connection.over["winner"]
                assert set(player.refused) <= REFUSALS, (player.code, player.refused)
        assert sum(player.reconnects for player in players) >= 1  # some sockets died
        assert sum(len(player.seen) for player in players) >= TABLES * KILL_AT
