"""The daily deal's rules of play: who may play a day's deal, at which table, what its end
records, who may see its matches, and the master's own play of it.

Each UTC day has one seed (:mod:`.seeds`), and so one deck for every round of the match, for
everyone: a daily table is a table of the room like any (:meth:`.CardRoom.create`), the person
at seat 0 and the master at seat 1, dealt from the day's seed (:attr:`.Table.next_seed`). Its
end comes through ``room.match_ends`` like every match's. An account plays a day's deal once
(the attempts' unique key, so two requests at once on two processes cannot both start one),
and an unfinished attempt resumes; guests play it as often as they like, off the day's table.

The daily matches are not rated: one deal against the master is a test of the day, not a
game between players, and the day's table ranks it on its own.

Nothing shows the seed before the day is over: the room's records of the day's matches are
sealed (:meth:`DailyDeals.seal`) until then, and the replay opens early only to the account
that has finished that day's deal (the replay shows the cards, never the seed), since a replay
of the deal is the deck itself.

The master's own play of the deal (the master in the player's seat against the master) is
played once a day, move by move in the bots' workers, and stored as a finished match of the
room, with a replay like any: the master's choices are not the same twice (it samples guesses
at the hidden cards), so every player must be compared with the one play, and a match costs
real CPU (about half a second to a second of it for a match to 11), which the room spends once
a day, not once a request. One process plays it, under a claim in the database; a claim left
by a process that died runs out.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

import sqlalchemy.exc

from ...game import Game
from ...rules import Rules
from ...view import Play
from ..common.errors import LobbyError
from ..common.services import Service
from ..common.tokens import new_table_code
from ..store import rating_queries
from ..store.storage import now
from ..table import bots
from ..table.finished import FinishedMatch
from ..table.room import CardRoom
from . import queries as daily_queries
from . import seeds
from .queries import Attempt

log = logging.getLogger(__name__)

RULES = Rules.preset("scopa", players=2, target=11)
"""The daily deal's game: two-player scopa to 11."""
MASTER = "master"
PLAYER_SEAT = 0
MASTER_SEAT = 1
MASTER_CLAIM = timedelta(minutes=10)
"""How long a process's claim on playing the master's play holds: far more than a match takes,
so that only a dead process's claim runs out."""
STREAK_DAYS = 366
"""The longest streak counted: the days read back for one."""
CODE_ATTEMPTS = 20


def streak(days: Sequence[date], today: date) -> int:
    """The days in a row, up to today, on which the deal was played (``days``, latest first):
    a streak that reached yesterday is still alive today, until today is over.

    >>> d = date(2026, 12, 2)
    >>> streak([d, d - timedelta(1), d - timedelta(2), d - timedelta(5)], d)
    3
    >>> streak([d - timedelta(1), d - timedelta(2)], d), streak([d - timedelta(2)], d)
    (2, 0)
    """
    count = 0
    expected = today if days and days[0] == today else today - timedelta(days=1)
    for day in days:
        if day != expected:
            break
        count += 1
        expected -= timedelta(days=1)
    return count


@dataclass(frozen=True)
class Started:
    """A seat at a day's deal: the table as the lobby shows it, and the person's seat and
    token."""

    table: dict[str, Any]
    seat: int
    token: str


class DailyDeals:
    """The daily deal of one card room process. ``clock`` says what time it is (tests set it
    to play tomorrow's deal today)."""

    def __init__(self, room: CardRoom, clock: Callable[[], datetime] = now) -> None:
        self.room = room
        self.clock = clock
        self._secret: str | None = None
        self._masters: dict[date, asyncio.Task[None]] = {}
        """The master's plays this process is playing, by day."""

    def today(self) -> date:
        return self.clock().astimezone(UTC).date()

    def is_over(self, day: date) -> bool:
        return day < self.today()

    @staticmethod
    def ends_at(day: date) -> datetime:
        return datetime.combine(day + timedelta(days=1), time(), UTC)

    async def seed(self, day: date) -> int:
        """``day``'s seed: never to leave the server before the day is over."""
        if self._secret is None:
            self._secret = await daily_queries.secret(self.room.storage)
        return seeds.day_seed(self._secret, day)

    async def close(self) -> None:
        for task in self._masters.values():
            task.cancel()
        for task in self._masters.values():
            with contextlib.suppress(asyncio.CancelledError):
                await task

    # -- playing ---------------------------------------------------------------------------

    async def start(self, account_id: int | None, name: str, look: str) -> Started:
        """A new attempt at today's deal for ``account_id`` (``None``: a guest), dealt at once:
        a 409 with a sentence if the account has played today's deal already."""
        day = self.today()
        storage = self.room.storage
        if account_id is not None:
            known = await daily_queries.attempt_of_account(storage, day, account_id)
            if known is not None:
                raise self.second_attempt(known)
        table, seat, token = await self.room.create(RULES, look, {MASTER_SEAT: MASTER}, name)
        assert seat is not None and token is not None
        seated = table.seats[seat].name or name
        if not await daily_queries.start_attempt(
            storage, day, account_id, seated, table.code, self.clock()
        ):
            # The same account's other request started one first: this table is never
            # dealt, and expires like any table nobody starts.
            assert account_id is not None
            known = await daily_queries.attempt_of_account(storage, day, account_id)
            assert known is not None
            raise self.second_attempt(known)
        table.next_seed = await self.seed(day)
        await rating_queries.set_rated(storage, table.code, False, purpose="daily")
        await table.start_now()
        assert table.match_id is not None
        await daily_queries.set_match(storage, table.code, table.match_id)
        self.master_play(day)
        return Started(table.info(), seat, token)

    def second_attempt(self, attempt: Attempt) -> LobbyError:
        """The refusal of a new attempt beside ``attempt``: played, or being played."""
        if attempt.finished:
            return LobbyError(
                409, "you have played today's deal already: one attempt a day, and the next "
                "deal is dealt at 00:00 UTC",
                code="daily_played"
            )
        return LobbyError(409, f"you are playing today's deal at table {attempt.table_code}: "
                          "resume it in the browser you began it in",
                          code="daily_playing", params={"table": attempt.table_code})

    async def match_over(self, match: FinishedMatch) -> None:
        """The subscriber to the room's finished matches: the end of an attempt is its result
        (a player who walked out and left the match to a stand-in lost it)."""
        side = match.rules.side_of(PLAYER_SEAT)
        other = 1 - side
        stayed = match.kinds[PLAYER_SEAT] == "human"
        try:
            await daily_queries.finish_attempt(
                self.room.storage, match.code, match.match_id, stayed and match.winner == side,
                match.scores[side] - match.scores[other], list(match.scores), self.clock(),
            )
        except Exception:
            log.exception("table %s: the daily deal's result was not stored", match.code)

    # -- what may be seen, and when -------------------------------------------------------

    async def seal(self, match_id: int, replay_for: int | None) -> str | None:
        """The room's record seal: a match of a day that is not over is hidden, but its replay
        to an account that has finished that day's deal."""
        day = await daily_queries.day_of_match(self.room.storage, match_id)
        if day is None or self.is_over(day):
            return None
        if replay_for is not None and await self.has_played(day, replay_for):
            return None
        return (f"this match is the daily deal of {day.isoformat()}: it is shown once that day "
                "is over (00:00 UTC), or to a logged-in player who has played it")

    async def has_played(self, day: date, account_id: int) -> bool:
        attempt = await daily_queries.attempt_of_account(self.room.storage, day, account_id)
        return attempt is not None and attempt.finished

    async def streak(self, account_id: int) -> int:
        today = self.today()
        days = await daily_queries.days_played(
            self.room.storage, account_id, today - timedelta(days=STREAK_DAYS)
        )
        return streak(days, today)

    # -- the master's own play -------------------------------------------------------------

    def master_play(self, day: date) -> None:
        """Have the master's play of ``day``'s deal played, if nobody has (in the background:
        the players need it only once they have finished)."""
        task = self._masters.get(day)
        if task is None or task.done():
            self._masters[day] = asyncio.create_task(
                self._play_master(day), name=f"scopa-daily-master-{day}"
            )

    async def _play_master(self, day: date) -> None:
        storage = self.room.storage
        try:
            if await daily_queries.master_match(storage, day) is not None:
                return
            moment = now()
            if not await daily_queries.claim_master(
                storage, day, self.room.name, moment, moment - MASTER_CLAIM
            ):
                return
            seed = await self.seed(day)
            game = Game.new(RULES, seed=seed)
            plays: list[Play] = []
            played: list[tuple[int, str]] = []
            while game.winner is None:
                seat = game.to_move
                assert seat is not None
                job = bots.position(RULES, seed, None, plays, seat)
                move = await bots.think(self.room.pool, MASTER, job)
                game.play(str(move), seat)
                assert game.last_move is not None
                plays.append(game.last_move)
                played.append((seat, str(move)))
            players = [
                {"seat": seat, "kind": "bot", "name": "Master", "level": MASTER}
                for seat in range(RULES.players)
            ]
            for _ in range(CODE_ATTEMPTS):
                try:
                    await daily_queries.store_master_play(
                        storage, day, new_table_code(), RULES.to_dict(), seed, players, played,
                        game.winner, game.record(), now(),
                    )
                    return
                except sqlalchemy.exc.IntegrityError:
                    continue  # the table code was taken: another
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the master's play of %s's daily deal failed; asked again, it is "
                          "played again", day)


DAILY: Service[DailyDeals] = Service("daily")
"""The day's deals, as a dependency of the routes."""
