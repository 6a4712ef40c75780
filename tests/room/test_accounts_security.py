"""Accounts over real HTTP on loopback and a real SQLite file: registration's bad input, login's
refusals and rate limits, fresh sessions at login, cross-site writes, one account against
another, and no password or session secret in the database, the log or a response."""

from __future__ import annotations

import logging
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa

from scopa.server.accounts.accounts import COOKIE

from .server_support import Server, anyio_backend, running_server, settings_for

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]

PASSWORD = "correct horse battery"



def client(server: Server) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=server.url, timeout=30)


async def register(http: httpx.AsyncClient, name: str, password: str = PASSWORD) -> None:
    answer = await http.post("/api/account/register", json={"name": name, "password": password})
    assert answer.status_code == 201, answer.text


async def test_register_logs_in_with_a_safe_cookie_and_says_nothing_secret(
    server: Server,
) -> None:
    async with client(server) as http:
        answer = await http.post(
            "/api/account/register", json={"name": "  Anna  ", "password": PASSWORD}
        )
        assert answer.status_code == 201
        assert answer.json() == {"id": 1, "name": "Anna"}
        cookie = answer.headers["set-cookie"]
        assert cookie.startswith(f"{COOKIE}=")
        assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
        assert "Secure" not in cookie  # plain http on loopback; https gets Secure
        assert PASSWORD not in answer.text and "argon2" not in answer.text
        me = await http.get("/api/account")
        assert me.json() == {"id": 1, "name": "Anna"}


@pytest.mark.parametrize(
    ("name", "password", "status", "sentence"),
    [
        ("anna", PASSWORD, 409, "the user name 'anna' is taken: choose another"),
        ("x" * 25, PASSWORD, 422, "a user name may have at most 24 characters; this one has 25"),
        ("Ann\x07a", PASSWORD, 422, "a user name may not hold control or invisible characters"),
        ("   ", PASSWORD, 422, "a user name needs at least one character"),
        ("Bruno", "", 422, "the password is empty: choose one of 8 characters or more"),
        ("Bruno", "short", 422, "the password is too short: it needs 8 characters or more"),
        ("Bruno", "p" * 300, 422, "the password is too long: at most 256 characters"),
        ("Bruno", "p" * 5000, 422, "password: string should have at most 4096 characters"),
    ],
)
async def test_bad_registrations_get_a_sentence_and_change_nothing(
    server: Server, name: str, password: str, status: int, sentence: str
) -> None:
    async with client(server) as http:
        await register(http, "Anna")
    async with client(server) as http:
        answer = await http.post("/api/account/register", json={"name": name, "password": password})
        assert (answer.status_code, answer.json()["detail"]) == (status, sentence)
        assert COOKIE not in answer.headers.get("set-cookie", "")
    async with server.room.storage.engine.connect() as connection:
        count = await connection.scalar(sa.text("SELECT count(*) FROM accounts"))
    assert count == 1


async def test_a_wrong_password_is_refused_then_rate_limited_per_account(server: Server) -> None:
    async with client(server) as http:
        await register(http, "Anna")
    async with client(server) as http:
        statuses = []
        for _ in range(5):
            wrong = await http.post(
                "/api/account/login", json={"name": "anna", "password": "not the password"}
            )
            statuses.append(wrong.status_code)
            assert wrong.json() == {"detail": "wrong user name or password", "code": "wrong_login",
                                    "params": {}}
        assert statuses == [401] * 5
        # The right password does not help once the account's attempts are spent.
        limited = await http.post("/api/account/login", json={"name": "ANNA", "password": PASSWORD})
        assert limited.status_code == 429
        assert limited.json()["detail"].startswith("too many login attempts on this account")
        assert COOKIE not in limited.headers.get("set-cookie", "")


async def test_logins_are_rate_limited_per_address(server: Server) -> None:
    async with client(server) as http:
        answers = [
            await http.post("/api/account/login", json={"name": f"nobody {k}", "password": "x"})
            for k in range(11)
        ]
    assert [a.status_code for a in answers] == [401] * 10 + [429]
    assert answers[-1].json()["detail"].startswith("too many login attempts from your address")


async def test_the_session_id_changes_at_login_and_the_old_one_dies(server: Server) -> None:
    async with client(server) as http:
        await register(http, "Anna")
        before = http.cookies[COOKIE]
        answer = await http.post("/api/account/login", json={"name": "Anna", "password": PASSWORD})
        assert answer.status_code == 200
        after = http.cookies[COOKIE]
        assert after != before
        assert (await http.get("/api/account")).status_code == 200
    async with client(server) as stale:
        stale.cookies.set(COOKIE, before)
        assert (await stale.get("/api/account")).json() is None
        answer = await stale.get("/api/account/sessions")
        assert (answer.status_code, answer.json()) == (401, {
            "detail": "log in first: this needs an account", "code": "log_in_first",
            "params": {}})


async def test_a_cross_origin_write_is_refused_and_changes_nothing(server: Server) -> None:
    async with client(server) as http:
        await register(http, "Anna")
        evil = {"Origin": "http://evil.example"}
        body = {"current": PASSWORD, "new": "a brand new password"}
        answer = await http.post("/api/account/password", json=body, headers=evil)
        assert (answer.status_code, answer.json()["detail"]) == (
            403, "this request came from another site: it was refused"
        )
        refused = await http.post("/api/account/logout", headers=evil)
        assert refused.status_code == 403
        same_site = {"Origin": server.url}
        assert (await http.get("/api/account")).status_code == 200
        changed = await http.post("/api/account/password", json=body, headers=same_site)
        assert changed.status_code == 204
    async with client(server) as http:
        old = await http.post("/api/account/login", json={"name": "Anna", "password": PASSWORD})
        assert old.status_code == 401
        new = await http.post(
            "/api/account/login", json={"name": "Anna", "password": "a brand new password"}
        )
        assert new.status_code == 200


async def test_changing_the_password_ends_the_other_sessions(server: Server) -> None:
    async with client(server) as phone, client(server) as laptop:
        await register(phone, "Anna")
        await laptop.post("/api/account/login", json={"name": "Anna", "password": PASSWORD})
        changed = await laptop.post(
            "/api/account/password", json={"current": PASSWORD, "new": "another password"}
        )
        assert changed.status_code == 204
        assert (await phone.get("/api/account")).json() is None
        assert (await laptop.get("/api/account")).status_code == 200
        wrong = await laptop.post(
            "/api/account/password", json={"current": PASSWORD, "new": "yet another one"}
        )
        assert (wrong.status_code, wrong.json()["detail"]) == (
            403, "the current password is wrong: the password was not changed"
        )


async def test_one_account_cannot_see_or_end_anothers_sessions(server: Server) -> None:
    async with client(server) as anna, client(server) as bruno:
        await register(anna, "Anna")
        await register(bruno, "Bruno")
        annas = (await anna.get("/api/account/sessions")).json()
        brunos = (await bruno.get("/api/account/sessions")).json()
        assert [s["current"] for s in annas] == [True]
        assert [s["current"] for s in brunos] == [True]
        assert annas[0]["id"] != brunos[0]["id"]
        assert set(annas[0]) == {"id", "agent", "created_at", "seen_at", "current"}
        gone = await bruno.delete(f"/api/account/sessions/{annas[0]['id']}")
        assert (gone.status_code, gone.json()["detail"]) == (
            404, f"you have no session {annas[0]['id']}"
        )
        assert (await anna.get("/api/account")).json()["name"] == "Anna"
        # Anna may end her own session (as from another device).
        assert (await anna.delete(f"/api/account/sessions/{annas[0]['id']}")).status_code == 204
        assert (await anna.get("/api/account")).json() is None
        assert (await bruno.get("/api/account")).status_code == 200


async def test_no_password_or_session_secret_in_the_database_or_the_log(
    server: Server, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    async with client(server) as http:
        await register(http, "Anna")
        secret = http.cookies[COOKIE]
        await http.post("/api/account/login", json={"name": "Anna", "password": "wrong guess!"})
        await http.post("/api/account/login", json={"name": "Anna", "password": PASSWORD})
        fresh = http.cookies[COOKIE]
        await http.post("/api/account/logout")
        assert (await http.get("/api/account")).json() is None
    async with server.room.storage.engine.connect() as connection:
        stored = await connection.scalar(sa.text("SELECT password_hash FROM accounts"))
    assert stored.startswith("$argon2id$")
    files = b"".join(path.read_bytes() for path in tmp_path.glob("room.db*"))
    # The server's log, every level (the test's own HTTP client logs the cookies it receives).
    log = "\n".join(
        record.getMessage() + repr(record.args)
        for record in caplog.records
        if not record.name.startswith(("httpx", "httpcore"))
    )
    assert "INSERT INTO accounts" in log  # the statements and their parameters were captured
    for clear in (PASSWORD, "wrong guess!", secret, fresh):
        assert clear.encode() not in files
        assert clear not in log


async def test_the_login_limits_are_the_rooms_settings(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, login_per_address="3/minute", login_per_account="1/minute")
    async with running_server(settings) as server, client(server) as http:
        answers = [
            await http.post("/api/account/login", json={"name": f"nobody {k}", "password": "x"})
            for k in range(4)
        ]
    assert [a.status_code for a in answers] == [401] * 3 + [429]
    assert "(at most 3 per 1 minute)" in answers[-1].json()["detail"]
