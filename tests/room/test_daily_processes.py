"""The daily deal across real ``scopa serve`` processes on one PostgreSQL: every process deals
the same deck today, and publishes the same seed for a day that is over, before and after one
of them is killed (``kill -9``) and another started in its place: the daily secret is the
database's, not a process's."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from scopa.server.client import Lobby, TableConnection

from .server_support import (
    TIMEOUT,
    ServerProcess,
    anyio_backend,
    room_processes,
)

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]


async def first_hand(server: ServerProcess) -> list[str]:
    """A guest's first hand at today's deal on ``server`` (the master at seat 1 may have played
    its first card already: the guest's hand is as dealt either way)."""
    async with Lobby(server.url) as lobby:
        answer = await lobby.http.post("/api/daily/play", json={"name": "Walker"})
        assert answer.status_code == 201, answer.text
        grant = answer.json()
    async with await TableConnection.open(server.url, grant["table"]["code"],
                                          grant["token"]) as table:
        await table.wait_for(lambda m: m["type"] == "state", TIMEOUT)
        assert table.view is not None
        hand: list[str] = sorted(table.view["hand"])
        await table.resign()
        await table.wait_for(lambda m: m["type"] == "over", TIMEOUT)
    return hand


async def published_seed(server: ServerProcess, day: str) -> int:
    async with Lobby(server.url) as lobby:
        answer = await lobby.http.get(f"/api/daily/{day}")
    assert answer.status_code == 200, answer.text
    seed: int = answer.json()["seed"]
    return seed


async def test_every_process_deals_the_same_deck_and_a_restart_keeps_it() -> None:
    yesterday = (datetime.now(UTC).date() - timedelta(days=1)).isoformat()
    async with room_processes(("p1", "p2"), "--bot-delay", "0") as room:
        first, second = room.servers["p1"], room.servers["p2"]
        hands = [await first_hand(first), await first_hand(second)]
        seeds = [await published_seed(first, yesterday),
                 await published_seed(second, yesterday)]
        first.kill()
        (third,) = room.start("p3")
        hands.append(await first_hand(third))
        seeds.append(await published_seed(third, yesterday))

    assert hands[0] == hands[1] == hands[2] and len(hands[0]) == 3
    assert seeds[0] == seeds[1] == seeds[2]
