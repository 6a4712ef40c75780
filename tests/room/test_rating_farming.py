"""Results that cannot be farmed (issue 34, item B and item 14): a second account that
accepted 6 rated challenges and resigned each at move 0 took its owner to rank 1.

* A match given up before each side has made 2 moves of its own (resigned, walked out of,
  timed out from the start) is recorded and rates nobody, so no leaderboard shows it.
* Two accounts play at most PAIR_CAP rated matches together in 24 hours: past it the table
  says, before the first move, that its match is casual and why (``pair_cap``), and so does a
  challenge; two tables dealt side by side cannot pass the cap either.
* A new account finishes a few matches before its first rated challenge or rated pool: the
  refusal is a sentence with the code ``new_account``.
* A tournament's game given up so is over, and counts for neither player.
"""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from scopa.server.client import Lobby, TableConnection
from scopa.server.common.fairplay import CASUAL, NEWCOMER_MATCHES, PAIR_CAP
from scopa.server.store.schema import account_matches, ratings

from .pool_support import Waiter
from .server_support import (
    TIMEOUT,
    Seated,
    Server,
    anyio_backend,
    play_moves,
    running_server,
    settings_for,
)
from .test_social import Me, person
from .test_tournaments import START, Clock, Player, director, register

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]


async def _rows(server: Server, table: sa.Table) -> list[dict[str, Any]]:
    async with server.room.storage.engine.connect() as connection:
        return [dict(row._mapping) for row in (await connection.execute(sa.select(table)))]


async def _register(server: Server, name: str) -> Lobby:
    lobby = Lobby(server.url)
    answer = await lobby.http.post(
        "/api/account/register", json={"name": name, "password": "a good password"})
    assert answer.status_code == 201, answer.text
    return lobby


async def _deal(url: str, first: Lobby, second: Lobby) -> list[Seated]:
    """A rated lobby table of ``first`` and ``second`` (in that order), dealt, both seated
    and connected, their first ``state`` read."""
    made = await first.create_table(players=2, name="Anna", rated=True, target=11)
    code = made["table"]["code"]
    joined = await second.join(code, "Bruno")
    people = [Seated(seat, token, await TableConnection.open(url, code, token))
              for seat, token in ((made["seat"], made["token"]),
                                  (joined["seat"], joined["token"]))]
    await first.start(code, made["token"])
    for seated in people:
        await seated.connection.wait_for(lambda m: m["type"] == "state", TIMEOUT)
    return people


async def _give_up(people: list[Seated], moves: tuple[int, int], resigner: int) -> None:
    """Each seat plays its ``moves`` (seat 0's first), then ``resigner`` resigns."""
    await asyncio.gather(*(play_moves(seated, count, random.Random(seated.seat))
                           for seated, count in zip(people, moves, strict=True) if count))
    await people[resigner].connection.resign()
    for seated in people:
        await seated.connection.wait_for(lambda m: m["type"] == "over", TIMEOUT)
        await seated.connection.close()


async def _leaderboard(lobby: Lobby) -> list[dict[str, Any]]:
    answer = await lobby.http.get("/api/leaderboards/scopa-2")
    assert answer.status_code == 200, answer.text
    top: list[dict[str, Any]] = answer.json()["top"]
    return top


async def test_a_match_given_up_before_2_moves_each_rates_nobody(tmp_path: Path) -> None:
    """The issue's case (resigned at move 0), and a resignation once one side has played 2
    moves and the other 1: both recorded, short, rated for nobody; the leaderboard stays
    empty though the room counts a rating after a single match."""
    settings = settings_for(tmp_path, newcomer_matches=0, provisional_matches=1)
    async with running_server(settings) as server:
        anna, bruno = await _register(server, "Anna"), await _register(server, "Bruno")
        try:
            await _give_up(await _deal(server.url, anna, bruno), (0, 0), 1)
            await _give_up(await _deal(server.url, anna, bruno), (2, 1), 1)
            assert await _rows(server, ratings) == []
            played = await _rows(server, account_matches)
            assert len(played) == 4
            assert all(row["short"] and not row["rated"] for row in played)
            assert {row["result"] for row in played if row["seat"] == 1} == {"loss"}
            assert await _leaderboard(anna) == []
            # Two moves each, and the same resignation is rated: the line is the rule.
            await _give_up(await _deal(server.url, anna, bruno), (2, 2), 1)
            assert {row["matches"] for row in await _rows(server, ratings)} == {1}
            assert [line["name"] for line in await _leaderboard(anna)] == ["Anna", "Bruno"]
        finally:
            await anna.aclose()
            await bruno.aclose()


async def test_a_seat_walked_out_of_at_move_0_rates_nobody(tmp_path: Path) -> None:
    """Against the computer, rated: Anna leaves before her first move, the bot that takes her
    seat plays the match out, and nothing is rated: its moves are not hers."""
    async with running_server(settings_for(tmp_path)) as server:
        async with await _register(server, "Anna") as lobby:
            grant = await lobby.play_computer(name="Anna", level="random", rated=True, target=1)
            code = grant["table"]["code"]
            async with await TableConnection.open(server.url, code) as watcher:
                await lobby.leave(code, grant["token"])
                await watcher.wait_for(lambda m: m["type"] == "over", TIMEOUT)
        (played,) = await _rows(server, account_matches)
        assert (played["result"], played["rated"], played["short"]) == ("left", False, True)
        assert await _rows(server, ratings) == []


async def test_a_seat_timed_out_from_the_start_rates_nobody(tmp_path: Path) -> None:
    """Bruno never connects: a stand-in plays every move of his to the end. He made none of
    his own, so the match rates nobody, though it was played out."""
    settings = settings_for(tmp_path, turn_timeout=0.5, newcomer_matches=0)
    async with running_server(settings) as server:
        anna, bruno = await _register(server, "Anna"), await _register(server, "Bruno")
        try:
            made = await anna.create_table(players=2, name="Anna", rated=True, target=1)
            code = made["table"]["code"]
            await bruno.join(code, "Bruno")
            async with await TableConnection.open(server.url, code, made["token"]) as mine:
                await anna.start(code, made["token"])
                sent_for = -1
                while mine.over is None:
                    if mine.my_turn and mine.version != sent_for:
                        assert mine.view is not None and mine.version is not None
                        sent_for = mine.version
                        await mine.move(mine.view["legal_moves"][0])
                    await mine.recv(TIMEOUT)
        finally:
            await anna.aclose()
            await bruno.aclose()
        played = await _rows(server, account_matches)
        assert len(played) == 2 and all(row["short"] for row in played)
        assert await _rows(server, ratings) == []


async def test_rated_matches_of_one_pair_are_capped_per_day(tmp_path: Path) -> None:
    """Two rated matches, then two tables dealt side by side (each still says rated: the
    count was below the cap at both deals), then a fifth. Only PAIR_CAP are rated; the fifth
    table says before its first move that it is casual and why, in its welcome, its ``table``
    message, the start's answer and the lobby's view of it; a rated challenge between them
    says so when sent."""
    assert PAIR_CAP == 3
    settings = settings_for(tmp_path, newcomer_matches=0, register_per_address="100/minute")
    async with (
        running_server(settings) as server,
        person(server.url, "Anna") as anna,
        person(server.url, "Bruno") as bruno,
    ):
        for _ in range(2):
            await _give_up(await _deal(server.url, anna.lobby, bruno.lobby), (2, 2), 1)
        side_by_side = [await _deal(server.url, anna.lobby, bruno.lobby) for _ in range(2)]
        for people in side_by_side:
            assert people[0].connection.table is not None
            assert people[0].connection.table["rated"] is True
        await asyncio.gather(*(_give_up(people, (2, 2), 1) for people in side_by_side))
        assert {row["matches"] for row in await _rows(server, ratings)} == {PAIR_CAP}
        assert sum(row["rated"] for row in await _rows(server, account_matches)) == 6

        notice = {"code": "pair_cap", "message": CASUAL["pair_cap"]}
        made = await anna.lobby.create_table(players=2, name="Anna", rated=True)
        code = made["table"]["code"]
        joined = await bruno.lobby.join(code, "Bruno")
        async with await TableConnection.open(server.url, code, joined["token"]) as seat:
            started = await anna.lobby.start(code, made["token"])
            assert (started["rated"], started["casual"]) == (False, notice)
            table = await seat.wait_for(lambda m: m["type"] == "table"
                                        and m["table"]["status"] == "playing", TIMEOUT)
            assert (table["table"]["rated"], table["table"]["casual"]) == (False, notice)
            assert seat.version is None or seat.version == 0
        async with await TableConnection.open(server.url, code, made["token"]) as again:
            assert again.welcome is not None
            assert (again.welcome["rated"], again.welcome["casual"]) == (False, notice)
            assert again.hints  # casual: the master's hints are back
        shown = await anna.lobby.table(code)
        assert (shown["rated"], shown["casual"]) == (False, notice)

        status, sent = await anna.post(
            "/api/challenges", {"name": "Bruno", "rated": True})
        assert status == 201, sent
        assert (sent["rated"], sent["casual"]) == (False, notice)
        offer = await bruno.wait_for(lambda m: m["type"] == "challenge")
        assert (offer["rated"], offer["casual"]) == (False, notice)


async def _finish_matches(lobby: Lobby, url: str, name: str, count: int) -> None:
    """``count`` matches against the computer, each resigned once both sides have made 2
    moves (enough to count, and quick)."""
    for _ in range(count):
        grant = await lobby.play_computer(name=name, level="random", target=11)
        async with await TableConnection.open(url, grant["table"]["code"],
                                              grant["token"]) as connection:
            await play_moves(Seated(0, grant["token"], connection), 2, random.Random(5))
            await connection.wait_for(lambda m: m["type"] == "state" and m["version"] == 4,
                                      TIMEOUT)
            await connection.resign()
            await connection.wait_for(lambda m: m["type"] == "over", TIMEOUT)


def _cookie(me: Me) -> str:
    return "; ".join(f"{k}={v}" for k, v in me.lobby.http.cookies.items())


async def test_a_new_account_plays_its_first_matches_before_rated_play(tmp_path: Path) -> None:
    """With the room's default figure: Anna, new, may not send a rated challenge nor join a
    rated pool, nor be challenged rated once she has played and Bruno has not; a casual
    challenge goes. Once both have finished their NEWCOMER_MATCHES, the rated challenge
    goes, and the pool takes her."""
    settings = settings_for(tmp_path, register_per_address="100/minute")
    assert settings.newcomer_matches == NEWCOMER_MATCHES == 3
    async with (
        running_server(settings) as server,
        person(server.url, "Anna") as anna,
        person(server.url, "Bruno") as bruno,
    ):
        status, refused = await anna.post("/api/challenges", {"name": "Bruno", "rated": True})
        assert (status, refused["code"]) == (403, "new_account")
        assert refused["detail"] == (
            "your account is new: play 3 more casual matches (or against the computer) "
            "before rated play; 3 come before the first")
        waiter = await Waiter.open(server.url, _cookie(anna))
        try:
            await waiter.join(rated=True)
            error = await waiter.wait_for("error")
            assert error["code"] == "new_account"
        finally:
            await waiter.socket.close()

        await _finish_matches(anna.lobby, server.url, "Anna", 3)
        status, refused = await anna.post("/api/challenges", {"name": "Bruno", "rated": True})
        assert (status, refused["code"]) == (403, "new_account")
        assert refused["detail"].startswith("Bruno's account is new: they play 3 more")
        status, casual = await anna.post("/api/challenges", {"name": "Bruno"})
        assert status == 201 and casual["rated"] is False and casual["casual"] is None
        await bruno.wait_for(lambda m: m["type"] == "challenge")
        status, _ = await bruno.post(f"/api/challenges/{casual['id']}/decline")
        assert status == 204

        await _finish_matches(bruno.lobby, server.url, "Bruno", 3)
        status, sent = await anna.post("/api/challenges", {"name": "Bruno", "rated": True})
        assert status == 201, sent
        assert (sent["rated"], sent["casual"]) == (True, None)
        waiter = await Waiter.open(server.url, _cookie(anna))
        try:
            await waiter.join(rated=True)
            assert (await waiter.wait_for("waiting"))["pool"] == "scopa"
        finally:
            await waiter.socket.close()


async def _resign_at_once(player: Player, tournament_id: int) -> None:
    """``player`` resigns their tournament game before any move (the issue's booster)."""
    me = (await player.lobby.tournament(tournament_id))["me"]
    async with await TableConnection.open(player.lobby.url, me["table"], me["token"]) as seat:
        await seat.resign()
        await seat.wait_for(lambda m: m["type"] == "over", TIMEOUT)


@pytest.mark.parametrize("told", [True, False], ids=["told", "read-back"])
async def test_a_tournament_game_resigned_at_once_counts_for_neither(
    tmp_path: Path, told: bool
) -> None:
    """A Swiss of one round: Bea resigns before any move. The game is over (the round, and
    so the Swiss, ends) but not counted: nobody has a win or a point, and nobody's rating
    moved. The same when the result is read back from the stored match, as after its
    process died before writing it."""
    settings = settings_for(tmp_path, register_per_address="1000/second")
    async with running_server(settings) as server:
        server.app.state.tournaments.clock = Clock(START - timedelta(hours=1))
        ada, bea = await register(server, "Ada"), await register(server, "Bea")
        made = await ada.lobby.create_tournament(
            name="Two", kind="swiss", rounds=1,
            starts_at=(START + timedelta(hours=1)).isoformat())
        for player in (ada, bea):
            await player.lobby.join_tournament(made["id"])
        await ada.lobby.start_tournament(made["id"])
        await director(server).tend()
        if not told:
            server.room.match_ends.unsubscribe(director(server).match_ended)
        await _resign_at_once(bea, made["id"])
        await director(server).tend()
        view = await ada.lobby.tournament(made["id"])
        (game,) = view["games"]
        assert (view["status"], game["winner"], game["counted"]) == ("finished", ada.id, False)
        assert [(s["name"], s["points"], s["wins"], s["losses"]) for s in view["standings"]] \
            == [("Ada", 0, 0, 0), ("Bea", 0, 0, 0)]
        assert await _rows(server, ratings) == []
        for player in (ada, bea):
            await player.lobby.aclose()
