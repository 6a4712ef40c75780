"""Your data (issue 23, item 5): a logged-in player downloads everything the room holds about
the account as one file with no secret in it, and deletes the account, after which its name
shows as a deleted player in the matches it played, its sessions and seats are gone, and the
name is free again for a new registration only after 30 days (the server's clock moved, not
waited for)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from scopa.server.accounts.accounts import COOKIE, hash_secret
from scopa.server.accounts.seatkeys import KEY_COOKIE
from scopa.server.client import Lobby, TableConnection
from scopa.server.store.schema import accounts, seat_accounts, sightings
from scopa.server.store.storage import now
from scopa.server.tournaments import queries as tournament_queries

from .server_support import (
    TIMEOUT,
    Seated,
    Server,
    anyio_backend,
    fresh_postgres,
    play_randomly,
    running_server,
    settings_for,
)

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]

PASSWORD = "a good password"


async def _register(lobby: Lobby, name: str) -> int:
    answer = await lobby.http.post("/api/account/register",
                                   json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return int(answer.json()["id"])


async def _play_rated_match(anna: Lobby, bruno: Lobby, url: str) -> int:
    """Anna and Bruno, both logged in, play a rated match to its end; its id. Anna says
    "Good luck" first."""
    created = await anna.create_table(players=2, name="Anna", rated=True, target=1)
    code = created["table"]["code"]
    joined = await bruno.join(code, "Bruno")
    people = [Seated(created["seat"], created["token"],
                     await TableConnection.open(url, code, created["token"])),
              Seated(joined["seat"], joined["token"],
                     await TableConnection.open(url, code, joined["token"]))]
    try:
        await anna.start(code, created["token"])
        for person in people:
            await person.connection.wait_for(lambda m: m["type"] == "state", TIMEOUT)
        await people[0].connection.say(phrase="good_luck")
        for person in people:
            await person.connection.wait_for(lambda m: m["type"] == "said", TIMEOUT)
        await asyncio.gather(*(play_randomly(person, random.Random(7 + person.seat))
                               for person in people))
        assert people[0].connection.match is not None
        return people[0].connection.match
    finally:
        for person in people:
            await person.connection.close()


async def _stored(server: Server, query: Any) -> list[Any]:
    async with server.room.storage.engine.connect() as connection:
        return list((await connection.execute(query)).all())


async def test_the_download_holds_the_accounts_data_and_no_secret(stored_server: Server) -> None:
    server = stored_server
    async with Lobby(server.url) as anna, Lobby(server.url) as bruno, \
            Lobby(server.url) as laptop:
        anna_id = await _register(anna, "Anna")
        await _register(bruno, "Bruno")
        match = await _play_rated_match(anna, bruno, server.url)
        # A second device, and a match against the computer still being played.
        await laptop.http.post("/api/account/login", json={"name": "anna", "password": PASSWORD})
        grant = await anna.play_computer(name="Anna", level="random")

        answer = await anna.http.get("/api/account/export")
        assert answer.status_code == 200, answer.text
        assert answer.headers["content-disposition"] == \
            f'attachment; filename="scopa-account-{anna_id}.json"'
        assert answer.headers["content-type"].startswith("application/json")
        data = answer.json()

    # The floors' sections, then each feature's in the list of parts' order (parts.py).
    assert list(data) == ["exported_at", "profile", "ratings", "rating_history", "matches",
                          "chat_messages", "chat_reports", "sessions", "seats", "sanctions",
                          "sightings", "fair_play_marks",
                          "push_subscriptions", "push_choices",
                          "puzzle_ratings", "puzzle_tries",
                          "daily_attempts",
                          "tournament_entries",
                          "follows", "blocks", "challenge_settings",
                          "offline_matches",
                          "correspondence_offers", "correspondence_offers_received",
                          "correspondence_vacations"]
    assert data["profile"]["id"] == anna_id and data["profile"]["name"] == "Anna"
    assert [(r["pool"], r["matches"]) for r in data["ratings"]] == [("scopa-2", 1)]
    assert [r["match_id"] for r in data["rating_history"]] == [match]
    finished, playing = data["matches"]
    assert (finished["match"], finished["seat"], finished["rated"]) == (match, 0, True)
    assert [p["name"] for p in finished["players"]] == ["Anna", "Bruno"]
    assert finished["record"]["moves"] and "seed" in finished["record"]
    # The match being played gives nothing hidden: no seed, deck or record.
    assert playing["match"] == grant["table"]["match"] and playing["status"] == "playing"
    assert not {"record", "seed", "deck"} & set(playing)
    assert [(m["phrase"], m["match_id"]) for m in data["chat_messages"]] == [("good_luck", match)]
    assert len(data["sessions"]) == 2 and all("secret_hash" not in s for s in data["sessions"])
    assert {s["table_code"] for s in data["seats"]} == {
        finished["table"], grant["table"]["code"]}
    assert data["sanctions"] == [] and data["chat_reports"] == []
    # Its registration and the laptop's login, each from its own browser: hashes, no address.
    assert [s["kind"] for s in data["sightings"]] == ["login", "login"]
    assert len({s["browser"] for s in data["sightings"]}) == 2
    assert "127.0.0.1" not in answer.text and data["fair_play_marks"] == []

    # Nothing secret: no password hash, no session secret or its hash, no seat key, no seat
    # token, sealed or not; and nothing of Bruno's but his name at the table.
    text = answer.text
    (password_hash,) = (await _stored(server, sa.select(accounts.c.password_hash)
                                      .where(accounts.c.id == anna_id)))[0]
    sealed = [row.sealed for row in await _stored(server, sa.select(seat_accounts.c.sealed))]
    secrets = [password_hash, PASSWORD, grant["token"], *filter(None, sealed)]
    for lobby in (anna, laptop, bruno):
        cookie = lobby.http.cookies.get(COOKIE)
        assert cookie
        secrets += [cookie, hash_secret(cookie), lobby.http.cookies.get(KEY_COOKIE) or "?"]
    assert [secret for secret in secrets if secret in text] == []
    assert json.loads(text) == data


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
async def test_a_deleted_account_is_a_deleted_player_and_its_name_waits_30_days(
    tmp_path: Path, database: str
) -> None:
    async with contextlib.AsyncExitStack() as stack:
        changes: dict[str, Any] = {"provisional_matches": 1}
        if database == "postgresql":
            changes["db_url"] = await stack.enter_async_context(fresh_postgres())
        server = await stack.enter_async_context(
            running_server(settings_for(tmp_path, **changes)))
        await _delete_and_wait(server)


async def _delete_and_wait(server: Server) -> None:
    async with Lobby(server.url) as anna, Lobby(server.url) as bruno, \
            Lobby(server.url) as phone:
        anna_id = await _register(anna, "Anna")
        await _register(bruno, "Bruno")
        match = await _play_rated_match(anna, bruno, server.url)
        await phone.http.post("/api/account/login", json={"name": "Anna", "password": PASSWORD})
        await anna.play_computer(name="Anna", level="random")
        brunos_before = (await bruno.http.get("/api/profiles/Bruno")).json()

        # A wrong password deletes nothing.
        wrong = await anna.http.request("DELETE", "/api/account",
                                        json={"password": "not my password"})
        assert (wrong.status_code, wrong.json()["detail"]) == (
            403, "the password is wrong: the account was not deleted")
        assert (await anna.http.get("/api/account")).json()["name"] == "Anna"

        deleted = await anna.http.request("DELETE", "/api/account", json={"password": PASSWORD})
        assert deleted.status_code == 204, deleted.text
        assert anna.http.cookies.get(COOKIE) is None

        # Every session is gone, the phone's too, and the password logs nobody in.
        assert (await phone.http.get("/api/account")).json() is None
        login = await phone.http.post("/api/account/login",
                                      json={"name": "Anna", "password": PASSWORD})
        assert (login.status_code, login.json()["detail"]) == (401, "wrong user name or password")
        assert await _stored(server, sa.select(seat_accounts)
                             .where(seat_accounts.c.account_id == anna_id)) == []
        # Where she was seen from goes too (her registration's and her phone's logins).
        assert await _stored(server, sa.select(sightings)
                             .where(sightings.c.account_id == anna_id)) == []
        (row,) = await _stored(server, sa.select(accounts).where(accounts.c.id == anna_id))
        assert (row.name, row.password_hash, row.deleted_at is not None) == ("", "", True)

        # Her name is gone from the match, its replay, Bruno's profile and the leaderboard;
        # the rating her match gave Bruno stays.
        replay = (await bruno.http.get(f"/api/replays/{match}")).json()
        assert [(p["name"], p.get("deleted", False)) for p in replay["players"]] == [
            (None, True), ("Bruno", False)]
        assert [m["name"] for m in replay["chat"]] == [None]
        brunos = (await bruno.http.get("/api/profiles/Bruno")).json()
        (recent,) = brunos["recent"]
        assert [(p["name"], p["deleted"]) for p in recent["players"]] == [
            (None, True), ("Bruno", False)]
        assert brunos["ratings"] == brunos_before["ratings"]
        assert (await bruno.http.get("/api/profiles/Anna")).status_code == 404
        board = (await bruno.http.get("/api/leaderboards/scopa-2")).json()
        assert sorted((s["name"], s["deleted"]) for s in board["top"]) == [
            ("", True), ("Bruno", False)]

        # The name, and what looks like it, waits 30 days for anyone else.
        for name in ("anna", "\u0410nna"):  # the second begins with a Cyrillic A
            early = await phone.http.post("/api/account/register",
                                          json={"name": name, "password": PASSWORD})
            assert early.status_code == 409
            assert f"the user name {name!r} belonged to an account deleted on " in \
                early.json()["detail"]
            assert "it is free again from " in early.json()["detail"]
        moment = now()
        server.app.state.clock = lambda: moment + timedelta(days=29, hours=23)
        assert (await phone.http.post("/api/account/register", json={
            "name": "Anna", "password": PASSWORD})).status_code == 409
        server.app.state.clock = lambda: moment + timedelta(days=30, minutes=1)
        again = await phone.http.post("/api/account/register",
                                      json={"name": "Anna", "password": PASSWORD})
        assert again.status_code == 201, again.text
        assert again.json()["id"] != anna_id
        # The new Anna is not the old one: the old match still shows a deleted player.
        replay = (await bruno.http.get(f"/api/replays/{match}")).json()
        assert replay["players"][0]["name"] is None
        assert (await phone.http.get("/api/profiles/Anna")).json()["recent"] == []


async def test_bad_requests_delete_and_download_nothing(server: Server) -> None:
    async with Lobby(server.url) as anna, httpx.AsyncClient(base_url=server.url) as guest:
        await _register(anna, "Anna")
        for method, path, body in (("GET", "/api/account/export", None),
                                   ("DELETE", "/api/account", {"password": PASSWORD})):
            answer = await guest.request(method, path, json=body)
            assert (answer.status_code, answer.json()["detail"]) == (
                401, "log in first: this needs an account")
        elsewhere = await anna.http.request(
            "DELETE", "/api/account", json={"password": PASSWORD},
            headers={"Origin": "https://evil.example"})
        assert (elsewhere.status_code, elsewhere.json()["detail"]) == (
            403, "this request came from another site: it was refused")
        bodies: list[dict[str, Any]] = [{}, {"password": 7}, {"password": "x" * 5000}]
        for body in bodies:
            bad = await anna.http.request("DELETE", "/api/account", json=body)
            assert bad.status_code == 422 and bad.json()["detail"].startswith("password")
        assert (await anna.http.get("/api/account")).json()["name"] == "Anna"
        # The download is limited per account: it reads every match the account played.
        answers = [(await anna.http.get("/api/account/export")).status_code for _ in range(3)]
        assert answers == [200] * 3
        refused = await anna.http.get("/api/account/export")
        assert refused.status_code == 429
        assert refused.json()["detail"].startswith("too many downloads of your data")


async def test_a_deleted_players_tournament_lines_lose_the_name(server: Server) -> None:
    storage = server.room.storage
    async with Lobby(server.url) as anna, Lobby(server.url) as bruno:
        anna_id = await _register(anna, "Anna")
        bruno_id = await _register(bruno, "Bruno")
        moment = now()
        tournament = await tournament_queries.create(storage, {
            "name": "Friday Swiss", "kind": "swiss", "preset": "scopa", "rounds": 1,
            "starts_at": moment, "status": "open", "created_at": moment})
        assert tournament is not None
        for account_id, name in ((anna_id, "Anna"), (bruno_id, "Bruno")):
            assert await tournament_queries.join(storage, tournament, account_id, name, moment)
        lines = [{"rank": 1, "player": anna_id, "name": "Anna", "points": 1},
                 {"rank": 2, "player": bruno_id, "name": "Bruno", "points": 0}]
        assert await tournament_queries.finish(storage, tournament, lines, moment)
        entries = (await anna.http.get("/api/account/export")).json()["tournament_entries"]
        assert [(e["tournament_id"], e["name"]) for e in entries] == [(tournament, "Anna")]

        deleted = await anna.http.request("DELETE", "/api/account", json={"password": PASSWORD})
        assert deleted.status_code == 204
        shown = (await bruno.http.get(f"/api/tournaments/{tournament}")).json()
        assert [(line["name"], line.get("deleted", False)) for line in shown["podium"]] == [
            ("", True), ("Bruno", False)]
        assert await tournament_queries.players(storage, tournament) == {
            anna_id: "", bruno_id: "Bruno"}
