"""Ratings' reads and writes: whether a table is rated, the accounts a finished match
counts for, its rating moves, the leaderboards and the profiles.

Like :mod:`.account_queries`: one query, one read or one transaction a function. The rating
model itself (openskill) is the wing's (:mod:`scopa.server.accounts.ratings`), handed in to
:func:`record_match` so that reading the ratings and writing the new ones stay one transaction.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final, Literal

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from ..common import fairplay
from .account_queries import chosen, named
from .fairplay_queries import marked_among
from .schema import (
    account_marks,
    account_matches,
    accounts,
    matches,
    rating_history,
    ratings,
    seat_accounts,
    table_modes,
)
from .storage import Storage, aware

# -- ratings -------------------------------------------------------------------------------


@dataclass(frozen=True)
class StoredRating:
    """An account's rating in one pool: openskill's ``(mu, sigma)`` and its rated record."""

    account_id: int
    pool: str
    mu: float
    sigma: float
    matches: int
    wins: int
    losses: int


@dataclass(frozen=True)
class NamedRating(StoredRating):
    """A rating with its account's name, as a leaderboard lists it."""

    name: str
    deleted: bool = False
    """The account was deleted (its name is blank): shown as a deleted player."""


@dataclass(frozen=True)
class Played:
    """One account's part in a finished match: its seat and how it ended for it (``win``,
    ``loss`` or ``left``)."""

    account_id: int
    seat: int
    result: str


@dataclass(frozen=True)
class RatingMove:
    """An account's rating after a rated match, and what to remember of the change."""

    account_id: int
    seat: int
    result: str
    mu: float
    sigma: float
    matches: int
    wins: int
    losses: int
    display_before: int
    display_after: int


Rate = Callable[[Mapping[int, StoredRating]], Sequence[RatingMove]]
"""The new ratings of a match's accounts, from their ratings before it (by account; an account
not there has none yet in the pool)."""


@dataclass(frozen=True)
class MatchAccounts:
    """Who played a match, as its table remembers: the match's players, the account holding
    each seat at the table (by seat), whether its match is rated (the table chosen rated, and
    not made casual at the deal), and whether the room chose its pairing (a tournament's game,
    which no daily cap between two accounts turns casual: the director chose it, not they)."""

    players: list[dict[str, Any]]
    holders: dict[int, int]
    rated: bool
    paired: bool = False
    """The room chose who plays (a tournament's game: ``table_modes.purpose``)."""


@dataclass(frozen=True)
class TableMode:
    """How a table's match counts: ``chosen`` rated when the table was made, and ``casual``,
    why it plays casual all the same (a code of :data:`..common.fairplay.CASUAL`), if so."""

    chosen: bool
    casual: str | None = None

    @property
    def rated(self) -> bool:
        return self.chosen and self.casual is None


Purpose = Literal["tournament", "daily"]
"""What a feature made a table for (``table_modes.purpose``)."""
PAIRED: Final = "tournament"
"""The purpose of a table whose players the room chose: no pair cap applies."""


async def set_rated(
    storage: Storage, code: str, rated: bool, purpose: Purpose | None = None
) -> None:
    """Remember whether table ``code`` is rated (chosen when it is made), and what it is for,
    if a feature made it for one (:data:`Purpose`)."""

    async def run(connection: AsyncConnection) -> None:
        await connection.execute(table_modes.insert().values(table_code=code, rated=rated,
                                                             purpose=purpose))

    await storage.write(run)


async def is_rated(storage: Storage, code: str) -> bool:
    """Whether table ``code`` is rated (a table with no mode is casual)."""
    async with storage.engine.connect() as connection:
        return bool(
            await connection.scalar(
                sa.select(table_modes.c.rated).where(table_modes.c.table_code == code)
            )
        )


async def table_mode(storage: Storage, code: str) -> TableMode:
    """Table ``code``'s mode as its last deal left it (no row: casual)."""
    async with storage.engine.connect() as connection:
        row = (await connection.execute(
            sa.select(table_modes.c.rated, table_modes.c.casual)
            .where(table_modes.c.table_code == code)
        )).first()
    return TableMode(False) if row is None else TableMode(bool(row.rated), row.casual)


async def deal_mode(storage: Storage, code: str, moment: datetime) -> TableMode:
    """The mode of the match being dealt at table ``code``, decided and stored in one
    transaction: a table chosen rated whose seats hold two accounts that have played
    :data:`~..common.fairplay.PAIR_CAP` rated matches together in the window before
    ``moment`` plays this one casual (``pair_cap``); a table whose pairing the room chose never
    (a tournament's game). A table where a marked account holds a seat plays casual, a
    tournament's too (``marked``: :mod:`.fairplay_queries`). A casual table is read, never
    written."""

    async def run(connection: AsyncConnection) -> TableMode:
        row = (await connection.execute(
            sa.select(table_modes.c.rated, table_modes.c.casual, table_modes.c.purpose)
            .where(table_modes.c.table_code == code)
        )).first()
        if row is None or not row.rated:
            return TableMode(False)
        casual = None
        holders = set((await connection.scalars(
            sa.select(seat_accounts.c.account_id).where(seat_accounts.c.table_code == code)
        )).all())
        if await marked_among(connection, holders):
            casual = "marked"
        elif row.purpose != PAIRED and await _pair_capped(
                connection, holders, moment - fairplay.PAIR_WINDOW):
            casual = "pair_cap"
        if casual != row.casual:
            await connection.execute(table_modes.update().where(
                table_modes.c.table_code == code).values(casual=casual))
        return TableMode(True, casual)

    return await storage.write(run)


async def _pair_capped(connection: AsyncConnection, holders: set[int], since: datetime) -> bool:
    """Whether two of ``holders`` have played :data:`~..common.fairplay.PAIR_CAP` rated
    matches together since ``since``."""
    if len(holders) < 2:
        return False
    mine, theirs = account_matches.alias("mine"), account_matches.alias("theirs")
    found = await connection.scalar(
        sa.select(sa.func.count())
        .select_from(mine.join(theirs, sa.and_(
            mine.c.match_id == theirs.c.match_id, mine.c.account_id < theirs.c.account_id)))
        .where(mine.c.account_id.in_(holders), theirs.c.account_id.in_(holders),
               mine.c.rated.is_(True), mine.c.at >= since)
        .group_by(mine.c.account_id, theirs.c.account_id)
        .having(sa.func.count() >= fairplay.PAIR_CAP)
        .limit(1)
    )
    return found is not None


async def pair_capped(storage: Storage, account_ids: set[int], moment: datetime) -> bool:
    """Whether two of ``account_ids`` have played their :data:`~..common.fairplay.PAIR_CAP`
    rated matches together in the window before ``moment`` (a challenge says so when sent)."""
    async with storage.engine.connect() as connection:
        return await _pair_capped(connection, account_ids, moment - fairplay.PAIR_WINDOW)


async def finished_matches(storage: Storage, account_id: int) -> int:
    """How many matches ``account_id`` finished that were not short (rated or casual, with
    people or against the computer): what a newcomer plays before rated play."""
    async with storage.engine.connect() as connection:
        return int(await connection.scalar(
            sa.select(sa.func.count()).select_from(account_matches).where(
                account_matches.c.account_id == account_id, account_matches.c.short.is_(False))
        ) or 0)


async def match_accounts(storage: Storage, code: str, match_id: int) -> MatchAccounts:
    """Match ``match_id``'s players, table ``code``'s seat holders and mode, read on one
    connection."""
    async with storage.engine.connect() as connection:
        players: list[dict[str, Any]] = (
            await connection.scalar(sa.select(matches.c.players).where(matches.c.id == match_id))
        ) or []
        holders = {
            row.seat: row.account_id
            for row in await connection.execute(
                sa.select(seat_accounts.c.seat, seat_accounts.c.account_id).where(
                    seat_accounts.c.table_code == code
                )
            )
        }
        mode = (await connection.execute(
            sa.select(table_modes.c.rated, table_modes.c.casual, table_modes.c.purpose)
            .where(table_modes.c.table_code == code)
        )).first()
    rated = mode is not None and TableMode(bool(mode.rated), mode.casual).rated
    return MatchAccounts(players, holders, rated, mode is not None and mode.purpose == PAIRED)


async def record_match(
    storage: Storage, match_id: int, pool: str, played: Sequence[Played], moment: datetime,
    rate: Rate | None, short: bool = False, capped: bool = True,
) -> None:
    """One transaction: match ``match_id`` goes in the record of each account that ``played``
    it, unless it is there already (recording twice changes nothing); with ``rate`` (a rated
    match; None for a casual one) the accounts' ratings in ``pool`` are read, ``rate`` moves
    them, and each new rating is written with its line of history. ``short``: the match ended
    before each side made 2 moves of its own (so ``rate`` is None). ``capped``: two of its
    accounts that have played their :data:`~..common.fairplay.PAIR_CAP` rated matches
    together already in the window make it casual here too, read in this transaction: the
    deal decided as much, but two tables of one pair dealt side by side both saw the count
    below the cap (a game the room paired, a tournament's, is not capped). A marked account
    among them makes it casual too: it may have been marked since the deal."""

    async def run(connection: AsyncConnection) -> None:
        done = await connection.scalar(
            sa.select(sa.func.count()).select_from(account_matches).where(
                account_matches.c.match_id == match_id
            )
        )
        if done:
            return
        moving = rate
        accounts_in = {part.account_id for part in played}
        if moving is not None and (await marked_among(connection, accounts_in) or (
                capped and await _pair_capped(
                    connection, accounts_in, moment - fairplay.PAIR_WINDOW))):
            moving = None
        await connection.execute(account_matches.insert(), [
            {"match_id": match_id, "account_id": part.account_id, "seat": part.seat,
             "pool": pool, "rated": moving is not None, "result": part.result, "at": moment,
             "short": short}
            for part in played
        ])
        if moving is None:
            return
        rows = (
            await connection.execute(
                sa.select(ratings).where(
                    ratings.c.pool == pool,
                    ratings.c.account_id.in_([part.account_id for part in played]),
                )
            )
        ).all()
        known = {row.account_id: _stored_rating(row) for row in rows}
        for moved in moving(known):
            if moved.account_id not in known:
                await connection.execute(ratings.insert().values(
                    account_id=moved.account_id, pool=pool, mu=moved.mu, sigma=moved.sigma,
                    matches=moved.matches, wins=moved.wins, losses=moved.losses,
                    updated_at=moment))
            else:
                await connection.execute(
                    ratings.update()
                    .where(ratings.c.account_id == moved.account_id, ratings.c.pool == pool)
                    .values(mu=moved.mu, sigma=moved.sigma, matches=moved.matches,
                            wins=moved.wins, losses=moved.losses, updated_at=moment)
                )
            await connection.execute(rating_history.insert().values(
                match_id=match_id, account_id=moved.account_id, pool=pool, seat=moved.seat,
                result=moved.result, mu=moved.mu, sigma=moved.sigma,
                display_before=moved.display_before, display_after=moved.display_after,
                at=moment))

    await storage.write(run)


def _stored_rating(row: Any) -> StoredRating:
    return StoredRating(row.account_id, row.pool, row.mu, row.sigma, row.matches, row.wins,
                        row.losses)


# -- leaderboards and profiles -------------------------------------------------------------


@dataclass(frozen=True)
class Standings:
    """A pool's leaderboard as stored: its best ratings, and one account's own."""

    top: list[NamedRating]
    mine: NamedRating | None
    """The asking account's rating in the pool, if it has one."""
    above: int | None
    """How many counted ratings are stronger than ``mine`` (None while it is provisional)."""


@dataclass(frozen=True)
class RatingChange:
    """One line of a rating's history: the rating shown before and after a match."""

    match_id: int
    pool: str
    seat: int
    result: str
    display_before: int
    display_after: int
    at: datetime


@dataclass(frozen=True)
class RecordedMatch:
    """A match in an account's record, with the match's players and rules."""

    match_id: int
    seat: int
    pool: str
    rated: bool
    result: str
    at: datetime
    players: list[dict[str, Any]]
    rules: dict[str, Any]


@dataclass(frozen=True)
class StoredProfile:
    """What a profile shows of an account, read on one connection."""

    account_id: int
    name: str
    since: datetime
    ratings: list[StoredRating]
    """Its pools, the most played first."""
    history: list[RatingChange]
    """Every change of its ratings, oldest first."""
    results: dict[str, int]
    """How many of its matches ended in each result."""
    recent: list[RecordedMatch]
    """Its latest matches, newest first."""


async def standings(
    storage: Storage, pool: str, provisional: int, top: int, account_id: int | None
) -> Standings:
    """The ``top`` strongest ratings of ``pool`` with at least ``provisional`` matches,
    strongest first (by ``mu - 3 sigma``, the order of the rating shown; ties by account), and
    ``account_id``'s own with how many counted ratings are stronger; read on one connection.
    A marked account (:mod:`.fairplay_queries`) is listed nowhere and counted in no rank."""
    strength = ratings.c.mu - 3 * ratings.c.sigma
    query = (
        sa.select(ratings, accounts.c.name, accounts.c.deleted_at)
        .join(accounts, accounts.c.id == ratings.c.account_id)
        .where(ratings.c.pool == pool)
    )
    unmarked = ~sa.exists().where(account_marks.c.account_id == ratings.c.account_id)
    async with storage.engine.connect() as connection:
        best = (
            await connection.execute(
                query.where(ratings.c.matches >= provisional, unmarked)
                .order_by(strength.desc(), ratings.c.account_id)
                .limit(top)
            )
        ).all()
        mine = None
        above = None
        if account_id is not None:
            mine = (
                await connection.execute(query.where(ratings.c.account_id == account_id))
            ).first()
            if mine is not None and mine.matches >= provisional:
                above = await connection.scalar(
                    sa.select(sa.func.count()).select_from(ratings).where(
                        ratings.c.pool == pool,
                        ratings.c.matches >= provisional, unmarked,
                        strength > mine.mu - 3 * mine.sigma,
                    )
                )
    return Standings([_named_rating(row) for row in best],
                     None if mine is None else _named_rating(mine),
                     None if above is None else int(above))


def _named_rating(row: Any) -> NamedRating:
    return NamedRating(row.account_id, row.pool, row.mu, row.sigma, row.matches, row.wins,
                       row.losses, row.name, row.deleted_at is not None)


async def profile_of(
    storage: Storage, name_key: str, legacy_key: str, recent: int
) -> StoredProfile | None:
    """The profile of the account a typed name finds (its keys, as :func:`login_row` takes
    them), with its ``recent`` latest matches; None if nobody has the name."""
    async with storage.engine.connect() as connection:
        account = chosen(
            (
                await connection.execute(
                    sa.select(accounts.c.id, accounts.c.name, accounts.c.name_key,
                              accounts.c.created_at).where(named(name_key, legacy_key))
                )
            ).all(),
            legacy_key,
        )
        if account is None:
            return None
        pools = (
            await connection.execute(
                sa.select(ratings).where(ratings.c.account_id == account.id)
                .order_by(ratings.c.matches.desc())
            )
        ).all()
        history = (
            await connection.execute(
                sa.select(rating_history).where(rating_history.c.account_id == account.id)
                .order_by(rating_history.c.at, rating_history.c.match_id)
            )
        ).all()
        results = dict(
            (row.result, row.n)
            for row in await connection.execute(
                sa.select(account_matches.c.result, sa.func.count().label("n"))
                .where(account_matches.c.account_id == account.id)
                .group_by(account_matches.c.result)
            )
        )
        played = (
            await connection.execute(
                sa.select(account_matches, matches.c.players, matches.c.rules)
                .join(matches, matches.c.id == account_matches.c.match_id)
                .where(account_matches.c.account_id == account.id)
                .order_by(account_matches.c.at.desc(), account_matches.c.match_id.desc())
                .limit(recent)
            )
        ).all()
    return StoredProfile(
        account_id=account.id,
        name=account.name,
        since=aware(account.created_at),
        ratings=[_stored_rating(row) for row in pools],
        history=[
            RatingChange(row.match_id, row.pool, row.seat, row.result, row.display_before,
                         row.display_after, aware(row.at))
            for row in history
        ],
        results=results,
        recent=[
            RecordedMatch(row.match_id, row.seat, row.pool, row.rated, row.result, aware(row.at),
                        row.players, row.rules)
            for row in played
        ],
    )
