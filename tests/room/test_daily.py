"""The daily deal at a real card room: one deck for everyone a day and another the next (the
room's clock set by the test), one attempt per account, guests off the table, the day's table
in order, the master's own play shown after one's own and not before, the streak, and the
day's seed in no message and no answer until the day is over."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from websockets.asyncio.client import connect

from scopa import Game, Rules
from scopa.server.client import Lobby, LobbyRefused, TableConnection
from scopa.server.daily import queries as daily_queries
from scopa.server.daily.deals import streak
from scopa.server.daily.seeds import day_seed

from .server_support import TIMEOUT, Server, anyio_backend, until

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]

DAY = date(2026, 12, 2)
PASSWORD = "a daily deal to remember"


def set_day(server: Server, day: date, hour: int = 12) -> None:
    """The room's clock, for the daily deal: noon (UTC) of ``day``."""
    server.app.state.daily.clock = lambda: datetime(day.year, day.month, day.day, hour,
                                                    tzinfo=UTC)


@asynccontextmanager
async def person(server: Server, account: str | None = None) -> AsyncIterator[Lobby]:
    """A browser's lobby client: logged in to a new account ``account``, or a guest's."""
    async with Lobby(server.url) as lobby:
        if account is not None:
            answer = await lobby.http.post("/api/account/register",
                                           json={"name": account, "password": PASSWORD})
            assert answer.status_code == 201, answer.text
        yield lobby


async def play_daily(lobby: Lobby, name: str = "Guest") -> dict[str, Any]:
    answer = await lobby.http.post("/api/daily/play", json={"name": name})
    if answer.status_code != 201:
        raise LobbyRefused(answer.status_code, answer.json()["detail"])
    grant: dict[str, Any] = answer.json()
    return grant


async def give_up(server: Server, grant: dict[str, Any]) -> None:
    """Open the seat, resign the match at once and read until it is over."""
    async with await TableConnection.open(server.url, grant["table"]["code"],
                                          grant["token"]) as table:
        await table.wait_for(lambda m: m["type"] == "state", TIMEOUT)
        await table.resign()
        await table.wait_for(lambda m: m["type"] == "over", TIMEOUT)


async def finished_record(lobby: Lobby, match: int) -> dict[str, Any]:
    answer = await lobby.http.get(f"/api/matches/{match}")
    assert answer.status_code == 200, answer.text
    record: dict[str, Any] = answer.json()
    return record


async def test_one_deck_for_everyone_each_day_and_another_the_next(server: Server) -> None:
    set_day(server, DAY)
    async with person(server) as first, person(server) as second:
        grants = [await play_daily(first), await play_daily(second)]
        for grant in grants:
            await give_up(server, grant)
        set_day(server, DAY + timedelta(days=1))
        tomorrow = await play_daily(first)
        await give_up(server, tomorrow)
        set_day(server, DAY + timedelta(days=2))
        records = [await finished_record(first, g["table"]["match"])
                   for g in [*grants, tomorrow]]
        published = [(await first.http.get(f"/api/daily/{day}")).json()["seed"]
                     for day in (DAY, DAY + timedelta(days=1))]

    assert records[0]["seed"] == records[1]["seed"] == published[0]
    assert records[2]["seed"] == published[1] != published[0]
    deals = [Game.new(Rules.preset("scopa"), seed=record["seed"]) for record in records]
    assert [deals[0].hand(0), deals[0].table] == [deals[1].hand(0), deals[1].table]
    assert [deals[0].hand(0), deals[0].table] != [deals[2].hand(0), deals[2].table]
    assert Rules.from_dict(records[0]["rules"]).target == 11
    assert [p["level"] for p in records[0]["players"]] == [None, "master"]


async def test_a_second_attempt_is_refused_and_an_unfinished_one_resumes(
    server: Server,
) -> None:
    set_day(server, DAY)
    async with person(server, "Ada") as ada:
        first = await play_daily(ada)
        again = await play_daily(ada)
        assert (again["table"]["code"], again["seat"], again["token"]) == (
            first["table"]["code"], first["seat"], first["token"])
        await give_up(server, first)
        with pytest.raises(LobbyRefused) as refused:
            await play_daily(ada)
        today = (await ada.http.get("/api/daily")).json()
        attempts = await daily_queries.standings(server.room.storage, DAY, 10)

    assert refused.value.status == 409
    assert refused.value.detail == (
        "you have played today's deal already: one attempt a day, and the next deal is dealt "
        "at 00:00 UTC")
    assert today["mine"]["table"] == first["table"]["code"] and today["mine"]["finished"]
    assert [line.name for line in attempts] == ["Ada"]


async def test_two_attempts_at_once_make_one_on_each_database(stored_server: Server) -> None:
    """Two requests of one account at the same moment: one attempt (the attempts' key), and
    each answer is its seat or a sentence, never a second table dealt."""
    set_day(stored_server, DAY)
    async with person(stored_server, "Ada") as ada:
        answers = await asyncio.gather(
            *(ada.http.post("/api/daily/play", json={}) for _ in range(2))
        )
        today = (await ada.http.get("/api/daily")).json()
    granted = {answer.json()["table"]["code"] for answer in answers if answer.status_code == 201}
    refused = [answer.json()["detail"] for answer in answers if answer.status_code != 201]
    assert granted == {today["mine"]["table"]}
    assert refused in ([], [f"you are playing today's deal at table {today['mine']['table']}: "
                            "resume it in the browser you began it in"])


async def test_walking_out_is_a_loss_whatever_the_stand_in_makes_of_it(server: Server) -> None:
    set_day(server, DAY)
    async with person(server, "Ada") as ada:
        grant = await play_daily(ada)
        left = await ada.http.post(f"/api/tables/{grant['table']['code']}/leave",
                                   json={"token": grant["token"]})
        assert left.status_code == 200, left.text

        async def finished() -> bool:
            mine = (await ada.http.get("/api/daily")).json()["mine"]
            return bool(mine["finished"])

        await until(finished, "the stand-in's end of the match")
        mine = (await ada.http.get("/api/daily")).json()["mine"]
    assert mine["won"] is False


async def test_guests_play_unranked(server: Server) -> None:
    set_day(server, DAY)
    async with person(server) as guest, person(server, "Bea") as bea:
        grants = [await play_daily(guest, "Walker") for _ in range(2)]
        for grant in grants:
            await give_up(server, grant)
        await give_up(server, await play_daily(bea))
        today = (await guest.http.get("/api/daily")).json()
        # A guest sees its match beside the master's by its table and seat token: once the
        # day is over (before, the master's play is sealed to a guest: issue 34, item 3).
        proof = {"table": grants[1]["table"]["code"], "token": grants[1]["token"]}
        await master_stored(server)
        set_day(server, DAY + timedelta(days=1))
        proof["day"] = DAY.isoformat()
        shown = (await guest.http.post("/api/daily/comparison", json=proof)).json()
        assert shown["master"] is not None and shown["master_sealed"] is None
        forged = await guest.http.post("/api/daily/comparison",
                                       json={**proof, "token": grants[0]["token"]})
        set_day(server, DAY)

    assert [(line["rank"], line["name"], line["won"]) for line in today["standings"]] == [
        (1, "Bea", False)]
    assert today["players"] == 1
    assert today["mine"] is None and today["streak"] is None
    assert shown["yours"]["match"] == grants[1]["table"]["match"] and shown["streak"] is None
    assert (forged.status_code, forged.json()["detail"]) == (
        403, "that token holds no seat at that day's deal")


async def master_stored(server: Server, day: date = DAY) -> int:
    """The master's play of ``day``'s deal, once it is stored (it starts with the day's first
    attempt)."""

    async def stored() -> bool:
        return await daily_queries.master_match(server.room.storage, day) is not None

    await until(stored, "the master's play of the day's deal")
    found = await daily_queries.master_match(server.room.storage, day)
    assert found is not None
    return found


def cards_in(replay: dict[str, Any]) -> tuple[set[str], set[str]]:
    """The cards a replay shows in the player's hand or on the table, and in other hands."""
    seen: set[str] = set()
    others: set[str] = set()
    for frame in replay["frames"]:
        seen.update(frame["hands"][0], frame["table"])
        for hand in frame["hands"][1:]:
            others.update(hand)
    return seen, others


async def test_a_guest_who_resigns_at_once_learns_no_card_of_the_day_it_was_not_dealt(
    server: Server,
) -> None:
    """Issue 34, item 3: a guest resigned at move 0 and the comparison gave it the master's
    replay, every hand of every round of the day's deck, before it played for rank. Until the
    day is over a comparison shows its asker only what their seat was dealt and saw; the
    master's play opens to an account once it has finished its own ranked attempt."""
    set_day(server, DAY)
    async with person(server) as guest, person(server, "Cid") as cid, \
            person(server, "Dee") as dee:
        grant = await play_daily(guest)
        await give_up(server, grant)
        master = await master_stored(server)
        proof = {"table": grant["table"]["code"], "token": grant["token"]}
        asked = [await guest.http.post("/api/daily/comparison", json=proof),
                 await cid.http.post("/api/daily/comparison", json=proof)]
        await give_up(server, await play_daily(dee))
        played = (await dee.http.post("/api/daily/comparison", json=proof)).json()
        set_day(server, DAY + timedelta(days=1))
        master_record = await finished_record(guest, master)
        after = (await guest.http.post("/api/daily/comparison",
                                       json={**proof, "day": DAY.isoformat()})).json()

    master_game = Game.replay(master_record)
    assert master_game.is_over
    for answer in asked:  # the guest itself, and an account that has not played the deal
        assert answer.status_code == 200, answer.text
        shown = answer.json()
        assert shown["master"] is None
        assert shown["master_sealed"].startswith("the master's play of the day's deal")
        assert shown["master_opens_at"] == "2026-12-03T00:00:00+00:00"
        assert f'"match": {master}' not in answer.text
        yours = shown["yours"]["replay"]
        seen, others = cards_in(yours)
        assert others == set() and yours["hidden"] == [1], "the master's hand is not shown"
        first = yours["frames"][0]
        assert len(first["hands"][0]) == 3 and len(first["table"]) == 4
        assert len(seen) == 7, "resigned at once: the first hand and the table, nothing else"
    # An account that has finished its own attempt sees the master's play, and the day over
    # everyone does.
    assert played["master"]["match"] == master and played["master_sealed"] is None
    assert played["yours"]["replay"].get("hidden") is None
    assert after["master"]["match"] == master and after["master_sealed"] is None
    assert cards_in(after["yours"]["replay"])[1] != set()


async def test_the_days_table_ranks_wins_first_then_the_margin(server: Server) -> None:
    set_day(server, DAY)
    storage = server.room.storage
    results = {"Cleo": (False, -1), "Ada": (True, 2), "Dan": (False, -8), "Bea": (True, 5),
               "Eve": None}
    async with person(server) as guest:
        for number, (name, result) in enumerate(results.items()):
            async with person(server, name) as someone:
                me = (await someone.http.get("/api/account")).json()
            code = f"TEST{number}"
            assert await daily_queries.start_attempt(storage, DAY, me["id"], name, code,
                                                     datetime.now(UTC))
            if result is not None:
                won, margin = result
                scores = [11, 11 - margin] if won else [11 + margin, 11]
                await daily_queries.finish_attempt(storage, code, 100 + number, won, margin,
                                                   scores, datetime.now(UTC))
        assert await daily_queries.start_attempt(storage, DAY, None, "Guest", "GUEST1",
                                                 datetime.now(UTC))
        await daily_queries.finish_attempt(storage, "GUEST1", 200, True, 11, [11, 0],
                                           datetime.now(UTC))
        today = (await guest.http.get("/api/daily")).json()

    assert [(line["rank"], line["name"], line["won"], line["margin"])
            for line in today["standings"]] == [
        (1, "Bea", True, 5), (2, "Ada", True, 2), (3, "Cleo", False, -1), (4, "Dan", False, -8)]
    assert {line["match"] for line in today["standings"]} == {None}  # sealed until tomorrow


async def test_the_streak_counts_the_days_in_a_row(server: Server) -> None:
    async with person(server, "Ada") as ada:
        streaks = []
        for offset in (0, 1, 2, 4):
            set_day(server, DAY + timedelta(days=offset))
            await give_up(server, await play_daily(ada))
            streaks.append((await ada.http.get("/api/daily")).json()["streak"])
        set_day(server, DAY + timedelta(days=5))
        alive = (await ada.http.get("/api/daily")).json()["streak"]
        set_day(server, DAY + timedelta(days=6))
        broken = (await ada.http.get("/api/daily")).json()["streak"]

    assert streaks == [1, 2, 3, 1]
    assert (alive, broken) == (1, 0)


async def test_the_masters_play_is_shown_after_ones_own_and_not_before(server: Server) -> None:
    set_day(server, DAY)
    async with person(server, "Ada") as ada, person(server, "Bea") as bea, person(server) as guest:
        grant = await play_daily(ada)
        early = await ada.http.post("/api/daily/comparison", json={})
        assert (early.status_code, early.json()["detail"]) == (
            409, "finish the deal first: the master's play of it is shown once yours is over")
        assert (await ada.http.get(f"/api/daily/{DAY}")).json()["master"] is None
        await give_up(server, grant)

        async def master_played() -> bool:
            answer = await ada.http.post("/api/daily/comparison", json={})
            return answer.status_code == 200 and answer.json()["master"] is not None

        await until(master_played, "the master's play of the day's deal")
        shown = (await ada.http.post("/api/daily/comparison", json={})).json()
        master = shown["master"]["match"]
        mine = shown["yours"]["match"]
        # Bea has not played today's deal: neither match is hers to see, nor a guest's.
        sealed = [
            (await someone.http.get(f"/api/replays/{match}")).status_code
            for someone in (bea, guest) for match in (master, mine)
        ]
        open_to_ada = (await ada.http.get(f"/api/replays/{master}")).status_code
        set_day(server, DAY + timedelta(days=1))
        published = (await guest.http.get(f"/api/daily/{DAY}")).json()
        master_record = await finished_record(guest, master)
        my_record = await finished_record(guest, mine)

    assert sealed == [403, 403, 403, 403] and open_to_ada == 200
    assert [p["name"] for p in shown["master"]["replay"]["players"]] == ["Master", "Master"]
    assert shown["yours"]["replay"]["frames"][0] == shown["master"]["replay"]["frames"][0]
    assert shown["master"]["scores"] == Game.replay(master_record).scores
    assert master_record["seed"] == my_record["seed"] == published["seed"]
    assert published["master"] == master
    assert [(line["name"], line["match"]) for line in published["standings"]] == [("Ada", mine)]


async def test_the_seed_is_in_no_message_nor_answer_until_the_day_is_over(
    server: Server,
) -> None:
    set_day(server, DAY)
    seen: list[str] = []
    async with person(server, "Ada") as ada, person(server) as guest:
        grant = await play_daily(ada)
        seed = str(await server.app.state.daily.seed(DAY))  # the room is open by now
        seen.append(json.dumps(grant))
        code, match = grant["table"]["code"], grant["table"]["match"]
        socket_url = server.url.replace("http", "ws")
        async with connect(f"{socket_url}/ws/lobby") as feed:
            seen.append(str(await feed.recv()))
        async with connect(f"{socket_url}/ws/tables/{code}") as table:
            await table.send(json.dumps({"type": "hello", "token": grant["token"]}))
            message: dict[str, Any] = {}
            while message.get("type") != "state":
                text = str(await table.recv())
                seen.append(text)
                message = json.loads(text)
            move = message["view"]["legal_moves"][0] if message["view"]["legal_moves"] else None
            if move is not None:
                await table.send(json.dumps({"type": "move", "move": move,
                                             "version": message["version"]}))
            await table.send(json.dumps({"type": "resign"}))
            while message.get("type") != "over":
                text = str(await table.recv())
                seen.append(text)
                message = json.loads(text)

        async def master_played() -> bool:
            answer = await ada.http.post("/api/daily/comparison", json={})
            return answer.status_code == 200 and answer.json()["master"] is not None

        await until(master_played, "the master's play of the day's deal")
        comparison = await ada.http.post("/api/daily/comparison", json={})
        master = comparison.json()["master"]["match"]
        answers = [
            comparison,
            await ada.http.get("/api/daily"),
            await ada.http.get(f"/api/daily/{DAY}"),
            await ada.http.get(f"/api/tables/{code}"),
            await ada.http.get("/api/tables"),
            await ada.http.get("/api/profiles/Ada"),
            await ada.http.get(f"/api/replays/{match}"),
            await ada.http.get(f"/api/replays/{master}"),
            await ada.http.get("/api/account/export"),
        ]
        refused = [
            await someone.http.get(path)
            for someone in (ada, guest)
            for path in (f"/api/matches/{match}", f"/api/matches/{master}",
                         f"/api/replays/{match}" if someone is guest else "/api/daily")
        ]
        review = await ada.http.post(f"/api/replays/{match}/reviews", json={"seat": 0})
        seen += [answer.text for answer in [*answers, *refused, review]]
        set_day(server, DAY + timedelta(days=1))
        after = (await guest.http.get(f"/api/daily/{DAY}")).json()
        record = await finished_record(guest, match)

    assert [answer.status_code for answer in answers] == [200] * len(answers)
    assert [answer.status_code for answer in refused] == [403, 403, 200, 403, 403, 403]
    assert refused[0].json()["code"] == "replay_sealed"
    assert refused[0].json()["detail"] == (f"this match is the daily deal of {DAY}: it is shown "
                                 "once that day is over (00:00 UTC), or to a logged-in player "
                                 "who has played it")
    assert review.status_code == 403
    assert not [text for text in seen if seed in text]
    assert str(after["seed"]) == seed and str(record["seed"]) == seed


@given(st.sets(st.integers(min_value=0, max_value=40)), st.integers(min_value=0, max_value=40))
def test_the_streak_is_the_run_of_days_that_reaches_today_or_yesterday(
    played: set[int], today: int
) -> None:
    days = sorted((DAY + timedelta(days=k) for k in played if k <= today), reverse=True)
    now = DAY + timedelta(days=today)
    end = now if now in days else now - timedelta(days=1)
    run = 0
    while end - timedelta(days=run) in days:
        run += 1
    assert streak(days, now) == run


@given(st.dates(), st.dates())
def test_each_day_has_its_own_seed_that_json_readers_read_exactly(
    first: date, second: date
) -> None:
    secret = "5c" * 32
    assert 0 <= day_seed(secret, first) < 2**53
    assert (day_seed(secret, first) == day_seed(secret, second)) == (first == second)


async def test_bad_input_gets_a_sentence_and_changes_nothing(server: Server) -> None:
    set_day(server, DAY)
    async with person(server, "Ada") as ada, person(server) as guest:
        answers = [
            await ada.http.get("/api/daily/2026-13-45"),
            await ada.http.get(f"/api/daily/{DAY + timedelta(days=1)}"),
            await ada.http.post("/api/daily/play", json={"look": "neon"}),
            await guest.http.post("/api/daily/comparison",
                                  json={"table": "ZZZZZZ", "token": "not a token"}),
            await guest.http.post("/api/daily/comparison", json={}),
            await ada.http.post("/api/daily/comparison", json={"day": "yesterday"}),
        ]
        today = (await ada.http.get("/api/daily")).json()

    assert [(answer.status_code, answer.json()["detail"]) for answer in answers] == [
        (422, "'2026-13-45' is not a day: write it as YYYY-MM-DD"),
        (404, "the deal of 2026-12-03 is not dealt yet"),
        (422, "unknown deck look 'neon'; the looks are: french, italian, spanish"),
        (403, "that token holds no seat at that day's deal"),
        (404, "you have no attempt at the deal of 2026-12-02"),
        (422, "'yesterday' is not a day: write it as YYYY-MM-DD"),
    ]
    assert today["mine"] is None and today["standings"] == []
