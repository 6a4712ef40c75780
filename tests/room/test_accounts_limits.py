"""The accounts' limits over real HTTP (issue 21): registrations per address, password checks
per address and per (address, account) pair, so that strangers' wrong guesses never lock the
owner out, and a password change under the login's limits; argon2id off the event loop, a
bounded number at once.

The server trusts ``X-Forwarded-For`` from loopback (uvicorn's default, as behind the nginx of
deploy/), so each test names the client addresses it plays (documentation addresses, RFC 5737:
only a header, no traffic goes to them)."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa

from scopa.server.accounts.accounts import COOKIE, HASH_WORKERS, bounded_hash
from scopa.server.store.schema import accounts

from .server_support import TIMEOUT, Server, anyio_backend, running_server, settings_for

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]

PASSWORD = "correct horse battery"
OWNER = {"X-Forwarded-For": "198.51.100.7"}
STRANGER = {"X-Forwarded-For": "203.0.113.66"}


def address(k: int) -> dict[str, str]:
    return {"X-Forwarded-For": f"203.0.113.{k}"}


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    """The room's default account limits (10 a minute per address, 5 a minute per address and
    account, 5 registrations a minute per address)."""
    async with running_server(settings_for(tmp_path)) as running:
        yield running


def client(server: Server, headers: dict[str, str]) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=server.url, timeout=60, headers=headers)


async def count_accounts(server: Server) -> int:
    async with server.room.storage.engine.connect() as connection:
        return int(await connection.scalar(sa.select(sa.func.count()).select_from(accounts)))


async def test_registrations_have_a_limit_per_address(server: Server) -> None:
    async with client(server, STRANGER) as http:
        made = [
            (await http.post("/api/account/register",
                             json={"name": f"Sock {k}", "password": PASSWORD})).status_code
            for k in range(5)
        ]
        assert made == [201] * 5
        refused = await http.post(
            "/api/account/register", json={"name": "Sock 5", "password": PASSWORD})
        assert (refused.status_code, refused.json()) == (429, {
            "detail": "too many new accounts from your address (at most 5 per 1 minute): wait "
            "a little and try again", "code": "too_many_accounts", "params": {}})
        assert COOKIE not in refused.headers.get("set-cookie", "")
    assert await count_accounts(server) == 5
    async with client(server, OWNER) as http:
        elsewhere = await http.post(
            "/api/account/register", json={"name": "Sock 5", "password": PASSWORD})
        assert elsewhere.status_code == 201
    assert await count_accounts(server) == 6


async def test_wrong_passwords_from_one_address_never_lock_the_owner_out(
    server: Server,
) -> None:
    async with client(server, OWNER) as owner:
        answer = await owner.post(
            "/api/account/register", json={"name": "Anna", "password": PASSWORD})
        assert answer.status_code == 201
    async with client(server, STRANGER) as stranger:
        tries = [
            (await stranger.post("/api/account/login",
                                 json={"name": "anna", "password": f"guess {k}"})).status_code
            for k in range(6)
        ]
    assert tries == [401] * 5 + [429]
    # Strangers at 5 more addresses bring the wrong passwords to 30, the old limit for an hour
    # per account.
    for k in range(5):
        async with client(server, address(k)) as stranger:
            for guess in range(5):
                await stranger.post(
                    "/api/account/login", json={"name": "Anna", "password": f"guess {guess}"})
    async with client(server, OWNER) as owner:
        login = await owner.post(
            "/api/account/login", json={"name": "Anna", "password": PASSWORD})
        assert (login.status_code, login.json()["name"]) == (200, "Anna")


async def test_a_password_change_is_under_the_login_limits(server: Server) -> None:
    async with client(server, OWNER) as owner:
        answer = await owner.post(
            "/api/account/register", json={"name": "Anna", "password": PASSWORD})
        assert answer.status_code == 201
        statuses = []
        for k in range(7):
            wrong = await owner.post(
                "/api/account/password", json={"current": f"guess {k}", "new": "stolen for good"})
            statuses.append(wrong.status_code)
        assert statuses == [403] * 5 + [429] * 2
        assert wrong.json()["detail"].startswith(
            "too many login attempts on this account from your address")
        session = owner.cookies[COOKIE]
    # The password is unchanged, and the limit was the pair's: another address logs in.
    async with client(server, STRANGER) as elsewhere:
        login = await elsewhere.post(
            "/api/account/login", json={"name": "Anna", "password": PASSWORD})
        assert login.status_code == 200
        assert elsewhere.cookies[COOKIE] != session


async def test_the_registration_limit_is_the_rooms_setting(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, register_per_address="1/minute")
    async with running_server(settings) as server, client(server, STRANGER) as http:
        answers = [
            await http.post("/api/account/register",
                            json={"name": f"Sock {k}", "password": PASSWORD})
            for k in range(2)
        ]
    assert [a.status_code for a in answers] == [201, 429]
    assert "(at most 1 per 1 minute)" in answers[-1].json()["detail"]


async def test_hashes_run_off_the_event_loop_a_bounded_number_at_once() -> None:
    """More hashes than HASH_WORKERS asked at once: the event loop goes on while they run, no
    more than HASH_WORKERS run together, and they run below the event loop's priority."""
    lock = threading.Lock()
    running = 0
    peak = 0
    release = threading.Event()
    started = threading.Semaphore(0)
    niceness: list[int] = []

    def work() -> int:
        nonlocal running, peak
        with lock:
            running += 1
            peak = max(peak, running)
            niceness.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
        started.release()
        release.wait(TIMEOUT)
        with lock:
            running -= 1
        return 1

    jobs = [asyncio.create_task(bounded_hash(work)) for _ in range(HASH_WORKERS + 3)]
    for _ in range(HASH_WORKERS):
        assert await asyncio.to_thread(started.acquire, True, TIMEOUT)
    # The loop is free while every worker is busy: this very line runs.
    assert running == HASH_WORKERS and not any(job.done() for job in jobs)
    release.set()
    assert sum(await asyncio.wait_for(asyncio.gather(*jobs), TIMEOUT)) == len(jobs)
    assert peak == HASH_WORKERS
    assert set(niceness) == {min(19, os.getpriority(os.PRIO_PROCESS, 0) + 10)}
