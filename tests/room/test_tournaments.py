"""Tournaments at a real card room, over real sockets: an arena pairs players again as soon
as they finish and scores a third win in a row double, pushing its standings live; a Swiss
pairs its rounds with no repeat and breaks ties on Buchholz then the margin; every bad input
is one sentence that changes nothing. Time is the director's injectable clock, moved by the
test: nothing waits for an hour to strike."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from scopa.cli import main
from scopa.server.client import Lobby, LobbyRefused, TableConnection
from scopa.server.store.schema import rating_history, tournament_games, tournament_players
from scopa.server.tournaments import queries as tournament_queries
from scopa.server.tournaments.director import Tournaments
from scopa.server.tournaments.settings import TournamentSettings

from .server_support import (
    TIMEOUT,
    Seated,
    Server,
    anyio_backend,
    play_moves,
    running_server,
    settings_for,
)

__all__ = ["anyio_backend"]

START = datetime(2026, 12, 2, 20, 0, tzinfo=UTC)


class Clock:
    """The director's now, moved by the test."""

    def __init__(self, moment: datetime) -> None:
        self.moment = moment

    def __call__(self) -> datetime:
        return self.moment


@dataclass
class Player:
    name: str
    id: int
    lobby: Lobby


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    async with running_server(settings_for(tmp_path, register_per_address="1000/second")) as up:
        up.app.state.tournaments.clock = Clock(START - timedelta(hours=1))
        yield up


def director(server: Server) -> Tournaments:
    found: Tournaments = server.app.state.tournaments
    return found


def clock(server: Server) -> Clock:
    found: Clock = director(server).clock  # type: ignore[assignment]
    return found


REGISTERED: dict[tuple[str, int], Player] = {}
"""Every player registered, by their room's address and account: :func:`resign_game` finds
the opponent here to play their moves."""


async def register(server: Server, name: str) -> Player:
    lobby = Lobby(server.url)
    answer = await lobby.http.post(
        "/api/account/register", json={"name": name, "password": "a good password"})
    assert answer.status_code == 201, answer.text
    player = REGISTERED[(server.url, answer.json()["id"])] = Player(name, answer.json()["id"],
                                                                     lobby)
    return player


async def feed(server: Server, tournament_id: int, player: Player | None = None,
               origin: str | None = None) -> ClientConnection:
    url = server.url.replace("http", "ws", 1) + f"/ws/tournaments/{tournament_id}"
    cookies = "" if player is None else "; ".join(
        f"{name}={value}" for name, value in player.lobby.http.cookies.items())
    return await connect(url, additional_headers={"Cookie": cookies} if cookies else None,
                         origin=origin)  # type: ignore[arg-type]


async def next_message(
    socket: ClientConnection, check: Callable[[dict[str, Any]], bool],
    passed: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The first message ``check`` accepts (each message read within TIMEOUT); those before
    it go to ``passed``."""
    while True:
        message: dict[str, Any] = json.loads(await _recv(socket))
        if check(message):
            return message
        if passed is not None:
            passed.append(message)


async def _recv(socket: ClientConnection) -> str:
    async with asyncio.timeout(TIMEOUT):
        text = await socket.recv()
    assert isinstance(text, str)
    return text


async def resign_game(player: Player, tournament_id: int) -> None:
    """``player`` resigns the game they are paired in, once each side has made its 2 moves (a
    game given up sooner counts for neither): their opponent wins it."""
    view = await player.lobby.tournament(tournament_id)
    me = view["me"]
    assert me["table"] is not None, f"{player.name} has no table"
    game = next(g for g in view["games"] if g["table"] == me["table"])
    other = game["second"] if game["first"]["id"] == player.id else game["first"]
    opponent = REGISTERED[(player.lobby.url, other["id"])]
    theirs = (await opponent.lobby.tournament(tournament_id))["me"]
    people = [Seated(seat, token, await TableConnection.open(player.lobby.url, me["table"],
                                                             token))
              for seat, token in ((0, me["token"]), (1, theirs["token"]))]
    try:
        await asyncio.gather(*(play_moves(seated, 2, random.Random(seated.seat))
                               for seated in people))
        await people[0].connection.resign()
        await people[0].connection.wait_for(lambda m: m["type"] == "over", TIMEOUT)
    finally:
        for seated in people:
            await seated.connection.close()


def live_pairs(view: dict[str, Any]) -> set[frozenset[str]]:
    return {frozenset((g["first"]["name"], g["second"]["name"]))
            for g in view["games"] if g["live"]}


@pytest.mark.anyio
async def test_an_arena_pairs_players_again_at_once_and_a_third_win_in_a_row_counts_double(
    server: Server,
) -> None:
    ada, bea, cid, dan = [await register(server, name) for name in ("Ada", "Bea", "Cid", "Dan")]
    made = await ada.lobby.create_tournament(
        name="Friday arena", kind="arena", minutes=30, starts_at=START.isoformat())
    tid = made["id"]
    for player in (ada, bea, cid, dan):
        joined = await player.lobby.join_tournament(tid)
    assert joined["players"] == 4 and joined["status"] == "open"
    watcher = await feed(server, tid)
    ada_feed = await feed(server, tid, ada)
    try:
        watched: list[dict[str, Any]] = []
        await next_message(watcher, lambda m: m["type"] == "tournament", watched)
        await director(server).tend()
        assert live_pairs(await ada.lobby.tournament(tid)) == set(), "not before its hour"

        clock(server).moment = START
        await director(server).tend()
        view = await ada.lobby.tournament(tid)
        assert view["status"] == "running"
        assert live_pairs(view) == {frozenset(("Ada", "Bea")), frozenset(("Cid", "Dan"))}
        paired = await next_message(ada_feed, lambda m: m["type"] == "paired")
        assert paired["opponent"] == "Bea" and paired["table"] == view["me"]["table"]
        assert paired["token"] == view["me"]["token"] and paired["seat"] == 0
        # A watcher's view carries no seat token; the player's own part does.
        assert "token" not in json.dumps(view["games"])

        # Ada wins first: she waits, as the only free player is the one she just beat.
        await resign_game(bea, tid)
        await director(server).tend()
        assert live_pairs(await ada.lobby.tournament(tid)) == {frozenset(("Cid", "Dan"))}
        # Cid wins: the four are free, and the winners meet.
        await resign_game(dan, tid)
        await director(server).tend()
        assert live_pairs(await ada.lobby.tournament(tid)) == {
            frozenset(("Ada", "Cid")), frozenset(("Bea", "Dan"))}
        await resign_game(cid, tid)  # Ada's second win in a row: on fire
        await resign_game(dan, tid)
        await director(server).tend()
        view = await ada.lobby.tournament(tid)
        leader = view["standings"][0]
        assert (leader["name"], leader["points"], leader["fire"]) == ("Ada", 4, True)
        assert live_pairs(view) == {frozenset(("Ada", "Bea")), frozenset(("Cid", "Dan"))}
        await resign_game(bea, tid)  # the third win in a row: 4 points
        pushed = await next_message(watcher, lambda m: m["type"] == "tournament" and any(
            s["name"] == "Ada" and s["points"] == 8 for s in m["tournament"]["standings"]),
            watched)
        # A guest's page heard every change, and never a seat token.
        assert {m["type"] for m in watched} == {"tournament"}
        assert "token" not in json.dumps(watched)
        assert pushed["tournament"]["standings"][0]["wins"] == 3

        # The end: games still in play do not count, the podium stays, and joining closes.
        clock(server).moment = START + timedelta(minutes=30)
        await director(server).tend()
        view = await ada.lobby.tournament(tid)
        assert view["status"] == "finished"
        assert [(s["name"], s["points"]) for s in view["podium"]] == [
            ("Ada", 8), ("Bea", 2), ("Cid", 2)]
        with pytest.raises(LobbyRefused) as closed:
            await (await register(server, "Eve")).lobby.join_tournament(tid)
        assert (closed.value.status, closed.value.detail) == (
            409, "the tournament is over: joining closed at its end")
    finally:
        await watcher.close()
        await ada_feed.close()
    async with server.room.storage.engine.connect() as connection:
        rated = (await connection.execute(sa.select(rating_history))).all()
    assert len(rated) == 2 * 5, "every finished game is rated for both players"


async def swiss_round(server: Server, players: dict[str, Player], tid: int,
                      winners: list[str]) -> dict[str, Any]:
    """Play the round now live: in each game the player in ``winners`` wins (the other
    resigns); then the director pairs the next."""
    view = await players["Ada"].lobby.tournament(tid)
    for game in view["games"]:
        if not game["live"]:
            continue
        first, second = game["first"]["name"], game["second"]["name"]
        loser = second if first in winners else first
        await resign_game(players[loser], tid)
    await director(server).tend()
    return await players["Ada"].lobby.tournament(tid)


@pytest.mark.anyio
async def test_a_swiss_pairs_each_round_with_no_repeat_and_breaks_ties_on_buchholz(
    server: Server,
) -> None:
    names = ("Ada", "Bea", "Cid", "Dan", "Eva")
    players = {name: await register(server, name) for name in names}
    made = await players["Ada"].lobby.create_tournament(
        name="Club night", kind="swiss", rounds=3,
        starts_at=(START + timedelta(days=1)).isoformat())
    tid = made["id"]
    for player in players.values():
        await player.lobby.join_tournament(tid)
    with pytest.raises(LobbyRefused) as refused:
        await players["Bea"].lobby.start_tournament(tid)
    assert refused.value.status == 403
    await players["Ada"].lobby.start_tournament(tid)  # the club is all here: start now
    await director(server).tend()
    view = await players["Ada"].lobby.tournament(tid)
    assert view["round"] == 1
    byes = [g["first"]["name"] for g in view["games"] if g["second"] is None]
    assert len(byes) == 1 and len(live_pairs(view)) == 2
    with pytest.raises(LobbyRefused) as late:
        await (await register(server, "Fay")).lobby.join_tournament(tid)
    assert late.value.detail == (
        "the Swiss has begun: joining closed when its first round was paired")

    # Round 2 waits for every game of round 1.
    first_live = [g for g in view["games"] if g["live"]]
    loser = first_live[0]["second"]["name"]
    await resign_game(players[loser], tid)
    await director(server).tend()
    assert (await players["Ada"].lobby.tournament(tid))["round"] == 1

    winners = list(names)  # whoever comes first in the game wins the others
    view = await swiss_round(server, players, tid, [first_live[1]["first"]["name"]])
    assert view["round"] == 2
    view = await swiss_round(server, players, tid, winners)
    assert view["round"] == 3
    view = await swiss_round(server, players, tid, winners)
    assert view["status"] == "finished"

    games = view["games"]
    met = [frozenset((g["first"]["id"], g["second"]["id"])) for g in games if g["second"]]
    assert len(met) == len(set(met)) == 6, "three rounds of two games, no pair twice"
    bye_takers = [g["first"]["id"] for g in games if g["second"] is None]
    assert len(bye_takers) == len(set(bye_takers)) == 3, "a bye each round, never twice"
    # The standings, worked out here from the games: points, then Buchholz, then margin.
    points = {p.id: 0 for p in players.values()}
    margin = dict.fromkeys(points, 0)
    for g in games:
        points[g["winner"] if g["second"] else g["first"]["id"]] += 1
        if g["second"]:
            first, second = g["scores"]
            margin[g["first"]["id"]] += first - second
            margin[g["second"]["id"]] += second - first
    buchholz = dict.fromkeys(points, 0)
    for g in games:
        if g["second"]:
            buchholz[g["first"]["id"]] += points[g["second"]["id"]]
            buchholz[g["second"]["id"]] += points[g["first"]["id"]]
    shown = [(s["points"], s["buchholz"], s["margin"]) for s in view["standings"]]
    assert shown == [(points[s["player"]], buchholz[s["player"]], margin[s["player"]])
                     for s in view["standings"]]
    assert shown == sorted(shown, reverse=True)
    assert len({points[p] for p in points}) < len(points), "a tie was broken"
    assert view["podium"] == view["standings"][:3]


@pytest.mark.anyio
async def test_bad_input_gets_a_sentence_and_changes_nothing(server: Server) -> None:
    ada = await register(server, "Ada")
    guest = Lobby(server.url)
    starts = (START + timedelta(hours=2)).isoformat()
    refusals = [
        (ada.lobby, {"name": "Zero", "kind": "swiss", "rounds": 0, "starts_at": starts},
         422, "a Swiss has from 1 to 15 rounds; got 0"),
        (ada.lobby, {"name": "Long", "kind": "arena", "minutes": 1441, "starts_at": starts},
         422, "an arena lasts from 1 minute to a day (1440 minutes); got 1441"),
        (ada.lobby, {"name": "None", "kind": "arena", "minutes": 0, "starts_at": starts},
         422, "an arena lasts from 1 minute to a day (1440 minutes); got 0"),
        (ada.lobby, {"name": "Past", "kind": "arena", "minutes": 30,
                     "starts_at": (START - timedelta(days=1)).isoformat()},
         422, "the start 2026-12-01T20:00+00:00 is in the past: choose a time from now on"),
        (guest, {"name": "Guest's", "kind": "arena", "minutes": 30, "starts_at": starts},
         401, "log in first: this needs an account"),
        # Issue 34, item 11: the rule of user names and chat.
        *[(ada.lobby, {"name": name, "kind": "arena", "minutes": 30, "starts_at": starts},
           422, detail) for name, detail in [
            ("Cup\x00", "a tournament's name may not hold control or invisible characters "
                         "(U+0000)"),
            ("Cup \u202epuC", "a tournament's name may not hold control or invisible "
                              "characters (U+202E)"),
            ("Cup\u200b", "a tournament's name may not hold control or invisible characters "
                          "(U+200B)"),
            ("\u3164", "a tournament's name may not hold control or invisible characters "
                       "(U+3164)"),
            ("...", "a tournament's name needs at least one letter, digit or symbol"),
            ("C" + "\u0301" * 9, "a tournament's name may have at most 3 combining marks on "
                                "one character; this one has 8"),
        ]],
    ]
    for lobby, body, status, detail in refusals:
        with pytest.raises(LobbyRefused) as refused:
            await lobby.create_tournament(**body)
        assert (refused.value.status, refused.value.detail) == (status, detail)
    assert await guest.tournaments() == [], "nothing was made"

    made = await ada.lobby.create_tournament(name="Real", kind="arena", minutes=30,
                                             starts_at=starts)
    await ada.lobby.join_tournament(made["id"])
    for lobby, call, status, detail in [
        (ada.lobby, ada.lobby.join_tournament(made["id"]), 409,
         "you have joined this tournament already"),
        (guest, guest.join_tournament(made["id"]), 401, "log in first: this needs an account"),
        (ada.lobby, ada.lobby.join_tournament(999), 404, "no tournament has the id 999"),
        (guest, guest.tournament(999), 404, "no tournament has the id 999"),
    ]:
        with pytest.raises(LobbyRefused) as refused:
            await call
        assert (refused.value.status, refused.value.detail) == (status, detail), lobby
    async with server.room.storage.engine.connect() as connection:
        assert len((await connection.execute(sa.select(tournament_players))).all()) == 1
        assert (await connection.execute(sa.select(tournament_games))).all() == []
    shown = await guest.tournament(made["id"])
    assert shown["players"] == 1 and shown["me"]["joined"] is False
    # An unknown tournament's socket, and one opened by another site's page with Ada's
    # cookie (it would read her seat tokens), are closed at once.
    for socket, reason in [
        (await feed(server, 999), "no tournament has the id 999"),
        (await feed(server, made["id"], ada, origin="http://elsewhere.example"),
         "this request came from another site: it was refused"),
    ]:
        try:
            with pytest.raises(ConnectionClosed) as closed:
                await _recv(socket)
            assert closed.value.rcvd is not None
            assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (1008, reason)
        finally:
            await socket.close()
    await guest.aclose()


@pytest.mark.anyio
async def test_a_result_its_process_did_not_live_to_write_is_read_from_the_stored_match(
    server: Server,
) -> None:
    ada, bea = await register(server, "Ada"), await register(server, "Bea")
    made = await ada.lobby.create_tournament(
        name="Two", kind="swiss", rounds=1, starts_at=(START + timedelta(hours=1)).isoformat())
    for player in (ada, bea):
        await player.lobby.join_tournament(made["id"])
    await ada.lobby.start_tournament(made["id"])
    await director(server).tend()
    # As if the table's process died between storing the match's end and writing the result:
    # the tournament is never told of it, and the director's own looks (this one, or those it
    # makes every two seconds) must read the result from the stored match.
    server.room.match_ends.unsubscribe(director(server).match_ended)
    await resign_game(bea, made["id"])
    await director(server).tend()
    view = await ada.lobby.tournament(made["id"])
    (game,) = view["games"]
    assert (view["status"], game["winner"], game["match"]) == ("finished", ada.id, game["match"])
    assert game["match"] is not None and view["podium"][0]["name"] == "Ada"


@pytest.mark.anyio
async def test_an_arena_pairs_nobody_who_is_at_a_table_of_another_tournament(
    server: Server,
) -> None:
    ada, bea, cid = [await register(server, name) for name in ("Ada", "Bea", "Cid")]
    starts = (START + timedelta(hours=1)).isoformat()
    swiss = await ada.lobby.create_tournament(name="Swiss", kind="swiss", rounds=1,
                                              starts_at=starts)
    arena = await ada.lobby.create_tournament(name="Arena", kind="arena", minutes=60,
                                              starts_at=starts)
    for player in (ada, bea):
        await player.lobby.join_tournament(swiss["id"])
    for player in (ada, bea, cid):
        await player.lobby.join_tournament(arena["id"])
    await ada.lobby.start_tournament(swiss["id"])
    await director(server).tend()  # Ada and Bea sit down at the Swiss's table
    await ada.lobby.start_tournament(arena["id"])
    await director(server).tend()
    assert live_pairs(await cid.lobby.tournament(arena["id"])) == set(), "Cid waits"
    await resign_game(bea, swiss["id"])
    await director(server).tend()
    # Free again, the two join the arena's free players: one pair of the three plays.
    assert len(live_pairs(await cid.lobby.tournament(arena["id"]))) == 1


@pytest.mark.anyio
async def test_the_daily_arena_of_the_settings_is_made_once_a_day(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, sections=(
        TournamentSettings(daily_arena="20:00", daily_arena_minutes=45),))
    async with running_server(settings) as up:
        room = director(up)
        room.clock = Clock(START - timedelta(hours=3))
        await room.tend()
        await room.tend()
        async with Lobby(up.url) as guest:
            (daily,) = await guest.tournaments()
            assert (daily["name"], daily["kind"], daily["minutes"], daily["daily"]) == (
                "Daily arena", "arena", 45, True)
            assert daily["starts_at"] == START.isoformat()
            room.clock = Clock(START + timedelta(minutes=10))  # today's is on: tomorrow's is made
            await room.tend()
            listed = await guest.tournaments()
            assert [t["starts_at"] for t in listed] == [
                START.isoformat(), (START + timedelta(days=1)).isoformat()]
            assert listed[0]["status"] == "running"
            room.clock = Clock(START + timedelta(minutes=45))
            await room.tend()
            assert [t["status"] for t in await guest.tournaments()] == ["open", "finished"]


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--daily-arena", "25:00"], "--daily-arena must be an hour such as 20:00 (UTC)"),
        (["--daily-arena-minutes", "0"], "--daily-arena-minutes must be from 1 to 1440"),
        (["--daily-arena-preset", "chess"], "--daily-arena-preset: unknown preset 'chess'"),
    ],
)
def test_the_daily_arena_options_refuse_bad_values_in_one_line(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("scopa: error: ") and words in err and err.count("\n") == 1


@pytest.mark.anyio
async def test_a_player_who_withdraws_is_paired_no_more_until_they_join_again(
    server: Server,
) -> None:
    players = {name: await register(server, name) for name in ("Ada", "Bea", "Cid", "Dan")}
    ada, cid = players["Ada"], players["Cid"]
    made = await ada.lobby.create_tournament(
        name="Night", kind="swiss", rounds=3, starts_at=(START + timedelta(hours=1)).isoformat())
    tid = made["id"]
    with pytest.raises(LobbyRefused) as refused:
        await cid.lobby.withdraw_from_tournament(tid)
    assert (refused.value.status, refused.value.detail) == (
        409, "you are not playing in this tournament")
    for player in players.values():
        await player.lobby.join_tournament(tid)
    await ada.lobby.start_tournament(tid)
    await director(server).tend()
    gone = await cid.lobby.withdraw_from_tournament(tid)  # Cid goes home after round 1
    assert (gone["me"]["joined"], gone["me"]["withdrawn"], gone["withdrawn"]) == (
        False, True, [cid.id])
    with pytest.raises(LobbyRefused):
        await cid.lobby.withdraw_from_tournament(tid)
    view = await swiss_round(server, players, tid, ["Ada", "Bea", "Cid", "Dan"])
    assert view["round"] == 2
    round_two = [g for g in view["games"] if g["round"] == 2]
    assert len(round_two) == 2, "one game and a bye among the three left"
    assert cid.id not in {p["id"] for g in round_two for p in (g["first"], g["second"]) if p}
    assert len(view["standings"]) == 4, "Cid's game still counts"
    back = await cid.lobby.join_tournament(tid)  # back in time for round 3, Swiss or not
    assert back["me"]["joined"] is True and back["withdrawn"] == []


@pytest.mark.anyio
async def test_a_pairing_stored_by_a_director_that_died_gets_its_tables_and_is_not_paired_again(
    server: Server,
) -> None:
    ada, bea = await register(server, "Ada"), await register(server, "Bea")
    # The room is open now (it answered): its director stops looking by itself, and looks
    # only when this test says.
    await director(server).close()
    made = await ada.lobby.create_tournament(
        name="Two", kind="swiss", rounds=2, starts_at=(START + timedelta(hours=1)).isoformat())
    for player in (ada, bea):
        await player.lobby.join_tournament(made["id"])
    await ada.lobby.start_tournament(made["id"])
    # A director stored round 1's pairing, then died before making its table.
    assert await tournament_queries.store_pairing(
        server.room.storage, made["id"], 0, 1, [(ada.id, bea.id)], START)
    # Another, which read the tournament before that, cannot store a second one.
    assert not await tournament_queries.store_pairing(
        server.room.storage, made["id"], 0, 1, [(bea.id, ada.id)], START)
    await director(server).tend()
    view = await ada.lobby.tournament(made["id"])
    (game,) = view["games"]
    assert game["live"] and game["table"] is not None and view["round"] == 1
    assert view["me"]["table"] == game["table"], "the table is Ada's to play"
    found = await tournament_queries.find(server.room.storage, made["id"])
    assert found is not None and found.pairings == 1


@pytest.mark.anyio
async def test_two_who_just_met_meet_again_when_nobody_else_can_come_free(
    server: Server,
) -> None:
    ada, bea, cid = [await register(server, name) for name in ("Ada", "Bea", "Cid")]
    made = await ada.lobby.create_tournament(
        name="Small", kind="arena", minutes=30, starts_at=START.isoformat())
    for player in (ada, bea, cid):
        await player.lobby.join_tournament(made["id"])
    clock(server).moment = START
    await director(server).tend()
    (pair,) = live_pairs(await ada.lobby.tournament(made["id"]))
    everyone = {p.name: p for p in (ada, bea, cid)}
    (waiting,) = set(everyone) - pair
    await everyone[waiting].lobby.withdraw_from_tournament(made["id"])  # and goes home
    await resign_game(everyone[min(pair)], made["id"])
    await director(server).tend()
    view = await ada.lobby.tournament(made["id"])
    assert live_pairs(view) == {pair} and len(view["games"]) == 2, "they meet again"
