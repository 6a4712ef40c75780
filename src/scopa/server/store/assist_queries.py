"""Whether the master may advise the people at a table (issue 34, item 4).

A hint during a match that counts is the engine playing for its person: at a rated table (a
rated pool's, a rated challenge's or a rated game against the computer), at a tournament's game
and at the daily deal (where it would be the master advising against the master) the standing it
earns must be the person's own. The reason is read from the tables that already say what a
table is for, so nothing new is stored and every process answers alike.
"""

from __future__ import annotations

from typing import Literal

import sqlalchemy as sa

from .schema import daily_attempts, table_modes, tournament_games
from .storage import Storage

Barred = Literal["tournament", "daily", "rated"]


async def hints_barred(storage: Storage, code: str) -> Barred | None:
    """Why table ``code`` gives no hints (its most telling reason: a tournament's game is rated
    too), or None for a casual table, where the master's hints stay."""
    async with storage.engine.connect() as connection:
        if await connection.scalar(
            sa.select(tournament_games.c.id).where(tournament_games.c.table_code == code)
        ) is not None:
            return "tournament"
        if await connection.scalar(
            sa.select(daily_attempts.c.id).where(daily_attempts.c.table_code == code)
        ) is not None:
            return "daily"
        mode = (await connection.execute(
            sa.select(table_modes.c.rated, table_modes.c.casual)
            .where(table_modes.c.table_code == code)
        )).first()
        if mode is not None and mode.rated and mode.casual is None:
            return "rated"  # not a match the deal made casual (fairplay.CASUAL)
    return None
