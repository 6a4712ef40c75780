"""Push's rows in the database: the accounts' subscriptions, their choices of kinds and the
events already pushed.

Like the other features' queries, each function is one read on one connection or one
transaction through the room's writer (:meth:`..store.storage.Storage.write`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

import sqlalchemy as sa
import sqlalchemy.exc
from sqlalchemy.ext.asyncio import AsyncConnection

from ..store.schema import push_choices, push_sent, push_subscriptions
from ..store.storage import Storage
from .subscriptions import Subscription

SENT_KEPT: Final = timedelta(days=2)
"""How long an event pushed is remembered: longer than any push lives (12 hours), so a late
second hearing of it is still known."""


@dataclass(frozen=True)
class Stored(Subscription):
    id: int


async def subscribe(storage: Storage, account_id: int, given: Subscription, most: int,
                    moment: datetime) -> None:
    """Keep ``given`` for ``account_id``, seen at ``moment``: a browser that gives its
    subscription again refreshes it, and one given under another account moves to this one
    (the browser's person logged in anew). Past ``most`` the account's least recently seen go.
    """

    async def run(connection: AsyncConnection) -> None:
        values = {"account_id": account_id, "p256dh": given.p256dh, "auth": given.auth,
                  "seen_at": moment}
        changed = await connection.execute(
            push_subscriptions.update().where(push_subscriptions.c.endpoint == given.endpoint)
            .values(**values))
        if not changed.rowcount:
            await connection.execute(push_subscriptions.insert().values(
                endpoint=given.endpoint, created_at=moment, **values))
        beyond = (sa.select(push_subscriptions.c.id)
                  .where(push_subscriptions.c.account_id == account_id)
                  .order_by(push_subscriptions.c.seen_at.desc(), push_subscriptions.c.id.desc())
                  .offset(most))
        stale = [row.id for row in await connection.execute(beyond)]
        if stale:
            await connection.execute(
                push_subscriptions.delete().where(push_subscriptions.c.id.in_(stale)))

    try:
        await storage.write(run)
    except sqlalchemy.exc.IntegrityError:
        # The same endpoint inserted at once by another request: it exists now, so update it.
        await storage.write(run)


async def unsubscribe(storage: Storage, account_id: int, endpoint: str) -> None:
    """Forget the account's subscription at ``endpoint``, if it has one."""

    async def run(connection: AsyncConnection) -> None:
        await connection.execute(push_subscriptions.delete().where(
            push_subscriptions.c.account_id == account_id,
            push_subscriptions.c.endpoint == endpoint))

    await storage.write(run)


async def drop(storage: Storage, subscription_id: int) -> None:
    """Forget a subscription its push service says is gone (404 or 410)."""

    async def run(connection: AsyncConnection) -> None:
        await connection.execute(
            push_subscriptions.delete().where(push_subscriptions.c.id == subscription_id))

    await storage.write(run)


async def recent(storage: Storage, account_id: int, count: int) -> list[Stored]:
    """The account's ``count`` most recently seen subscriptions."""
    async with storage.engine.connect() as connection:
        rows = await connection.execute(
            sa.select(push_subscriptions.c.id, push_subscriptions.c.endpoint,
                      push_subscriptions.c.p256dh, push_subscriptions.c.auth)
            .where(push_subscriptions.c.account_id == account_id)
            .order_by(push_subscriptions.c.seen_at.desc(), push_subscriptions.c.id.desc())
            .limit(count))
        return [Stored(row.endpoint, row.p256dh, row.auth, row.id) for row in rows]


async def count(storage: Storage, account_id: int) -> int:
    async with storage.engine.connect() as connection:
        return int(await connection.scalar(
            sa.select(sa.func.count()).select_from(push_subscriptions)
            .where(push_subscriptions.c.account_id == account_id)) or 0)


async def choices(storage: Storage, account_id: int, kinds: Collection[str]) -> dict[str, bool]:
    """Whether the account takes each of ``kinds``; a kind it never chose is on."""
    async with storage.engine.connect() as connection:
        rows = await connection.execute(
            sa.select(push_choices.c.kind, push_choices.c.enabled)
            .where(push_choices.c.account_id == account_id))
        chosen = {row.kind: bool(row.enabled) for row in rows}
    return {kind: chosen.get(kind, True) for kind in kinds}


async def choose(storage: Storage, account_id: int, chosen: Mapping[str, bool]) -> None:
    """Set the account's choice of each kind in ``chosen``."""

    async def run(connection: AsyncConnection) -> None:
        await connection.execute(push_choices.delete().where(
            push_choices.c.account_id == account_id, push_choices.c.kind.in_(list(chosen))))
        await connection.execute(push_choices.insert(), [
            {"account_id": account_id, "kind": kind, "enabled": enabled}
            for kind, enabled in chosen.items()])

    if chosen:
        await storage.write(run)


async def first_time(storage: Storage, account_id: int, once: str, moment: datetime) -> bool:
    """Note that ``account_id`` is pushed about the event ``once``: True the first time, False
    if some process noted it already (the primary key decides between two at once). Events
    older than :data:`SENT_KEPT` are forgotten in the same transaction."""

    async def run(connection: AsyncConnection) -> bool:
        await connection.execute(push_sent.delete().where(push_sent.c.sent_at < moment - SENT_KEPT))
        known = await connection.scalar(sa.select(push_sent.c.once).where(
            push_sent.c.account_id == account_id, push_sent.c.once == once))
        if known is not None:
            return False
        await connection.execute(
            push_sent.insert().values(account_id=account_id, once=once, sent_at=moment))
        return True

    try:
        return await storage.write(run)
    except sqlalchemy.exc.IntegrityError:
        return False
