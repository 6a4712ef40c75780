"""Issue 34, item 7: the database holds a chat report to once per reporter and message (an
account, or else a guest's seat), even between two of the room's processes writing it at the
same moment; and migration 0016 leaves a database that holds duplicates with the earliest of
each, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.ext.asyncio import create_async_engine

from scopa.server.store import chat_queries
from scopa.server.store.schema import chat_reports
from scopa.server.store.storage import MIGRATIONS, Storage, async_url, now

from .server_support import anyio_backend, fresh_postgres, sqlite_url

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]


@pytest.fixture(params=["sqlite", "postgresql"])
async def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    if request.param == "sqlite":
        yield sqlite_url(tmp_path / "room.db")
    else:
        async with fresh_postgres() as url:
            yield url


def report(message_id: int, seat: int | None, account: int | None, **more: Any
           ) -> dict[str, Any]:
    """A report's row (its columns but the id)."""
    return {"message_id": message_id, "table_code": "ABCDEF", "match_id": None,
            "version": None, "reporter_seat": seat, "reporter_account": account,
            "message": {}, "context": [], "at": now(), **more}


async def test_two_processes_storing_one_report_at_once_keep_it_once(db_url: str) -> None:
    """Two writers (two processes of a room, each with its own storage) that may both find
    none stored yet and both write it leave one row, and each is told which it was."""
    first = Storage(db_url)
    await first.open()
    second = Storage(db_url)
    await second.open()
    try:
        for seat, account in ((1, None), (None, 3), (0, 3)):
            stored = await asyncio.gather(*(
                chat_queries.insert_report(storage, report(7, seat, account))
                for storage in (first, second, first, second)))
            assert sum(answer is not None for answer in stored) == (
                0 if (seat, account) == (0, 3) else 1), stored
        # Account 3 reported message 7 already (watching), so its seat's report is the same
        # reporter's; another message, or another guest's seat, is a report of its own.
        assert await chat_queries.insert_report(first, report(8, None, 3)) is not None
        assert await chat_queries.insert_report(first, report(7, 0, None)) is not None
        assert len(await chat_queries.reports(first)) == 4
    finally:
        await second.close()
        await first.close()


def _upgrade_to(revision: str) -> Callable[[sa.Connection], None]:
    def run(connection: sa.Connection) -> None:
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        config.attributes["connection"] = connection
        command.upgrade(config, revision)

    return run


async def test_the_migration_keeps_the_earliest_of_each_reporters_reports(db_url: str) -> None:
    engine = create_async_engine(async_url(db_url))
    moment = datetime(2026, 12, 1, 12, tzinfo=UTC)
    rows = [
        report(1, 1, None, at=moment),  # a guest's seat, three times: the first stays
        report(1, 1, None, at=moment),
        report(1, 0, 5, at=moment),  # an account at its seat, then watching: the first stays
        report(1, None, 5, at=moment),
        report(1, 1, None, at=moment),
        report(2, 1, None, at=moment),  # another message: its own
        report(1, None, None, at=moment),  # guests watching, as was allowed: all kept
        report(1, None, None, at=moment),
    ]
    try:
        async with engine.begin() as connection:
            await connection.run_sync(_upgrade_to("0015"))
            await connection.execute(chat_reports.insert(), rows)
            await connection.run_sync(_upgrade_to("head"))
        async with engine.connect() as connection:
            kept = (await connection.execute(
                sa.select(chat_reports.c.id).order_by(chat_reports.c.id))).scalars().all()
            assert list(kept) == [1, 3, 6, 7, 8]
            with pytest.raises(sa.exc.IntegrityError):
                await connection.execute(chat_reports.insert().values(report(2, 1, None)))
    finally:
        await engine.dispose()
