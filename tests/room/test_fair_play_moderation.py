"""Linked accounts and moderators' marks (issue 34, items C and E), through the room and the
``scopa moderate`` command on its SQLite file while it runs:

* each login and each seat's socket with a session leave a sighting, kept hashed: ``links``
  lists the accounts seen from the same address or browser, and the rated matches between;
* ``mark NAME --booster`` takes NAME off the leaderboard, makes its next table casual
  (``marked``) and gives its opponent back what it lost to it; ``unmark`` undoes all of it;
  both are logged with who and when (``acts``); a second mark is refused and changes nothing.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import random
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from scopa.server.accounts.agreement import suspects, tally
from scopa.server.client import Lobby, TableConnection
from scopa.server.common.browser import COOKIE as BROWSER_COOKIE
from scopa.server.common.fairplay import CASUAL
from scopa.server.store.fairplay_queries import Judged
from scopa.server.store.schema import engine_agreement, ratings, sightings

from .server_support import (
    REVIEW_TIMEOUT,
    TIMEOUT,
    Seated,
    Server,
    anyio_backend,
    play_moves,
    running_server,
    settings_for,
)
from .test_chat_moderate import moderate

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]

PASSWORD = "a good password"


async def _register(server: Server, name: str, browser: Lobby | None = None) -> Lobby:
    """A new account, registered from a browser of its own, or from ``browser``'s."""
    lobby = Lobby(server.url)
    if browser is not None:
        lobby.http.cookies.set(BROWSER_COOKIE, browser.http.cookies[BROWSER_COOKIE],
                               domain="127.0.0.1")
    answer = await lobby.http.post(
        "/api/account/register", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return lobby


def _cookie(lobby: Lobby) -> str:
    return "; ".join(f"{name}={value}" for name, value in lobby.http.cookies.items())


async def _rated_match(url: str, winner: Lobby, loser: Lobby) -> dict[str, Any]:
    """A rated table of the two, each seat's socket with its browser's cookies; each side
    plays 2 moves, then ``loser`` resigns. The start's answer."""
    made = await winner.create_table(players=2, name="W", rated=True, target=11)
    code = made["table"]["code"]
    joined = await loser.join(code, "L")
    people = [Seated(seat, token, await TableConnection.open(url, code, token,
                                                             cookie=_cookie(lobby)))
              for lobby, seat, token in ((winner, made["seat"], made["token"]),
                                         (loser, joined["seat"], joined["token"]))]
    started = await winner.start(code, made["token"])
    for seated in people:
        await seated.connection.wait_for(lambda m: m["type"] == "state", TIMEOUT)
    await asyncio.gather(*(play_moves(seated, 2, random.Random(seated.seat))
                           for seated in people))
    await people[1].connection.resign()
    for seated in people:
        await seated.connection.wait_for(lambda m: m["type"] == "over", TIMEOUT)
        await seated.connection.close()
    return {**started, "code": code}


async def _mu(server: Server, lobby: Lobby) -> float:
    me = (await lobby.http.get("/api/account")).json()
    async with server.room.storage.engine.connect() as connection:
        return float(await connection.scalar(
            sa.select(ratings.c.mu).where(ratings.c.account_id == me["id"])))


async def _top(lobby: Lobby) -> list[str]:
    answer = await lobby.http.get("/api/leaderboards/scopa-2")
    assert answer.status_code == 200, answer.text
    return [line["name"] for line in answer.json()["top"]]


async def test_links_list_the_accounts_of_one_browser_and_one_address(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Anna and Bruno register in one browser, Carla in another behind the same address (all
    of them come from 127.0.0.1 here); Anna beats Bruno at a rated table."""
    settings = settings_for(tmp_path, newcomer_matches=0, provisional_matches=1,
                            register_per_address="100/minute")
    async with running_server(settings) as server:
        anna = await _register(server, "Anna")
        bruno = await _register(server, "Bruno", browser=anna)
        carla = await _register(server, "Carla")
        try:
            played = await _rated_match(server.url, anna, bruno)
            key = anna.http.cookies[BROWSER_COOKIE]
        finally:
            for lobby in (anna, bruno, carla):
                await lobby.aclose()
        async with server.room.storage.engine.connect() as connection:
            kept = [dict(row._mapping) for row in await connection.execute(
                sa.select(sightings))]
        # A login each, and a seat each at the table: neither the address nor the key kept.
        assert sorted((row["kind"], row["table_code"]) for row in kept) == sorted(
            [("login", "")] * 3 + [("table", played["code"])] * 2)
        assert not any(value in str(kept) for value in ("127.0.0.1", key))
        capsys.readouterr()

        assert await moderate(tmp_path, "links", "Anna") == 0
        said = capsys.readouterr().out
        bruno_part, carla_part = said.split("Carla")
        assert "Bruno" in bruno_part and "same address" in bruno_part
        assert "same browser" in bruno_part
        assert ": Anna win, Bruno loss" in bruno_part
        assert "same address" in carla_part and "same browser" not in carla_part
        assert "no rated match together" in carla_part

        assert await moderate(tmp_path, "links", "Carla", "--json") == 0
        listed = json.loads(capsys.readouterr().out)
        assert listed["account"] == "Carla"
        assert {link["name"]: [s["what"] for s in link["shared"]]
                for link in listed["links"]} == {"Anna": ["address"], "Bruno": ["address"]}

        assert await moderate(tmp_path, "links", "Nobody") == 2
        assert "no account is called 'Nobody'" in capsys.readouterr().err


async def test_a_mark_refunds_the_opponents_and_ends_rated_play_until_unmarked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = settings_for(tmp_path, newcomer_matches=0, provisional_matches=1,
                            register_per_address="100/minute")
    async with running_server(settings) as server:
        anna = await _register(server, "Anna")
        bruno = await _register(server, "Bruno")
        try:
            await _rated_match(server.url, anna, bruno)
            lost = await _mu(server, bruno)
            assert lost < 25.0
            assert await _top(anna) == ["Anna", "Bruno"]

            assert await moderate(tmp_path, "mark", "Anna", "--booster", "--reason",
                                   "a second account's wins", "--by", "Mod One") == 0
            said = capsys.readouterr().out
            assert "Anna is marked (booster)" in said
            assert f"Bruno: {25.0 - lost:.2f} mu given back (scopa-2" in said
            assert await _mu(server, bruno) == pytest.approx(25.0)
            assert await _top(anna) == ["Bruno"]
            # Marked already: refused, and nothing changes (no second refund).
            assert await moderate(tmp_path, "mark", "Anna", "--engine", "--reason", "x") == 2
            assert "marked already (booster)" in capsys.readouterr().err
            assert await _mu(server, bruno) == pytest.approx(25.0)
            # Its next table chosen rated plays casual, and says why before the first move.
            again = await _rated_match(server.url, anna, bruno)
            assert (again["rated"], again["casual"]) == (
                False, {"code": "marked", "message": CASUAL["marked"]})
            assert await _mu(server, bruno) == pytest.approx(25.0)

            assert await moderate(tmp_path, "unmark", "Anna", "--reason", "appeal heard",
                                   "--by", "Mod Two") == 0
            assert f"Bruno: {25.0 - lost:.2f} mu taken back" in capsys.readouterr().out
            assert await _mu(server, bruno) == pytest.approx(lost)
            assert await _top(anna) == ["Anna", "Bruno"]
            assert await moderate(tmp_path, "unmark", "Anna", "--reason", "again") == 2
            assert "Anna carries no mark" in capsys.readouterr().err

            assert await moderate(tmp_path, "acts", "Anna") == 0
            acts = capsys.readouterr().out.splitlines()
            assert len(acts) == 2
            assert acts[0].endswith("Mod One marked Anna (booster): a second account's wins")
            assert acts[1].endswith("Mod Two unmarked Anna (booster): appeal heard")
        finally:
            await anna.aclose()
            await bruno.aclose()


async def _judged(server: Server, count: int) -> list[dict[str, Any]]:
    """The engine watch's judgements, once ``count`` of them are done (it works in the
    background, in the review workers)."""
    deadline = asyncio.get_running_loop().time() + REVIEW_TIMEOUT
    while True:
        async with server.room.storage.engine.connect() as connection:
            rows = [dict(row._mapping) for row in await connection.execute(
                sa.select(engine_agreement).where(engine_agreement.c.judged_at.is_not(None)))]
        if len(rows) >= count:
            return rows
        assert asyncio.get_running_loop().time() < deadline, f"{len(rows)} of {count} judged"
        await asyncio.sleep(0.1)


async def test_each_rated_match_is_judged_by_the_master_and_its_reviews_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 34, item D: a rated match's end has the master judge each account's moves; the
    tally is the stored review's, which the players then get at once."""
    settings = settings_for(tmp_path, newcomer_matches=0, register_per_address="100/minute")
    async with running_server(settings) as server:
        anna, bruno = await _register(server, "Anna"), await _register(server, "Bruno")
        try:
            await _rated_match(server.url, anna, bruno)
            rows = await _judged(server, 2)
            match_id = rows[0]["match_id"]
            for row in rows:
                answer = await anna.http.get(f"/api/replays/{match_id}/reviews/{row['seat']}")
                assert answer.status_code == 200, answer.text
                found = tally(answer.json()["review"]["moves"])
                assert (row["positions"], row["matched"], row["evidence"]) == (
                    found.positions, found.matched, found.evidence)
                assert row["rating"] == 1000  # both were newcomers before the match
        finally:
            await anna.aclose()
            await bruno.aclose()
        # Two accounts are too few to compare: nobody is flagged.
        capsys.readouterr()
        assert await moderate(tmp_path, "suspects") == 0
        assert capsys.readouterr().out.startswith("no suspects")


def _judgement(account: int, agreement: float, rating: int = 1200) -> list[Judged]:
    """An account's window: 20 matches of 5 positions, ``agreement`` of them matched."""
    matched = round(agreement * 100)
    return [Judged(account, f"P{account}", account * 100 + match, dt.datetime(2026, 12, 4,
                                                                              tzinfo=dt.UTC),
                   5, matched // 20 + (1 if match < matched % 20 else 0), 0.1, rating, [])
            for match in range(20)]


def test_suspects_are_far_above_their_peers_and_need_peers() -> None:
    peers = [row for account in range(12)
             for row in _judgement(account, 0.68 + 0.01 * (account % 5))]
    assert suspects(peers) == []
    cheater = _judgement(50, 0.97)
    (found,) = suspects(peers + cheater)
    assert found.figure.name == "P50" and found.figure.agreement == pytest.approx(0.97)
    assert found.peers == 12 and found.reference == pytest.approx(0.70, abs=0.01)
    # A strong honest player a little above: not flagged; nor anyone with too few peers, or
    # too few positions of its own.
    assert suspects(peers + _judgement(51, 0.78)) == []
    assert suspects(peers[:5 * 20] + cheater) == []
    assert suspects(peers + cheater[:7]) == []
    # The peers are those of its rating when its band has enough of them.
    strong = [row for account in range(60, 72) for row in _judgement(account, 0.95, 1900)]
    (found,) = suspects(peers + strong + cheater)
    assert found.peers == 12 and found.reference == pytest.approx(0.70, abs=0.01)
    assert suspects(peers + strong + _judgement(50, 0.97, 1900)) == []
