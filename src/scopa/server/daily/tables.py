"""Which tables are the daily deal's: the daily's public answer to the room above it (the
followers' feed lists none of them, docs/daily.md), handed to the social feature by the list of
parts (``parts.py``), since the features never import each other.

The list of parts is read by the command line for its flags, without loading the room: this
module is light, and loads the queries when first asked."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..store.storage import Storage


async def daily_tables(storage: Storage, codes: Collection[str]) -> set[str]:
    """Those of tables ``codes`` where a daily deal is played."""
    from . import queries

    return await queries.daily_tables(storage, codes)
