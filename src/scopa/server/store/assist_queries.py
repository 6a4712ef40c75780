"""Whether the master may advise the people at a table (issue 34, item 4).

A hint during a match that counts is the engine playing for its person: at a rated table (a
rated pool's, a rated challenge's or a rated game against the computer), at a tournament's game
and at the daily deal (where it would be the master advising against the master) the standing it
earns must be the person's own. The reason is read from the table's mode, where the feature
that made the table wrote what it is for, so every process answers alike and this floor reads
no feature's tables.
"""

from __future__ import annotations

from typing import Literal

import sqlalchemy as sa

from .schema import table_modes
from .storage import Storage

Barred = Literal["tournament", "daily", "rated"]


async def hints_barred(storage: Storage, code: str) -> Barred | None:
    """Why table ``code`` gives no hints (its most telling reason: a tournament's game is rated
    too), or None for a casual table, where the master's hints stay. Read from the table's mode,
    where the feature that made it wrote what it is for (``table_modes.purpose``)."""
    async with storage.engine.connect() as connection:
        mode = (await connection.execute(
            sa.select(table_modes.c.rated, table_modes.c.casual, table_modes.c.purpose)
            .where(table_modes.c.table_code == code)
        )).first()
    if mode is None:
        return None
    if mode.purpose == "tournament":
        return "tournament"
    if mode.purpose == "daily":
        return "daily"
    if mode.rated and mode.casual is None:
        return "rated"  # not a match the deal made casual (fairplay.CASUAL)
    return None
