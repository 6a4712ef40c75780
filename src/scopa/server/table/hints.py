"""The master's hints at a table: whether the table gives any, and the hint for the seat to
move.

A hint is worked out off the event loop, without the table's lock, from the asking seat's own
view, and kept until the next move: this piece holds that cache and the reason a table gives
none (a match whose result counts is its person's own play), so the table's move path knows
nothing of either.
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from ...game import Game
from ..common.protocol import ProtocolError, encode
from ..store import assist_queries
from ..store.storage import Storage
from . import bots
from .turns import Turns

_NO_HINTS: dict[assist_queries.Barred, str] = {
    "tournament": "no hints at a tournament's game: its result must be your own play",
    "daily": "no hints at the daily deal: everyone plays the day's cards on their own",
    "rated": "no hints at a rated table: its result must be your own play",
}
"""The sentence of each ``no_hints`` refusal, by why the table gives none."""


class Advised(Protocol):
    """What the hints read of their table: where it is, its match and its lock. A protocol,
    not the table's class, so they import one way."""

    code: str
    status: str
    match_id: int | None
    lock: asyncio.Lock

    @property
    def version(self) -> int: ...

    @property
    def turns(self) -> Turns: ...

    def match_for(self, seat: int, ref: str | int | None, token: str | None) -> Game: ...


class Hints:
    """A table's hints: why it gives none, and the last one worked out for each seat."""

    def __init__(self, table: Advised, storage: Storage, pool: bots.Bots) -> None:
        self._table = table
        self._storage = storage
        self._pool = pool
        self._hints: dict[int, tuple[tuple[int | None, int], dict[str, Any]]] = {}
        """The last hint worked out for each seat, by the (match, version) it is for."""
        self._barred: tuple[assist_queries.Barred | None] | None = None
        """Why this table gives no hints (None inside: it gives them), once read: a table's
        mode is written before it is dealt, so it is kept from the first read after that."""

    def forget_barred(self) -> None:
        """A match is being dealt: why the table gives no hints is read again."""
        self._barred = None

    async def barred(self) -> assist_queries.Barred | None:
        """Why the master gives no hints here (a rated table, a tournament's game, the daily
        deal: a match whose result counts is its person's own play), or None where it does.
        Read from the database, where whoever made the table wrote its mode before dealing it;
        kept once the table is dealt, so a hint costs no query. A waiting table is read again
        each time: its mode may be written just after it is made."""
        if self._barred is not None:
            return self._barred[0]
        table = self._table
        barred = await assist_queries.hints_barred(self._storage, table.code)
        if table.status != "waiting":
            self._barred = (barred,)
        return barred

    async def hint(
        self, seat: int, ref: str | int | None = None, token: str | None = None
    ) -> str:
        """The ``hint`` message for ``seat``: the master's move for that seat's own view and
        why. Only the seat to move may ask; a refusal raises :class:`ProtocolError`. Nothing
        changes either way, and the answer is meant for the asking connection alone.

        The search runs off the event loop without the table's lock, so the table plays on
        meanwhile; the answer names the version it is for. It is kept until the next move, so
        asking again costs nothing: a client cannot keep a bot thread busy by repeating itself.
        """
        table = self._table
        barred = await self.barred()
        async with table.lock:
            game = table.match_for(seat, ref, token)
            if barred is not None:
                raise ProtocolError("no_hints", _NO_HINTS[barred], ref)
            if seat != game.to_move:
                raise ProtocolError(
                    "not_your_turn",
                    f"no hint: it is not your turn (seat {game.to_move} is to play)",
                    ref,
                )
            job = table.turns.position(game, seat)
            position = (table.match_id, table.version)
        kept = self._hints.get(seat)
        if kept is None or kept[0] != position:
            move, why = await self._pool.advise(job)
            answer = {
                "type": "hint",
                "table": table.code,
                "match": position[0],
                "version": position[1],
                "move": str(move),
                "reason": {"key": why.key, "params": dict(why.params), "text": str(why)},
            }
            kept = self._hints[seat] = (position, answer)
        return encode(kept[1] if ref is None else {**kept[1], "ref": ref})
