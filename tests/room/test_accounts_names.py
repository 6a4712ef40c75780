"""User names over real HTTP (issue 21): names that look alike are one account, invisible and
letterless names are refused, login cleans a name as registration does, every name has a
reachable profile, a guest cannot sit under an account's name, and migration 0008 gives the
accounts of an older database their new keys, reporting the look-alikes it finds."""

from __future__ import annotations

import json
import logging
import unicodedata
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from argon2 import PasswordHasher
from sqlalchemy.ext.asyncio import create_async_engine

from scopa.server.accounts.accounts import GUEST_NAMES, legacy_name_key, name_key
from scopa.server.store.schema import accounts
from scopa.server.store.storage import MIGRATIONS, Storage, async_url

from .server_support import (
    Server,
    anyio_backend,
    fresh_postgres,
    running_server,
    settings_for,
    sqlite_url,
)

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]

PASSWORD = "correct horse battery"
NFC_JOSE = unicodedata.normalize("NFC", "José")
NFD_JOSE = unicodedata.normalize("NFD", "José")
CYRILLIC_ANNA = "\u0410nna"
WEB_I18N = Path(__file__).resolve().parents[2] / "src" / "scopa" / "web" / "i18n"



def client(server: Server) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=server.url, timeout=60)


async def register(server: Server, name: str) -> httpx.Response:
    async with client(server) as http:
        return await http.post(
            "/api/account/register", json={"name": name, "password": PASSWORD})


async def count_accounts(server: Server) -> int:
    async with server.room.storage.engine.connect() as connection:
        return int(await connection.scalar(sa.select(sa.func.count()).select_from(accounts)))


@pytest.mark.parametrize(
    ("name", "status", "sentence"),
    [
        (CYRILLIC_ANNA, 409, f"the user name {CYRILLIC_ANNA!r} is taken: choose another"),
        ("\u0391nna", 409, "the user name '\u0391nna' is taken: choose another"),  # Greek
        ("\uff21nna", 409, "the user name 'Anna' is taken: choose another"),  # fullwidth
        ("ANNA", 409, "the user name 'ANNA' is taken: choose another"),
        ("Anna\u034f", 422, "a user name may not hold control or invisible characters"),
        ("Anna\ufe0f", 422, "a user name may not hold control or invisible characters"),
        ("An\u200bna", 422, "a user name may not hold control or invisible characters"),
        ("\u202eAnna", 422, "a user name may not hold control or invisible characters"),
        ("\u3164", 422, "a user name may not hold control or invisible characters"),
        ("\u2800", 422, "a user name may not hold control or invisible characters"),
        ("\u0301\u0301", 422, "a user name needs at least one letter or digit"),
        ("\u0301Bruno", 422, "a user name may not begin with a combining mark"),
        ("Bruno" + "\u0301" * 5, 422,  # NFKC makes the first one "ó"
         "a user name may have at most 3 combining marks on one character"),
        ("!!", 422, "a user name needs at least one letter or digit"),
        ("Guest", 409, "the user name 'Guest' is what guests are called: choose another"),
    ],
)
async def test_a_name_that_looks_like_an_account_or_like_nothing_is_refused(
    server: Server, name: str, status: int, sentence: str
) -> None:
    assert (await register(server, "Anna")).status_code == 201
    answer = await register(server, name)
    assert (answer.status_code, answer.json()["detail"]) == (status, sentence)
    assert await count_accounts(server) == 1


async def test_nfc_and_nfd_jose_are_one_name_and_jose_without_an_accent_another(
    server: Server,
) -> None:
    first = await register(server, NFD_JOSE)
    assert (first.status_code, first.json()["name"]) == (201, NFC_JOSE)  # kept as NFKC
    again = await register(server, NFC_JOSE)
    assert again.status_code == 409
    assert (await register(server, "Jose")).status_code == 201
    assert await count_accounts(server) == 2


def test_every_name_the_web_client_gives_a_guest_is_reserved() -> None:
    """What a guest who typed no name is called, in each language of the web client, is in
    GUEST_NAMES: no account may take it, and no guest is refused it."""
    called = {json.loads(path.read_text())["lobby.guest"] for path in WEB_I18N.glob("*.json")}
    assert called and called <= set(GUEST_NAMES)


async def test_login_cleans_the_name_as_registration_does(server: Server) -> None:
    answer = await register(server, "Anna  Rossi")
    assert answer.json()["name"] == "Anna Rossi"
    for typed in ("Anna  Rossi", "  anna rossi ", "\uff21nna\u3000Rossi"):
        async with client(server) as http:
            login = await http.post(
                "/api/account/login", json={"name": typed, "password": PASSWORD})
            assert (login.status_code, login.json()["name"]) == (200, "Anna Rossi"), typed


async def test_a_name_with_a_slash_has_its_profile_and_an_unknown_one_a_sentence(
    server: Server,
) -> None:
    assert (await register(server, "AC/DC fan")).status_code == 201
    async with client(server) as http:
        found = await http.get("/api/profiles/AC%2FDC%20fan")
        assert (found.status_code, found.json()["name"]) == (200, "AC/DC fan")
        missing = await http.get("/api/profiles/AC%2FDC%20foe")
        assert (missing.status_code, missing.json()["detail"]) == (
            404, "no player is named 'AC/DC foe'")


async def test_a_guest_cannot_sit_under_a_name_that_looks_like_an_account(
    server: Server,
) -> None:
    assert (await register(server, "Anna")).status_code == 201
    async with client(server) as guest:
        for name in ("Anna", " anna ", CYRILLIC_ANNA):
            refused = await guest.post("/api/tables", json={"name": name})
            assert (refused.status_code, refused.json()["detail"]) == (409,
                f"the name {name.strip()!r} belongs to an account: log in to sit as "
                "Anna, or choose another name")
        played = await guest.post("/api/play", json={"name": "ANNA", "level": "random"})
        assert played.status_code == 409
        assert await server.room.open_tables() == []
        made = await guest.post("/api/tables", json={"name": "Bruno"})
        assert made.status_code == 201
        code = made.json()["table"]["code"]
        joined = await guest.post(f"/api/tables/{code}/join", json={"name": "Anna"})
        assert joined.status_code == 409
        shown = (await guest.get(f"/api/tables/{code}")).json()
        assert [seat["name"] for seat in shown["seats"]] == ["Bruno", None]
        # What guests are called by default is always free.
        assert (await guest.post("/api/play", json={"level": "random"})).status_code == 201
    async with client(server) as anna:
        await anna.post("/api/account/login", json={"name": "Anna", "password": PASSWORD})
        mine = await anna.post("/api/tables", json={"name": "Anna"})
        assert (mine.status_code, mine.json()["table"]["seats"][0]["name"]) == (201, "Anna")


# -- migration 0008 on a database with names that look alike -------------------------------


@pytest.fixture(params=["sqlite", "postgresql"])
async def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    if request.param == "sqlite":
        yield sqlite_url(tmp_path / "room.db")
    else:
        async with fresh_postgres() as url:
            yield url


def alembic_config(connection: sa.Connection) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def upgrade_to(revision: str) -> Callable[[sa.Connection], None]:
    return lambda connection: command.upgrade(alembic_config(connection), revision)


def downgrade_to(revision: str) -> Callable[[sa.Connection], None]:
    return lambda connection: command.downgrade(alembic_config(connection), revision)


OLD_ACCOUNTS = [
    (1, "Anna"),
    (2, CYRILLIC_ANNA),  # looks like 1
    (3, NFC_JOSE),
    (4, NFD_JOSE),  # looks like 3 (is 3, in another normal form)
    (5, "Anna\u034f"),  # looks like 1, and would be refused today
    (6, "Bruno"),
]


async def test_migration_0008_keys_names_by_their_look_and_reports_each_clash(
    db_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    engine = create_async_engine(async_url(db_url))
    password_hash = PasswordHasher().hash(PASSWORD)
    moment = datetime(2026, 11, 30, tzinfo=UTC)
    try:
        async with engine.begin() as connection:
            await connection.run_sync(upgrade_to("0007"))
            await connection.execute(accounts.insert(), [
                {"id": number, "name": name, "name_key": name.casefold(),
                 "password_hash": password_hash, "created_at": moment}
                for number, name in OLD_ACCOUNTS])
    finally:
        await engine.dispose()

    caplog.set_level(logging.WARNING, logger="scopa.migrations")
    storage = Storage(db_url)
    await storage.open()
    try:
        async with storage.engine.connect() as connection:
            keys = {row.id: row.name_key for row in await connection.execute(
                sa.select(accounts.c.id, accounts.c.name_key))}
    finally:
        await storage.close()
    reported = [record.getMessage() for record in caplog.records
                if record.name == "scopa.migrations"]
    assert reported == [
        f"name clash: account 2 {CYRILLIC_ANNA!r} looks like account 1 'Anna'; account 2 keeps "
        f"its old key {CYRILLIC_ANNA.casefold()!r} and logs in by its own name as before",
        f"name clash: account 4 {NFD_JOSE!r} looks like account 3 {NFC_JOSE!r}; account 4 keeps "
        f"its old key {NFD_JOSE.casefold()!r} and logs in by its own name as before",
        "account 5 'Anna\u034f': registration would refuse this name today (a user name may not "
        "hold control or invisible characters); it keeps working",
        "name clash: account 5 'Anna\u034f' looks like account 1 'Anna'; account 5 keeps its old "
        "key 'anna\u034f' and logs in by its own name as before",
    ]
    assert keys == {
        1: name_key("Anna"), 2: CYRILLIC_ANNA.casefold(), 3: name_key(NFC_JOSE),
        4: NFD_JOSE.casefold(), 5: "anna\u034f", 6: name_key("Bruno"),
    }

    # Every account still logs in by its own name and has its profile; no new look-alike.
    async with running_server(settings_for(tmp_path, db_url=db_url)) as server:
        for number, name in OLD_ACCOUNTS:
            async with client(server) as http:
                login = await http.post(
                    "/api/account/login", json={"name": name, "password": PASSWORD})
                assert (login.status_code, login.json()["id"]) == (200, number), name
                profile = await http.get(f"/api/profiles/{name}")
                assert profile.json()["id"] == number, name
        assert (await register(server, "ANNA")).status_code == 409
        assert (await register(server, "bruno")).status_code == 409

    # Going back gives every account its old key again.
    engine = create_async_engine(async_url(db_url))
    try:
        async with engine.begin() as connection:
            await connection.run_sync(downgrade_to("0007"))
            old = {row.id: row.name_key for row in await connection.execute(
                sa.select(accounts.c.id, accounts.c.name_key))}
    finally:
        await engine.dispose()
    assert old == {number: legacy_name_key(name) for number, name in OLD_ACCOUNTS}

