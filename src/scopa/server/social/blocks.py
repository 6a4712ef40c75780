"""Who blocked whom, as the rest of the room asks it: the social feature's one answer about
blocks to those above it. The pools ask it before pairing people (the list of parts,
``parts.py``, hands it to the :class:`~scopa.server.pools.matchmaker.Matchmaker`), never the
blocks' table.

The list of parts is read by the command line for its flags, without loading the room: this
module is light, and loads the queries when first asked."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..store.storage import Storage


async def blocked_among(storage: Storage, account_ids: Collection[int]) -> set[frozenset[int]]:
    """The pairs of ``account_ids`` where one blocked the other (either way)."""
    from . import queries

    return await queries.blocked_among(storage, account_ids)
