"""The open-table list among many processes: each keeps the list it last read from the
database while the lobby's version in Redis stays the same, and reads it again as soon as any
process changes a waiting table. Two card rooms on one PostgreSQL and one Redis."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from scopa.server.client import Lobby

from .server_support import anyio_backend, fresh_postgres, fresh_redis, running_server, settings_for

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]


async def test_the_open_list_is_read_again_only_when_a_waiting_table_changed(
    tmp_path: Path,
) -> None:
    async with fresh_postgres() as db, fresh_redis() as redis:
        shared = {"db_url": db, "redis_url": redis}
        async with running_server(
            settings_for(tmp_path, process_name="a", **shared)
        ) as a, Lobby(a.url) as one:
            await one.health()  # started: the second one does not migrate beside it
            async with running_server(
                settings_for(tmp_path, process_name="b", **shared)
            ) as b, Lobby(b.url) as two:
                statements: list[str] = []

                def heard(*args: Any) -> None:
                    statements.append(args[2])

                sa.event.listen(b.room.storage.engine.sync_engine, "before_cursor_execute", heard)
                created = await one.create_table(name="Ada")
                code = created["table"]["code"]
                assert [table["code"] for table in await two.open_tables()] == [code]
                read = len(statements)
                assert read > 0
                # Nothing changed: the second process answers from its copy.
                for _ in range(3):
                    assert [table["code"] for table in await two.open_tables()] == [code]
                assert len(statements) == read
                # A join at the first process: the second one's next answer has it.
                await one.join(code, "Bruno")
                assert await two.open_tables() == []
                assert len(statements) > read
                # A new table made at the second process shows at the first at once too.
                assert await one.open_tables() == []
                again = await two.create_table(name="Cy")
                assert [table["code"] for table in await one.open_tables()] == [
                    again["table"]["code"]
                ]
