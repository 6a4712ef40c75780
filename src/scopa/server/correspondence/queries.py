"""Correspondence play's rows: each match's clock, the offers and seeks, the vacation days.

Every change that two processes could make at once is one compare-and-set, an ``UPDATE``
whose ``WHERE`` names what it read (the version a clock was set at, the alarm's moment, an
offer still open): the process whose update changes the row does the work, the others
nothing. So an alarm rings once, an offer is accepted once and a late move's clock is set
once, whichever processes hear of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from ..store.account_queries import chosen, named
from ..store.schema import (
    accounts,
    correspondence_matches,
    correspondence_offers,
    correspondence_vacations,
    matches,
    seat_accounts,
    seats,
    tables,
)
from ..store.storage import Storage, aware
from ..store.writer import Write
from . import clocks

DUE_BATCH = 200
"""Clocks (or alarms) one sweep of one process takes at most; the next sweep takes more."""


@dataclass(frozen=True)
class Clock:
    """A correspondence match's clock as stored (``correspondence_matches``)."""

    code: str
    days: int
    rated: bool
    status: str
    version: int
    mover: int | None
    turn_at: datetime | None
    deadline: datetime | None
    alarm_at: datetime | None
    vacation: int
    patient: tuple[int, ...]
    overdue: bool


def _clock(row: Any) -> Clock:
    def moment(value: datetime | None) -> datetime | None:
        return None if value is None else aware(value)

    return Clock(row.table_code, row.days, row.rated, row.status, row.version, row.mover,
                 moment(row.turn_at), moment(row.deadline), moment(row.alarm_at), row.vacation,
                 tuple(sorted(row.patient or ())), row.overdue)


async def account_named(storage: Storage, name_key: str, legacy_key: str) -> tuple[int, str] | None:
    """The account (id, name) a typed name finds, or None."""
    async with storage.engine.connect() as connection:
        rows = (await connection.execute(
            sa.select(accounts.c.id, accounts.c.name, accounts.c.name_key)
            .where(named(name_key, legacy_key), accounts.c.deleted_at.is_(None))
        )).all()
    row = chosen(rows, legacy_key)
    return None if row is None else (int(row.id), str(row.name))


async def playing_count(storage: Storage, account_id: int) -> int:
    """The correspondence matches ``account_id`` plays now."""
    async with storage.engine.connect() as connection:
        return int(await connection.scalar(
            sa.select(sa.func.count()).select_from(
                correspondence_matches.join(seat_accounts, seat_accounts.c.table_code
                                            == correspondence_matches.c.table_code)
            ).where(seat_accounts.c.account_id == account_id,
                    correspondence_matches.c.status == "playing")
        ) or 0)


async def start(storage: Storage, code: str, days: int, rated: bool, moment: datetime) -> None:
    """The clock of a match about to be dealt at table ``code``, at version -1 (not dealt):
    its deal's :func:`moved` (version 0) starts it."""

    async def run(connection: AsyncConnection) -> None:
        await connection.execute(correspondence_matches.insert().values(
            table_code=code, days=days, rated=rated, status="playing", version=-1,
            vacation=0, patient=[], overdue=False, created_at=moment,
        ))

    await storage.write(run)


async def clock_of(storage: Storage, code: str) -> Clock | None:
    async with storage.engine.connect() as connection:
        row = (await connection.execute(
            sa.select(correspondence_matches).where(correspondence_matches.c.table_code == code)
        )).first()
    return None if row is None else _clock(row)


def moved_write(code: str, version: int, mover: int, moment: datetime) -> Write:
    """The write of a move that made ``version`` moves at ``code``: ``mover``'s turn from
    ``moment``, the whole days again; it changes nothing if a later move's came first. Stored
    in the move's own transaction (:attr:`..table.room.CardRoom.move_writes`), or alone."""
    where = (correspondence_matches.c.table_code == code,
             correspondence_matches.c.version < version,
             correspondence_matches.c.status == "playing")

    async def run(connection: AsyncConnection) -> bool:
        days = await connection.scalar(sa.select(correspondence_matches.c.days).where(*where))
        if days is None:
            return False
        result = await connection.execute(correspondence_matches.update().where(*where).values(
            version=version, mover=mover, turn_at=moment,
            deadline=clocks.deadline(moment, days), alarm_at=clocks.alarm(moment, days),
            vacation=0, overdue=False,
        ))
        return bool(result.rowcount == 1)

    return run


async def moved(storage: Storage, code: str, version: int, mover: int, moment: datetime) -> bool:
    """:func:`moved_write` alone; whether it changed the clock."""
    return bool(await storage.write(moved_write(code, version, mover, moment)))


def finish_write(code: str, moment: datetime) -> Write:
    """The write that stops the clock of the match at ``code``, ended."""

    async def run(connection: AsyncConnection) -> None:
        await connection.execute(correspondence_matches.update().where(
            correspondence_matches.c.table_code == code,
            correspondence_matches.c.status == "playing",
        ).values(status="over", mover=None, deadline=None, alarm_at=None, overdue=False,
                 finished_at=moment))

    return run


async def finish(storage: Storage, code: str, moment: datetime) -> None:
    await storage.write(finish_write(code, moment))


async def due(storage: Storage, moment: datetime) -> list[Clock]:
    """Clocks of matches in play that ran out by ``moment``, the earliest first."""
    async with storage.engine.connect() as connection:
        rows = await connection.execute(
            sa.select(correspondence_matches)
            .where(correspondence_matches.c.status == "playing",
                   correspondence_matches.c.deadline <= moment)
            .order_by(correspondence_matches.c.deadline).limit(DUE_BATCH))
        return [_clock(row) for row in rows]


async def alarms_due(storage: Storage, moment: datetime) -> list[Clock]:
    """Clocks whose alarm is due by ``moment`` and not rung, the earliest first."""
    async with storage.engine.connect() as connection:
        rows = await connection.execute(
            sa.select(correspondence_matches)
            .where(correspondence_matches.c.alarm_at <= moment)
            .order_by(correspondence_matches.c.alarm_at).limit(DUE_BATCH))
        return [_clock(row) for row in rows]


async def ring(storage: Storage, clock: Clock) -> bool:
    """Take ``clock``'s alarm as rung; whether this call took it (once, among processes)."""
    assert clock.alarm_at is not None

    async def run(connection: AsyncConnection) -> bool:
        result = await connection.execute(correspondence_matches.update().where(
            correspondence_matches.c.table_code == clock.code,
            correspondence_matches.c.version == clock.version,
            correspondence_matches.c.alarm_at == clock.alarm_at,
        ).values(alarm_at=None))
        return bool(result.rowcount == 1)

    return bool(await storage.write(run))


async def wait_late(storage: Storage, clock: Clock) -> bool:
    """The mover of ``clock`` ran out of time and the other waits: the clock stops, overdue,
    until the mover moves or the other claims the win. Whether this call stopped it."""

    async def run(connection: AsyncConnection) -> bool:
        result = await connection.execute(correspondence_matches.update().where(
            correspondence_matches.c.table_code == clock.code,
            correspondence_matches.c.version == clock.version,
            correspondence_matches.c.deadline == clock.deadline,
        ).values(deadline=None, alarm_at=None, overdue=True))
        return bool(result.rowcount == 1)

    return bool(await storage.write(run))


async def claim(storage: Storage, clock: Clock, seat: int, moment: datetime) -> bool:
    """The person at ``seat`` waits no more for ``clock``'s late mover: the clock is due at
    ``moment``, nobody waiting. Whether this call changed it."""

    async def run(connection: AsyncConnection) -> bool:
        result = await connection.execute(correspondence_matches.update().where(
            correspondence_matches.c.table_code == clock.code,
            correspondence_matches.c.version == clock.version,
            correspondence_matches.c.overdue.is_(True),
        ).values(patient=[s for s in clock.patient if s != seat], deadline=moment,
                 overdue=False))
        return bool(result.rowcount == 1)

    return bool(await storage.write(run))


async def set_patient(storage: Storage, code: str, seat: int, patient: bool) -> None:
    """Whether the person at ``seat`` waits for a late opponent (else wins on time)."""

    async def run(connection: AsyncConnection) -> None:
        found = await connection.scalar(sa.select(correspondence_matches.c.patient).where(
            correspondence_matches.c.table_code == code))
        seats_now = set(found or ())
        seats_now = seats_now | {seat} if patient else seats_now - {seat}
        await connection.execute(correspondence_matches.update().where(
            correspondence_matches.c.table_code == code).values(patient=sorted(seats_now)))

    await storage.write(run)


async def seat_holders(storage: Storage, code: str) -> dict[int, int]:
    """The accounts seated at ``code``, by seat."""
    async with storage.engine.connect() as connection:
        rows = await connection.execute(
            sa.select(seat_accounts.c.seat, seat_accounts.c.account_id)
            .where(seat_accounts.c.table_code == code))
        return {int(row.seat): int(row.account_id) for row in rows}


@dataclass(frozen=True)
class Seated:
    """Who plays at a correspondence table: each seat's account and name, and the game."""

    accounts: dict[int, int]
    names: dict[int, str]
    preset: str

    def opponent_of(self, seat: int) -> str:
        return next((name for other, name in sorted(self.names.items()) if other != seat), "")


async def seated(storage: Storage, code: str) -> Seated:
    async with storage.engine.connect() as connection:
        rules = await connection.scalar(sa.select(tables.c.rules).where(tables.c.code == code))
        names = {int(row.seat): row.name or "" for row in await connection.execute(
            sa.select(seats.c.seat, seats.c.name).where(seats.c.table_code == code))}
        held = {int(row.seat): int(row.account_id) for row in await connection.execute(
            sa.select(seat_accounts.c.seat, seat_accounts.c.account_id)
            .where(seat_accounts.c.table_code == code))}
    return Seated(held, names, str((rules or {}).get("name", "scopa")))


async def spend_vacation(
    storage: Storage, account_id: int, year: int, allowed: int
) -> bool:
    """Spend one of ``account_id``'s vacation days of ``year``, if it has one left: 24 hours
    more on every correspondence clock where it is to move. Whether one was spent."""

    async def run(connection: AsyncConnection) -> bool:
        used = await connection.scalar(sa.select(correspondence_vacations.c.used).where(
            correspondence_vacations.c.account_id == account_id,
            correspondence_vacations.c.year == year))
        if (used or 0) >= allowed:
            return False
        if used is None:
            await connection.execute(correspondence_vacations.insert().values(
                account_id=account_id, year=year, used=1))
        else:
            await connection.execute(correspondence_vacations.update().where(
                correspondence_vacations.c.account_id == account_id,
                correspondence_vacations.c.year == year).values(used=used + 1))
        rows = (await connection.execute(
            sa.select(correspondence_matches).select_from(correspondence_matches.join(
                seat_accounts, sa.and_(
                    seat_accounts.c.table_code == correspondence_matches.c.table_code,
                    seat_accounts.c.seat == correspondence_matches.c.mover)))
            .where(seat_accounts.c.account_id == account_id,
                   correspondence_matches.c.status == "playing",
                   correspondence_matches.c.deadline.is_not(None)))).all()
        for row in rows:
            clock = _clock(row)
            assert clock.deadline is not None
            await connection.execute(correspondence_matches.update().where(
                correspondence_matches.c.table_code == clock.code).values(
                deadline=clock.deadline + clocks.DAY, vacation=clock.vacation + 1,
                alarm_at=None if clock.alarm_at is None else clock.alarm_at + clocks.DAY))
        return True

    return bool(await storage.write(run))


async def vacation_used(storage: Storage, account_id: int, year: int) -> int:
    async with storage.engine.connect() as connection:
        return int(await connection.scalar(sa.select(correspondence_vacations.c.used).where(
            correspondence_vacations.c.account_id == account_id,
            correspondence_vacations.c.year == year)) or 0)


@dataclass(frozen=True)
class Game:
    """One of an account's correspondence matches, as its list shows it."""

    code: str
    seat: int
    status: str
    days: int
    rated: bool
    mover: int | None
    deadline: datetime | None
    vacation: int
    overdue: bool
    patient: tuple[int, ...]
    rules: dict[str, Any]
    opponents: tuple[str, ...]
    winner: int | None
    """The side that won, once over."""


async def games_of(storage: Storage, account_id: int, since: datetime) -> list[Game]:
    """``account_id``'s correspondence matches in play, and those that ended after
    ``since``."""
    mine = seat_accounts.alias("mine")
    async with storage.engine.connect() as connection:
        rows = (await connection.execute(
            sa.select(correspondence_matches, mine.c.seat.label("my_seat"), tables.c.rules,
                      matches.c.winner)
            .select_from(correspondence_matches
                         .join(mine, mine.c.table_code == correspondence_matches.c.table_code)
                         .join(tables, tables.c.code == correspondence_matches.c.table_code)
                         .outerjoin(matches, matches.c.id == tables.c.match_id))
            .where(mine.c.account_id == account_id,
                   sa.or_(correspondence_matches.c.status == "playing",
                          correspondence_matches.c.finished_at >= since)))).all()
        codes = [row.table_code for row in rows]
        names: dict[str, list[tuple[int, str]]] = {}
        if codes:
            for seat_row in await connection.execute(
                sa.select(seats.c.table_code, seats.c.seat, seats.c.name)
                .where(seats.c.table_code.in_(codes)).order_by(seats.c.seat)
            ):
                names.setdefault(seat_row.table_code, []).append(
                    (seat_row.seat, seat_row.name or ""))
    found = []
    for row in rows:
        clock = _clock(row)
        found.append(Game(
            clock.code, row.my_seat, clock.status, clock.days, clock.rated, clock.mover,
            clock.deadline, clock.vacation, clock.overdue, clock.patient, row.rules,
            tuple(name for seat, name in names.get(clock.code, []) if seat != row.my_seat),
            row.winner))
    return found


# -- offers ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Offer:
    """An offer of a correspondence match as stored (``correspondence_offers``)."""

    id: str
    kind: str
    from_account: int
    from_name: str
    to_account: int | None
    to_name: str | None
    preset: str
    target: int | None
    look: str
    rated: bool
    days: int
    state: str
    table_code: str | None
    created_at: datetime
    expires_at: datetime


_to = accounts.alias("to_account")
_from = accounts.alias("from_account")
_OFFERS = (
    sa.select(correspondence_offers, _from.c.name.label("from_name"),
              _to.c.name.label("to_name"))
    .select_from(correspondence_offers
                 .join(_from, _from.c.id == correspondence_offers.c.from_account)
                 .outerjoin(_to, _to.c.id == correspondence_offers.c.to_account))
)


def _offer(row: Any) -> Offer:
    return Offer(row.id, row.kind, row.from_account, row.from_name, row.to_account, row.to_name,
                 row.preset, row.target, row.look, row.rated, row.days, row.state,
                 row.table_code, aware(row.created_at), aware(row.expires_at))


async def add_offer(storage: Storage, offer: Offer) -> None:
    async def run(connection: AsyncConnection) -> None:
        await connection.execute(correspondence_offers.insert().values(
            id=offer.id, kind=offer.kind, from_account=offer.from_account,
            to_account=offer.to_account, preset=offer.preset, target=offer.target,
            look=offer.look, rated=offer.rated, days=offer.days, state=offer.state,
            created_at=offer.created_at, expires_at=offer.expires_at))

    await storage.write(run)


async def offer(storage: Storage, offer_id: str) -> Offer | None:
    async with storage.engine.connect() as connection:
        row = (await connection.execute(
            _OFFERS.where(correspondence_offers.c.id == offer_id))).first()
    return None if row is None else _offer(row)


async def open_offers(storage: Storage, account_id: int, moment: datetime) -> list[Offer]:
    """The open offers and seeks ``account_id`` made or was made, the newest first."""
    async with storage.engine.connect() as connection:
        rows = await connection.execute(
            _OFFERS.where(
                sa.or_(correspondence_offers.c.from_account == account_id,
                       correspondence_offers.c.to_account == account_id),
                correspondence_offers.c.state == "open",
                correspondence_offers.c.expires_at > moment)
            .order_by(correspondence_offers.c.created_at.desc()))
        return [_offer(row) for row in rows]


async def open_sent(storage: Storage, account_id: int, moment: datetime) -> int:
    async with storage.engine.connect() as connection:
        return int(await connection.scalar(
            sa.select(sa.func.count()).select_from(correspondence_offers).where(
                correspondence_offers.c.from_account == account_id,
                correspondence_offers.c.state == "open",
                correspondence_offers.c.expires_at > moment)) or 0)


async def seeks_like(
    storage: Storage, offer: Offer, moment: datetime, others_than: Sequence[int]
) -> list[Offer]:
    """Open seeks another account made for the same match as ``offer``, the oldest first."""
    async with storage.engine.connect() as connection:
        rows = await connection.execute(
            _OFFERS.where(
                correspondence_offers.c.kind == "seek",
                correspondence_offers.c.state == "open",
                correspondence_offers.c.preset == offer.preset,
                correspondence_offers.c.days == offer.days,
                correspondence_offers.c.rated == offer.rated,
                (correspondence_offers.c.target == offer.target) if offer.target is not None
                else correspondence_offers.c.target.is_(None),
                correspondence_offers.c.expires_at > moment,
                correspondence_offers.c.from_account.not_in(list(others_than)))
            .order_by(correspondence_offers.c.created_at).limit(20))
        return [_offer(row) for row in rows]


async def settle_offer(
    storage: Storage, offer_id: str, state: str, moment: datetime, table_code: str | None = None
) -> bool:
    """Move an open offer to ``state``; whether this call did (once, among processes)."""

    async def run(connection: AsyncConnection) -> bool:
        result = await connection.execute(correspondence_offers.update().where(
            correspondence_offers.c.id == offer_id,
            correspondence_offers.c.state == "open",
            correspondence_offers.c.expires_at > moment,
        ).values(state=state, table_code=table_code))
        return bool(result.rowcount == 1)

    return bool(await storage.write(run))


async def offer_table(storage: Storage, offer_id: str, table_code: str) -> None:
    async def run(connection: AsyncConnection) -> None:
        await connection.execute(correspondence_offers.update().where(
            correspondence_offers.c.id == offer_id).values(table_code=table_code))

    await storage.write(run)
