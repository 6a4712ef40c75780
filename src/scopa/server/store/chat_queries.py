"""The chat's reads and writes: messages said at tables, reports on them, who may write, and
the moderators' sanctions (issue 23, item 3).

Like :mod:`.account_queries`, each function is one read on one connection or one transaction
through the room's writer (:meth:`.Storage.write`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from .schema import (
    account_matches,
    account_sanctions,
    blocks,
    chat_messages,
    chat_reports,
    seat_accounts,
    sessions,
)
from .storage import Storage, aware


@dataclass(frozen=True)
class Writer:
    """The account holding a seat, as the chat weighs it: how many matches it has finished
    and, if a moderator silenced or banned it, why."""

    account_id: int
    finished: int
    silenced: str | None


async def seat_writer(storage: Storage, code: str, seat: int) -> Writer | None:
    """The account that holds ``seat`` at table ``code``, or None for a guest's seat."""
    async with storage.engine.connect() as connection:
        account_id = (
            await connection.execute(
                sa.select(seat_accounts.c.account_id).where(
                    seat_accounts.c.table_code == code, seat_accounts.c.seat == seat
                )
            )
        ).scalar()
        if account_id is None:
            return None
        return await _weigh(connection, account_id)


async def seat_account(storage: Storage, code: str, seat: int) -> int | None:
    """The account that holds ``seat`` at table ``code``, or None for a guest's seat."""
    async with storage.engine.connect() as connection:
        account_id: int | None = (
            await connection.execute(
                sa.select(seat_accounts.c.account_id).where(
                    seat_accounts.c.table_code == code, seat_accounts.c.seat == seat
                )
            )
        ).scalar()
    return account_id


async def account_writer(storage: Storage, account_id: int) -> Writer:
    """Account ``account_id`` as the chat weighs it: a logged-in spectator's."""
    async with storage.engine.connect() as connection:
        return await _weigh(connection, account_id)


async def _weigh(connection: AsyncConnection, account_id: int) -> Writer:
    finished = (
        await connection.execute(
            sa.select(sa.func.count()).select_from(account_matches).where(
                account_matches.c.account_id == account_id
            )
        )
    ).scalar_one()
    # A ban silences too: the seats a banned account still holds keep the phrases only.
    silenced = (
        await connection.execute(
            sa.select(account_sanctions.c.reason)
            .where(account_sanctions.c.account_id == account_id)
            .order_by(account_sanctions.c.kind)  # "ban" before "silence"
        )
    ).scalars().first()
    return Writer(account_id, finished, silenced)


@dataclass(frozen=True)
class Blockers:
    """Who blocked a speaker: the account speaking (None: a guest), the seats at its table
    whose accounts blocked it, and every account that blocked it (for the spectators)."""

    speaker: int | None
    seats: frozenset[int]
    accounts: frozenset[int]


async def blockers(storage: Storage, code: str, seat: int | None, account: int | None) -> Blockers:
    """Who at table ``code`` blocked the one speaking: ``account`` (a logged-in spectator's or
    a writing seat's) or else the account holding ``seat``."""
    async with storage.engine.connect() as connection:
        if account is None and seat is not None:
            account = (
                await connection.execute(
                    sa.select(seat_accounts.c.account_id).where(
                        seat_accounts.c.table_code == code, seat_accounts.c.seat == seat
                    )
                )
            ).scalar()
        if account is None:
            return Blockers(None, frozenset(), frozenset())
        accounts = frozenset(
            int(value) for value in (
                await connection.execute(
                    sa.select(blocks.c.blocker_id).where(blocks.c.blocked_id == account)
                )
            ).scalars()
        )
        seats: frozenset[int] = frozenset()
        if accounts:
            seats = frozenset(
                int(value) for value in (
                    await connection.execute(
                        sa.select(seat_accounts.c.seat).where(
                            seat_accounts.c.table_code == code,
                            seat_accounts.c.account_id.in_(accounts),
                        )
                    )
                ).scalars()
            )
    return Blockers(account, seats, accounts)


async def blocked_by(storage: Storage, code: str, seat: int | None, account: int | None
                     ) -> frozenset[int]:
    """The accounts a hearer blocked: ``account`` (a logged-in spectator's) or else the
    account holding ``seat`` at table ``code``; none for a guest."""
    query = sa.select(blocks.c.blocked_id)
    if account is not None:
        query = query.where(blocks.c.blocker_id == account)
    elif seat is not None:
        query = query.join(seat_accounts, seat_accounts.c.account_id == blocks.c.blocker_id).where(
            seat_accounts.c.table_code == code, seat_accounts.c.seat == seat
        )
    else:
        return frozenset()
    async with storage.engine.connect() as connection:
        return frozenset(int(value) for value in (await connection.execute(query)).scalars())


async def recent_messages(storage: Storage, code: str, count: int) -> list[dict[str, Any]]:
    """The last ``count`` messages said at table ``code``, oldest first, as the table keeps
    them: ``said``'s fields with the speaker's ``account`` (the version they were said at is
    not stored: ``None``)."""
    async with storage.engine.connect() as connection:
        rows = (
            await connection.execute(
                sa.select(chat_messages)
                .where(chat_messages.c.table_code == code)
                .order_by(chat_messages.c.id.desc())
                .limit(count)
            )
        ).all()
    return [{**said(row), "version": None, "account": row.account_id} for row in reversed(rows)]


async def insert_message(storage: Storage, values: dict[str, Any]) -> int:
    """Store one message said (``chat_messages``' columns but its id); its id."""

    async def run(connection: AsyncConnection) -> int:
        result = await connection.execute(chat_messages.insert().values(**values))
        key = result.inserted_primary_key
        assert key is not None
        return int(key[0])

    return await storage.write(run)


async def match_chat(storage: Storage, match_id: int, reader: int | None = None
                     ) -> list[dict[str, Any]]:
    """What the match's replay shows of its chat to ``reader`` (an account; ``None``: a
    guest): every message everyone saw (the players' words, and the spectators' once the match
    was over), oldest first, as ``said`` shows them, but the words of accounts ``reader``
    blocked, which the table and its history already hid from them (issue 34, item 9)."""
    query = sa.select(chat_messages).where(
        chat_messages.c.match_id == match_id, chat_messages.c.audience == "all")
    if reader is not None:
        blocked = sa.select(blocks.c.blocked_id).where(blocks.c.blocker_id == reader)
        # A guest's words have no account: NOT IN alone would drop them (NULL).
        query = query.where(sa.or_(
            chat_messages.c.account_id.is_(None), chat_messages.c.account_id.not_in(blocked)))
    async with storage.engine.connect() as connection:
        rows = (await connection.execute(query.order_by(chat_messages.c.id))).all()
    return [said(row) for row in rows]


def said(row: Any) -> dict[str, Any]:
    """A stored message as the ``said`` message and the replay show it."""
    shown: dict[str, Any] = {
        "id": row.id, "from": row.seat, "spectator": row.spectator, "name": row.name,
        "audience": row.audience, "at": aware(row.at).isoformat(),
    }
    if row.phrase is not None:
        shown["phrase"] = row.phrase
    else:
        shown["text"] = row.text
    return shown


async def insert_report(storage: Storage, values: dict[str, Any]) -> int | None:
    """Store one report (``chat_reports``' columns but its id); its id, or None when its
    reporter reported the message already: an account (``reporter_account``) or else a guest's
    seat (``reporter_seat``) reports a message once. The unique indexes of ``chat_reports``
    hold it to that when two processes store the same report at the same moment."""
    reporter = values["reporter_account"]
    same = chat_reports.c.message_id == values["message_id"]
    if reporter is not None:
        same &= chat_reports.c.reporter_account == reporter
    else:
        same &= chat_reports.c.reporter_account.is_(None)
        same &= chat_reports.c.reporter_seat == values["reporter_seat"]

    async def run(connection: AsyncConnection) -> int | None:
        if await connection.scalar(sa.select(chat_reports.c.id).where(same)) is not None:
            return None
        result = await connection.execute(chat_reports.insert().values(**values))
        key = result.inserted_primary_key
        assert key is not None
        return int(key[0])

    try:
        return await storage.write(run)
    except sa.exc.IntegrityError:
        return None  # the same report, stored by another process meanwhile


async def reports(storage: Storage) -> list[dict[str, Any]]:
    """Every report, oldest first, with its message and context as they were copied."""
    async with storage.engine.connect() as connection:
        rows = (await connection.execute(sa.select(chat_reports).order_by(chat_reports.c.id))).all()
    return [
        {
            "id": row.id, "table": row.table_code, "match": row.match_id,
            "version": row.version, "reporter_seat": row.reporter_seat,
            "reporter_account": row.reporter_account, "message": row.message,
            "context": row.context, "at": aware(row.at).isoformat(),
        }
        for row in rows
    ]


async def sanction(
    storage: Storage, account_id: int, kind: str, reason: str, moment: datetime
) -> None:
    """Silence or ban ``account_id`` for ``reason`` (again: the new reason stands). A ban also
    ends every session of the account, so it is logged out everywhere at once."""

    async def run(connection: AsyncConnection) -> None:
        await connection.execute(
            account_sanctions.delete().where(
                account_sanctions.c.account_id == account_id, account_sanctions.c.kind == kind
            )
        )
        await connection.execute(
            account_sanctions.insert().values(
                account_id=account_id, kind=kind, reason=reason, at=moment
            )
        )
        if kind == "ban":
            await connection.execute(sessions.delete().where(sessions.c.account_id == account_id))

    await storage.write(run)


async def ban_reason(storage: Storage, account_id: int) -> str | None:
    """Why ``account_id`` is banned, or None when it is not."""
    async with storage.engine.connect() as connection:
        return (
            await connection.execute(
                sa.select(account_sanctions.c.reason).where(
                    account_sanctions.c.account_id == account_id,
                    account_sanctions.c.kind == "ban",
                )
            )
        ).scalar()

