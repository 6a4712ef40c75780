"""The accounts' migration upgrades a database of the previous version in place, on SQLite and
PostgreSQL: its tables, seats, matches and moves stay as they were, and the card room opens it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.ext.asyncio import create_async_engine

from scopa import Rules
from scopa.server.store.schema import matches, moves, seats, tables
from scopa.server.store.storage import MIGRATIONS, Storage, async_url

from .server_support import anyio_backend, fresh_postgres, sqlite_url

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]

PREVIOUS = "0002"
"""The last revision before accounts."""


@pytest.fixture(params=["sqlite", "postgresql"])
async def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    if request.param == "sqlite":
        yield sqlite_url(tmp_path / "scopa.db")
    else:
        async with fresh_postgres() as url:
            yield url


def _upgrade_to(revision: str) -> Callable[[sa.Connection], None]:
    def run(connection: sa.Connection) -> None:
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        config.attributes["connection"] = connection
        command.upgrade(config, revision)

    return run


async def test_a_previous_database_upgrades_in_place_keeping_its_matches(db_url: str) -> None:
    engine = create_async_engine(async_url(db_url))
    moment = datetime(2026, 11, 29, 12, tzinfo=UTC)
    rules = Rules.preset("scopa").to_dict()
    players = [{"seat": 0, "kind": "human", "name": "Ada", "level": None},
               {"seat": 1, "kind": "bot", "name": "Bot 2", "level": "expert"}]
    try:
        async with engine.begin() as connection:
            await connection.run_sync(_upgrade_to(PREVIOUS))
            await connection.execute(tables.insert().values(
                code="ABCDEF", rules=rules, look="french", status="playing", match_id=1,
                created_at=moment, touched_at=moment))
            await connection.execute(seats.insert(), [
                {"table_code": "ABCDEF", "seat": 0, "kind": "human", "name": "Ada",
                 "level": None, "token_hash": "0" * 64},
                {"table_code": "ABCDEF", "seat": 1, "kind": "bot", "name": "Bot 2",
                 "level": "expert", "token_hash": None}])
            await connection.execute(matches.insert().values(
                id=1, table_code="ABCDEF", rules=rules, seed=7, deck=None, players=players,
                status="playing", winner=None, record=None, started_at=moment))
            await connection.execute(moves.insert().values(match_id=1, number=1, seat=0, move="5D"))
    finally:
        await engine.dispose()

    storage = Storage(db_url)
    await storage.open()
    try:
        stored = await storage.load_table("ABCDEF")
        assert stored is not None and stored.match is not None
        assert (stored.status, stored.match.seed, stored.match.moves) == ("playing", 7, ["5D"])
        assert [(seat.kind, seat.name) for seat in stored.seats] == [
            ("human", "Ada"), ("bot", "Bot 2")]
        async with storage.engine.connect() as connection:
            names = await connection.run_sync(lambda sync: sa.inspect(sync).get_table_names())
            kept = await connection.scalar(sa.select(sa.func.count()).select_from(matches))
        assert {"accounts", "sessions", "ratings", "rating_history", "reviews"} <= set(names)
        assert kept == 1
    finally:
        await storage.close()


def test_no_migration_imports_the_live_code() -> None:
    """A migration is frozen: what it does to an old database is what it did the day it was
    written, so it imports nothing of ``scopa`` (at module level or inside a function), only
    alembic, SQLAlchemy, the standard library and pinned data such as ICU's."""
    import ast

    found = []
    for path in sorted((MIGRATIONS / "versions").glob("v*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] if node.level == 0 else ["." * node.level]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            found += [f"{path.name}: {name}" for name in names
                      if name.startswith(("scopa", ".")) or name == "scopa"]
    assert found == []


async def test_tables_made_before_purposes_keep_what_they_were_for(db_url: str) -> None:
    """Migration 0026 marks the tables of tournaments' games and of the daily deal made before
    it, so their hints stay barred and a tournament's rated games stay out of the pair cap."""
    engine = create_async_engine(async_url(db_url))
    moment = datetime(2026, 12, 6, 12, tzinfo=UTC)
    try:
        async with engine.begin() as connection:
            await connection.run_sync(_upgrade_to("0025"))
            await connection.execute(sa.text(
                "INSERT INTO table_modes (table_code, rated) VALUES ('TOURN1', TRUE), "
                "('RATED1', TRUE), ('DAILY1', FALSE)"))
            await connection.execute(sa.text(
                "INSERT INTO tournament_games (tournament_id, round, first, table_code, "
                "paired_at) VALUES (1, 1, 1, 'TOURN1', :at), (1, 1, 2, NULL, :at)"),
                {"at": moment})
            await connection.execute(sa.text(
                "INSERT INTO daily_attempts (day, name, table_code, started_at) VALUES "
                "(:day, 'Ada', 'DAILY1', :at), (:day, 'Bea', 'DAILY2', :at)"),
                {"day": moment.date(), "at": moment})
            await connection.run_sync(_upgrade_to("head"))
            rows = (await connection.execute(sa.text(
                "SELECT table_code, rated, purpose FROM table_modes ORDER BY table_code"))).all()
        assert [(row[0], bool(row[1]), row[2]) for row in rows] == [
            ("DAILY1", False, "daily"), ("DAILY2", False, "daily"), ("RATED1", True, None),
            ("TOURN1", True, "tournament")]
    finally:
        await engine.dispose()
