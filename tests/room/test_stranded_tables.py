"""A seat's clock runs whether or not anyone watches its table (issue 35, item 2): among
processes, a table in play that no process holds any more (its process stopped and gave its
leases back) is taken by another's sweep, whose clock and stand-ins play for the people away.
Nobody opens the table in this test: its moves are read from the database."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from scopa.server.client import Lobby
from scopa.server.store.schema import moves

from .server_support import (
    anyio_backend,
    fresh_postgres,
    fresh_redis,
    running_server,
    settings_for,
    until,
)

__all__ = ["anyio_backend"]

pytestmark = pytest.mark.anyio


async def test_a_table_its_process_let_go_plays_on_with_nobody_watching(tmp_path: Path) -> None:
    async with fresh_postgres() as db, fresh_redis() as redis:
        shared = {"db_url": db, "redis_url": redis, "turn_timeout": 0.2, "sweep_every": 0.1}
        first = running_server(settings_for(tmp_path, process_name="a", **shared))
        a = await first.__aenter__()
        try:
            async with Lobby(a.url) as lobby:
                await lobby.health()  # migrated: the second process does not migrate beside it
                made = await lobby.create_table(players=2, name="Ada")
                code = made["table"]["code"]
                await lobby.join(code, "Bob")
                await lobby.start(code, made["token"])
        except BaseException:
            await first.__aexit__(None, None, None)
            raise
        async with running_server(settings_for(tmp_path, process_name="b", **shared)) as b:
            # "a" stops (a deploy, say) and gives its leases back; nobody has the table open.
            await first.__aexit__(None, None, None)

            async def played() -> bool:
                async with b.room.storage.engine.connect() as connection:
                    count = await connection.scalar(
                        sa.select(sa.func.count()).select_from(moves))
                return bool(count and count >= 2)

            await until(played, "the stand-ins play both people's turns")
            assert code in b.room.tables
