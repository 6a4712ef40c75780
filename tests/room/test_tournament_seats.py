"""An arena that strands no one: it pairs nobody seated at another match in play (issue 34,
item 13), nobody in its last minutes (issue 35, item 2), and a tournament's seat follows its
player to their other device (``GET /api/account/seats``). The director's clock is moved by
the test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from scopa.server.client import Lobby

from .server_support import Server, anyio_backend, running_server, settings_for

__all__ = ["anyio_backend"]

pytestmark = pytest.mark.anyio

START = datetime(2026, 12, 2, 20, 0, tzinfo=UTC)
PASSWORD = "a good password"


class Clock:
    """The director's now, moved by the test."""

    def __init__(self, moment: datetime) -> None:
        self.moment = moment

    def __call__(self) -> datetime:
        return self.moment


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    async with running_server(settings_for(tmp_path, register_per_address="1000/second")) as up:
        up.app.state.tournaments.clock = Clock(START - timedelta(hours=1))
        yield up


async def player(server: Server, name: str, register: bool = True) -> Lobby:
    lobby = Lobby(server.url)
    path = "/api/account/register" if register else "/api/account/login"
    answer = await lobby.http.post(path, json={"name": name, "password": PASSWORD})
    assert answer.status_code in (200, 201), answer.text
    return lobby


async def arena(server: Server, players: list[Lobby], minutes: int = 30) -> int:
    made = await players[0].create_tournament(
        name="Arena", kind="arena", minutes=minutes, starts_at=START.isoformat())
    for lobby in players:
        await lobby.join_tournament(made["id"])
    tournament_id: int = made["id"]
    return tournament_id


def live(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [game for game in view["games"] if game["live"]]


async def test_an_arena_pairs_nobody_seated_at_another_match_and_its_seat_follows(
    server: Server,
) -> None:
    ada, bea = await player(server, "Ada"), await player(server, "Bea")
    laptop = await player(server, "Ada", register=False)
    # Ada plays the computer, logged in: her seat at a match in play, not a tournament's.
    grant = await ada.play_computer(name="Ada", level="random")
    tid = await arena(server, [ada, bea])
    director = server.app.state.tournaments
    director.clock.moment = START
    await director.tend()
    assert live(await bea.tournament(tid)) == [], "Ada is at another match: Bea waits"

    await ada.leave(grant["table"]["code"], grant["token"])
    await director.tend()
    (game,) = live(await bea.tournament(tid))
    me = (await ada.tournament(tid))["me"]
    assert me["table"] == game["table"]
    listed = (await laptop.http.get("/api/account/seats")).json()
    assert [(seat["code"], seat["token"], seat["status"]) for seat in listed] == [
        (me["table"], me["token"], "playing")]
    for lobby in (ada, bea, laptop):
        await lobby.__aexit__(None, None, None)


async def test_an_arena_pairs_nobody_in_its_last_minutes(server: Server) -> None:
    ada, bea = await player(server, "Ada"), await player(server, "Bea")
    tid = await arena(server, [ada, bea])
    director = server.app.state.tournaments
    director.clock.moment = START + timedelta(minutes=27, seconds=30)  # 2.5 minutes left
    await director.tend()
    view = await ada.tournament(tid)
    assert view["status"] == "running" and live(view) == []
    director.clock.moment = START + timedelta(minutes=30)
    await director.tend()
    assert (await ada.tournament(tid))["status"] == "finished"
    for lobby in (ada, bea):
        await lobby.__aexit__(None, None, None)
