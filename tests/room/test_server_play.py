"""Playing at the card room over real WebSockets: whole matches, spectators, reconnecting,
records that replay, bots and the turn timer."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest

from scopa import Game, Move
from scopa.cli import main
from scopa.server.client import Lobby, LobbyRefused, TableConnection
from scopa.server.table import bots

from .server_support import (
    TIMEOUT,
    Seated,
    anyio_backend,
    play_randomly,
    running_server,
    seat_people,
    settings_for,
)

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]


async def test_two_people_play_a_whole_match_and_its_record_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        code, people = await seat_people(lobby, server.url)
        watcher = await TableConnection.open(server.url, code)
        match = people[0].connection.match
        assert match is not None
        with pytest.raises(LobbyRefused) as refused:
            await lobby.match_record(match)
        assert refused.value.status == 403
        rng = random.Random(5)
        await asyncio.gather(*(play_randomly(person, rng) for person in people))
        versions = {person.connection.version for person in people}
        over = people[0].connection.over
        assert over is not None and len(versions) == 1
        # The spectator gets the same match, with no hand.
        await watcher.wait_for(lambda m: m["type"] == "over", TIMEOUT)
        assert watcher.version == people[0].connection.version
        assert watcher.view is not None and watcher.view["hand"] == []
        record = await lobby.match_record(match)
        assert len(record["moves"]) == watcher.version
        assert record["winner"] == over["winner"] and record["scores"] == over["scores"]
        assert [p["name"] for p in record["players"]] == ["Ada", "Guest 1"]
        assert Game.replay(record).winner == over["winner"]
        for person in people:
            await person.connection.close()
        await watcher.close()
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record))
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0
    assert "Winner:" in capsys.readouterr().out


async def test_every_seat_and_spectator_gets_each_move_with_the_next_version(
    tmp_path: Path,
) -> None:
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        code, people = await seat_people(lobby, server.url, players=3)
        watcher = await TableConnection.open(server.url, code)
        await watcher.wait_for(lambda m: m["type"] == "state", TIMEOUT)
        first = people[0].connection
        assert first.version == 0 and first.my_turn and first.view is not None
        move = first.view["legal_moves"][0]
        await first.move(move)
        for connection in [*(p.connection for p in people), watcher]:
            state = await connection.wait_for(lambda m: m["type"] == "state", TIMEOUT)
            assert state["version"] == 1
            assert state["play"] == {"seat": 0, "move": move, "sweep": state["play"]["sweep"]}
        hands = [p.connection.view["hand"] for p in people]  # type: ignore[index]
        assert all(hands) and len({tuple(hand) for hand in hands}) == 3
        assert people[1].connection.my_turn and not people[0].connection.my_turn


async def test_reconnecting_with_a_version_sends_the_plays_missed(tmp_path: Path) -> None:
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        code, (ada, bob) = await seat_people(lobby, server.url)
        await bob.connection.close()
        played = []
        for _ in range(3):  # Ada plays, then Bob plays from a second connection he then drops
            view = ada.connection.view
            assert view is not None
            await ada.connection.move(view["legal_moves"][0])
            await ada.connection.wait_for(lambda m: m["type"] == "state", TIMEOUT)
            played.append(ada.connection.view["last_move"])  # type: ignore[index]
            again = await TableConnection.open(server.url, code, bob.token)
            await again.wait_for(lambda m: m["type"] == "state", TIMEOUT)
            assert again.view is not None
            await again.move(again.view["legal_moves"][0])
            await ada.connection.wait_for(lambda m: m["type"] == "state", TIMEOUT)
            played.append(ada.connection.view["last_move"])  # type: ignore[index]
            await again.close()
        back = await TableConnection.open(
            server.url, code, bob.token, match=ada.connection.match, version=2
        )
        state = await back.wait_for(lambda m: m["type"] == "state", TIMEOUT)
        assert state["version"] == 6 and state["missed"] == played[2:]
        # With no version (or another match's), a fresh view and nothing about missed plays.
        fresh = await TableConnection.open(server.url, code, bob.token)
        state = await fresh.wait_for(lambda m: m["type"] == "state", TIMEOUT)
        assert "missed" not in state and state["view"] == back.view
        # Asking again on an open connection gives the same.
        await fresh.send({"type": "sync", "match": state["match"], "version": 5})
        synced = await fresh.wait_for(lambda m: m["type"] == "state", TIMEOUT)
        assert synced["missed"] == played[5:] and synced["view"] == state["view"]


async def test_play_against_the_computer_in_one_call(tmp_path: Path) -> None:
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        grant = await lobby.play_computer(name="Ada", players=4, preset="escoba", level="random")
        table = grant["table"]
        assert table["status"] == "playing" and grant["seat"] == 0
        assert [s["kind"] for s in table["seats"]] == ["human", "bot", "bot", "bot"]
        person = await TableConnection.open(server.url, table["code"], grant["token"])
        messages = await play_randomly(
            Seated(grant["seat"], grant["token"], person), random.Random(1)
        )
        states = [m for m in messages if m["type"] == "state"]
        assert {m["play"]["seat"] for m in states if m["play"]} == {0, 1, 2, 3}
        assert person.over is not None
        # A rematch deals a new match at the same table, with the same seats.
        await lobby.rematch(table["code"], grant["token"])
        state = await person.wait_for(
            lambda m: m["type"] == "state" and m["match"] != states[-1]["match"], TIMEOUT
        )
        assert state["version"] == 0 and person.over is None


async def test_bots_pause_like_people_without_holding_up_other_tables(tmp_path: Path) -> None:
    # A long bot pause at one table must not slow another: the pause is a sleep, not a block.
    settings = settings_for(tmp_path, bot_delay=(600.0, 600.0))
    async with running_server(settings) as server, Lobby(server.url) as lobby:
        slow = await lobby.play_computer(name="Ada", level="random")
        person = await TableConnection.open(server.url, slow["table"]["code"], slow["token"])
        await person.wait_for(lambda m: m["type"] == "state", TIMEOUT)
        assert person.view is not None and person.my_turn
        await person.move(person.view["legal_moves"][0])
        await person.wait_for(lambda m: m["type"] == "state", TIMEOUT)
        _, people = await seat_people(lobby, server.url)
        first = people[0].connection
        assert first.view is not None
        await first.move(first.view["legal_moves"][0])
        state = await people[1].connection.wait_for(lambda m: m["type"] == "state", TIMEOUT)
        assert state["version"] == 1
        assert person.version == 1 and not person.my_turn  # the bot is still thinking it over


async def test_the_turn_timer_plays_for_an_absent_person(tmp_path: Path) -> None:
    # The stand-ins' later turns wait ten minutes: after the first, the table stands still.
    settings = settings_for(tmp_path, turn_timeout=0.05, bot_delay=(600.0, 600.0))
    async with running_server(settings) as server, Lobby(server.url) as lobby:
        _, (ada, bob) = await seat_people(lobby, server.url)
        assert ada.connection.my_turn
        await ada.connection.close()
        # Ada is away: her turn is played for her, and it is Bob's turn.
        state = await bob.connection.wait_for(
            lambda m: m["type"] == "state" and m["version"] == 1, TIMEOUT
        )
        assert state["play"]["seat"] == 0 and bob.connection.my_turn


async def test_leaving_during_a_match_hands_the_seat_to_a_bot(tmp_path: Path) -> None:
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        code, (ada, bob) = await seat_people(lobby, server.url)
        await lobby.leave(code, bob.token)
        closed = await bob.connection.wait_for(lambda m: m["type"] == "error", TIMEOUT)
        assert closed["code"] == "bad_token"
        table = await lobby.table(code)
        assert table["seats"][1]["kind"] == "bot" and table["seats"][1]["name"] == "Guest 1"
        await play_randomly(ada, random.Random(2))
        assert ada.connection.over is not None


async def _broken_think(pool: bots.Bots, level: str, job: bots.Position) -> Move:
    raise RuntimeError("this bot has a bug")


async def test_a_bot_that_fails_does_not_stall_its_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bots, "think", _broken_think)
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        grant = await lobby.play_computer(name="Ada", level="random")
        person = await TableConnection.open(server.url, grant["table"]["code"], grant["token"])
        await play_randomly(Seated(0, grant["token"], person), random.Random(4))
        assert person.over is not None
