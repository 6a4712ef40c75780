"""The tournaments' director: one process directs each tournament, under the room's lease.

Every process looks after the unfinished tournaments now and then (and at once when a result
or a join is heard): it claims each one's lease (``tournament-ID``, renewed with its tables'
leases by the cluster, see :meth:`Tournaments.held`), and for the ones it holds it starts them
at their hour, stores each pairing, makes the tables, tells the paired players, and ends them.
When a director dies its leases lapse and another process claims them and carries on from the
database:

* a pairing is stored whole, in one transaction fenced by the tournament's ``pairings`` count,
  before any of its tables is made, so a round is never paired twice; its games whose table
  was not made yet get one from the new director;
* a result is written by whichever process owned the table when the match ended (a subscriber
  to ``room.match_ends``, as the ratings are), and a result that process did not live to write
  is read back from the stored match, so none is lost.

Tournament games are rated tables of two accounts: the room's ratings rate them as any other.
Who is told what goes through the hub: ``tournament:ID`` (every process hears it; those with
a page of the tournament open send it the standings again, the director looks again) and
``account:ID`` (the player is paired: their table and seat token, on whatever process holds
their tournament page).

A tournament's players are pushed that it is about to start (:data:`START_NOTICE` ahead, by
the director: Web Push's call, handed in by the list of parts), once each, however many
directors it has.

The clock is injectable (``clock``), so tests move time instead of waiting for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections.abc import Callable
from datetime import datetime, time, timedelta
from typing import Any, Final

from ...rules import Rules
from ..accounts import accounts
from ..common.services import Service
from ..feature import Notify
from ..store import rating_queries
from ..store.storage import now
from ..table.finished import FinishedMatch
from ..table.room import CardRoom
from . import queries as tournament_queries
from .pairing import Entrant, arena_pairs, swiss_round
from .queries import StoredGame, StoredTournament
from .settings import TournamentSettings
from .standings import Result, Standing, arena_standings, swiss_standings

log = logging.getLogger(__name__)

TEND_SECONDS: Final = 2.0
"""How often a process looks after the tournaments with nothing heard: the longest an hour
struck (a start, an arena's end) or a dead director's tournament waits, past its lease."""
DAILY_ARENA: Final = "Daily arena"
START_NOTICE: Final = timedelta(minutes=5)
"""How long before its start a tournament's players are pushed that it is about to start:
time to come back to the room from another tab or a phone's lock screen."""
GAME_NEEDS: Final = timedelta(minutes=3)
"""The least time a game of an arena needs (issue 35, item 2): one deal at least, 36 plays for
two, at 5 s a play. A game paired later could not end before the arena does, so it would not
count, and its players would sit at it after the arena's end; an arena pairs nobody in its
last 3 minutes, or in its last tenth when it is shorter than 30 minutes (so a short one still
pairs)."""


def lease_key(tournament_id: int) -> str:
    """The lease of a tournament's director, beside the tables' (whose codes have no dash)."""
    return f"tournament-{tournament_id}"


def watch_key(tournament_id: int) -> str:
    """Who hears of a tournament's changes: its director and the pages that show it."""
    return f"tournament:{tournament_id}"


def person_key(account_id: int) -> str:
    return f"account:{account_id}"


def look_of(preset: str) -> str:
    """The deck a tournament's tables are dealt with: Spanish cards for escoba."""
    return "spanish" if Rules.preset(preset).capture == "fifteen" else "italian"


def results(games: list[StoredGame], until: datetime | None = None) -> list[Result]:
    """The finished games as the standings count them, in the order they ended (an arena
    counts only those that ended by ``until``, its end, as lichess does); a game given up
    before each side made 2 moves of its own counts for neither (docs/ratings.md)."""
    done = [g for g in games if g.over and g.counted and g.finished_at is not None
            and (until is None or g.finished_at <= until)]
    done.sort(key=lambda g: (g.finished_at, g.id))
    return [
        Result(g.round, g.first, g.second, g.first_score or 0, g.second_score or 0,
               g.winner if g.second is not None else g.first)
        for g in done
    ]


def standings_of(tournament: StoredTournament, names: dict[int, str],
                 games: list[StoredGame]) -> list[Standing]:
    if tournament.kind == "arena":
        return arena_standings(names, results(games, tournament.ends_at))
    return swiss_standings(names, results(games))


class Tournaments:
    """This process's part in the room's tournaments."""

    def __init__(self, room: CardRoom, notify: Notify,
                 clock: Callable[[], datetime] = now) -> None:
        self.room = room
        self.notify = notify
        self.storage = room.storage
        self.hub = room.hub
        self.clock = clock
        self.directed: set[int] = set()
        """The tournaments this process directs now."""
        self._held: tuple[str, ...] = ()
        self._fresh: set[int] = set()
        """Tournaments this process has just claimed: their games' tables are looked at once."""
        self._failed: set[int] = set()
        """Games whose table could not be made, already logged: logged once, not every look."""
        self._announced: set[int] = set()
        """Tournaments whose start this process pushed (the database keeps each push once
        among the processes; this spares it the asking at every look)."""
        self._wake = asyncio.Event()
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self.listeners: dict[str, set[Callable[[dict[str, Any]], None]]] = {}
        """Who on this process hears what is told to a key (the tournament pages' sockets)."""
        self.hub.on_told(self._heard)

    # -- the process's part ---------------------------------------------------------------

    async def open(self) -> None:
        self._task = asyncio.create_task(self._tend_now_and_then(), name="scopa-tournaments")

    async def close(self) -> None:
        """Stop looking after the tournaments once the look in progress is over (cancelled in
        the middle of a query, a database connection would be left open), then give their
        leases back, so another process takes them at once."""
        if self._task is not None:
            self._closing = True
            self._wake.set()
            await self._task
        for tournament_id in list(self.directed):
            with contextlib.suppress(Exception):
                await self.hub.release(lease_key(tournament_id))
        self.directed.clear()
        self._held = ()

    def held(self) -> list[str]:
        """The leases of the tournaments this process directs (read by the lease keeper's
        thread: a tuple replaced whole, never changed in place)."""
        return list(self._held)

    def listen(self, key: str, listener: Callable[[dict[str, Any]], None]) -> None:
        self.listeners.setdefault(key, set()).add(listener)

    def stop_listening(self, key: str, listener: Callable[[dict[str, Any]], None]) -> None:
        found = self.listeners.get(key)
        if found is not None:
            found.discard(listener)
            if not found:
                del self.listeners[key]

    def _heard(self, key: str, message: dict[str, Any]) -> None:
        if key.startswith("tournament:") and message.get("type") == "tournament_changed":
            self._wake.set()
        for listener in list(self.listeners.get(key, ())):
            listener(message)

    async def changed(self, tournament_id: int) -> None:
        """Tell every process that the tournament changed (its director and its pages)."""
        try:
            await self.hub.tell(
                watch_key(tournament_id), {"type": "tournament_changed", "id": tournament_id}
            )
        except Exception:
            log.exception("tournament %s: could not tell the room it changed", tournament_id)

    async def _tend_now_and_then(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(TEND_SECONDS):
                    await self._wake.wait()
            self._wake.clear()
            if self._closing:
                return
            try:
                await self.tend()
            except Exception:
                log.exception("looking after the tournaments failed; trying again")

    # -- results ----------------------------------------------------------------------------

    async def match_ended(self, match: FinishedMatch) -> None:
        """A match ended at a table of this process: if it is a tournament's game, its result
        is stored (once), and the room told."""
        found = await tournament_queries.record_result(
            self.storage, match.code, match.match_id, match.winner, match.scores, self.clock(),
            counted=not match.short,
        )
        if found is not None:
            await self.changed(found)

    # -- directing --------------------------------------------------------------------------

    async def tend(self) -> None:
        """Look after every unfinished tournament this process directs or can claim."""
        async with self._lock:
            await self._make_daily()
            unfinished = await tournament_queries.unfinished(self.storage)
            alive = {t.id for t in unfinished}
            for gone in self.directed - alive:
                await self._let_go(gone)
            for tournament in unfinished:
                if not await self._direct_here(tournament.id):
                    continue
                try:
                    await self._direct(tournament)
                except Exception:
                    log.exception("tournament %s: directing it failed", tournament.id)

    async def _direct_here(self, tournament_id: int) -> bool:
        key = lease_key(tournament_id)
        if tournament_id in self.directed:
            if await self.hub.owner(key) == self.hub.name:
                return True
            log.warning("tournament %s: lease lost; another process directs it", tournament_id)
            self.directed.discard(tournament_id)
            self._held = tuple(lease_key(t) for t in self.directed)
            return False
        if not await self.hub.claim(key):
            return False
        self.directed.add(tournament_id)
        self._fresh.add(tournament_id)
        self._held = tuple(lease_key(t) for t in self.directed)
        return True

    async def _let_go(self, tournament_id: int) -> None:
        self.directed.discard(tournament_id)
        self._fresh.discard(tournament_id)
        self._held = tuple(lease_key(t) for t in self.directed)
        await self.hub.release(lease_key(tournament_id))

    async def _direct(self, tournament: StoredTournament) -> None:
        moment = self.clock()
        if tournament.status == "open" and moment < tournament.starts_at:
            if tournament.starts_at - moment <= START_NOTICE:
                await self._announce(tournament, moment)
            return
        changed = False
        for code, match_id, seat, scores, counted in await tournament_queries.ended_unrecorded(
            self.storage, tournament.id
        ):
            if await tournament_queries.record_result(
                self.storage, code, match_id, seat, scores, moment, counted
            ) is not None:
                changed = True
        games = await tournament_queries.games(self.storage, tournament.id)
        names = await tournament_queries.players(self.storage, tournament.id)
        fresh = tournament.id in self._fresh
        self._fresh.discard(tournament.id)
        for game in games:
            if game.second is None or game.winner is not None:
                continue
            if game.table_code is None:
                changed = await self._seat(tournament, game, names) or changed
            elif fresh:
                await self._restart(game.table_code)
        if changed:
            games = await tournament_queries.games(self.storage, tournament.id)
        if tournament.kind == "arena":
            changed = await self._arena(tournament, moment, names, games) or changed
        else:
            changed = await self._swiss(tournament, moment, names, games) or changed
        if changed:
            await self.changed(tournament.id)

    async def _announce(self, tournament: StoredTournament, moment: datetime) -> None:
        """Push each player that the tournament starts soon, once."""
        if tournament.id in self._announced:
            return
        self._announced.add(tournament.id)
        gone = await tournament_queries.withdrawn(self.storage, tournament.id)
        left = (tournament.starts_at - moment).total_seconds()
        for player in await tournament_queries.players(self.storage, tournament.id):
            if player in gone:
                continue
            try:
                await self.notify(
                    self.room, player, "tournament_start", str(tournament.id),
                    {"name": tournament.name, "minutes": max(1, math.ceil(left / 60))},
                    f"/#/tournaments/{tournament.id}", ttl=left + 60, once=str(tournament.id),
                )
            except Exception:
                log.exception("tournament %s: pushing its start failed", tournament.id)

    async def _arena(self, tournament: StoredTournament, moment: datetime,
                     names: dict[int, str], games: list[StoredGame]) -> bool:
        assert tournament.ends_at is not None
        if moment >= tournament.ends_at:
            return await self._finish(tournament, names, games)
        if tournament.status == "open":
            await tournament_queries.set_running(self.storage, tournament.id)
        if tournament.ends_at - moment < min(GAME_NEEDS, (tournament.ends_at
                                                          - tournament.starts_at) / 10):
            return tournament.status == "open"
        here = {p for g in games if not g.over for p in (g.first, g.second) if p is not None}
        # A player seated at any match in play (another tournament's, a pool's, a challenge's)
        # waits, and one who withdrew is paired no more.
        playing = here | await tournament_queries.playing(self.storage, list(names))
        gone = await tournament_queries.withdrawn(self.storage, tournament.id)
        standings = standings_of(tournament, names, games)
        free = [Entrant(s.player, s.points, index) for index, s in enumerate(standings)
                if s.player not in playing | gone]
        last: dict[int, int] = {}
        for game in games:
            if game.over and game.second is not None:
                last[game.first], last[game.second] = game.second, game.first
        # Two who just met wait for another opponent while someone may still come free.
        pairs = arena_pairs(free, last, others_playing=bool(playing - gone))
        if not pairs:
            return tournament.status == "open"
        return await self._pair(tournament, tournament.round + 1, list(pairs), names)

    async def _swiss(self, tournament: StoredTournament, moment: datetime,
                     names: dict[int, str], games: list[StoredGame]) -> bool:
        assert tournament.rounds is not None
        current = [g for g in games if g.round == tournament.round]
        if tournament.round and not all(g.over for g in current):
            return False
        if tournament.round >= tournament.rounds:
            return await self._finish(tournament, names, games)
        standings = standings_of(tournament, names, games)
        byes = {g.first for g in games if g.second is None}
        gone = await tournament_queries.withdrawn(self.storage, tournament.id)
        entrants = [Entrant(s.player, s.points, index, s.player in byes)
                    for index, s in enumerate(standings) if s.player not in gone]
        played = {frozenset((g.first, g.second)) for g in games if g.second is not None}
        found = swiss_round(entrants, played)
        if found is None:
            # Nobody left to pair without a repeat (or fewer than two players): it ends here.
            return await self._finish(tournament, names, games)
        pairs: list[tuple[int, int | None]] = list(found.pairs)
        if found.bye is not None:
            pairs.append((found.bye, None))
        return await self._pair(tournament, tournament.round + 1, pairs, names)

    async def _pair(self, tournament: StoredTournament, round_number: int,
                    pairs: list[tuple[int, int | None]], names: dict[int, str]) -> bool:
        """Store the pairing (all or nothing, fenced), then make its tables."""
        if not await tournament_queries.store_pairing(
            self.storage, tournament.id, tournament.pairings, round_number, pairs, self.clock()
        ):
            log.warning("tournament %s: another director paired it meanwhile", tournament.id)
            return False
        for game in await tournament_queries.games(self.storage, tournament.id):
            if game.round == round_number and game.second is not None and game.table_code is None:
                await self._seat(tournament, game, names)
        return True

    async def _seat(self, tournament: StoredTournament, game: StoredGame,
                    names: dict[int, str]) -> bool:
        """Give a stored game its table, or settle it without one; True if it changed.

        Each game on its own (issue 34, item 1): one that fails to start is logged, once, and
        tried again at the next look, while the others get their tables and the tournament
        goes on to its end. A game paired before one of its players' accounts was deleted is
        the other's, by forfeit, since no table can seat the deleted one: so a Swiss's round
        still ends."""
        assert game.second is not None
        gone = {game.first, game.second} & await tournament_queries.deleted(
            self.storage, tournament.id)
        if gone:
            winner = game.first if game.first not in gone else game.second
            if await tournament_queries.forfeit(self.storage, game.id, winner, self.clock()):
                log.info("tournament %s: game %s goes to %s by forfeit (an account deleted)",
                         tournament.id, game.id, winner)
                return True
            return False
        try:
            await self._make_table(tournament, game, names)
        except Exception:
            if game.id not in self._failed:
                self._failed.add(game.id)
                log.exception("tournament %s: game %s could not start; it is tried again at "
                              "each look, the other games going on", tournament.id, game.id)
            return False
        self._failed.discard(game.id)
        return True

    async def _make_table(self, tournament: StoredTournament, game: StoredGame,
                          names: dict[int, str]) -> None:
        """The table of a stored game: both players seated (their accounts holding the seats,
        the table rated), its code and tokens stored with the game, then dealt, and each
        player told. Dealt only once stored, so a director that dies in between leaves a
        waiting table nobody uses (it expires), never a second match of one game."""
        assert game.second is not None
        rules = Rules.preset(tournament.preset, players=2)
        table, first_seat, first_token = await self.room.create(
            rules, look_of(tournament.preset), {}, names.get(game.first, "?")
        )
        assert first_seat == 0 and first_token is not None
        second_seat, second_token = await table.join(names.get(game.second, "?"), 1)
        if not await tournament_queries.seat_game(
            self.storage, game.id, table.code, first_token, second_token
        ):
            return
        await accounts.give_seat(self.storage, table.code, 0, game.first, first_token)
        await accounts.give_seat(self.storage, table.code, second_seat, game.second, second_token)
        await rating_queries.set_rated(self.storage, table.code, True, purpose="tournament")
        await table.start_now()
        for account, seat, token, opponent in (
            (game.first, 0, first_token, game.second),
            (game.second, second_seat, second_token, game.first),
        ):
            await self.hub.tell(person_key(account), {
                "type": "paired", "tournament": tournament.id, "name": tournament.name,
                "table": table.code, "seat": seat, "token": token,
                "opponent": names.get(opponent, "?"),
            })

    async def _restart(self, code: str) -> None:
        """A game's table the former director made and stored but died before dealing."""
        table = await self.room.get(code)
        if table is not None and table.status == "waiting":
            await table.start_now()

    async def _finish(self, tournament: StoredTournament, names: dict[int, str],
                      games: list[StoredGame]) -> bool:
        standings = [s.public() for s in standings_of(tournament, names, games)]
        done = await tournament_queries.finish(
            self.storage, tournament.id, standings, self.clock()
        )
        if done:
            await self._let_go(tournament.id)
        return done

    # -- the tournaments the settings list ----------------------------------------------------

    async def _make_daily(self) -> None:
        """The settings' daily arena of today, and of tomorrow once today's has begun."""
        settings = self.room.settings.section(TournamentSettings)
        if settings.daily_arena is None:
            return
        moment = self.clock()
        hour = time.fromisoformat(settings.daily_arena)
        today = datetime.combine(moment.date(), hour, tzinfo=moment.tzinfo)
        for starts in (today, today + timedelta(days=1)):
            if starts + timedelta(minutes=settings.daily_arena_minutes) <= moment:
                continue
            await tournament_queries.create(self.storage, {
                "name": DAILY_ARENA, "kind": "arena", "preset": settings.daily_arena_preset,
                "minutes": settings.daily_arena_minutes, "rounds": None, "starts_at": starts,
                "ends_at": starts + timedelta(minutes=settings.daily_arena_minutes),
                "status": "open", "created_by": None,
                "daily_key": f"daily-arena:{starts.date().isoformat()}",
                "created_at": moment,
            })
            if starts > moment:
                break


TOURNAMENTS: Service[Tournaments] = Service("tournaments")
"""This process's part in the tournaments, as a dependency of the routes."""
