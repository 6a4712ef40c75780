"""Offline play's matches as the room above the features reads them: an account's latest, for
its profile's list of matches (:mod:`..profiles`), through this module rather than the
feature's queries."""

from __future__ import annotations

from ...rules import Rules
from ..accounts.ratings import pool_of
from ..store.rating_queries import RecordedMatch
from ..store.storage import Storage
from . import queries
from .uploads import players


async def recent(storage: Storage, account_id: int, count: int) -> list[RecordedMatch]:
    """The account's ``count`` latest offline matches, latest first, as the room's matches are
    listed: the pool of their game and format, never rated, the bots in their seats. Their ids
    are offline play's own (``/api/offline/matches/{id}``), not the room's."""
    return [
        RecordedMatch(row.id, row.seat, pool_of(Rules.from_dict(row.rules)), False, row.result,
                      row.finished_at, players(row.seat, row.opponents, row.name), row.rules)
        for row in await queries.recent(storage, account_id, count)
    ]
