"""The puzzles over HTTP: a question holds nothing of its answer, a try gets it, the next puzzle
comes by theme, the daily puzzle is one for the whole day, and bad input is a sentence."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from scopa.puzzles.sets import shipped
from scopa.server.client import Lobby
from scopa.server.puzzles import routes

from .server_support import anyio_backend, running_server, settings_for

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]


@pytest.fixture
async def lobby(tmp_path: Path) -> AsyncIterator[Lobby]:
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as client:
        yield client


async def test_a_question_holds_no_answer_and_a_try_gets_it(lobby: Lobby) -> None:
    first = shipped("scopa")[0]
    asked = await lobby.http.get(f"/api/puzzles/scopa/{first.id}")
    assert asked.status_code == 200
    question = asked.json()
    assert set(question) == {"id", "preset", "rating", "rules", "position", "legal_moves"}
    assert sorted(question["legal_moves"]) == sorted(first.values)
    text = json.dumps(question)
    for secret in ("best", "values", "line", "themes", "found", "source"):
        assert f'"{secret}"' not in text
    wrong = next(move for move in first.values if move != str(first.best))
    answer = (await lobby.http.post(f"/api/puzzles/scopa/{first.id}/try",
                                    json={"move": wrong})).json()
    assert (answer["right"], answer["best"], answer["values"]) == (
        False, str(first.best), first.values)
    assert answer["line"] == [str(move) for move in first.line]
    assert answer["themes"] == list(first.themes)
    right = await lobby.http.post(f"/api/puzzles/scopa/{first.id}/try",
                                  json={"move": str(first.best)})
    assert right.json()["right"] is True


async def test_the_next_puzzle_comes_by_theme(lobby: Lobby) -> None:
    puzzles = shipped("escoba")
    first = (await lobby.http.get("/api/puzzles/escoba/next")).json()
    assert first["id"] == puzzles[0].id
    sweeps = [p.id for p in puzzles if "sweep" in p.themes][:2]
    got = (await lobby.http.get("/api/puzzles/escoba/next", params={"theme": "sweep"})).json()
    assert got["id"] == sweeps[0]
    then = await lobby.http.get("/api/puzzles/escoba/next",
                                params={"theme": "sweep", "after": sweeps[0]})
    assert then.json()["id"] == sweeps[1]


async def test_the_daily_puzzle_is_one_for_the_day(
    lobby: Lobby, monkeypatch: pytest.MonkeyPatch
) -> None:
    import datetime as dt

    days = {}
    for day in (dt.date(2026, 12, 1), dt.date(2026, 12, 2)):
        monkeypatch.setattr(routes, "today", lambda day=day: day)
        asked = [(await lobby.http.get("/api/puzzles/scopa/daily")).json() for _ in range(2)]
        assert asked[0] == asked[1] and asked[0]["day"] == day.isoformat()
        assert "best" not in asked[0]
        days[day] = asked[0]["id"]
    assert len(set(days.values())) == 2


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "words"),
    [
        ("GET", "/api/puzzles/scopone/next", None, 404, "there are no puzzles for 'scopone'"),
        ("GET", "/api/puzzles/scopa/scopa-99999", None, 404, "there is no scopa puzzle"),
        ("GET", "/api/puzzles/scopa/next?theme=luck", None, 422, "there is no theme 'luck'"),
        ("GET", "/api/puzzles/scopa/next?after=nope", None, 404, "there is no scopa puzzle"),
        ("POST", "/api/puzzles/scopa/scopa-00001/try", {"move": "KS"}, 422,
         "'KS' is not a legal move here"),
        ("POST", "/api/puzzles/scopa/scopa-00001/try", {"move": "<b>"}, 422,
         "is not a legal move here"),
        ("POST", "/api/puzzles/scopa/scopa-00001/try", {"move": 7}, 422, "move: "),
        ("POST", "/api/puzzles/scopa/scopa-00001/try", {}, 422, "move: "),
    ],
)
async def test_bad_input_is_a_sentence(
    lobby: Lobby, method: str, path: str, body: object, status: int, words: str
) -> None:
    answer = await lobby.http.request(method, path, json=body)
    assert answer.status_code == status and words in answer.json()["detail"]


async def test_a_questions_legal_moves_say_nothing_of_their_values(
    lobby: Lobby, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 34, item 2: the legal moves came in the order of the values, best first, so
    playing the first one solved every puzzle. They come sorted by their codes, in the
    questions of every kind (one puzzle, the next, the daily) and in a refusal's list."""
    import datetime as dt

    puzzles = [p for p in shipped("scopa") if len(p.values) > 1][:40]
    # An order made from the codes alone (which the asker has anyway) says nothing more.
    assert any(list(p.values) != sorted(p.values) for p in puzzles)
    for puzzle in puzzles:
        question = (await lobby.http.get(f"/api/puzzles/scopa/{puzzle.id}")).json()
        assert question["legal_moves"] == sorted(puzzle.values)
    following = (await lobby.http.get("/api/puzzles/scopa/next")).json()
    assert following["legal_moves"] == sorted(following["legal_moves"])
    for day in (dt.date(2026, 12, 1), dt.date(2026, 12, 2), dt.date(2026, 12, 3)):
        monkeypatch.setattr(routes, "today", lambda day=day: day)
        daily = (await lobby.http.get("/api/puzzles/scopa/daily")).json()
        assert daily["legal_moves"] == sorted(daily["legal_moves"])
    one = next(p for p in puzzles if sorted(p.values) != list(p.values))
    refused = await lobby.http.post(f"/api/puzzles/scopa/{one.id}/try", json={"move": "KS"})
    assert refused.status_code == 422
    assert refused.json()["detail"].endswith(", ".join(sorted(one.values)))
