"""The master's review: a move that throws away the settebello is marked, the master's own
moves are not, a random player scores a lower accuracy than the expert; and at a real card
room a review is refused while the match is in play, runs in the bot workers with its
progress, is stored once and never worked out again."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from scopa import CARDS, Game, Rules
from scopa.players import make_player
from scopa.review import BLUNDER, INACCURACY, MARKS, jobs, review_match, review_move
from scopa.server.accounts.reviews import CLAIM_LAPSE
from scopa.server.client import Lobby, TableConnection
from scopa.server.store.schema import review_jobs, reviews

from .server_support import (
    Seated,
    Server,
    anyio_backend,
    play_randomly,
    running_server,
    settings_for,
)

__all__ = ["anyio_backend"]


def _stacked(top: list[str]) -> list[str]:
    return top + [str(card) for card in CARDS if str(card) not in top]


def test_missing_a_sweep_is_a_blunder_and_the_master_names_it() -> None:
    # Seat 0 holds 2H 4D KD; the table is AC 2C 3S 4S, which the king (10) sweeps.
    top = ["KD", "4D", "2H", "6S", "6H", "5C", "AC", "2C", "3S", "4S"]
    record = {"rules": Rules.preset("scopa").to_dict(), "seed": 4, "deck": _stacked(top),
              "moves": ["2Hx2C"]}
    (job,) = jobs(record, seat=0, samples=32)
    judged = review_move(job)
    assert (judged["played"], judged["best"], judged["mark"]) == (
        "2Hx2C", "KDxAC+2C+3S+4S", "blunder")
    assert judged["cost"] >= BLUNDER
    assert [option["move"] for option in judged["options"]] == [
        "KDxAC+2C+3S+4S", "4Dx4S", "2Hx2C"]
    best, _, mine = (option["value"] for option in judged["options"])
    assert judged["cost"] == pytest.approx(best - mine, abs=1e-3)
    # The review of a seat covers that seat's moves only.
    assert jobs(record, seat=1) == []


def test_the_masters_own_moves_are_good_and_a_random_player_is_less_accurate() -> None:
    game = Game.new(Rules.preset("scopa", target=6), seed=11)
    players = [make_player("random", seed=1), make_player("master", seed=1)]
    while not game.is_over:
        game.play(players[game.to_move].choose(game.view(game.to_move)))
    seen = []
    random_review = review_match(game.record(), seat=0, samples=32,
                                 progress=lambda done, total: seen.append((done, total)))
    master_review = review_match(game.record(), seat=1, samples=32)
    assert seen[-1][0] == seen[-1][1] == len(random_review["moves"])
    assert [done for done, _ in seen] == list(range(1, len(seen) + 1))
    assert random_review["accuracy"] < master_review["accuracy"]
    assert all(m["cost"] < INACCURACY or m["best"] != m["played"]
               for m in master_review["moves"])
    assert set(random_review["marks"]) == set(MARKS)
    worst = [m for m in random_review["moves"] if m["number"] in random_review["worst"]]
    assert worst and all(m["mark"] != "good" for m in worst)
    costs = sorted((m["cost"] for m in random_review["moves"] if m["mark"] != "good"),
                   reverse=True)
    assert sorted((m["cost"] for m in worst), reverse=True) == costs[:len(worst)]


def test_a_seat_outside_the_match_is_refused() -> None:
    record = Game.new(Rules.preset("scopa"), seed=1).record()
    with pytest.raises(ValueError, match=r"seat must be 0\.\.1; got 2"):
        jobs(record, seat=2)


# -- at a real card room --------------------------------------------------------------------



async def _stored(server: Server) -> int:
    async with server.room.storage.engine.connect() as connection:
        return int(await connection.scalar(sa.select(sa.func.count()).select_from(reviews)))


@pytest.mark.anyio
async def test_a_review_runs_once_in_the_workers_and_is_stored(server: Server) -> None:
    async with Lobby(server.url) as lobby:
        grant = await lobby.play_computer(name="Ada", level="random", target=1)
        match = grant["table"]["match"]
        ask = {"seat": 0, "token": grant["token"]}  # the seat asks
        early = await lobby.http.post(f"/api/replays/{match}/reviews", json={"seat": 0})
        assert early.status_code == 403
        assert "hand" not in early.text and "moves" not in early.text
        assert getattr(server.app.state, "reviews", None) is None or not \
            server.app.state.reviews.running
        connection = await TableConnection.open(server.url, grant["table"]["code"],
                                                grant["token"])
        try:
            await play_randomly(Seated(0, grant["token"], connection), random.Random(2))
        finally:
            await connection.close()

        bad = await lobby.http.post(f"/api/replays/{match}/reviews", json={"seat": 5})
        assert (bad.status_code, bad.json()["detail"]) == (
            422, f"seat must be 0..1 in match {match}; got 5")
        nobody = await lobby.http.get(f"/api/replays/{match}/reviews/1")
        assert (nobody.status_code, nobody.json()["detail"]) == (
            404, f"nobody has asked for a review of seat 1 in match {match}")

        started = await lobby.http.post(f"/api/replays/{match}/reviews", json=ask)
        assert started.status_code == 202
        state = started.json()
        assert (state["status"], state["review"]) == ("running", None)
        assert state["total"] > 0
        task = server.app.state.reviews.running[(match, 0)]
        again = await lobby.http.post(f"/api/replays/{match}/reviews", json=ask)
        assert again.json()["status"] == "running"
        assert server.app.state.reviews.running[(match, 0)] is task  # not started twice
        await task

        done = (await lobby.http.get(f"/api/replays/{match}/reviews/0")).json()
        assert (done["status"], done["done"], done["total"]) == (
            "done", state["total"], state["total"])
        assert len(done["review"]["moves"]) == state["total"]
        assert await _stored(server) == 1
        asked_again = await lobby.http.post(f"/api/replays/{match}/reviews", json=ask)
        assert asked_again.status_code == 200
        assert asked_again.json()["review"] == done["review"]
        assert not server.app.state.reviews.running and await _stored(server) == 1


@pytest.mark.anyio
async def test_an_unknown_match_has_no_review(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        answer = await http.post("/api/replays/4242/reviews", json={"seat": 0})
    assert (answer.status_code, answer.json()["detail"]) == (404, "no match has the id 4242")


@pytest.mark.anyio
async def test_two_processes_show_one_review_and_only_one_works_it_out(tmp_path: Path) -> None:
    """Two card rooms on one database: the second answers the progress of the review the first
    works out (not a 404), and asking it too starts nothing there."""
    async with (
        running_server(settings_for(tmp_path, process_name="p1")) as first,
        Lobby(first.url) as lobby,
    ):
        grant = await lobby.play_computer(name="Ada", level="random", target=1)
        match = grant["table"]["match"]
        ask = {"seat": 0, "token": grant["token"]}  # the seat asks
        connection = await TableConnection.open(first.url, grant["table"]["code"],
                                                grant["token"])
        try:
            await play_randomly(Seated(0, grant["token"], connection), random.Random(3))
        finally:
            await connection.close()
        # The second process starts once the first is up: its migrations have run.
        async with (
            running_server(settings_for(tmp_path, process_name="p2")) as second,
            Lobby(second.url) as other,
        ):
            started = (await lobby.http.post(f"/api/replays/{match}/reviews",
                                             json=ask)).json()
            task = first.app.state.reviews.running[(match, 0)]
            seen = await other.http.get(f"/api/replays/{match}/reviews/0")
            asked = await other.http.post(f"/api/replays/{match}/reviews", json=ask)
            assert seen.status_code == 200 and asked.status_code == 202
            for answer in (seen.json(), asked.json()):
                assert (answer["status"], answer["total"]) == ("running", started["total"])
                assert 0 <= answer["done"] < answer["total"]
            assert not second.app.state.reviews.running  # the second process computes nothing
            await task

            done = (await other.http.get(f"/api/replays/{match}/reviews/0")).json()
            assert (done["status"], done["done"]) == ("done", started["total"])
            assert await _stored(second) == 1


@pytest.mark.anyio
async def test_a_claim_whose_process_went_quiet_is_taken_over(server: Server) -> None:
    """A review claimed by a process that is still writing progress is left to it; one whose
    process wrote nothing for longer than the lapse (it died) is worked out by the asker."""
    async with Lobby(server.url) as lobby:
        grant = await lobby.play_computer(name="Ada", level="random", target=1)
        match = grant["table"]["match"]
        ask = {"seat": 0, "token": grant["token"]}  # the seat asks
        connection = await TableConnection.open(server.url, grant["table"]["code"],
                                                grant["token"])
        try:
            await play_randomly(Seated(0, grant["token"], connection), random.Random(5))
        finally:
            await connection.close()

        async def claim(connection: AsyncConnection, ago: timedelta) -> None:
            await connection.execute(review_jobs.delete())
            await connection.execute(review_jobs.insert().values(
                match_id=match, seat=0, owner="ghost", done=2, total=9, error=None,
                touched_at=datetime.now(UTC) - ago))

        await server.room.storage.write(lambda c: claim(c, timedelta(seconds=1)))
        alive = (await lobby.http.post(f"/api/replays/{match}/reviews", json=ask)).json()
        assert (alive["status"], alive["done"], alive["total"]) == ("running", 2, 9)
        assert not server.app.state.reviews.running

        await server.room.storage.write(lambda c: claim(c, CLAIM_LAPSE + timedelta(seconds=1)))
        taken = (await lobby.http.post(f"/api/replays/{match}/reviews", json=ask)).json()
        assert (match, 0) in server.app.state.reviews.running  # worked out here now
        assert taken["status"] == "running" and taken["done"] < taken["total"]
        await server.app.state.reviews.running[(match, 0)]
        done = (await lobby.http.get(f"/api/replays/{match}/reviews/0")).json()
        assert (done["status"], done["done"]) == ("done", taken["total"])
        assert await _stored(server) == 1
