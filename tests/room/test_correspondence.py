"""Correspondence play (issue 36, items 1 to 3) over real HTTP and WebSockets, with the room's
clock injected: an offer by name accepted, moves that give the next mover the whole days
again, the table let go between moves and loaded again, the alarm at 80%, five vacation days
spent by themselves, a loss on time rated on the correspondence line, a whole 14-day match
played in seconds across a restart, a late opponent waited for then claimed against, a seek
paired with its like, and every refusal with its sentence."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from scopa.server.client import TableConnection
from scopa.server.common.settings import Settings
from scopa.server.correspondence.settings import CorrespondenceSettings

from .server_support import TIMEOUT, Server, anyio_backend, running_server, settings_for, until
from .test_social import Me, person

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]

DAY = timedelta(days=1)


class Clock:
    """The wall time the room's correspondence clocks read, moved on by the test."""

    def __init__(self) -> None:
        self.moment = datetime(2026, 12, 7, 12, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.moment

    def advance(self, by: timedelta) -> None:
        self.moment += by


def room_settings(tmp_path: Path, clock: Clock, **changes: Any) -> Settings:
    section = CorrespondenceSettings(clock=clock, sweep_every=3600.0, push_delay=0.0)
    return settings_for(tmp_path, register_per_address="100/minute", newcomer_matches=0,
                        sections=(replace(section, **changes),))


def games_of(room: Server) -> Any:
    return room.app.state.correspondence_games


async def clock_of(me: Me, code: str) -> dict[str, Any]:
    found: dict[str, Any] = await me.get(f"/api/correspondence/tables/{code}")
    return found


async def token_of(me: Me, code: str) -> str:
    """The seat token the room gave ``me`` at ``code``, as any device of theirs reads it."""
    held = [seat for seat in await me.get("/api/account/seats") if seat["code"] == code]
    assert len(held) == 1, held
    token: str = held[0]["token"]
    return token


async def offered_and_accepted(ada: Me, bea: Me, **choices: Any) -> str:
    status, made = await ada.post("/api/correspondence/offers",
                                  {"kind": "name", "to": "bea", **choices})
    assert status == 201, made
    offer = made["offer"]
    assert (offer["by"], offer["to"], offer["state"]) == ("Ada", "Bea", "open")
    assert [o["id"] for o in (await bea.get("/api/correspondence"))["offers"]] == [offer["id"]]
    status, grant = await bea.post(f"/api/correspondence/offers/{offer['id']}/accept")
    assert status == 200, grant
    assert grant["table"]["pace"] == "correspondence" and grant["seat"] == 1
    code: str = grant["table"]["code"]
    return code


@asynccontextmanager
async def at_table(url: str, code: str, token: str) -> AsyncIterator[TableConnection]:
    connection = await TableConnection.open(url, code, token)
    try:
        await connection.wait_for(lambda m: m["type"] == "state", TIMEOUT)
        yield connection
    finally:
        await connection.close()


async def move_once(connection: TableConnection) -> int:
    """Play the first legal move (it must be this seat's turn); the version it made."""
    assert connection.my_turn and connection.view is not None and connection.version is not None
    version = connection.version
    await connection.move(connection.view["legal_moves"][0])
    await connection.wait_for(lambda m: m["type"] == "state" and m["version"] > version,
                              TIMEOUT)
    return version + 1


async def test_a_match_by_name_keeps_its_days_lets_go_of_its_table_and_is_lost_on_time(
    tmp_path: Path,
) -> None:
    clock = Clock()
    async with running_server(room_settings(tmp_path, clock)) as room, \
            person(room.url, "Ada") as ada, person(room.url, "Bea") as bea:
        code = await offered_and_accepted(ada, bea, days=3, rated=True)
        first = await clock_of(ada, code)
        assert first["days"] == 3 and first["rated"] and first["status"] == "playing"
        assert first["deadline"] == (clock.moment + 3 * DAY).isoformat()
        tokens = [await token_of(ada, code), await token_of(bea, code)]
        mover = first["mover"]

        # Four moves (two each, so the match counts: docs/ratings.md), a day apart: each gives
        # the next mover the whole 3 days again.
        for _ in range(4):
            clock.advance(DAY)
            async with at_table(room.url, code, tokens[mover]) as connection:
                version = await move_once(connection)
            await until(lambda v=version: _clock_at(ada, code, v), "the clock set by a move")
            now_clock = await clock_of(ada, code)
            assert now_clock["mover"] == 1 - mover
            assert now_clock["deadline"] == (clock.moment + 3 * DAY).isoformat()
            mover = now_clock["mover"]
        listed = await (bea if mover == 1 else ada).get("/api/correspondence")
        assert listed["your_turn"] == 1 and listed["games"][0]["your_turn"]
        assert (await (bea if mover == 1 else ada).get("/api/correspondence/badge")) == \
            {"your_turn": 1}

        # Nobody at it: the table leaves memory at the room's next sweep, its clock stays.
        await until(lambda: _let_go(room, code), "the table let go")
        assert code not in room.room.tables

        # The alarm rings at 80% of the mover's time, once.
        games = games_of(room)
        clock.advance(2.5 * DAY)
        await games.sweep()
        await games.sweep()
        assert (games.alarms_due, games.alarms_rung) == (1, 1)
        assert code not in room.room.tables  # an alarm loads no table

        # Time out: a vacation day is spent by itself, 24 hours more, five times.
        late = ada if mover == 0 else bea
        for used in range(1, 6):
            clock.advance(DAY)
            await games.sweep()
            clock_now = await clock_of(ada, code)
            assert clock_now["status"] == "playing" and clock_now["vacation"] == used
            assert (await late.get("/api/correspondence"))["vacation"]["used"] == used
        clock.advance(DAY)
        await games.sweep()
        await until(lambda: _over(ada, code), "the match lost on time")
        await until(lambda: _rated(ada, late.name), "the loss rated")
        profile = await ada.get(f"/api/profiles/{late.name}")
        assert [(r["pool"], r["losses"]) for r in profile["ratings"]] == \
            [("scopa-2-correspondence", 1)], profile["ratings"]
        [lost] = (await late.get("/api/correspondence"))["games"]
        [won] = (await (bea if late is ada else ada).get("/api/correspondence"))["games"]
        assert (lost["status"], lost["result"], won["result"]) == ("over", "loss", "win")
        assert lost["your_turn"] is False and lost["deadline"] is None


async def _rated(me: Me, name: str) -> bool:
    return bool((await me.get(f"/api/profiles/{name}"))["ratings"])


async def _clock_at(me: Me, code: str, version: int) -> bool:
    """The clock was set by the move that made ``version`` (or a later one)."""
    return bool((await me.get(f"/api/correspondence/tables/{code}"))["version"] >= version)


async def _let_go(room: Server, code: str) -> bool:
    await room.room.sweep(datetime.now(UTC))
    return code not in room.room.tables


async def _over(me: Me, code: str) -> bool:
    return bool((await me.get(f"/api/correspondence/tables/{code}"))["status"] == "over")


async def test_a_fourteen_day_match_is_played_to_its_end_in_seconds_across_a_restart(
    tmp_path: Path,
) -> None:
    clock = Clock()
    settings = room_settings(tmp_path, clock)
    async with running_server(settings) as room, \
            person(room.url, "Ada") as ada, person(room.url, "Bea") as bea:
        code = await offered_and_accepted(ada, bea, days=14)
        tokens = [await token_of(ada, code), await token_of(bea, code)]
        played = await _play_days(room, ada, code, tokens, clock, moves=20)
    async with running_server(settings) as room, person_again(room.url, "Ada") as ada:
        assert code not in room.room.tables  # a restart brings back no correspondence table
        games = (await ada.get("/api/correspondence"))["games"]
        assert [game["table"] for game in games] == [code]
        after = await _play_days(room, ada, code, tokens, clock, moves=10_000)
        record = await ada.get(f"/api/tables/{code}")
        assert record["status"] == "over" and played + after > 40
        assert (await clock_of(ada, code))["status"] == "over"
        # 13 days is past 80% of 14: each turn's alarm rang once, at the sweep before its move.
        assert games_of(room).alarms_due == after


async def _play_days(room: Server, me: Me, code: str, tokens: list[str], clock: Clock,
                     moves: int) -> int:
    """Play up to ``moves`` moves, 13 days apart (in the clock's time), each mover opening
    the table, moving and leaving; a sweep between each finds no clock run out. The moves
    played."""
    games = games_of(room)
    played = 0
    while played < moves:
        found = await clock_of(me, code)
        if found["status"] != "playing":
            break
        clock.advance(13 * DAY)
        await games.sweep()
        async with at_table(room.url, code, tokens[found["mover"]]) as connection:
            version = await move_once(connection)
        played += 1
        await until(lambda v=version: _moved_on(me, code, v), "the clock set by the move")
    return played


async def _moved_on(me: Me, code: str, version: int) -> bool:
    found = await me.get(f"/api/correspondence/tables/{code}")
    return bool(found["status"] == "over" or found["version"] >= version)


@asynccontextmanager
async def person_again(url: str, name: str) -> AsyncIterator[Me]:
    """``name``'s account, logged in again on a room started anew."""
    from scopa.server.client import Lobby

    from .test_social import PASSWORD

    async with Lobby(url) as lobby:
        answer = await lobby.http.post("/api/account/login",
                                       json={"name": name, "password": PASSWORD})
        assert answer.status_code == 200, answer.text
        yield Me(lobby, name)


async def test_one_vacation_day_covers_every_clock_that_runs_out_at_once(tmp_path: Path) -> None:
    clock = Clock()
    async with running_server(room_settings(tmp_path, clock)) as room, \
            person(room.url, "Ada") as ada, person(room.url, "Bea") as bea:
        codes = [await offered_and_accepted(ada, bea, days=2) for _ in range(2)]
        for code in codes:  # Bea (seat 1) to move at both
            if (await clock_of(ada, code))["mover"] == 0:
                async with at_table(room.url, code, await token_of(ada, code)) as connection:
                    version = await move_once(connection)
                await until(lambda v=version, c=code: _clock_at(ada, c, v), "a move's clock")
        deadlines = [(await clock_of(ada, code))["deadline"] for code in codes]
        clock.advance(2 * DAY + timedelta(hours=1))
        await games_of(room).sweep()
        assert (await bea.get("/api/correspondence"))["vacation"]["used"] == 1
        for code, before in zip(codes, deadlines, strict=True):
            after = await clock_of(ada, code)
            assert after["vacation"] == 1 and after["status"] == "playing"
            assert datetime.fromisoformat(after["deadline"]) == \
                datetime.fromisoformat(before) + DAY


async def test_a_late_opponent_is_waited_for_then_claimed_against(tmp_path: Path) -> None:
    clock = Clock()
    async with running_server(room_settings(tmp_path, clock, vacation_days=0)) as room, \
            person(room.url, "Ada") as ada, person(room.url, "Bea") as bea:
        code = await offered_and_accepted(ada, bea, days=1)
        people = [ada, bea]
        mover = (await clock_of(ada, code))["mover"]
        waiting = people[1 - mover]
        answer = await waiting.lobby.http.put(f"/api/correspondence/tables/{code}/patience",
                                              json={"wait": True})
        assert answer.status_code == 200 and answer.json()["patient"] == [1 - mover]
        assert (await waiting.post(f"/api/correspondence/tables/{code}/claim"))[0] == 409

        clock.advance(DAY + timedelta(minutes=1))
        await games_of(room).sweep()
        late = await clock_of(ada, code)
        assert late["overdue"] and late["deadline"] is None and late["status"] == "playing"
        # The late mover may still move: the other's time starts, whole. A move out of turn,
        # or for another version, is refused as at any table.
        token = await token_of(people[mover], code)
        other_token = await token_of(people[1 - mover], code)
        async with at_table(room.url, code, other_token) as other:
            assert other.view is not None and not other.my_turn
            await other.send({"type": "move", "move": "7D", "version": other.version,
                              "ref": "early"})
            refused = await other.wait_for(lambda m: m["type"] == "error", TIMEOUT)
            assert refused["code"] == "not_your_turn"
        async with at_table(room.url, code, token) as connection:
            assert connection.version is not None
            await connection.send({"type": "move", "move": "7D",
                                   "version": connection.version + 5, "ref": "stale"})
            refused = await connection.wait_for(lambda m: m["type"] == "error", TIMEOUT)
            assert refused["code"] == "stale_version"
            version = await move_once(connection)
        await until(lambda v=version: _clock_at(ada, code, v), "the clock set by the move")
        now_clock = await clock_of(ada, code)
        assert not now_clock["overdue"] and now_clock["mover"] == 1 - mover

        # Now the other is late, and the first (not waiting) wins on time at the sweep.
        clock.advance(DAY + timedelta(minutes=1))
        await games_of(room).sweep()
        await until(lambda: _over(ada, code), "the match lost on time")
        assert (await people[mover].post(f"/api/correspondence/tables/{code}/claim"))[0] == 409
        # The one who lost on time moves after all: refused, as at a match that ended.
        late_token = await token_of(people[1 - mover], code)
        async with at_table(room.url, code, late_token) as connection:
            await connection.send({"type": "move", "move": "7D", "version": version,
                                   "ref": "late"})
            refused = await connection.wait_for(lambda m: m["type"] == "error", TIMEOUT)
            assert (refused["code"], refused["ref"]) == ("no_match", "late")


async def test_a_waiting_player_claims_the_win(tmp_path: Path) -> None:
    clock = Clock()
    async with running_server(room_settings(tmp_path, clock, vacation_days=0)) as room, \
            person(room.url, "Ada") as ada, person(room.url, "Bea") as bea:
        code = await offered_and_accepted(ada, bea, days=2)
        people = [ada, bea]
        mover = (await clock_of(ada, code))["mover"]
        waiting = people[1 - mover]
        answer = await waiting.lobby.http.put(f"/api/correspondence/tables/{code}/patience",
                                              json={"wait": True})
        assert answer.status_code == 200
        clock.advance(3 * DAY)
        await games_of(room).sweep()
        assert (await clock_of(ada, code))["overdue"]
        assert (await people[mover].post(f"/api/correspondence/tables/{code}/claim"))[0] == 409
        status, claimed = await waiting.post(f"/api/correspondence/tables/{code}/claim")
        assert status == 200, claimed
        await until(lambda: _over(ada, code), "the match claimed")
        table = await ada.get(f"/api/tables/{code}")
        assert table["status"] == "over"
        # No rematch at a correspondence table: a new match is a new offer.
        answer = await waiting.lobby.http.post(f"/api/tables/{code}/rematch",
                                               json={"token": await token_of(waiting, code)})
        assert (answer.status_code, answer.json()["code"]) == (409, "correspondence_no_rematch")


async def test_seeks_pair_links_are_taken_once_and_refusals_say_why(tmp_path: Path) -> None:
    clock = Clock()
    async with running_server(room_settings(tmp_path, clock, max_matches=1)) as room, \
            person(room.url, "Ada") as ada, person(room.url, "Bea") as bea, \
            person(room.url, "Cid") as cid:
        seek = {"kind": "seek", "preset": "escoba", "days": 5}
        status, first = await ada.post("/api/correspondence/offers", seek)
        assert status == 201 and first["grant"] is None
        status, refused = await ada.post("/api/correspondence/offers", seek)
        assert status == 409 and refused["code"] == "too_many_offers"  # one open at most here
        status, paired = await bea.post("/api/correspondence/offers", seek)
        assert status == 201 and paired["grant"] is not None, paired
        code = paired["grant"]["table"]["code"]
        assert paired["grant"]["table"]["rules"]["capture"] == "fifteen"
        assert [g["table"] for g in (await ada.get("/api/correspondence"))["games"]] == [code]

        # Ada plays her one match (max_matches=1): a new one is refused, for her and for Cid.
        status, refused = await ada.post("/api/correspondence/offers",
                                         {"kind": "link", "days": 1})
        assert status == 409 and refused["code"] == "correspondence_full", refused
        status, link = await cid.post("/api/correspondence/offers", {"kind": "link", "days": 7})
        assert status == 201 and link["offer"]["link"].endswith(link["offer"]["id"])
        status, refused = await ada.post(
            f"/api/correspondence/offers/{link['offer']['id']}/accept")
        assert status == 409 and refused["code"] == "correspondence_full"
        assert (await cid.get(f"/api/correspondence/offers/{link['offer']['id']}"))["state"] \
            == "open"

        for body, code_expected in (
            ({"kind": "name", "to": "Cid", "days": 4}, "bad_days"),
            ({"kind": "name", "to": "cid", "days": 3, "preset": "nope"}, "bad_rules"),
            ({"kind": "name", "to": "Nobody", "days": 3}, "no_player"),
            ({"kind": "name", "to": "Cid", "days": 3, "look": "plain"}, "unknown_look"),
        ):
            status, refused = await cid.post("/api/correspondence/offers", body)
            assert status in (404, 422) and refused["code"] == code_expected, refused
        status, refused = await cid.post("/api/correspondence/offers",
                                         {"kind": "name", "to": "cid", "days": 3})
        assert status == 422 and refused["code"] == "offer_yourself"
        assert (await cid.post(f"/api/correspondence/offers/{link['offer']['id']}/accept"))[0] \
            == 422

        # The offer's maker cancels it: nobody may take it after.
        assert (await cid.post(f"/api/correspondence/offers/{link['offer']['id']}/decline"))[0] \
            == 204
        status, refused = await bea.post(
            f"/api/correspondence/offers/{link['offer']['id']}/accept")
        assert status == 410 and refused["code"] == "offer_closed"

        # A correspondence seat is not left to a stand-in.
        token = await token_of(bea, code)
        answer = await bea.lobby.http.post(f"/api/tables/{code}/leave", json={"token": token})
        assert answer.status_code == 409 and answer.json()["code"] == "correspondence_no_leave"
