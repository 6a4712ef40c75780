"""Linked accounts and moderators' marks: the sightings' reads and writes, and a mark's and an
unmark's one transaction each (issue 34, items C and E; docs/accounts.md, "Fair play").

Like :mod:`.account_queries`: one query, one read or one transaction a function. A sighting
keeps no address and no browser key, only their HMACs under the room's own key
(:data:`.schema.room_keys`), so that equal ones can be matched and none read back.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final
from weakref import WeakKeyDictionary

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from .schema import (
    account_marks,
    account_matches,
    accounts,
    engine_agreement,
    moderation_acts,
    rating_history,
    rating_refunds,
    ratings,
    room_keys,
    sightings,
)
from .storage import Storage, aware

SIGHTINGS_KEPT: Final = timedelta(days=30)
"""How long a sighting is kept after it was last seen: long enough to link a second account
made for a week of boosting, short enough that the room keeps no lasting trace of where anyone
plays from."""

_keys: WeakKeyDictionary[Storage, bytes] = WeakKeyDictionary()


async def _key(storage: Storage) -> bytes:
    """The room's key for sightings, read once per process and database."""
    key = _keys.get(storage)
    if key is None:
        async with storage.engine.connect() as connection:
            secret = await connection.scalar(
                sa.select(room_keys.c.secret).where(room_keys.c.name == "sightings"))
        key = _keys[storage] = bytes.fromhex(str(secret))
    return key


def _hash(key: bytes, kind: str, value: str) -> str:
    if not value:
        return ""
    return hmac.new(key, f"{kind}:{value}".encode("utf-8", "surrogatepass"),
                    hashlib.sha256).hexdigest()


async def record_sighting(
    storage: Storage, account_id: int, kind: str, table_code: str, address: str,
    browser: str | None, moment: datetime,
) -> None:
    """``account_id`` was seen at ``moment`` (``kind`` ``login``, or ``table`` at its seat of
    ``table_code``) from ``address`` and the browser keyed ``browser`` (None: it had none);
    sightings not seen for :data:`SIGHTINGS_KEPT` go in the same transaction."""
    key = await _key(storage)
    row = {"account_id": account_id, "kind": kind, "table_code": table_code,
           "address": _hash(key, "address", address),
           "browser": _hash(key, "browser", browser or "")}

    async def run(connection: AsyncConnection) -> None:
        await connection.execute(sightings.delete().where(
            sightings.c.last_at < moment - SIGHTINGS_KEPT))
        same = sa.and_(*(sightings.c[name] == value for name, value in row.items()))
        seen = await connection.execute(sightings.update().where(same).values(last_at=moment))
        if not seen.rowcount:
            await connection.execute(sightings.insert().values(
                **row, first_at=moment, last_at=moment))

    await storage.write(run)


@dataclass(frozen=True)
class Shared:
    """What another account shares with the one asked about: ``what`` (``address`` or
    ``browser``), and when the other account was seen from it, first and last."""

    what: str
    first_at: datetime
    last_at: datetime


@dataclass(frozen=True)
class RatedTogether:
    """A rated match the two accounts played together: when, and how it ended for each."""

    match_id: int
    pool: str
    at: datetime
    mine: str
    theirs: str


@dataclass(frozen=True)
class Link:
    """An account that shares an address or a browser with the one asked about."""

    account_id: int
    name: str
    deleted: bool
    shared: list[Shared]
    rated: list[RatedTogether]


async def links(storage: Storage, account_id: int) -> list[Link]:
    """Every account seen from an address or a browser that ``account_id`` was seen from in
    the sightings kept, most recently seen first, with the rated matches the two played
    together; read on one connection."""
    async with storage.engine.connect() as connection:
        mine = (await connection.execute(
            sa.select(sightings.c.address, sightings.c.browser)
            .where(sightings.c.account_id == account_id))).all()
        addresses = {row.address for row in mine if row.address}
        browsers = {row.browser for row in mine if row.browser}
        shared: dict[int, dict[str, list[datetime]]] = {}
        for what, column, values in (("address", sightings.c.address, addresses),
                                     ("browser", sightings.c.browser, browsers)):
            if not values:
                continue
            found = await connection.execute(
                sa.select(sightings.c.account_id, sa.func.min(sightings.c.first_at),
                          sa.func.max(sightings.c.last_at))
                .where(column.in_(values), sightings.c.account_id != account_id)
                .group_by(sightings.c.account_id))
            for other, first, last in found:
                shared.setdefault(other, {})[what] = [aware(first), aware(last)]
        if not shared:
            return []
        names = {row.id: row for row in await connection.execute(
            sa.select(accounts.c.id, accounts.c.name, accounts.c.deleted_at)
            .where(accounts.c.id.in_(shared)))}
        me, them = account_matches.alias("me"), account_matches.alias("them")
        together: dict[int, list[RatedTogether]] = {}
        for row in await connection.execute(
            sa.select(me.c.match_id, me.c.pool, me.c.at, me.c.result,
                      them.c.account_id, them.c.result.label("theirs"))
            .select_from(me.join(them, me.c.match_id == them.c.match_id))
            .where(me.c.account_id == account_id, them.c.account_id.in_(shared),
                   me.c.rated.is_(True))
            .order_by(me.c.at.desc())
        ):
            together.setdefault(row.account_id, []).append(RatedTogether(
                row.match_id, row.pool, aware(row.at), row.result, row.theirs))
    found_links = [
        Link(other, names[other].name, names[other].deleted_at is not None,
             [Shared(what, *times) for what, times in sorted(kinds.items())],
             together.get(other, []))
        for other, kinds in shared.items() if other in names
    ]
    found_links.sort(key=lambda link: (-max(s.last_at.timestamp() for s in link.shared),
                                       link.account_id))
    return found_links


# -- marks ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Refund:
    """Rating given back to an opponent of a marked account: ``mu`` lost in match ``match_id``."""

    account_id: int
    name: str
    pool: str
    match_id: int
    mu: float


@dataclass(frozen=True)
class Act:
    """One moderator's act on an account, as logged."""

    id: int
    account_id: int
    name: str
    act: str
    kind: str
    reason: str
    moderator: str
    at: datetime


async def mark_of(storage: Storage, account_id: int) -> str | None:
    """The kind of mark ``account_id`` carries (``engine``, ``booster``), or None."""
    async with storage.engine.connect() as connection:
        kind = await connection.scalar(
            sa.select(account_marks.c.kind).where(account_marks.c.account_id == account_id))
    return None if kind is None else str(kind)


async def marked(storage: Storage, account_ids: Sequence[int]) -> set[int]:
    """Those of ``account_ids`` that are marked."""
    if not account_ids:
        return set()
    async with storage.engine.connect() as connection:
        return set((await connection.scalars(sa.select(account_marks.c.account_id).where(
            account_marks.c.account_id.in_(account_ids)))).all())


async def marked_among(connection: AsyncConnection, account_ids: set[int]) -> bool:
    """Whether any of ``account_ids`` is marked, read on ``connection`` (a deal's or a
    match's own transaction)."""
    if not account_ids:
        return False
    return await connection.scalar(sa.select(account_marks.c.account_id).where(
        account_marks.c.account_id.in_(account_ids)).limit(1)) is not None


async def mark(
    storage: Storage, account_id: int, kind: str, reason: str, moderator: str,
    moment: datetime, window: timedelta, first_mu: float,
) -> list[Refund] | None:
    """Mark ``account_id`` as ``kind`` and log it, in one transaction, and give each opponent
    back the ``mu`` it lost to the account in rated matches of the ``window`` before
    ``moment`` (a first rated match counts from ``first_mu``, a newcomer's). None, and nothing
    changed, if the account is marked already."""

    async def run(connection: AsyncConnection) -> list[Refund] | None:
        if await marked_among(connection, {account_id}):
            return None
        act = (await connection.execute(moderation_acts.insert().values(
            account_id=account_id, act="mark", kind=kind, reason=reason, moderator=moderator,
            at=moment).returning(moderation_acts.c.id))).scalar_one()
        await connection.execute(account_marks.insert().values(
            account_id=account_id, kind=kind, act_id=act))
        given = await _lost_to(connection, account_id, moment - window, first_mu)
        for refund in given:
            await connection.execute(rating_refunds.insert().values(
                act_id=act, account_id=refund.account_id, match_id=refund.match_id,
                pool=refund.pool, mu=refund.mu))
            await connection.execute(ratings.update().where(
                ratings.c.account_id == refund.account_id, ratings.c.pool == refund.pool
            ).values(mu=ratings.c.mu + refund.mu))
        return given

    return await storage.write(run)


async def _lost_to(
    connection: AsyncConnection, account_id: int, since: datetime, first_mu: float
) -> list[Refund]:
    """The ``mu`` each opponent lost in each rated match against ``account_id`` since
    ``since``: its rating after the match against its rating after its previous one in the
    pool (or ``first_mu``)."""
    marked, other = account_matches.alias("marked"), account_matches.alias("other")
    rows = (await connection.execute(
        sa.select(rating_history.c.match_id, rating_history.c.account_id,
                  rating_history.c.pool, rating_history.c.mu, accounts.c.name)
        .select_from(marked.join(other, sa.and_(
            other.c.match_id == marked.c.match_id, other.c.account_id != marked.c.account_id))
            .join(rating_history, sa.and_(rating_history.c.match_id == other.c.match_id,
                                          rating_history.c.account_id == other.c.account_id))
            .join(accounts, accounts.c.id == other.c.account_id))
        .where(marked.c.account_id == account_id, marked.c.rated.is_(True),
               marked.c.at >= since)
        .order_by(rating_history.c.match_id, rating_history.c.account_id)
    )).all()
    given = []
    for row in rows:
        before = await connection.scalar(
            sa.select(rating_history.c.mu).where(
                rating_history.c.account_id == row.account_id,
                rating_history.c.pool == row.pool, rating_history.c.match_id < row.match_id)
            .order_by(rating_history.c.match_id.desc()).limit(1))
        lost = (first_mu if before is None else float(before)) - row.mu
        if lost > 0:
            given.append(Refund(row.account_id, row.name, row.pool, row.match_id, lost))
    return given


async def unmark(
    storage: Storage, account_id: int, reason: str, moderator: str, moment: datetime
) -> list[Refund] | None:
    """Take ``account_id``'s mark off and log it, and take back what the mark gave its
    opponents, in one transaction; None, and nothing changed, if it carries no mark."""

    async def run(connection: AsyncConnection) -> list[Refund] | None:
        held = (await connection.execute(sa.select(account_marks).where(
            account_marks.c.account_id == account_id))).first()
        if held is None:
            return None
        await connection.execute(moderation_acts.insert().values(
            account_id=account_id, act="unmark", kind=held.kind, reason=reason,
            moderator=moderator, at=moment))
        await connection.execute(account_marks.delete().where(
            account_marks.c.account_id == account_id))
        taken = [
            Refund(row.account_id, row.name, row.pool, row.match_id, row.mu)
            for row in await connection.execute(
                sa.select(rating_refunds, accounts.c.name)
                .join(accounts, accounts.c.id == rating_refunds.c.account_id)
                .where(rating_refunds.c.act_id == held.act_id)
                .order_by(rating_refunds.c.match_id, rating_refunds.c.account_id))
        ]
        for refund in taken:
            await connection.execute(ratings.update().where(
                ratings.c.account_id == refund.account_id, ratings.c.pool == refund.pool
            ).values(mu=ratings.c.mu - refund.mu))
        return taken

    return await storage.write(run)


async def acts(storage: Storage, account_ids: Sequence[int] | None = None) -> list[Act]:
    """The moderators' acts, oldest first: on ``account_ids``, or on every account."""
    query = (sa.select(moderation_acts, accounts.c.name)
             .join(accounts, accounts.c.id == moderation_acts.c.account_id)
             .order_by(moderation_acts.c.at, moderation_acts.c.id))
    if account_ids is not None:
        query = query.where(moderation_acts.c.account_id.in_(account_ids))
    async with storage.engine.connect() as connection:
        return [Act(row.id, row.account_id, row.name, row.act, row.kind, row.reason,
                    row.moderator, aware(row.at))
                for row in await connection.execute(query)]


# -- engine agreement ------------------------------------------------------------------------


@dataclass(frozen=True)
class Unjudged:
    """A rated match's seat of an account, claimed for the master's judgement."""

    match_id: int
    account_id: int
    seat: int


async def claim_unjudged(
    storage: Storage, owner: str, moment: datetime, since: datetime, lapse: timedelta
) -> Unjudged | None:
    """Claim for ``owner`` the oldest rated match (since ``since``, not short) of an account
    that nobody has judged, or whose claim has gone ``lapse`` without its judgement (its process
    died); None when there is none. The key, and the fence on ``claimed_at``, let one process
    win each."""

    async def run(connection: AsyncConnection) -> Unjudged | None:
        lapsed = (await connection.execute(
            sa.select(engine_agreement.c.match_id, engine_agreement.c.account_id,
                      engine_agreement.c.seat, engine_agreement.c.claimed_at)
            .where(engine_agreement.c.judged_at.is_(None),
                   engine_agreement.c.claimed_at < moment - lapse)
            .order_by(engine_agreement.c.claimed_at).limit(1))).first()
        if lapsed is not None:
            taken = await connection.execute(engine_agreement.update().where(
                engine_agreement.c.match_id == lapsed.match_id,
                engine_agreement.c.account_id == lapsed.account_id,
                engine_agreement.c.claimed_at == lapsed.claimed_at,
            ).values(owner=owner, claimed_at=moment))
            if taken.rowcount == 1:
                return Unjudged(lapsed.match_id, lapsed.account_id, lapsed.seat)
        judged = sa.exists().where(engine_agreement.c.match_id == account_matches.c.match_id,
                                   engine_agreement.c.account_id == account_matches.c.account_id)
        found = (await connection.execute(
            sa.select(account_matches.c.match_id, account_matches.c.account_id,
                      account_matches.c.seat)
            .where(account_matches.c.rated.is_(True), account_matches.c.short.is_(False),
                   account_matches.c.at >= since, ~judged)
            .order_by(account_matches.c.at, account_matches.c.match_id).limit(1))).first()
        if found is None:
            return None
        await connection.execute(engine_agreement.insert().values(
            match_id=found.match_id, account_id=found.account_id, seat=found.seat,
            owner=owner, claimed_at=moment))
        return Unjudged(found.match_id, found.account_id, found.seat)

    return await storage.write(run)


async def store_agreement(
    storage: Storage, claim: Unjudged, owner: str, moment: datetime, positions: int,
    matched: int, cost: float, evidence: list[dict[str, object]],
) -> bool:
    """Write ``owner``'s judgement of ``claim``, with the account's shown rating before the
    match; False (nothing written) if another process has taken the claim over."""

    async def run(connection: AsyncConnection) -> bool:
        rating = await connection.scalar(sa.select(rating_history.c.display_before).where(
            rating_history.c.match_id == claim.match_id,
            rating_history.c.account_id == claim.account_id))
        done = await connection.execute(engine_agreement.update().where(
            engine_agreement.c.match_id == claim.match_id,
            engine_agreement.c.account_id == claim.account_id,
            engine_agreement.c.owner == owner, engine_agreement.c.judged_at.is_(None),
        ).values(judged_at=moment, positions=positions, matched=matched, cost=cost,
                 rating=rating, evidence=evidence))
        return done.rowcount == 1

    return await storage.write(run)


@dataclass(frozen=True)
class Judged:
    """One account's judged play in one rated match, as the suspects are read from."""

    account_id: int
    name: str
    match_id: int
    judged_at: datetime
    positions: int
    matched: int
    cost: float
    rating: int | None
    evidence: list[dict[str, object]]


async def judged_since(storage: Storage, since: datetime) -> list[Judged]:
    """Every judgement made since ``since`` of an account neither deleted nor marked, newest
    first."""
    async with storage.engine.connect() as connection:
        rows = await connection.execute(
            sa.select(engine_agreement, accounts.c.name)
            .join(accounts, accounts.c.id == engine_agreement.c.account_id)
            .where(engine_agreement.c.judged_at >= since, accounts.c.deleted_at.is_(None),
                   ~sa.exists().where(account_marks.c.account_id == accounts.c.id))
            .order_by(engine_agreement.c.judged_at.desc(), engine_agreement.c.match_id.desc()))
        return [Judged(row.account_id, row.name, row.match_id, aware(row.judged_at),
                       row.positions, row.matched, row.cost, row.rating, row.evidence or [])
                for row in rows]
