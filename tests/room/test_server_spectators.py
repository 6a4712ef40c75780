"""Each table's messages are the same wherever a socket is: a spectator on a third process,
and seats that move between the other two or come back after their owner's ``kill -9``, see
every version of the match in order, or a ``state`` whose ``missed`` holds exactly the plays
between the version they had and the one shown (docs/protocol.md, "Versions").

Real ``scopa serve`` processes on PostgreSQL and Redis, on loopback. The first process's bots
wait minutes before they play, the others' not at all: a table that moves from the first to
another has bot moves to play at once, while the moved sockets follow it, which is when a
socket used to be shown the latest state without the plays before it (5 -> 9, and a hello
with version 1 answered with version 4, both with nothing missed, before the fix).
"""

from __future__ import annotations

import contextlib
import random
import signal
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest

from scopa.server.client import Closed, Lobby, TableConnection

from .server_support import (
    TIMEOUT,
    ServerProcess,
    anyio_backend,
    room_processes,
)
from .test_server_cluster import TAKEOVER

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]

STALLED = "600"
"""The first process's bot delay, in seconds: longer than any test."""


@contextlib.asynccontextmanager
async def three_processes() -> AsyncIterator[list[ServerProcess]]:
    """p1 (whose bots stall), p2 and p3 (whose bots play at once), sharing one room."""
    async with room_processes(
        ("p1", "p2", "p3"),
        options_of=lambda name: ("--bot-delay", STALLED if name == "p1" else "0"),
    ) as room:
        yield list(room.servers.values())


class Watched:
    """A socket in the test, and every message it got since its ``hello`` named ``since``."""

    def __init__(self, connection: TableConnection, since: int | None) -> None:
        self.connection = connection
        self.since = since
        self.messages: list[dict[str, Any]] = []

    @classmethod
    async def open(
        cls, url: str, code: str, token: str | None = None, match: int | None = None,
        version: int | None = None, timeout: float = TIMEOUT,
    ) -> Watched:
        return cls(await TableConnection.open(url, code, token, match, version, timeout), version)

    async def until(self, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """Read (and keep) messages until one is ``wanted``, for at most TIMEOUT s."""
        while True:
            message = await self.connection.recv(TIMEOUT)
            self.messages.append(message)
            if wanted(message):
                return message

    async def at(self, version: int) -> None:
        await self.until(lambda m: m["type"] == "state" and m["version"] >= version)

    def states(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "state"]


def gaps(sockets: list[Watched], plays: list[dict[str, Any]]) -> list[str]:
    """What each socket was shown out of order, given every play of the match. A state that
    answers a ``hello`` (or a move of the socket's table) has ``missed``: exactly the plays
    after the version the socket had; any other state is the next version, never the same
    one again (a socket listening twice) nor a later one (a skip). A state's ``play`` is always
    the play of its version."""
    wrong = []
    for number, socket in enumerate(sockets):
        had = socket.since
        for state in socket.states():
            version = state["version"]
            if version and state["play"] != plays[version - 1]:
                wrong.append(f"socket {number}: version {version}'s play is {state['play']}")
            if had is not None:
                if "missed" in state:
                    if state["missed"] != plays[had:version]:
                        wrong.append(
                            f"socket {number}: {had} -> {version} with missed {state['missed']}"
                        )
                elif version != had + 1:
                    wrong.append(f"socket {number}: {had} -> {version} with nothing missed")
            had = version
    return wrong


async def every_play(url: str, code: str, match: int) -> list[dict[str, Any]]:
    """Every play of ``match`` so far, as a fresh spectator that had version 0 is told."""
    fresh = await TableConnection.open(url, code, match=match, version=0)
    try:
        state = await fresh.wait_for(lambda m: m["type"] == "state", TIMEOUT)
    finally:
        await fresh.close()
    missed: list[dict[str, Any]] = state["missed"]
    assert len(missed) == state["version"]
    return missed


async def leave(seat: Watched, watcher: Watched) -> None:
    """Close ``seat``'s socket, and wait until ``watcher`` is told its seat is away (so its
    owner has no socket of its own left there, and hands the table to the next one asking)."""
    number = seat.connection.seat
    assert number is not None
    start = len(watcher.messages)
    await seat.connection.close()
    if not any(
        m["type"] == "table" and not m["table"]["seats"][number]["connected"]
        for m in watcher.messages[start:]
    ):
        await watcher.until(
            lambda m: m["type"] == "table" and not m["table"]["seats"][number]["connected"]
        )


async def my_turn(seat: Watched) -> None:
    """Read ``seat``'s messages until it is its turn (bots play theirs at p2, never at p1)."""
    await seat.until(
        lambda m: m["type"] == "over" or (m["type"] == "state" and seat.connection.my_turn)
    )


async def play(seat: Watched, rng: random.Random) -> None:
    """Play a random move for ``seat`` (its turn), and read on until it is shown."""
    view, version = seat.connection.view, seat.connection.version
    assert view is not None and version is not None and seat.connection.my_turn
    await seat.connection.move(rng.choice(view["legal_moves"]))
    await seat.at(version + 1)


@contextlib.contextmanager
def paused(server: ServerProcess) -> Iterator[None]:
    """``server`` stops (SIGSTOP), as a process does that its machine starves for a moment,
    and goes on (SIGCONT) afterwards: what it is sent meanwhile waits in its sockets."""
    server.process.send_signal(signal.SIGSTOP)
    try:
        yield
    finally:
        server.process.send_signal(signal.SIGCONT)


async def test_a_spectator_on_a_third_process_sees_every_play_while_seats_move() -> None:
    async with three_processes() as (p1, p2, p3):
        rng = random.Random(21)
        async with Lobby(p1.url) as lobby:
            made = await lobby.play_computer(name="Ada", level="random", players=4)
        code, token = made["table"]["code"], made["token"]
        # Ada at p1, its owner, which so keeps the table when the spectator, at p3, asks
        # for it.
        ada = await Watched.open(p1.url, code, token)
        first = await ada.until(lambda m: m["type"] == "state")
        spectator = await Watched.open(p3.url, code, match=first["match"], version=0)
        sockets = [spectator, ada]
        # Ada goes back and forth between p1 and p2, and each time the table follows her,
        # while p3 is too busy for a moment to follow it at once: at p2 the three bots
        # play their turns, at p1 Ada plays hers, before p3 hears the table moved.
        for hop in range(6):
            version = ada.connection.version
            assert version is not None
            await spectator.at(version)
            await leave(ada, spectator)
            with paused(p3):
                ada = await Watched.open(
                    (p2 if hop % 2 == 0 else p1).url, code, token,
                    match=ada.connection.match, version=version,
                )
                sockets.append(ada)
                await my_turn(ada)
                if ada.connection.over is not None:
                    break
                if hop % 2:
                    await play(ada, rng)
            if hop % 2 == 0:
                await play(ada, rng)
                await my_turn(ada)
        match, version = ada.connection.match, ada.connection.version
        assert match is not None and version is not None
        await spectator.at(version)
        plays = await every_play(p3.url, code, match)
        assert gaps(sockets, plays) == []
        await ada.connection.close()
        await spectator.connection.close()


async def warm_up(server: ServerProcess) -> None:
    """A match against a bot at ``server`` until the bot has played: its worker processes,
    started at the first bot move, are running, so its next bot plays within milliseconds."""
    async with Lobby(server.url) as lobby:
        made = await lobby.play_computer(name="Cy", level="random")
    cy = await Watched.open(server.url, made["table"]["code"], made["token"])
    await my_turn(cy)
    if not any(m["type"] == "state" and m["play"] for m in cy.messages):
        await play(cy, random.Random(0))
        await my_turn(cy)
    await cy.connection.close()


async def test_sockets_that_outlive_a_kill_9_of_their_owner_get_the_plays_they_missed() -> None:
    async with three_processes() as (p1, p2, p3):
        await warm_up(p2)
        await warm_up(p3)
        async with Lobby(p1.url) as lobby:
            made = await lobby.play_computer(name="Ada", level="random", players=4)
        code, token = made["table"]["code"], made["token"]
        ada = await Watched.open(p1.url, code, token)
        first = await ada.until(lambda m: m["type"] == "state")
        spectator = await Watched.open(p3.url, code, match=first["match"], version=0)
        if ada.connection.my_turn:  # else a bot is to play, and never does at p1
            await play(ada, random.Random(9))
        match, version = ada.connection.match, ada.connection.version
        assert match is not None and version is not None
        await spectator.at(version)
        assert not ada.connection.my_turn  # whoever takes p1's table has bots to play
        p1.kill()
        with pytest.raises(Closed):
            await ada.until(lambda m: False)
        # Ada reconnects at p2 at once, while p1's lease holds: her hello goes to a dead
        # process, and she is welcomed once p2 or p3 has taken the table over. The one
        # that takes it plays its bots' turns at once; the other's socket follows later.
        back = await Watched.open(
            p2.url, code, token, match=match, version=version, timeout=TAKEOVER + TIMEOUT
        )
        await my_turn(back)
        assert back.connection.version is not None
        await spectator.at(back.connection.version)
        plays = await every_play(p2.url, code, match)
        assert len(plays) > version  # the bots played after the takeover
        assert gaps([ada, spectator, back], plays) == []
        await back.connection.close()
        await spectator.connection.close()
