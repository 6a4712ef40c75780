"""No master's hint where the result counts (issue 34, item 4): at a rated table of people, a
rated game against the computer, a tournament's game and the daily deal, a ``hint`` is refused
with ``no_hints`` and a sentence that says why, and the welcome tells the client to show no
hint button; a spectator is told the same. Casual tables and unrated games against the
computer keep their hints."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from scopa.server.client import Lobby, TableConnection

from .server_support import TIMEOUT, Server, anyio_backend, running_server, settings_for

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]

PASSWORD = "a good password"
START = datetime(2026, 12, 2, 20, 0, tzinfo=UTC)


class Clock:
    """The tournaments' now, moved by the test."""

    def __init__(self, moment: datetime) -> None:
        self.moment = moment

    def __call__(self) -> datetime:
        return self.moment


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    """A card room whose tournaments' clock the test moves, and that lets one address make the
    few accounts a test needs."""
    async with running_server(settings_for(tmp_path, register_per_address="1000/second")) as up:
        up.app.state.tournaments.clock = Clock(START - timedelta(hours=1))
        yield up


async def account(server: Server, name: str) -> Lobby:
    lobby = Lobby(server.url)
    answer = await lobby.http.post("/api/account/register",
                                   json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return lobby


async def answer_to_hint(connection: TableConnection, ref: str = "h") -> dict[str, Any]:
    """Ask for a hint, and the answer: a ``hint`` or an ``error`` carrying ``ref``. At a table
    that gives none, the refusal says so whoever is to move."""
    await connection.hint(ref=ref)
    return await connection.wait_for(
        lambda m: m["type"] in ("hint", "error") and m.get("ref") == ref, TIMEOUT)


async def assert_no_hints(url: str, code: str, token: str, why: str) -> None:
    """The seat's welcome offers no hints and its hint is refused, saying ``why``; a spectator
    of the table is offered none either."""
    async with await TableConnection.open(url, code, token) as seated:
        assert seated.seat is not None and seated.hints is False
        await seated.wait_for(lambda m: m["type"] == "state", TIMEOUT)
        refused = await answer_to_hint(seated)
        assert (refused["type"], refused["code"]) == ("error", "no_hints"), refused
        assert refused["message"].startswith(f"no hints at {why}"), refused["message"]
    async with await TableConnection.open(url, code) as watcher:
        assert watcher.seat is None and watcher.hints is False


async def test_a_rated_game_against_the_computer_gives_no_hint_and_an_unrated_one_does(
    server: Server,
) -> None:
    async with await account(server, "Anna") as anna:
        rated = await anna.play_computer(name="Anna", level="random", rated=True)
        await assert_no_hints(server.url, rated["table"]["code"], rated["token"],
                              "a rated table")
        casual = await anna.play_computer(name="Anna", level="random")
    async with await TableConnection.open(server.url, casual["table"]["code"],
                                          casual["token"]) as seated:
        assert seated.hints is True
        await seated.wait_for(lambda m: m["type"] == "state" and seated.my_turn, TIMEOUT)
        answer = await answer_to_hint(seated)
        assert answer["type"] == "hint" and seated.view is not None
        assert answer["move"] in seated.view["legal_moves"]


async def test_a_rated_table_of_people_gives_no_hint_to_either_seat(server: Server) -> None:
    async with await account(server, "Ada") as ada, await account(server, "Bea") as bea:
        made = await ada.create_table(players=2, name="Ada", rated=True)
        code = made["table"]["code"]
        joined = await bea.join(code, "Bea")
        await ada.start(code, made["token"])
        for token in (made["token"], joined["token"]):
            await assert_no_hints(server.url, code, token, "a rated table")


async def test_a_casual_table_of_people_keeps_its_hints(server: Server) -> None:
    async with Lobby(server.url) as lobby:
        made = await lobby.create_table(players=2, name="Ada")
        code = made["table"]["code"]
        joined = await lobby.join(code, "Guest")
        await lobby.start(code, made["token"])
    connections = [await TableConnection.open(server.url, code, token)
                   for token in (made["token"], joined["token"])]
    try:
        assert [c.hints for c in connections] == [True, True]
        for connection in connections:
            await connection.wait_for(lambda m: m["type"] == "state", TIMEOUT)
        mover = next(c for c in connections if c.my_turn)
        assert (await answer_to_hint(mover))["type"] == "hint"
    finally:
        for connection in connections:
            await connection.close()


async def test_the_daily_deal_gives_no_hint_to_a_guest_nor_to_an_account(server: Server) -> None:
    async with Lobby(server.url) as guest, await account(server, "Cleo") as cleo:
        for lobby, name in ((guest, "Guest"), (cleo, "Cleo")):
            answer = await lobby.http.post("/api/daily/play", json={"name": name})
            assert answer.status_code == 201, answer.text
            grant = answer.json()
            await assert_no_hints(server.url, grant["table"]["code"], grant["token"],
                                  "the daily deal")


async def test_a_tournament_game_gives_no_hint(server: Server) -> None:
    ada, bea = await account(server, "Ada"), await account(server, "Bea")
    try:
        made = await ada.create_tournament(name="Evening arena", kind="arena", minutes=30,
                                           starts_at=START.isoformat())
        for lobby in (ada, bea):
            await lobby.join_tournament(made["id"])
        server.app.state.tournaments.clock.moment = START
        await server.app.state.tournaments.tend()
        for lobby in (ada, bea):
            me = (await lobby.tournament(made["id"]))["me"]
            assert me["table"] is not None
            await assert_no_hints(server.url, me["table"], me["token"], "a tournament's game")
    finally:
        await ada.aclose()
        await bea.aclose()
