"""Ratings: openskill's update gives the numbers docs/ratings.md states, partners move together,
bots stay anchored, and at a real card room a rated match moves its accounts' ratings when it
ends (an abandoned one as a loss) while a casual one is only recorded."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
import sqlalchemy as sa

from scopa import Rules
from scopa.server.accounts.ratings import (
    ANCHORS,
    MODEL,
    Rated,
    display,
    pool_of,
    side_ranks,
    update,
)
from scopa.server.client import Lobby, TableConnection
from scopa.server.store.schema import account_matches, rating_history, ratings

from .server_support import (
    TIMEOUT,
    Seated,
    Server,
    anyio_backend,
    play_randomly,
    seat_people,
)

__all__ = ["anyio_backend"]

NEW = (MODEL.mu, MODEL.sigma)


def test_two_newcomers_move_by_the_documented_numbers() -> None:
    moved = update(Rules.preset("scopa"), [Rated(0, *NEW, account=1), Rated(1, *NEW, account=2)],
                   side_ranks([11, 7], set()))
    assert moved[0] == pytest.approx((27.635389, 8.065901))
    assert moved[1] == pytest.approx((22.364611, 8.065901))
    assert (display(*NEW), display(*moved[0]), display(*moved[1])) == (1000, 1138, 927)


def test_a_newcomer_who_beats_the_expert_bot_is_placed_and_the_bot_stays() -> None:
    expert = Rated(1, ANCHORS["expert"], 1.0)
    won = update(Rules.preset("scopa"), [Rated(0, *NEW, account=1), expert], [0, 1])
    lost = update(Rules.preset("scopa"), [Rated(0, *NEW, account=1), expert], [1, 0])
    assert won == {0: pytest.approx((28.715082, 7.760361))}
    assert lost == {0: pytest.approx((21.943140, 7.760361))}


def test_a_team_match_updates_both_partners() -> None:
    rules = Rules.preset("scopa", players=4)
    seated = [Rated(0, *NEW, account=1), Rated(1, ANCHORS["expert"], 1.0),
              Rated(2, 30.0, 4.0, account=2), Rated(3, ANCHORS["expert"], 1.0)]
    moved = update(rules, seated, [0, 1])
    assert set(moved) == {0, 2}
    assert moved[0] == pytest.approx((27.999419, 7.824030))
    assert moved[2] == pytest.approx((30.691297, 3.945815))
    lost = update(rules, seated, [1, 0])
    assert lost[0][0] < 25.0 and lost[2][0] < 30.0


def test_pools_and_ranks() -> None:
    assert pool_of(Rules.preset("escoba")) == "escoba-2"
    assert pool_of(Rules.preset("scopone")) == "scopa-teams"
    assert side_ranks([3, 21], {1}) == [0, 1]


# -- at a real card room --------------------------------------------------------------------


@pytest.fixture
def server(stored_server: Server) -> Server:
    """Ratings are stored: each test runs on each database the room runs on."""
    return stored_server


async def _account(server: Server, name: str) -> Lobby:
    lobby = Lobby(server.url)
    answer = await lobby.http.post(
        "/api/account/register", json={"name": name, "password": "a good password"}
    )
    assert answer.status_code == 201
    return lobby


async def _rows(server: Server, table: sa.Table) -> list[dict[str, Any]]:
    async with server.room.storage.engine.connect() as connection:
        return [dict(row._mapping) for row in (await connection.execute(sa.select(table)))]


async def _play_to_the_end(server: Server, grant: dict[str, Any]) -> dict[str, Any]:
    connection = await TableConnection.open(server.url, grant["table"]["code"], grant["token"])
    try:
        await play_randomly(Seated(grant["seat"], grant["token"], connection), random.Random(3))
        assert connection.over is not None
        return connection.over
    finally:
        await connection.close()


@pytest.mark.anyio
async def test_a_rated_match_against_a_bot_moves_the_rating_once_it_ends(server: Server) -> None:
    async with await _account(server, "Anna") as lobby:
        grant = await lobby.play_computer(name="Anna", level="random", rated=True, target=1)
        assert await _rows(server, ratings) == []
        over = await _play_to_the_end(server, grant)
    won = over["winner"] == 0
    (row,) = await _rows(server, ratings)
    assert (row["pool"], row["matches"], row["wins"], row["losses"]) == (
        "scopa-2", 1, int(won), int(not won))
    expected = update(Rules.preset("scopa", target=1),
                      [Rated(0, *NEW, account=1), Rated(1, ANCHORS["random"], 1.0)],
                      [0, 1] if won else [1, 0])[0]
    assert (row["mu"], row["sigma"]) == pytest.approx(expected)
    (history,) = await _rows(server, rating_history)
    assert (history["match_id"], history["result"]) == (grant["table"]["match"],
                                                        "win" if won else "loss")
    assert (history["display_before"], history["display_after"]) == (1000, display(*expected))
    (played,) = await _rows(server, account_matches)
    assert (played["rated"], played["seat"], played["pool"]) == (True, 0, "scopa-2")


@pytest.mark.anyio
async def test_a_casual_match_is_recorded_but_rates_nobody(server: Server) -> None:
    async with await _account(server, "Anna") as lobby:
        grant = await lobby.play_computer(name="Anna", level="random", target=1)
        await _play_to_the_end(server, grant)
    assert await _rows(server, ratings) == []
    assert await _rows(server, rating_history) == []
    (played,) = await _rows(server, account_matches)
    assert played["rated"] is False and played["result"] in ("win", "loss")


@pytest.mark.anyio
async def test_a_rated_match_walked_out_of_is_a_loss(server: Server) -> None:
    async with await _account(server, "Anna") as lobby:
        grant = await lobby.play_computer(name="Anna", level="random", rated=True, target=1)
        code = grant["table"]["code"]
        watcher = await TableConnection.open(server.url, code)
        try:
            await lobby.leave(code, grant["token"])
            await watcher.wait_for(lambda m: m["type"] == "over", TIMEOUT)
        finally:
            await watcher.close()
    (history,) = await _rows(server, rating_history)
    assert history["result"] == "left"
    (row,) = await _rows(server, ratings)
    assert (row["wins"], row["losses"]) == (0, 1)
    assert row["mu"] == pytest.approx(update(
        Rules.preset("scopa"), [Rated(0, *NEW, account=1), Rated(1, ANCHORS["random"], 1.0)],
        [1, 0])[0][0])


@pytest.mark.anyio
async def test_one_account_at_two_seats_is_recorded_once_and_rated_never(server: Server) -> None:
    """A person who makes a rated table and joins it again under the same login sits at both
    seats: the match's end used to fail on the record's key (match, account) and leave the
    match unrecorded; now it is recorded once, at the first seat, and nobody's rating moves."""
    async with await _account(server, "Anna") as lobby:
        _, people = await seat_people(lobby, server.url, rated=True, target=1)
        try:
            await asyncio.gather(*(play_randomly(person, random.Random(k))
                                   for k, person in enumerate(people)))
        finally:
            for person in people:
                await person.connection.close()
    (played,) = await _rows(server, account_matches)
    assert (played["seat"], played["rated"]) == (0, False)
    assert await _rows(server, ratings) == []
