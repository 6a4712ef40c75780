"""The daily deal's reads and writes: the secret its seeds come from, each day's master play,
the attempts and the day's standings (issue 24, item 2).

Like :mod:`.account_queries`, each function is one read on one connection or one transaction
through the room's writer (:meth:`.Storage.write`).
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Collection
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

import sqlalchemy as sa
import sqlalchemy.exc
from sqlalchemy.ext.asyncio import AsyncConnection

from ..store.schema import (
    daily_attempts,
    daily_deals,
    daily_secrets,
    matches,
    moves,
    seats,
    tables,
)
from ..store.storage import Storage, now

SECRET_ROW = 1


@dataclass(frozen=True)
class Attempt:
    """One attempt at a day's deal, as stored."""

    id: int
    day: date
    account_id: int | None
    name: str
    table_code: str
    match_id: int | None
    won: bool | None
    margin: int | None
    scores: list[int] | None

    @property
    def finished(self) -> bool:
        return self.won is not None


@dataclass(frozen=True)
class Standing:
    """A line of a day's table: an account's finished attempt."""

    account_id: int
    name: str
    won: bool
    margin: int
    scores: list[int]
    match_id: int | None


def _attempt(row: Any) -> Attempt:
    return Attempt(
        row.id, row.day, row.account_id, row.name, row.table_code, row.match_id, row.won,
        row.margin, row.scores,
    )


async def secret(storage: Storage) -> str:
    """The room's daily secret: made once, by whichever process asks first (the other's
    insert, if two ask at once, fails on the key and it reads the winner's)."""
    async with storage.engine.connect() as connection:
        found = await connection.scalar(
            sa.select(daily_secrets.c.secret).where(daily_secrets.c.id == SECRET_ROW)
        )
    if found is not None:
        return str(found)
    made = secrets.token_hex(32)

    async def run(connection: AsyncConnection) -> None:
        await connection.execute(
            daily_secrets.insert().values(id=SECRET_ROW, secret=made, created_at=now())
        )

    with contextlib.suppress(sqlalchemy.exc.IntegrityError):
        await storage.write(run)  # a loser of two at once reads the winner's
    async with storage.engine.connect() as connection:
        return str(
            await connection.scalar(
                sa.select(daily_secrets.c.secret).where(daily_secrets.c.id == SECRET_ROW)
            )
        )


async def start_attempt(
    storage: Storage, day: date, account_id: int | None, name: str, code: str, moment: datetime
) -> bool:
    """Note an attempt at ``day``'s deal at table ``code``; ``False`` (and nothing written) if
    the account has one that day already."""

    async def run(connection: AsyncConnection) -> None:
        await connection.execute(
            daily_attempts.insert().values(
                day=day, account_id=account_id, name=name, table_code=code, started_at=moment
            )
        )

    try:
        await storage.write(run)
    except sqlalchemy.exc.IntegrityError:
        return False
    return True


async def set_match(storage: Storage, code: str, match_id: int) -> None:
    """The attempt at table ``code`` is match ``match_id`` (dealt now)."""

    async def run(connection: AsyncConnection) -> None:
        await connection.execute(
            daily_attempts.update()
            .where(daily_attempts.c.table_code == code)
            .values(match_id=match_id)
        )

    await storage.write(run)


async def finish_attempt(
    storage: Storage, code: str, match_id: int, won: bool, margin: int, scores: list[int],
    moment: datetime,
) -> bool:
    """Match ``match_id`` of table ``code`` ended: if it is that table's attempt, still open,
    this is its result (found by the table, in case the match's id was not noted yet);
    whether it was one."""

    async def run(connection: AsyncConnection) -> bool:
        result = await connection.execute(
            daily_attempts.update()
            .where(
                daily_attempts.c.table_code == code,
                daily_attempts.c.won.is_(None),
                sa.or_(daily_attempts.c.match_id.is_(None),
                       daily_attempts.c.match_id == match_id),
            )
            .values(match_id=match_id, won=won, margin=margin, scores=scores,
                    finished_at=moment)
        )
        return bool(result.rowcount)

    return await storage.write(run)


async def attempt_of_account(storage: Storage, day: date, account_id: int) -> Attempt | None:
    async with storage.engine.connect() as connection:
        row = (
            await connection.execute(
                sa.select(daily_attempts).where(
                    daily_attempts.c.day == day, daily_attempts.c.account_id == account_id
                )
            )
        ).first()
    return None if row is None else _attempt(row)


async def attempt_at(storage: Storage, code: str) -> Attempt | None:
    """The attempt played at table ``code``, if it is a daily table."""
    async with storage.engine.connect() as connection:
        row = (
            await connection.execute(
                sa.select(daily_attempts).where(daily_attempts.c.table_code == code)
            )
        ).first()
    return None if row is None else _attempt(row)


async def daily_tables(storage: Storage, codes: Collection[str]) -> set[str]:
    """Those of tables ``codes`` where an attempt at a daily deal is played."""
    wanted = set(codes)
    if not wanted:
        return set()
    async with storage.engine.connect() as connection:
        found = (
            await connection.execute(
                sa.select(daily_attempts.c.table_code)
                .where(daily_attempts.c.table_code.in_(wanted))
            )
        ).scalars().all()
    return {str(code) for code in found}


async def seat_token_hash(storage: Storage, code: str, seat: int) -> str | None:
    """The hash of the token that holds ``seat`` at table ``code`` now."""
    async with storage.engine.connect() as connection:
        found = await connection.scalar(
            sa.select(seats.c.token_hash).where(seats.c.table_code == code, seats.c.seat == seat)
        )
    return None if found is None else str(found)


async def day_of_match(storage: Storage, match_id: int) -> date | None:
    """The day whose deal match ``match_id`` was dealt from (a player's or the master's), or
    ``None`` for any other match. A match is a day's by its table, so that one whose id was
    not noted yet is sealed all the same."""
    async with storage.engine.connect() as connection:
        found = await connection.scalar(
            sa.select(daily_attempts.c.day)
            .join(matches, matches.c.table_code == daily_attempts.c.table_code)
            .where(matches.c.id == match_id)
        )
        if found is None:
            found = await connection.scalar(
                sa.select(daily_deals.c.day).where(daily_deals.c.master_match == match_id)
            )
    return found


async def standings(storage: Storage, day: date, limit: int) -> list[Standing]:
    """The day's table: the accounts' finished attempts, won before lost, then by the point
    margin, then the earlier finish first."""
    query = (
        sa.select(daily_attempts)
        .where(
            daily_attempts.c.day == day,
            daily_attempts.c.account_id.is_not(None),
            daily_attempts.c.won.is_not(None),
        )
        .order_by(
            daily_attempts.c.won.desc(),
            daily_attempts.c.margin.desc(),
            daily_attempts.c.finished_at,
            daily_attempts.c.id,
        )
        .limit(limit)
    )
    async with storage.engine.connect() as connection:
        rows = (await connection.execute(query)).all()
    return [
        Standing(row.account_id, row.name, bool(row.won), int(row.margin), list(row.scores),
                 row.match_id)
        for row in rows
    ]


async def finished_count(storage: Storage, day: date) -> int:
    """The accounts that finished ``day``'s deal."""
    query = sa.select(sa.func.count()).select_from(daily_attempts).where(
        daily_attempts.c.day == day,
        daily_attempts.c.account_id.is_not(None),
        daily_attempts.c.won.is_not(None),
    )
    async with storage.engine.connect() as connection:
        return int(await connection.scalar(query) or 0)


async def days_played(storage: Storage, account_id: int, since: date) -> list[date]:
    """The days since ``since`` whose deal the account finished, latest first."""
    query = (
        sa.select(daily_attempts.c.day)
        .where(
            daily_attempts.c.account_id == account_id,
            daily_attempts.c.won.is_not(None),
            daily_attempts.c.day >= since,
        )
        .order_by(daily_attempts.c.day.desc())
    )
    async with storage.engine.connect() as connection:
        return list((await connection.scalars(query)).all())


async def master_match(storage: Storage, day: date) -> int | None:
    """The master's own play of ``day``'s deal, once played."""
    async with storage.engine.connect() as connection:
        found = await connection.scalar(
            sa.select(daily_deals.c.master_match).where(daily_deals.c.day == day)
        )
    return None if found is None else int(found)


async def claim_master(
    storage: Storage, day: date, owner: str, moment: datetime, stale_before: datetime
) -> bool:
    """Claim the playing of the master's play of ``day``'s deal for process ``owner``: won when
    nobody has played it and no other process claimed it since ``stale_before`` (a process
    that died while playing it gives way so)."""

    async def run(connection: AsyncConnection) -> bool:
        known = await connection.scalar(
            sa.select(sa.func.count()).select_from(daily_deals).where(daily_deals.c.day == day)
        )
        if not known:
            await connection.execute(
                daily_deals.insert().values(day=day, claimed_by=owner, claimed_at=moment)
            )
            return True
        result = await connection.execute(
            daily_deals.update()
            .where(
                daily_deals.c.day == day,
                daily_deals.c.master_match.is_(None),
                sa.or_(
                    daily_deals.c.claimed_at.is_(None),
                    daily_deals.c.claimed_at < stale_before,
                    daily_deals.c.claimed_by == owner,
                ),
            )
            .values(claimed_by=owner, claimed_at=moment)
        )
        return bool(result.rowcount)

    try:
        return await storage.write(run)
    except sqlalchemy.exc.IntegrityError:
        return False  # another process inserted the day's row at the same moment


async def store_master_play(
    storage: Storage,
    day: date,
    code: str,
    rules: dict[str, Any],
    seed: int,
    players: list[dict[str, Any]],
    played: list[tuple[int, str]],
    winner: int,
    record: dict[str, Any],
    moment: datetime,
) -> int:
    """Store the master's finished play of ``day``'s deal as a finished match of the room, at
    a table of its own (``code``, over, bots in both seats), so that it has a replay like any
    match; returns its id. Raises ``IntegrityError`` if the code is taken."""

    async def run(connection: AsyncConnection) -> int:
        await connection.execute(
            tables.insert().values(
                code=code, rules=rules, look="french", status="over", created_at=moment,
                touched_at=moment,
            )
        )
        await connection.execute(
            seats.insert(),
            [
                {"table_code": code, "seat": p["seat"], "kind": "bot", "name": p["name"],
                 "level": p["level"]}
                for p in players
            ],
        )
        result = await connection.execute(
            matches.insert().values(
                table_code=code, rules=rules, seed=seed, deck=None, players=players,
                status="over", winner=winner, record=record, started_at=moment,
                finished_at=moment,
            )
        )
        key = result.inserted_primary_key
        assert key is not None
        match_id = int(key[0])
        await connection.execute(
            tables.update().where(tables.c.code == code).values(match_id=match_id)
        )
        await connection.execute(
            moves.insert(),
            [
                {"match_id": match_id, "number": number, "seat": seat, "move": move}
                for number, (seat, move) in enumerate(played, start=1)
            ],
        )
        await connection.execute(
            daily_deals.update().where(daily_deals.c.day == day).values(master_match=match_id)
        )
        return match_id

    return await storage.write(run)
