"""What a part of the room keeps about an account, declared by the part that keeps it: the
sections of the account's download and what its deletion does to those rows.

The download (:mod:`.export_queries`) and the deletion (:mod:`.deletion_queries`) gather and
erase in one place, on one connection and in one transaction; but each feature's tables are
its own (issue 32, item 3), so each feature declares an :class:`AccountData` in its
``account_data.py`` and hands it over with what it builds (:attr:`..feature.Built.account_data`).
The floors' own (the account, its matches, ratings, chat, sessions, seats) stay in those two
modules. A section is a name and a read; most are :func:`rows_of` a table whose column names
the account, less the columns that are secrets, so a table's rows join the download in one line.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from .storage import aware

Read = Callable[[AsyncConnection, int], Awaitable[Any]]
"""A section's read: the connection and the account's id in, plain JSON values out."""
Erase = Callable[[AsyncConnection, int], Awaitable[None]]
"""A deletion's step for the account's id, in the deletion's transaction."""
Whose = Callable[[int], sa.ColumnElement[bool]]
"""Which rows of a table are an account's, given its id."""


@dataclass(frozen=True)
class Section:
    name: str
    read: Read


@dataclass(frozen=True)
class AccountData:
    """One part's account data: its download's sections, in their order, and its deletion:
    the rows that go (a table and the column that names the account), the copies of the
    account's name that are blanked (a table, the id's column, the name's), and anything more
    (``erase``, run first)."""

    sections: tuple[Section, ...] = ()
    gone: tuple[tuple[sa.Table, str], ...] = ()
    unnamed: tuple[tuple[sa.Table, str, str], ...] = ()
    erase: Erase | None = None

    async def delete(self, connection: AsyncConnection, account_id: int) -> None:
        """The part's share of the account's deletion, on the deletion's connection."""
        if self.erase is not None:
            await self.erase(connection, account_id)
        for table, column, name in self.unnamed:
            await connection.execute(
                table.update().where(table.c[column] == account_id).values({name: ""})
            )
        for table, column in self.gone:
            await connection.execute(table.delete().where(table.c[column] == account_id))


def plain(value: Any) -> Any:
    """A stored value as JSON has it: a moment as ISO 8601 text in UTC, a day (a daily deal's)
    as YYYY-MM-DD, the rest as stored."""
    if isinstance(value, datetime):
        return aware(value).isoformat()
    return value.isoformat() if isinstance(value, date) else value


def rows_of(
    table: sa.Table, whose: str | Whose, *, leave_out: Sequence[str] = (),
    order: str | None = None,
) -> Read:
    """A read of every row of ``table`` that is the account's (its column ``whose`` names the
    account, or ``whose`` says which), with every column but ``leave_out`` (the secrets), in
    ``order`` (a column; the table's key by default)."""
    shown = [c for c in table.c if c.name not in leave_out]
    ordering = [table.c[order]] if order else list(table.primary_key.columns)

    async def read(connection: AsyncConnection, account_id: int) -> list[dict[str, Any]]:
        mine = table.c[whose] == account_id if isinstance(whose, str) else whose(account_id)
        rows = await connection.execute(sa.select(*shown).where(mine).order_by(*ordering))
        return [{key: plain(value) for key, value in row._mapping.items()} for row in rows]

    return read
