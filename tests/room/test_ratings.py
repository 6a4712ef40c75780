"""Ratings: openskill's update gives the numbers docs/ratings.md states, partners move together,
bots stay anchored, and at a real card room a rated match moves its accounts' ratings when it
ends (an abandoned one as a loss) while a casual one is only recorded."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
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
    play_moves,
    play_randomly,
    running_server,
    seat_people,
    settings_for,
)

__all__ = ["anyio_backend"]

NEW = (MODEL.mu, MODEL.sigma)


def test_two_newcomers_move_by_the_documented_numbers() -> None:
    moved = update(Rules.preset("scopa"), [Rated(0, *NEW, account=1), Rated(1, *NEW, account=2)],
                   side_ranks([11, 7], 0, set()))
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
    assert side_ranks([3, 21], 1, {1}) == [0, 1]


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
    """Anna plays her 2 moves (a match left sooner rates nobody) and walks out."""
    async with await _account(server, "Anna") as lobby:
        grant = await lobby.play_computer(name="Anna", level="random", rated=True, target=1)
        code = grant["table"]["code"]
        watcher = await TableConnection.open(server.url, code)
        try:
            async with await TableConnection.open(server.url, code, grant["token"]) as anna:
                await play_moves(Seated(0, grant["token"], anna), 2, random.Random(2))
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


# -- each way a match ends (issue 38) -------------------------------------------------------
#
# Two or four accounts at one rated table, so that both sides' ratings are stored and read
# back: the loser's mu falls and the winner's rises, whatever the points were when it ended.


def test_the_winner_ranks_first_and_a_side_that_gave_up_last_whatever_the_points() -> None:
    assert side_ranks([11, 7], 0, set()) == [0, 1]
    # A resignation at 0-0 is a loss, not a tie; one when ahead is a loss as well.
    assert side_ranks([0, 0], 1, {0}) == [1, 0]
    assert side_ranks([5, 2], 1, {0}) == [1, 0]
    # Three sides: the winner first, then by points (two level losers share a rank), and the
    # side that gave up last though it has more points than another.
    assert side_ranks([12, 5, 5], 0, set()) == [0, 1, 1]
    assert side_ranks([6, 5, 2], 1, {0}) == [2, 0, 1]


def test_a_loss_never_raises_the_shown_figure() -> None:
    """In a three-player match a newcomer second to the master and ahead of the random bot
    loses a little mu, and the model's smaller sigma alone would show 1000 -> 1077: the shown
    figure is held, mu is the model's. Over many priors, no losing seat's figure ever rises
    and no winning seat's is touched."""
    three = Rules.preset("scopa", players=3)
    seated = [Rated(0, *NEW, account=1), Rated(1, ANCHORS["master"], 1.0),
              Rated(2, ANCHORS["random"], 1.0)]
    mu, sigma = update(three, seated, [1, 0, 2])[0]
    assert mu < 25.0 and display(mu, sigma) == 1000
    model = MODEL.rate([[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in seated], ranks=[1, 0, 2])
    assert display(model[0][0].mu, model[0][0].sigma) > 1000  # what the clamp stops
    rng = random.Random(38)
    for _ in range(300):
        rules = rng.choice([Rules.preset("scopa"), three, Rules.preset("scopa", players=4)])
        seated = [Rated(seat, rng.uniform(10, 40), rng.uniform(0.5, 25 / 3), account=seat)
                  for seat in range(rules.players)]
        ranks = rng.sample(range(rules.sides), rules.sides)
        teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma) for r in seated
                  if rules.side_of(r.seat) == side] for side in range(rules.sides)]
        plain = MODEL.rate(teams, ranks=list(ranks))
        moved = update(rules, seated, ranks)
        for rated in seated:
            side = rules.side_of(rated.seat)
            mu, sigma = moved[rated.seat]
            model_rating = plain[side][[r.seat for r in seated
                                        if rules.side_of(r.seat) == side].index(rated.seat)]
            assert mu == pytest.approx(model_rating.mu)
            if ranks[side] == 0:
                assert sigma == pytest.approx(model_rating.sigma)
            else:
                assert display(mu, sigma) <= display(rated.mu, rated.sigma)
                assert sigma >= model_rating.sigma - 1e-12


async def _rated_people(
    server: Server, names: list[str], **choices: Any
) -> tuple[str, list[Seated], list[Lobby]]:
    """A rated table of one account a seat (the first makes it, the others join in order),
    dealt, each seat connected."""
    lobbies = [await _account(server, name) for name in names]
    created = await lobbies[0].create_table(players=len(names), name=names[0], rated=True,
                                            **choices)
    code = created["table"]["code"]
    grants = [(created["seat"], created["token"])]
    for lobby, name in zip(lobbies[1:], names[1:], strict=True):
        joined = await lobby.join(code, name)
        grants.append((joined["seat"], joined["token"]))
    people = [
        Seated(seat, token, await TableConnection.open(server.url, code, token))
        for seat, token in grants
    ]
    await lobbies[0].start(code, grants[0][1])
    for person in people:
        await person.connection.wait_for(lambda m: m["type"] == "state", TIMEOUT)
    return code, people, lobbies


async def _close(people: list[Seated], lobbies: list[Lobby]) -> None:
    for person in people:
        await person.connection.close()
    for lobby in lobbies:
        await lobby.aclose()


async def _by_seat(server: Server) -> dict[int, tuple[dict[str, Any], dict[str, Any]]]:
    """Each rated seat's stored rating and its line of history, once the match is rated."""
    history = {row["account_id"]: row for row in await _rows(server, rating_history)}
    return {history[row["account_id"]]["seat"]: (row, history[row["account_id"]])
            for row in await _rows(server, ratings)}


def _assert_lost_and_won(
    rated: dict[int, tuple[dict[str, Any], dict[str, Any]]], losers: set[int],
    winners: set[int],
) -> None:
    """Every loser's mu fell below the newcomer's 25 and its shown figure below 1000, every
    winner's rose above both, and each line of history says so."""
    assert set(rated) == losers | winners
    for seat, (row, history) in rated.items():
        if seat in losers:
            assert row["mu"] < MODEL.mu and history["display_after"] < 1000, seat
            assert (history["result"], row["wins"], row["losses"]) == ("loss", 0, 1), seat
        else:
            assert row["mu"] > MODEL.mu and history["display_after"] > 1000, seat
            assert (history["result"], row["wins"], row["losses"]) == ("win", 1, 0), seat
        assert history["display_after"] == display(row["mu"], row["sigma"])


@pytest.mark.anyio
async def test_a_resignation_at_0_0_is_the_resigners_loss_not_a_tie(server: Server) -> None:
    """The issue's case: a resignation with the score level was ranked by the points as a
    tie, and both newcomers' shown figures rose alike. Now it is rated exactly as a loss for
    the resigner. Each plays 2 moves first (the score is still 0-0 in the first round): a
    match resigned sooner rates nobody (tests/room/test_rating_farming.py)."""
    _, people, lobbies = await _rated_people(server, ["Anna", "Bruno"], target=11)
    try:
        anna, bruno = people
        await asyncio.gather(*(play_moves(person, 2, random.Random(k))
                               for k, person in enumerate(people)))
        assert anna.connection.view is not None and anna.connection.view["scores"] == [0, 0]
        await anna.connection.resign()
        over = await bruno.connection.wait_for(lambda m: m["type"] == "over", TIMEOUT)
        assert over["winner"] == 1
    finally:
        await _close(people, lobbies)
    rated = await _by_seat(server)
    _assert_lost_and_won(rated, {0}, {1})
    expected = update(Rules.preset("scopa"), [Rated(0, *NEW, account=1),
                                              Rated(1, *NEW, account=2)], [1, 0])
    for seat, (row, _) in rated.items():
        assert (row["mu"], row["sigma"]) == pytest.approx(expected[seat])


@pytest.mark.anyio
async def test_a_resignation_when_ahead_is_the_resigners_loss(server: Server) -> None:
    _, people, lobbies = await _rated_people(server, ["Anna", "Bruno"], target=21)
    try:
        # Both play until a round's end puts one of them ahead; that one resigns.
        rng = random.Random(38)
        while True:
            view = people[0].connection.view
            assert view is not None and view["winner"] is None
            if view["scores"][0] != view["scores"][1]:
                break
            mover = next(p for p in people if p.connection.my_turn)
            assert mover.connection.view is not None and mover.connection.version is not None
            version = mover.connection.version
            await mover.connection.move(rng.choice(mover.connection.view["legal_moves"]))
            for person in people:
                await person.connection.wait_for(
                    lambda m, v=version: m["type"] == "state" and m["version"] == v + 1, TIMEOUT)
        ahead = 0 if view["scores"][0] > view["scores"][1] else 1
        await people[ahead].connection.resign()
        over = await people[1 - ahead].connection.wait_for(lambda m: m["type"] == "over",
                                                           TIMEOUT)
        assert over["winner"] == 1 - ahead
    finally:
        await _close(people, lobbies)
    _assert_lost_and_won(await _by_seat(server), {ahead}, {1 - ahead})


def _worst_move(legal: list[str]) -> str:
    """A trail when there is one (a capture has an ``x``): play that gives the cards away."""
    return next((move for move in legal if "x" not in move), legal[0])


def _best_take(legal: list[str]) -> str:
    """The move that takes the most cards (each taken card follows an ``x`` or a ``+``)."""
    return max(legal, key=lambda move: move.count("x") + move.count("+"))


def _give_away(legal: list[str]) -> str:
    """The move that gives the most away: a trail of the card worth most to whoever takes it
    (the settebello, a seven, a coin), or when a capture is a must, the one taking least."""
    def worth(card: str) -> int:
        return 1 + 10 * (card == "7D") + 4 * card.startswith("7") + 2 * card.endswith("D")
    trails = [move for move in legal if "x" not in move]
    if trails:
        return max(trails, key=worth)
    return min(legal, key=lambda move: sum(map(worth, move.replace("x", "+").split("+"))))


async def _time_out_match(running: Server, names: list[str]) -> int:
    """A rated match that Bruno (the second) plays 2 moves of (a match given up sooner rates
    nobody) and leaves: his clock runs out, and a stand-in (the expert) plays for him to the
    end against Anna, who gives all she can away. Bruno's is the loss, whoever won on the
    table's count; that winner is returned."""
    _, people, lobbies = await _rated_people(running, names, target=1)
    try:
        anna = people[0].connection
        await asyncio.gather(play_moves(people[0], 2, random.Random(0), _give_away),
                             play_moves(people[1], 2, random.Random(1), _best_take))
        await people[1].connection.close()
        sent_for = -1
        while anna.over is None:
            if anna.my_turn and anna.version != sent_for:
                assert anna.view is not None and anna.version is not None
                sent_for = anna.version
                await anna.move(_give_away(anna.view["legal_moves"]))
            await anna.recv(TIMEOUT)
        # ``over`` is sent once the match is rated (its end is announced first).
        winner = int(anna.over["winner"])
    finally:
        await _close(people, lobbies)
    history = await _rows(running, rating_history)
    latest = {row["account_id"]: row for row in history
              if row["match_id"] == max(line["match_id"] for line in history)}
    _assert_lost_and_won({latest[row["account_id"]]["seat"]: (row, latest[row["account_id"]])
                          for row in await _rows(running, ratings)
                          if row["account_id"] in latest}, {1}, {0})
    return winner


@pytest.mark.anyio
async def test_a_time_out_is_the_loss_of_the_seat_that_ran_out_of_time(tmp_path: Path) -> None:
    """Bruno's clock runs out and he does not come back: the stand-in that plays for him to
    the end may win the match on points, and it is still his loss. Each match is a new pair of
    accounts, until one that the stand-in won on the table's count (about 4 in 5 are: Anna
    gives everything away, but a capture is a must and the deal is random), which is the
    case where a rating by points would be wrong."""
    settings = settings_for(tmp_path, turn_timeout=1.0)
    async with running_server(settings) as running:
        for attempt in range(8):
            winner = await _time_out_match(running, [f"Anna{attempt}", f"Bruno{attempt}"])
            if winner == 1:
                break
        assert winner == 1, "the stand-in lost 8 matches in a row to a player giving all away"


@pytest.mark.anyio
async def test_a_finished_match_is_the_winners_win(server: Server) -> None:
    _, people, lobbies = await _rated_people(server, ["Anna", "Bruno"], target=1)
    try:
        await asyncio.gather(*(play_randomly(person, random.Random(k))
                               for k, person in enumerate(people)))
        over = people[0].connection.over
        assert over is not None
    finally:
        await _close(people, lobbies)
    winner = over["winner"]
    _assert_lost_and_won(await _by_seat(server), {1 - winner}, {winner})


@pytest.mark.anyio
async def test_a_team_match_resigned_at_0_0_is_both_partners_loss(server: Server) -> None:
    """Seats 0 and 2 are one side, 1 and 3 the other: once each seat has played a move (each
    side 2, so the result counts), seat 2 resigns at 0-0, and both partners lose, both
    opponents win."""
    _, people, lobbies = await _rated_people(
        server, ["Anna", "Bruno", "Carla", "Dario"], target=11)
    try:
        await asyncio.gather(*(play_moves(person, 1, random.Random(k))
                               for k, person in enumerate(people)))
        carla = next(person for person in people if person.seat == 2)
        await carla.connection.resign()
        for person in people:
            over = await person.connection.wait_for(lambda m: m["type"] == "over", TIMEOUT)
            assert over["winner"] == 1
    finally:
        await _close(people, lobbies)
    _assert_lost_and_won(await _by_seat(server), {0, 2}, {1, 3})
