"""Matches played offline come home (issue 37, item 4): a logged-in player uploads a finished
match's record, the room plays it again with the core and keeps it in the account's history as
an unrated match against the bots; every bad upload (illegal, unfinished, tampered, seats or
levels that do not fit, too large, not JSON, sent twice) is refused with its code and changes
no row of any table; uploads are limited per account; the account's download holds them and
its deletion takes them away."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa import Game, Rules
from scopa.players import make_player
from scopa.server.client import Lobby
from scopa.server.common.errors import LobbyError
from scopa.server.offline import uploads
from scopa.server.store.schema import metadata, offline_matches

from .chat_support import PASSWORD, register
from .server_support import Server, anyio_backend, running_server, settings_for

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]


def finished(seed: int, preset: str = "scopa", players: int = 2, target: int = 1,
             **house: Any) -> dict[str, Any]:
    """The record of a match bots played to its end, as offline play's worker keeps it."""
    game = Game.new(Rules.preset(preset, players=players, target=target, **house), seed=seed)
    bots = [make_player("greedy", seed=seed + at) for at in range(players)]
    while not game.is_over:
        game.play(bots[game.to_move].choose(game.view(game.to_move)))
    return game.record()


def upload(record: dict[str, Any], seat: int = 0, opponents: list[str] | None = None,
           **changes: Any) -> dict[str, Any]:
    return {"id": str(uuid.uuid4()), "seat": seat,
            "opponents": ["expert"] if opponents is None else opponents,
            "record": record, "finished_at": "2026-12-06T18:30:00+01:00", **changes}


async def rows(server: Server) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, but the sessions' (a request marks its session seen)."""
    async with server.room.storage.engine.connect() as connection:
        return {
            table.name: sorted(map(tuple, (await connection.execute(
                sa.select(table))).all()), key=repr)
            for table in metadata.sorted_tables if table.name != "sessions"
        }


async def logged_in(server: Server, name: str) -> Lobby:
    lobby = Lobby(server.url)
    await register(lobby, name)
    return lobby


async def test_a_legal_upload_is_an_unrated_match_against_the_bots_in_the_history(
    stored_server: Server,
) -> None:
    server = stored_server
    async with await logged_in(server, "Anna") as anna:
        leaderboard = (await anna.http.get("/api/leaderboards/escoba-3")).json()
        before = await rows(server)
        record = finished(5, "escoba", players=3, target=3)
        answer = await anna.http.post("/api/offline/matches", json=upload(
            record, seat=1, opponents=["master", "random"], look="spanish"))
        assert answer.status_code == 201, answer.text
        stored = answer.json()
        assert stored["rated"] is False and stored["result"] in ("win", "loss")
        after = await rows(server)
        assert len(after.pop("offline_matches")) == len(before.pop("offline_matches")) + 1
        assert after == before  # no match, rating, history, daily or puzzle row: none
        assert (await anna.http.get("/api/leaderboards/escoba-3")).json() == leaderboard

        profile = (await anna.http.get("/api/profiles/Anna")).json()
        assert profile["ratings"] == [] and (profile["wins"], profile["losses"]) == (0, 0)
        [line] = profile["recent"]
        assert (line["offline"], line["rated"], line["match"], line["seat"]) == (
            True, False, stored["match"], 1)
        assert line["pool"] == "escoba-3" and line["change"] is None
        assert line["at"] == "2026-12-06T17:30:00+00:00"
        assert [(p["kind"], p["name"], p["level"]) for p in line["players"]] == [
            ("bot", "Bot 1", "master"), ("human", "Anna", None), ("bot", "Bot 3", "random")]

        replay = (await anna.http.get(line["replay"].replace(
            "/#/offline/", "/api/offline/matches/"))).json()
        assert replay["offline"] and replay["look"] == "spanish"
        assert len(replay["frames"]) == len(record["moves"]) + len(replay["rounds"])
        assert replay["winner"] == record["winner"]

        export = (await anna.http.get("/api/account/export")).json()
        [kept] = export["offline_matches"]
        assert kept["record"] == record and kept["opponents"] == ["master", "random"]


async def test_every_bad_upload_is_refused_with_its_code_and_changes_nothing(
    stored_server: Server,
) -> None:
    server = stored_server
    record = finished(11)
    illegal = {**record, "moves": ["zz", *record["moves"][1:]]}
    other = finished(12)
    foreign_move = {**record, "moves": [other["moves"][0], *record["moves"][1:]]}
    decks = [list(deck) for deck in record["decks"]]
    decks[0][0], decks[0][1] = decks[0][1], decks[0][0]
    tampered = {**record, "decks": decks}
    async with await logged_in(server, "Bruno") as bruno, Lobby(server.url) as guest:
        first = upload(record)
        assert (await bruno.http.post("/api/offline/matches", json=first)).status_code == 201
        before = await rows(server)
        cases: list[tuple[str, httpx.Response, int, str]] = [
            ("guest", await guest.http.post("/api/offline/matches", json=upload(record)),
             401, "log_in_first"),
            ("illegal move", await bruno.http.post(
                "/api/offline/matches", json=upload(illegal)), 422, "illegal_offline_record"),
            ("another deal's move", await bruno.http.post(
                "/api/offline/matches", json=upload(foreign_move)),
             422, "illegal_offline_record"),
            ("unfinished", await bruno.http.post("/api/offline/matches", json=upload(
                {**record, "moves": record["moves"][:-1]})), 422, "unfinished_offline_record"),
            ("tampered deck", await bruno.http.post(
                "/api/offline/matches", json=upload(tampered)), 422, "illegal_offline_record"),
            ("house rule the lobby lacks", await bruno.http.post(
                "/api/offline/matches", json=upload(finished(3, must_capture="none"))),
             422, "offline_rules_not_dealt"),
            ("seat past the table", await bruno.http.post(
                "/api/offline/matches", json=upload(finished(13), seat=2)),
             422, "offline_seats_mismatch"),
            ("one bot too many", await bruno.http.post("/api/offline/matches", json=upload(
                finished(13), opponents=["expert", "expert"])), 422, "offline_seats_mismatch"),
            ("unknown level", await bruno.http.post("/api/offline/matches", json=upload(
                finished(13), opponents=["grandmaster"])), 422, "unknown_level"),
            ("oversized", await bruno.http.post("/api/offline/matches", json=upload(
                finished(13), padding="x" * uploads.MAX_UPLOAD_BYTES)),
             413, "offline_record_too_large"),
            ("malformed JSON", await bruno.http.post(
                "/api/offline/matches", content=b'{"id": "', headers={
                    "content-type": "application/json"}), 422, "invalid_request"),
            ("not a uuid", await bruno.http.post("/api/offline/matches", json=upload(
                finished(13), id="7")), 422, "invalid_request"),
            ("the same match again", await bruno.http.post(
                "/api/offline/matches", json=upload(record)), 409, "offline_match_uploaded"),
            ("the same id again", await bruno.http.post("/api/offline/matches", json=upload(
                finished(13), id=first["id"])), 409, "offline_id_taken"),
        ]
        for what, answer, status, code in cases:
            assert (answer.status_code, answer.json()["code"]) == (status, code), \
                (what, answer.text)
            assert answer.json()["detail"], what
        assert "not valid JSON" in cases[10][1].json()["detail"]

        async def streamed() -> AsyncIterator[bytes]:  # chunked: no length declared
            body = json.dumps(upload(finished(14))).encode()
            yield body[:-1] + b" " * uploads.MAX_UPLOAD_BYTES
            yield body[-1:]

        chunked = await bruno.http.post("/api/offline/matches", content=streamed(),
                                        headers={"content-type": "application/json"})
        assert (chunked.status_code, chunked.json()["code"]) == (
            413, "offline_record_too_large")
        assert await rows(server) == before
        assert (await bruno.http.get("/api/offline/matches/999")).json()["code"] == \
            "no_offline_match"


async def test_uploads_are_limited_per_account_with_retry_after(tmp_path: Path) -> None:
    async with running_server(settings_for(tmp_path)) as server, \
            await logged_in(server, "Carla") as carla, await logged_in(server, "Dario") as dario:
        for seed in range(30):
            answer = await carla.http.post("/api/offline/matches", json=upload(finished(seed)))
            assert answer.status_code == 201, answer.text
        before = await rows(server)
        refused = await carla.http.post("/api/offline/matches", json=upload(finished(30)))
        assert (refused.status_code, refused.json()["code"]) == (429, "too_many_offline_uploads")
        assert 3000 <= int(refused.headers["retry-after"]) <= 3600
        assert await rows(server) == before
        # Each account counts its own: Dario's first upload passes, and is of Carla's deal.
        assert (await dario.http.post(
            "/api/offline/matches", json=upload(finished(0)))).status_code == 201


async def test_a_second_account_keeps_the_same_deal_as_its_own_and_deletion_takes_it_away(
    server: Server,
) -> None:
    record = finished(21, "escoba", target=2)
    async with await logged_in(server, "Elena") as elena, \
            await logged_in(server, "Fabio") as fabio:
        for lobby in (elena, fabio):
            answer = await lobby.http.post("/api/offline/matches", json=upload(record))
            assert answer.status_code == 201, answer.text
        # Two copies of one upload sent at once: one is stored, the other is told so.
        twice = upload(finished(22))
        answers = await asyncio.gather(*(elena.http.post("/api/offline/matches", json=twice)
                                         for _ in range(2)))
        assert sorted(answer.status_code for answer in answers) == [201, 409]
        assert [line["offline"] for line in
                (await fabio.http.get("/api/profiles/Fabio")).json()["recent"]] == [True]
        gone = await elena.http.request("DELETE", "/api/account", json={"password": PASSWORD})
        assert gone.status_code == 204, gone.text
        kept = (await rows(server))["offline_matches"]
        fabio_id = (await fabio.http.get("/api/account")).json()["id"]
        owner = list(offline_matches.c.keys()).index("account_id")
        assert [row[owner] for row in kept] == [fabio_id]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), cut=st.floats(0, 1, exclude_max=True))
def test_any_cut_of_a_finished_record_is_refused_as_unfinished(seed: int, cut: float) -> None:
    """A record stopped before its last move, whatever the deal and the cut, never passes as a
    finished match (a resigned match's record is finished by its ``resigned``, not its
    moves: none here resigns)."""
    record = finished(seed, "escoba" if seed % 2 else "scopa")
    kept = int(len(record["moves"]) * cut)
    with pytest.raises(LobbyError) as refused:
        uploads.played_again({**record, "moves": record["moves"][:kept], "decks": None})
    assert refused.value.code == "unfinished_offline_record"
    assert uploads.played_again(json.loads(json.dumps(record))).is_over


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 2**70) | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=10)
"""Any JSON value a browser (or a hand-made request) might put in a record."""


@settings(max_examples=300, deadline=None)
@given(fields=st.dictionaries(st.sampled_from(
           ["format", "rules", "seed", "deck", "decks", "moves", "resigned", "winner", "x"]),
           JSON, max_size=3),
       rules=st.dictionaries(st.sampled_from(list(Rules().to_dict())), JSON, max_size=2),
       at=st.integers(0, 40), move=JSON)
def test_any_change_to_a_record_is_refused_with_a_code_or_is_a_legal_match(
    fields: dict[str, Any], rules: dict[str, Any], at: int, move: Any,
) -> None:
    """Whatever the fields, rules or a move hold, the checks answer a refusal with a code (the
    route's 422) or a finished match the core played again: never another error (a 500)."""
    record = {**finished(17), **fields}
    if isinstance(record.get("rules"), dict):
        record["rules"] = {**record["rules"], **rules}
    if isinstance(record.get("moves"), list) and at < len(record["moves"]):
        record["moves"] = [move if number == at else code
                           for number, code in enumerate(record["moves"])]
    try:
        checked = uploads.check(record, 0, ["expert"], "french")
    except LobbyError as refused:
        assert refused.status == 422 and refused.code
    else:
        assert Game.replay(checked.record).is_over
