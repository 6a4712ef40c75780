"""Puzzle ratings (issue 24, item 1): a logged-in player's first try of a puzzle moves their
puzzle rating by one openskill update against the puzzle's fixed rating (right raises it, wrong
lowers it), a later try of the same puzzle is answered and counts nothing, guests play unrated,
and an account's first try of a puzzle its browser or address tried as a guest that day counts
nothing either (issue 34, item 15); the history lists the counted tries, "next" can pick a
puzzle near the player's rating, and bad input is a sentence that changes nothing. On SQLite and
on PostgreSQL."""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import json

import pytest
import sqlalchemy as sa
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from scopa.puzzles import Puzzle
from scopa.puzzles.sets import shipped
from scopa.server.client import Lobby
from scopa.server.puzzles import queries as puzzle_queries
from scopa.server.puzzles.ratings import (
    LEVEL_TRIES,
    NEWCOMER,
    Strength,
    after_try,
    puzzle_strength,
    rated,
    rater,
)
from scopa.server.puzzles.routes import marks as puzzle_marks
from scopa.server.store.schema import puzzle_guest_tries

from .server_support import Server, anyio_backend

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]

SCOPA = {puzzle.id: puzzle for puzzle in shipped("scopa")}
ANCHORS = {"random": 13.0, "greedy": 19.0, "expert": 27.0, "master": 33.0}
"""docs/ratings.md's anchors, written out: the puzzles' scale is the bots'."""


def shown(mu: float, sigma: float) -> int:
    """docs/ratings.md's rating shown."""
    return 1000 + round(40 * (mu - 3 * sigma))


def wrong_move(puzzle: Puzzle) -> str:
    return next(code for code in puzzle.values if code != str(puzzle.best))


async def logged_in(lobby: Lobby, name: str) -> None:
    registered = await lobby.http.post("/api/account/register",
                                       json={"name": name, "password": "a good password"})
    assert registered.status_code == 201


async def attempt(lobby: Lobby, puzzle_id: str, move: str) -> dict[str, object]:
    answer = await lobby.http.post(f"/api/puzzles/scopa/{puzzle_id}/try", json={"move": move})
    assert answer.status_code == 200, answer.text
    found: dict[str, object] = answer.json()
    return found


async def test_right_raises_wrong_lowers_and_a_second_try_counts_nothing(
    stored_server: Server,
) -> None:
    solved, failed = SCOPA["scopa-00001"], SCOPA["scopa-00002"]
    async with Lobby(stored_server.url) as lobby:
        await logged_in(lobby, "Pina")
        assert (await lobby.http.get("/api/puzzles/scopa/mine")).json()["rating"] is None
        first = await attempt(lobby, solved.id, str(solved.best))
        # One openskill update of a newcomer against the puzzle at its rating, sigma 1.
        model = PlackettLuce()
        puzzle_mu = rated(solved).mu
        [[up], _] = model.rate([[model.rating()], [model.rating(mu=puzzle_mu, sigma=1.0)]],
                               ranks=[0.0, 1.0])
        assert first["right"] is True
        assert first["player"] == {
            "counted": True, "reason": None, "before": 1000, "after": shown(up.mu, up.sigma),
            "rating": {"rating": shown(up.mu, up.sigma), "mu": pytest.approx(up.mu),
                       "sigma": pytest.approx(up.sigma), "tries": 1, "solved": 1},
        }
        assert first["note"] is None
        raised = shown(up.mu, up.sigma)
        assert raised > 1000

        second = await attempt(lobby, failed.id, wrong_move(failed))
        assert second["right"] is False
        player = second["player"]
        assert isinstance(player, dict) and player["counted"] is True
        assert player["before"] == raised and player["after"] < raised
        lowered = player["after"]
        assert player["rating"]["tries"] == 2 and player["rating"]["solved"] == 1

        # The same puzzles again, the other way round: answered, counted nothing, said so.
        again = await attempt(lobby, solved.id, wrong_move(solved))
        assert again["right"] is False and again["best"] == str(solved.best)
        assert again["player"] == {**player, "counted": False, "reason": "tried_before",
                                   "before": lowered, "after": lowered}
        assert again["note"] == ("you tried this puzzle before: only the first try counts, so "
                                 f"this one leaves your puzzle rating at {lowered}")
        redone = await attempt(lobby, failed.id, str(failed.best))
        assert redone["right"] is True and redone["player"]["counted"] is False  # type: ignore[index]

        history = (await lobby.http.get("/api/puzzles/scopa/mine")).json()
        assert history["rating"]["rating"] == lowered and history["rating"]["tries"] == 2
        assert [(row["puzzle"], row["right"], row["before"], row["after"])
                for row in history["tries"]] == [
            (failed.id, False, raised, lowered), (solved.id, True, 1000, raised)]
        assert history["tries"][0]["move"] == wrong_move(failed)
        # The profile shows the puzzle rating on its own, apart from the match pools.
        profile = (await lobby.http.get("/api/profiles/Pina")).json()
        assert profile["ratings"] == []
        assert profile["puzzles"] == [{"preset": "scopa", "rating": lowered, "tries": 2,
                                       "solved": 1}]


async def test_two_first_tries_at_once_count_once(stored_server: Server) -> None:
    puzzle = SCOPA["scopa-00003"]
    others = [SCOPA[f"scopa-0001{k}"] for k in range(4)]
    async with Lobby(stored_server.url) as lobby:
        await logged_in(lobby, "Gemma")
        answers = await asyncio.gather(
            *(attempt(lobby, puzzle.id, str(puzzle.best)) for _ in range(6)),
            *(attempt(lobby, other.id, str(other.best)) for other in others),
        )
        counted = [answer["player"]["counted"] for answer in answers[:6]]  # type: ignore[index]
        assert counted.count(True) == 1
        history = (await lobby.http.get("/api/puzzles/scopa/mine")).json()
        assert history["rating"]["tries"] == 5 and history["rating"]["solved"] == 5
        assert sorted(row["puzzle"] for row in history["tries"]) == sorted(
            [puzzle.id, *(other.id for other in others)])
        # Each counted try starts from the one before: the ratings shown chain up.
        chain = sorted((row["before"], row["after"]) for row in history["tries"])
        assert all(a[1] == b[0] for a, b in itertools.pairwise(chain))


GUEST_NOTE = ("tried as a guest: an account's try of this puzzle from this browser or address "
              "today will not count")


async def test_guests_play_unrated(server: Server) -> None:
    puzzle = SCOPA["scopa-00001"]
    async with Lobby(server.url) as lobby:
        answer = await attempt(lobby, puzzle.id, str(puzzle.best))
        assert answer["right"] is True and answer["player"] is None
        assert answer["note"] == GUEST_NOTE
        mine = await lobby.http.get("/api/puzzles/scopa/mine")
        assert mine.status_code == 401 and mine.json()["detail"] == (
            "log in first: this needs an account")
        # Logging in afterwards finds no rating and no try: the guest's try was not kept.
        await logged_in(lobby, "Tosca")
        assert (await lobby.http.get("/api/puzzles/scopa/mine")).json() == {
            "preset": "scopa", "rating": None, "tries": [], "limit": 50}


def not_counted_as_guest(rating: int) -> str:
    return ("this browser or address tried this puzzle as a guest today, and was given its "
            f"answer: this try does not count, and leaves your puzzle rating at {rating}")


async def test_a_puzzle_tried_as_a_guest_does_not_count_for_an_account_that_day(
    stored_server: Server,
) -> None:
    """A guest's tries give their answers: an account's first tries of the same puzzles from
    the same browser that day are answered, kept as tried and count nothing (they went
    20 of 20, 1000 to 1973); a puzzle the guest did not try counts as ever."""
    seen = [SCOPA[f"scopa-0000{k}"] for k in range(1, 6)]
    fresh = SCOPA["scopa-00009"]
    async with Lobby(stored_server.url) as lobby:
        for puzzle in seen:
            await attempt(lobby, puzzle.id, wrong_move(puzzle))
        assert "scopa_browser" in lobby.http.cookies
        await logged_in(lobby, "Furba")
        for puzzle in seen:
            answer = await attempt(lobby, puzzle.id, str(puzzle.best))
            assert answer["right"] is True
            assert answer["player"] == {"counted": False, "reason": "tried_as_guest",
                                        "before": 1000, "after": 1000, "rating": None}
            assert answer["note"] == not_counted_as_guest(1000)
        # Done for good: a second try is a second try, and "next" offers none of them.
        again = await attempt(lobby, seen[0].id, str(seen[0].best))
        assert again["player"]["reason"] == "tried_before"  # type: ignore[index]
        assert (await lobby.http.get("/api/puzzles/scopa/mine")).json()["rating"] is None
        offered = await lobby.http.get("/api/puzzles/scopa/next", params={"near": "true"})
        assert offered.json()["id"] not in {puzzle.id for puzzle in seen}

        counted = await attempt(lobby, fresh.id, str(fresh.best))
        player = counted["player"]
        assert isinstance(player, dict)
        assert (player["counted"], player["reason"], player["before"]) == (True, None, 1000)
        assert counted["note"] is None
        risen = player["after"]
        # An uncounted puzzle said so at the rating the account has by then.
        third = SCOPA["scopa-00010"]
        async with Lobby(stored_server.url) as guest:
            guest.http.cookies.update({"scopa_browser": lobby.http.cookies["scopa_browser"]})
            await attempt(guest, third.id, str(third.best))
        late = await attempt(lobby, third.id, str(third.best))
        assert late["player"] == {**player, "counted": False, "reason": "tried_as_guest",
                                  "before": risen, "after": risen}
        assert late["note"] == not_counted_as_guest(risen)
        history = (await lobby.http.get("/api/puzzles/scopa/mine")).json()
        assert [row["puzzle"] for row in history["tries"]] == [fresh.id]
        assert history["rating"]["tries"] == 1


async def test_another_browser_at_the_guest_s_address_does_not_count_either(
    server: Server,
) -> None:
    """The browser's cookie is the guest's to throw away; the address stays: a fresh browser
    with an account, at the address a guest tried the puzzle from today, counts nothing."""
    puzzle, other = SCOPA["scopa-00001"], SCOPA["scopa-00002"]
    async with Lobby(server.url) as guest:
        await attempt(guest, puzzle.id, str(puzzle.best))
        guest_key = guest.http.cookies["scopa_browser"]
    async with Lobby(server.url) as lobby:
        await logged_in(lobby, "Volpe")
        # Its login gave this browser a key of its own (issue 34, item C): not the guest's.
        assert lobby.http.cookies["scopa_browser"] != guest_key
        answer = await attempt(lobby, puzzle.id, str(puzzle.best))
        assert answer["player"]["reason"] == "tried_as_guest"  # type: ignore[index]
        other_answer = await attempt(lobby, other.id, str(other.best))
        assert other_answer["player"]["counted"] is True  # type: ignore[index]


async def test_a_guest_s_try_marks_its_day_only(stored_server: Server) -> None:
    """The marks are the day's: an account's try of the puzzle the next day counts, and the
    marks of days gone are deleted as the next guest's are written."""
    storage = stored_server.room.storage
    puzzle = SCOPA["scopa-00001"]
    async with Lobby(stored_server.url) as lobby:
        await logged_in(lobby, "Lenta")
        me = (await lobby.http.get("/api/account")).json()["id"]
    marks = puzzle_marks("a browser's id", "192.0.2.7")
    day = dt.date(2026, 12, 4)
    await puzzle_queries.note_guest_try(storage, day, "scopa", puzzle.id, marks)
    await puzzle_queries.note_guest_try(storage, day, "scopa", puzzle.id, marks)  # kept once
    rate = rater("scopa", rated(puzzle), True)
    moment = dt.datetime(2026, 12, 5, 9, tzinfo=dt.UTC)
    counted = await puzzle_queries.count_try(storage, me, "scopa", puzzle.id, str(puzzle.best),
                                             True, moment, rate, day + dt.timedelta(days=1),
                                             marks)
    assert counted.first and counted.reason is None
    await puzzle_queries.note_guest_try(storage, day + dt.timedelta(days=1), "scopa",
                                        puzzle.id, marks[:1])
    async with storage.engine.connect() as connection:
        rows = (await connection.execute(sa.select(puzzle_guest_tries))).all()
    assert [(row.day, row.mark) for row in rows] == [(day + dt.timedelta(days=1), marks[0])]


async def test_next_near_the_player_s_rating(server: Server) -> None:
    puzzles = list(SCOPA.values())
    async with Lobby(server.url) as lobby:
        # A guest asking for "near" gets the plain next one.
        plain = (await lobby.http.get("/api/puzzles/scopa/next", params={"near": "true"})).json()
        assert plain["id"] == puzzles[0].id
        await logged_in(lobby, "Nino")
        offered = (await lobby.http.get("/api/puzzles/scopa/next",
                                        params={"near": "true"})).json()
        assert set(offered) == {"id", "preset", "rating", "rules", "position", "legal_moves"}
        gap = abs(rated(SCOPA[offered["id"]]).mu - NEWCOMER.mu)
        assert gap == min(abs(rated(puzzle).mu - NEWCOMER.mu) for puzzle in puzzles)
        # Failing it lowers the rating; the next near one is another, nearer the new rating.
        answer = await attempt(lobby, offered["id"], wrong_move(SCOPA[offered["id"]]))
        mu = answer["player"]["rating"]["mu"]  # type: ignore[index]
        following = (await lobby.http.get("/api/puzzles/scopa/next", params={
            "near": "true", "after": offered["id"], "theme": "sweep"})).json()
        chosen = SCOPA[following["id"]]
        assert chosen.id != offered["id"] and "sweep" in chosen.themes
        assert abs(rated(chosen).mu - mu) == min(
            abs(rated(puzzle).mu - mu) for puzzle in puzzles
            if "sweep" in puzzle.themes and puzzle.id != offered["id"])


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "words"),
    [
        ("GET", "/api/puzzles/scopone/mine", None, 404, "there are no puzzles for 'scopone'"),
        ("POST", "/api/puzzles/scopa/scopa-77777/try", {"move": "7D"}, 404,
         "there is no scopa puzzle 'scopa-77777'"),
        ("POST", "/api/puzzles/escoba/scopa-00001/try", {"move": "7D"}, 404,
         "there is no escoba puzzle 'scopa-00001'"),
        ("POST", "/api/puzzles/scopa/scopa-00001/try", {"move": "KS"}, 422,
         "'KS' is not a legal move here"),
        ("GET", "/api/puzzles/scopa/next?near=true&theme=luck", None, 422,
         "there is no theme 'luck'"),
        ("GET", "/api/puzzles/scopa/next?near=maybe", None, 422, "near: "),
    ],
)
async def test_bad_input_from_a_player_is_a_sentence_and_changes_nothing(
    server: Server, method: str, path: str, body: object, status: int, words: str
) -> None:
    async with Lobby(server.url) as lobby:
        await logged_in(lobby, "Rina")
        answer = await lobby.http.request(method, path, json=body)
        assert answer.status_code == status and words in answer.json()["detail"]
        assert answer.json()["detail"].count(".") <= 1
        assert (await lobby.http.get("/api/puzzles/scopa/mine")).json()["rating"] is None


async def test_a_try_from_another_site_is_refused_and_counts_nothing(server: Server) -> None:
    puzzle = SCOPA["scopa-00001"]
    async with Lobby(server.url) as lobby:
        await logged_in(lobby, "Dora")
        refused = await lobby.http.post(f"/api/puzzles/scopa/{puzzle.id}/try",
                                        json={"move": str(puzzle.best)},
                                        headers={"Origin": "https://elsewhere.example"})
        assert refused.status_code == 403
        assert "best" not in json.dumps(refused.json())
        assert (await lobby.http.get("/api/puzzles/scopa/mine")).json()["tries"] == []


# -- the model, on every share the levels can have --------------------------------------------

def share_of(tries: int) -> st.SearchStrategy[float]:
    """A level's share of hits, as the finder rounds it."""
    return st.integers(0, tries).map(lambda hits: round(hits / tries, 2))


shares = st.fixed_dictionaries({level: share_of(tries) for level, tries in LEVEL_TRIES.items()})


@settings(max_examples=300, deadline=None)
@given(found=shares, more=st.sampled_from(list(LEVEL_TRIES)))
def test_a_puzzle_found_more_often_is_never_rated_harder(found: dict[str, float],
                                                         more: str) -> None:
    tries = LEVEL_TRIES[more]
    hits = round(found[more] * tries)
    if hits == tries:
        return
    easier = {**found, more: round((hits + 1) / tries, 2)}
    assert puzzle_strength(easier).mu < puzzle_strength(found).mu


@settings(max_examples=300, deadline=None)
@given(found=shares, mu=st.floats(0, 50), sigma=st.floats(0.5, 25 / 3))
def test_right_never_lowers_and_wrong_never_raises(
    found: dict[str, float], mu: float, sigma: float
) -> None:
    player, puzzle = Strength(mu, sigma), puzzle_strength(found)
    assert after_try(player, puzzle, True).mu >= mu >= after_try(player, puzzle, False).mu
    assert after_try(player, puzzle, True).sigma <= sigma + 25 / 300


def test_the_puzzles_sit_on_the_bots_scale() -> None:
    """Found by every try of every level: easier than the random bot; found by the master
    alone: harder than the master. Every shipped puzzle shows between the two."""
    everyone = {level: 1.0 for level in ANCHORS}
    master_only = {**{level: 0.0 for level in ANCHORS}, "master": 1.0}
    assert puzzle_strength(everyone).mu < ANCHORS["random"]
    assert puzzle_strength(master_only).mu > ANCHORS["master"]
    for preset in ("scopa", "escoba"):
        for puzzle in shipped(preset):
            assert rated(puzzle).shown == shown(rated(puzzle).mu, 1.0)
            assert puzzle_strength(everyone).mu <= rated(puzzle).mu
            assert rated(puzzle).mu <= puzzle_strength(master_only).mu
