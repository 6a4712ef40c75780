"""Who blocked whom, as the rest of the room asks it: the social feature's one answer about
blocks to those above it. The pools ask it before pairing people (the composition root,
``app.py``, hands it to the :class:`~scopa.server.pools.matchmaker.Matchmaker`), never the
blocks' table."""

from __future__ import annotations

from collections.abc import Collection

from ..store.storage import Storage
from . import queries


async def blocked_among(storage: Storage, account_ids: Collection[int]) -> set[frozenset[int]]:
    """The pairs of ``account_ids`` where one blocked the other (either way)."""
    return await queries.blocked_among(storage, account_ids)
