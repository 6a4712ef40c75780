"""The tournaments' reads and writes (issue 24, item 3): tournaments, who joined them, and
their games.

Like :mod:`.chat_queries`, each function is one read on one connection or one transaction
through the room's writer (:meth:`.Storage.write`). A round's pairing is stored whole in one
transaction, fenced by the tournament's ``pairings`` count, before any of its tables is made;
a game's result is written once (the first report of its match wins), so a result announced
twice, or recovered from the stored match after a takeover, is counted once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from ..common import fairplay
from ..store.schema import (
    accounts,
    matches,
    moves,
    seat_accounts,
    seats,
    tables,
    tournament_games,
    tournament_players,
    tournaments,
)
from ..store.storage import Storage, aware


@dataclass(frozen=True)
class StoredTournament:
    id: int
    name: str
    kind: str
    preset: str
    minutes: int | None
    rounds: int | None
    starts_at: datetime
    ends_at: datetime | None
    status: str
    created_by: int | None
    round: int
    pairings: int
    podium: list[dict[str, Any]] | None
    finished_at: datetime | None


@dataclass(frozen=True)
class StoredGame:
    id: int
    round: int
    first: int
    second: int | None
    table_code: str | None
    first_token: str | None
    second_token: str | None
    match_id: int | None
    winner: int | None
    first_score: int | None
    second_score: int | None
    finished_at: datetime | None
    counted: bool = True
    """False for a game whose match ended before each side had made 2 moves of its own: it is
    over, and the standings leave it out (:mod:`..common.fairplay`)."""

    @property
    def over(self) -> bool:
        return self.second is None or self.winner is not None


def _tournament(row: Any) -> StoredTournament:
    return StoredTournament(
        id=row.id, name=row.name, kind=row.kind, preset=row.preset, minutes=row.minutes,
        rounds=row.rounds, starts_at=aware(row.starts_at),
        ends_at=None if row.ends_at is None else aware(row.ends_at), status=row.status,
        created_by=row.created_by, round=row.round, pairings=row.pairings, podium=row.podium,
        finished_at=None if row.finished_at is None else aware(row.finished_at),
    )


def _game(row: Any) -> StoredGame:
    return StoredGame(
        id=row.id, round=row.round, first=row.first, second=row.second,
        table_code=row.table_code, first_token=row.first_token, second_token=row.second_token,
        match_id=row.match_id, winner=row.winner, first_score=row.first_score,
        second_score=row.second_score,
        finished_at=None if row.finished_at is None else aware(row.finished_at),
        counted=row.counted,
    )


async def create(storage: Storage, values: dict[str, Any]) -> int | None:
    """A new tournament (``tournaments``' columns but its id); its id, or None when its
    ``daily_key`` is made already (by this process or another)."""

    async def run(connection: AsyncConnection) -> int | None:
        key = values.get("daily_key")
        if key is not None and await connection.scalar(
            sa.select(tournaments.c.id).where(tournaments.c.daily_key == key)
        ) is not None:
            return None
        result = await connection.execute(tournaments.insert().values(**values))
        inserted = result.inserted_primary_key
        assert inserted is not None
        return int(inserted[0])

    try:
        return await storage.write(run)
    except sa.exc.IntegrityError:
        if values.get("daily_key") is None:
            raise
        return None  # another process made the same day's tournament at the same moment


async def find(storage: Storage, tournament_id: int) -> StoredTournament | None:
    async with storage.engine.connect() as connection:
        row = (
            await connection.execute(
                sa.select(tournaments).where(tournaments.c.id == tournament_id)
            )
        ).first()
    return None if row is None else _tournament(row)


async def unfinished(storage: Storage) -> list[StoredTournament]:
    """Every tournament still open or running: what the directors look after."""
    async with storage.engine.connect() as connection:
        rows = await connection.execute(
            sa.select(tournaments).where(tournaments.c.status != "finished")
            .order_by(tournaments.c.starts_at)
        )
        return [_tournament(row) for row in rows]


async def listed(storage: Storage, finished_since: datetime, limit: int) -> list[StoredTournament]:
    """The lobby's list: open and running tournaments, soonest first, then those finished
    since ``finished_since``, latest first; ``limit`` of them at most."""
    async with storage.engine.connect() as connection:
        live = await connection.execute(
            sa.select(tournaments).where(tournaments.c.status != "finished")
            .order_by(tournaments.c.starts_at).limit(limit)
        )
        found = [_tournament(row) for row in live]
        done = await connection.execute(
            sa.select(tournaments).where(
                tournaments.c.status == "finished", tournaments.c.finished_at >= finished_since
            ).order_by(tournaments.c.finished_at.desc()).limit(max(0, limit - len(found)))
        )
        return found + [_tournament(row) for row in done]


async def open_count(storage: Storage, account_id: int) -> int:
    """Tournaments ``account_id`` made that have not finished."""
    async with storage.engine.connect() as connection:
        return int(
            await connection.scalar(
                sa.select(sa.func.count()).select_from(tournaments).where(
                    tournaments.c.created_by == account_id, tournaments.c.status != "finished"
                )
            ) or 0
        )


async def join(storage: Storage, tournament_id: int, account_id: int, name: str,
               moment: datetime) -> bool:
    """``account_id`` joins, or comes back after withdrawing; False when it is in already
    (the key refuses a second row, even from two requests at once on two processes)."""

    async def run(connection: AsyncConnection) -> bool:
        withdrawn = await connection.scalar(
            sa.select(tournament_players.c.withdrawn).where(
                tournament_players.c.tournament_id == tournament_id,
                tournament_players.c.account_id == account_id,
            )
        )
        if withdrawn is not None:
            if not withdrawn:
                return False
            await connection.execute(tournament_players.update().where(
                tournament_players.c.tournament_id == tournament_id,
                tournament_players.c.account_id == account_id,
            ).values(withdrawn=False))
            return True
        await connection.execute(tournament_players.insert().values(
            tournament_id=tournament_id, account_id=account_id, name=name, joined_at=moment,
        ))
        return True

    try:
        return await storage.write(run)
    except sa.exc.IntegrityError:
        return False


async def withdraw(storage: Storage, tournament_id: int, account_id: int) -> bool:
    """``account_id`` is paired no more in the tournament; False if it was not in it."""

    async def run(connection: AsyncConnection) -> bool:
        done = await connection.execute(tournament_players.update().where(
            tournament_players.c.tournament_id == tournament_id,
            tournament_players.c.account_id == account_id,
            tournament_players.c.withdrawn.is_(False),
        ).values(withdrawn=True))
        return done.rowcount == 1

    return await storage.write(run)


async def withdrawn(storage: Storage, tournament_id: int) -> set[int]:
    """Those who joined the tournament and withdrew since, or whose account was deleted
    (a deletion withdraws it; one deleted before deletions did is counted here all the same,
    so nobody pairs an entrant who cannot sit down)."""
    async with storage.engine.connect() as connection:
        rows = await connection.execute(
            sa.select(tournament_players.c.account_id)
            .join(accounts, accounts.c.id == tournament_players.c.account_id)
            .where(
                tournament_players.c.tournament_id == tournament_id,
                sa.or_(tournament_players.c.withdrawn.is_(True),
                       accounts.c.deleted_at.is_not(None)),
            )
        )
        return {int(row[0]) for row in rows}


async def deleted(storage: Storage, tournament_id: int) -> set[int]:
    """The tournament's entrants whose account is deleted: a game of theirs not yet at a
    table never will be (its player has no name to sit under, no session to play with)."""
    async with storage.engine.connect() as connection:
        rows = await connection.execute(
            sa.select(tournament_players.c.account_id)
            .join(accounts, accounts.c.id == tournament_players.c.account_id)
            .where(tournament_players.c.tournament_id == tournament_id,
                   accounts.c.deleted_at.is_not(None))
        )
        return {int(row[0]) for row in rows}


async def forfeit(storage: Storage, game_id: int, winner: int, moment: datetime) -> bool:
    """Game ``game_id``, never seated, is ``winner``'s without a match (its other player's
    account is gone): no scores, no replay. False if it has a table or a result already."""

    async def run(connection: AsyncConnection) -> bool:
        done = await connection.execute(
            tournament_games.update().where(
                tournament_games.c.id == game_id, tournament_games.c.table_code.is_(None),
                tournament_games.c.winner.is_(None),
            ).values(winner=winner, finished_at=moment)
        )
        return done.rowcount == 1

    return await storage.write(run)


async def players(storage: Storage, tournament_id: int) -> dict[int, str]:
    """Who joined, account id to name, in the order they joined."""
    async with storage.engine.connect() as connection:
        rows = await connection.execute(
            sa.select(tournament_players.c.account_id, tournament_players.c.name)
            .where(tournament_players.c.tournament_id == tournament_id)
            .order_by(tournament_players.c.joined_at, tournament_players.c.account_id)
        )
        return {int(row.account_id): str(row.name) for row in rows}


async def games(storage: Storage, tournament_id: int) -> list[StoredGame]:
    """Every game of the tournament, in the order they were paired."""
    async with storage.engine.connect() as connection:
        rows = await connection.execute(
            sa.select(tournament_games).where(tournament_games.c.tournament_id == tournament_id)
            .order_by(tournament_games.c.id)
        )
        return [_game(row) for row in rows]


async def playing(storage: Storage, account_ids: Sequence[int]) -> set[int]:
    """Those of ``account_ids`` with a game in play in any tournament, or seated at any other
    live match in play (a pool's, a challenge's, a rated table's: issue 34, item 13), where
    they hold a seat a person still plays, as the pools count it
    (``pools.queries.playing_table``): a correspondence match keeps nobody from a game."""
    if not account_ids:
        return set()
    async with storage.engine.connect() as connection:
        found: set[int] = set()
        rows = await connection.execute(
            sa.select(seat_accounts.c.account_id)
            .join(seats, sa.and_(seats.c.table_code == seat_accounts.c.table_code,
                                 seats.c.seat == seat_accounts.c.seat))
            .join(tables, tables.c.code == seat_accounts.c.table_code)
            .where(seat_accounts.c.account_id.in_(list(account_ids)),
                   seats.c.kind == "human", seats.c.token_hash.is_not(None),
                   tables.c.status == "playing", tables.c.pace == "live")
        )
        found.update(int(row[0]) for row in rows)
        for column, other in ((tournament_games.c.first, tournament_games.c.second),
                              (tournament_games.c.second, tournament_games.c.first)):
            rows = await connection.execute(
                sa.select(column).where(
                    column.in_(list(account_ids)), other.is_not(None),
                    tournament_games.c.winner.is_(None),
                )
            )
            found.update(int(row[0]) for row in rows)
        return found


async def start(storage: Storage, tournament_id: int, starts_at: datetime,
                ends_at: datetime | None) -> bool:
    """An open tournament starts now (its creator would not wait); False if it is not open."""

    async def run(connection: AsyncConnection) -> bool:
        done = await connection.execute(
            tournaments.update().where(
                tournaments.c.id == tournament_id, tournaments.c.status == "open"
            ).values(starts_at=starts_at, ends_at=ends_at)
        )
        return done.rowcount == 1

    return await storage.write(run)


async def store_pairing(
    storage: Storage, tournament_id: int, seen: int, round_number: int,
    pairs: Sequence[tuple[int, int | None]], moment: datetime,
) -> bool:
    """Store one pairing, its games all together, and the tournament running at round
    ``round_number``: only if the tournament's ``pairings`` count is still ``seen`` (the
    director's read), which this raises. False, storing nothing, when another director
    stored one since."""

    async def run(connection: AsyncConnection) -> bool:
        done = await connection.execute(
            tournaments.update().where(
                tournaments.c.id == tournament_id, tournaments.c.pairings == seen,
                tournaments.c.status != "finished",
            ).values(pairings=seen + 1, round=round_number, status="running")
        )
        if done.rowcount != 1:
            return False
        if pairs:
            await connection.execute(tournament_games.insert(), [
                {"tournament_id": tournament_id, "round": round_number, "first": first,
                 "second": second, "paired_at": moment,
                 "finished_at": moment if second is None else None}
                for first, second in pairs
            ])
        return True

    return await storage.write(run)


async def set_running(storage: Storage, tournament_id: int) -> None:
    """An arena has started (its first pairing may wait for a second player)."""

    async def run(connection: AsyncConnection) -> None:
        await connection.execute(
            tournaments.update().where(
                tournaments.c.id == tournament_id, tournaments.c.status == "open"
            ).values(status="running")
        )

    await storage.write(run)


async def seat_game(storage: Storage, game_id: int, code: str, first_token: str,
                    second_token: str) -> bool:
    """Game ``game_id``'s table is made: its code and seat tokens; False if it had one."""

    async def run(connection: AsyncConnection) -> bool:
        done = await connection.execute(
            tournament_games.update().where(
                tournament_games.c.id == game_id, tournament_games.c.table_code.is_(None)
            ).values(table_code=code, first_token=first_token, second_token=second_token)
        )
        return done.rowcount == 1

    return await storage.write(run)


async def record_result(
    storage: Storage, code: str, match_id: int, winner_seat: int, scores: Sequence[int],
    moment: datetime, counted: bool = True,
) -> int | None:
    """The match at table ``code`` ended: its game's result, if it is a tournament's game
    and has none yet (``counted`` false: a match too short to count, stored as over and left
    out of the standings). The tournament's id when this stored it."""

    async def run(connection: AsyncConnection) -> int | None:
        row = (await connection.execute(
            sa.select(tournament_games.c.id, tournament_games.c.tournament_id,
                      tournament_games.c.first, tournament_games.c.second)
            .where(tournament_games.c.table_code == code, tournament_games.c.winner.is_(None))
        )).first()
        if row is None or row.second is None:
            return None
        done = await connection.execute(
            tournament_games.update().where(
                tournament_games.c.id == row.id, tournament_games.c.winner.is_(None)
            ).values(
                match_id=match_id, winner=row.first if winner_seat == 0 else row.second,
                first_score=scores[0], second_score=scores[1], finished_at=moment,
                counted=counted,
            )
        )
        return int(row.tournament_id) if done.rowcount == 1 else None

    return await storage.write(run)


async def ended_unrecorded(
    storage: Storage, tournament_id: int
) -> list[tuple[str, int, int, list[int], bool]]:
    """The games of the tournament whose match is over in the database but whose result was
    never written (its process died between the two): (table code, match id, winning seat,
    scores, counted) for each, the table's first match. ``counted`` from its stored moves by
    seat: whose hand played them is not stored, so a stand-in's count as its person's."""
    async with storage.engine.connect() as connection:
        first_match = (
            sa.select(matches.c.table_code, sa.func.min(matches.c.id).label("id"))
            .group_by(matches.c.table_code).subquery()
        )
        rows = await connection.execute(
            sa.select(tournament_games.c.table_code, matches.c.id, matches.c.winner,
                      matches.c.record)
            .join(first_match, first_match.c.table_code == tournament_games.c.table_code)
            .join(matches, matches.c.id == first_match.c.id)
            .where(tournament_games.c.tournament_id == tournament_id,
                   tournament_games.c.winner.is_(None),
                   tournament_games.c.second.is_not(None),
                   matches.c.status == "over")
        )
        found = rows.all()
        by_seat: dict[tuple[int, int], int] = {
            (row.match_id, row.seat): int(row.n)
            for row in await connection.execute(
                sa.select(moves.c.match_id, moves.c.seat, sa.func.count().label("n"))
                .where(moves.c.match_id.in_([row.id for row in found]))
                .group_by(moves.c.match_id, moves.c.seat)
            )
        } if found else {}
        return [
            (str(row.table_code), int(row.id), int(row.winner), list(row.record["scores"]),
             not fairplay.short([by_seat.get((row.id, seat), 0) for seat in (0, 1)]))
            for row in found
        ]


async def finish(storage: Storage, tournament_id: int, podium: list[dict[str, Any]],
                 moment: datetime) -> bool:
    """The tournament is over, its final standings kept; False if it was already."""

    async def run(connection: AsyncConnection) -> bool:
        done = await connection.execute(
            tournaments.update().where(
                tournaments.c.id == tournament_id, tournaments.c.status != "finished"
            ).values(status="finished", podium=podium, finished_at=moment)
        )
        return done.rowcount == 1

    return await storage.write(run)
