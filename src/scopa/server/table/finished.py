"""The end of a match, announced: a table applies and stores its last move and broadcasts its
last state; once its lock is let go, it tells every subscriber that the match is over, then
sends ``over``.

What follows a finished match is not the move's business: ratings, tournament standings, daily
results and the followers' feed each subscribe here, so the move path stays the same however
many there are, and none of them holds the table's lock. lila does the same: its ``Finisher``
and perfs updater consume a finished game; the round does not rate it.

>>> import asyncio
>>> from scopa import Rules
>>> ends = MatchEnds()
>>> async def show(match: FinishedMatch) -> None:
...     print(f"table {match.code}: side {match.winner} wins {match.scores}")
>>> ends.subscribe(show)
>>> match = FinishedMatch("ABC123", 1, Rules.preset("scopa"), ("human", "bot"), (11, 7), 0)
>>> asyncio.run(ends.announce(match))
table ABC123: side 0 wins (11, 7)
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Container, Coroutine
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from ...rules import Rules
from ..common import fairplay
from .listeners import Listener

log = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass(frozen=True)
class FinishedMatch:
    """A match that has just ended at a table: all a subscriber is told."""

    code: str
    """The table's code."""
    match_id: int
    rules: Rules
    kinds: tuple[str, ...]
    """Each seat's kind at the end (``human`` or ``bot``): a person's seat that is a bot's
    now was walked out of."""
    scores: tuple[int, ...]
    """Each side's match points."""
    winner: int
    """The winning side."""
    resigned: int | None = None
    """The seat that resigned the match, if it ended so (:meth:`scopa.Game.resign`): its
    side lost whatever the score, which may be level or in its favour."""
    timed_out: tuple[int, ...] = ()
    """People's seats whose turn's clock ran out and that a stand-in still played for when
    the match ended: their people did not come back to finish it, so they gave it up as
    surely as one who resigned (a person who came back in time is not here)."""
    own_moves: tuple[int, ...] | None = None
    """Each side's moves of its own: its people's (not a stand-in's, nor those of the bot that
    took over a seat walked out of) and its bots' from the deal. None: not counted (a table
    that is told of no such thing, as the example above)."""
    deleted: tuple[int, ...] = ()
    """People's seats whose account was deleted while the match was played: the table resigned
    the match for them, and it rates nobody (issue 34, item 12)."""
    pace: str = "live"
    """How the table's turns were timed (``live`` or ``correspondence``): each pace has its
    own ratings, as lichess keeps one per speed."""

    @property
    def short(self) -> bool:
        """The match ended before each side had made :data:`~..common.fairplay.MIN_MOVES`
        moves of its own: rated for nobody, counted in no tournament (lichess's abort)."""
        return self.own_moves is not None and fairplay.short(self.own_moves)


Subscriber = Callable[[FinishedMatch], Awaitable[None]]


class MatchEnds:
    """Who is told of each finished match, in the order they subscribed."""

    def __init__(self) -> None:
        self._subscribers: list[Subscriber] = []

    def subscribe(self, subscriber: Subscriber) -> None:
        self._subscribers.append(subscriber)

    def unsubscribe(self, subscriber: Subscriber) -> None:
        """``subscriber`` is told no more (what follows a match may be switched off; a test
        switches one off to play a process that died before it was told)."""
        self._subscribers.remove(subscriber)

    async def announce(self, match: FinishedMatch) -> None:
        """Tell every subscriber, one after the other. A subscriber that fails is logged and
        the others are still told: the match is over and stored whatever they do."""
        for subscriber in self._subscribers:
            try:
                await subscriber(match)
            except Exception:
                log.exception("table %s: match %s: a subscriber failed", match.code,
                              match.match_id)


class Announcing(Protocol):
    """What a table's announcer reads of its table: the match it is at, who listens, and its
    tasks. A protocol, not the table's class, so they import one way."""

    match_id: int | None

    @property
    def listeners(self) -> Container[Listener]: ...

    def spawn(self, coroutine: Coroutine[Any, Any, T]) -> asyncio.Task[T]: ...


class Announcer:
    """A table's announcements of the matches that end there, one after the other."""

    def __init__(self, table: Announcing, match_ends: MatchEnds | None) -> None:
        """``match_ends``: the room's announcement of finished matches (None: nobody hears)."""
        self._table = table
        self._match_ends = match_ends
        self._announcing: asyncio.Task[None] | None = None
        """The announcement of the last match that ended here, while its subscribers run: the
        next one waits for it, so subscribers hear of a table's matches in the order they
        ended (a rating applied before the rematch's)."""

    def announce(self, match: FinishedMatch, over: str, listeners: list[Listener]) -> None:
        """Tell the room's subscribers (ratings, social, tournaments, the daily deal) of
        ``match`` in a task of the table's, once its last state is sent and the lock is free:
        a slow subscriber holds up no move, rematch or chat there. Then ``over`` goes to those
        of ``listeners`` still there, so that whoever is told it finds the match's
        consequences (a rating, a standing, the day's result) in place, as before; one who
        connects meanwhile is sent it at once, with the state. Each announcement waits for the
        one before it (a table's matches are told in the order they ended), and
        :class:`MatchEnds` logs a subscriber that fails. A rematch dealt before then (its
        seats saw the table ``over``) makes this ``over`` stale: it is not sent."""
        self._announcing = self._table.spawn(self._announce_after(self._announcing, match, over,
                                                                  listeners))

    async def _announce_after(
        self, previous: asyncio.Task[None] | None, match: FinishedMatch, over: str,
        listeners: list[Listener],
    ) -> None:
        if previous is not None:
            await asyncio.wait({previous})
        if self._match_ends is not None:
            await self._match_ends.announce(match)
        table = self._table
        if table.match_id != match.match_id:
            return  # a rematch was dealt meanwhile: its people play on, an old ``over`` is stale
        for listener in listeners:
            if listener in table.listeners:
                listener.push(over)

    async def wait(self) -> None:
        """Until the last announcement is told (a table closing waits for it, so a rating or a
        standing is not cut off halfway when the storage closes)."""
        if self._announcing is not None:
            await asyncio.wait({self._announcing})
