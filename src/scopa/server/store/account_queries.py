"""The accounts wing's reads and writes: accounts and sessions, the seats they hold, ratings,
profiles, replays and the master's reviews.

Each function is one query, one read on one connection, or one transaction through the room's
writer (:meth:`.Storage.write`), named for what it reads or writes. The wing
(:mod:`scopa.server.accounts`) keeps the HTTP and the rules of accounts (who may do what,
password hashes, seat keys, the rating model); this module keeps the SQL, so that the schema's
columns are spelled out in one place beside :mod:`.storage`. Where a rule of the wing must run
inside a transaction (sealing seats again under a new password, rating a match from the ratings
read in it), the caller hands it in as a plain function, so the transaction stays one.

Every moment given back is time-zone aware (SQLite keeps none: what it stores is UTC).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from .schema import (
    account_matches,
    accounts,
    matches,
    rating_history,
    ratings,
    review_jobs,
    reviews,
    seat_accounts,
    seats,
    sessions,
    table_modes,
    tables,
)
from .storage import Storage, now

# -- accounts and sessions -----------------------------------------------------------------


@dataclass(frozen=True)
class StoredSession:
    """A session found by its secret, with the account it logs in."""

    id: int
    created_at: datetime
    seen_at: datetime
    account_id: int
    name: str


@dataclass(frozen=True)
class Login:
    """What a login checks a password against: the account's id, name and password hash."""

    account_id: int
    name: str
    password_hash: str


@dataclass(frozen=True)
class ListedSession:
    """One of an account's sessions as its owner sees it (never its secret's hash)."""

    id: int
    agent: str | None
    created_at: datetime
    seen_at: datetime


async def session_of(storage: Storage, secret_hash: str) -> StoredSession | None:
    """The session whose secret hashes to ``secret_hash``, and its account; None if there is
    none (never opened, logged out or revoked). Whether it has lapsed is the caller's rule."""
    async with storage.engine.connect() as connection:
        row = (
            await connection.execute(
                sa.select(sessions.c.id, sessions.c.created_at, sessions.c.seen_at,
                          accounts.c.id.label("account"), accounts.c.name)
                .join(accounts, accounts.c.id == sessions.c.account_id)
                .where(sessions.c.secret_hash == secret_hash)
            )
        ).first()
    if row is None:
        return None
    return StoredSession(row.id, _aware(row.created_at), _aware(row.seen_at), row.account,
                         row.name)


async def session_seen(storage: Storage, session_id: int, moment: datetime) -> None:
    """Session ``session_id`` was used at ``moment`` (written now and then, not per request)."""

    async def run(connection: AsyncConnection) -> None:
        await connection.execute(
            sessions.update().where(sessions.c.id == session_id).values(seen_at=moment)
        )

    await storage.write(run)


async def open_session(
    storage: Storage, account_id: int, secret_hash: str, agent: str | None, moment: datetime,
    *, ending: str | None = None,
) -> None:
    """A new session of ``account_id`` under ``secret_hash``; in the same transaction the
    session whose secret hashes to ``ending`` (the one the login came with) ends, so that the
    browser never holds both."""

    async def run(connection: AsyncConnection) -> None:
        if ending is not None:
            await connection.execute(sessions.delete().where(sessions.c.secret_hash == ending))
        await connection.execute(
            sessions.insert().values(
                secret_hash=secret_hash, account_id=account_id, agent=agent,
                created_at=moment, seen_at=moment,
            )
        )

    await storage.write(run)


async def end_session(storage: Storage, secret_hash: str) -> None:
    """Log out: the session whose secret hashes to ``secret_hash`` ends (if there is one)."""

    async def run(connection: AsyncConnection) -> None:
        await connection.execute(sessions.delete().where(sessions.c.secret_hash == secret_hash))

    await storage.write(run)


async def revoke_session(storage: Storage, account_id: int, session_id: int) -> bool:
    """End session ``session_id`` if it is ``account_id``'s; whether it was (someone else's
    session is left alone, as if it did not exist)."""

    async def run(connection: AsyncConnection) -> int:
        done = await connection.execute(
            sessions.delete().where(
                sessions.c.id == session_id, sessions.c.account_id == account_id
            )
        )
        return int(done.rowcount)

    return bool(await storage.write(run))


async def sessions_of(storage: Storage, account_id: int) -> list[ListedSession]:
    """Every session of ``account_id``, oldest first."""
    async with storage.engine.connect() as connection:
        rows = (
            await connection.execute(
                sa.select(sessions.c.id, sessions.c.agent, sessions.c.created_at,
                          sessions.c.seen_at)
                .where(sessions.c.account_id == account_id)
                .order_by(sessions.c.id)
            )
        ).all()
    return [
        ListedSession(row.id, row.agent, _aware(row.created_at), _aware(row.seen_at))
        for row in rows
    ]


async def create_account(
    storage: Storage, name: str, name_key: str, password_hash: str, moment: datetime
) -> int | None:
    """A new account; its id, or None when ``name_key`` is taken (found taken in the
    transaction, or taken by another process's insert that committed first)."""

    async def run(connection: AsyncConnection) -> int | None:
        taken = await connection.scalar(
            sa.select(accounts.c.id).where(accounts.c.name_key == name_key)
        )
        if taken is not None:
            return None
        inserted = await connection.execute(
            accounts.insert().values(
                name=name, name_key=name_key, password_hash=password_hash, created_at=moment
            )
        )
        key_of_row = inserted.inserted_primary_key
        assert key_of_row is not None
        return int(key_of_row[0])

    try:
        return await storage.write(run)
    except sa.exc.IntegrityError:
        return None


def _named(name_key: str, legacy_key: str) -> sa.ColumnElement[bool]:
    return accounts.c.name_key.in_((name_key, legacy_key))


def _chosen(rows: Sequence[Any], legacy_key: str) -> Any:
    """Of the (at most two) accounts a typed name finds, the one that kept ``legacy_key``: an
    account that looks like an older one and kept its key of before migration 0008 is found by
    its own name first, as it was before; else the one with the name's key."""
    for row in rows:
        if row.name_key == legacy_key:
            return row
    return rows[0] if rows else None


async def name_taken(storage: Storage, name_key: str) -> bool:
    """Whether an account has the key ``name_key`` (a look-alike of the name is taken)."""
    async with storage.engine.connect() as connection:
        found = await connection.scalar(
            sa.select(accounts.c.id).where(accounts.c.name_key == name_key)
        )
    return found is not None


async def login_row(storage: Storage, name_key: str, legacy_key: str) -> Login | None:
    """The account a login names: keys as :func:`~..accounts.accounts.name_key` and
    :func:`~..accounts.accounts.legacy_name_key` make them of the typed name (the latter
    first: see :func:`_chosen`), or None for a name nobody has."""
    async with storage.engine.connect() as connection:
        rows = (
            await connection.execute(
                sa.select(accounts.c.id, accounts.c.name, accounts.c.name_key,
                          accounts.c.password_hash).where(_named(name_key, legacy_key))
            )
        ).all()
    row = _chosen(rows, legacy_key)
    return None if row is None else Login(row.id, row.name, row.password_hash)


async def name_owner(storage: Storage, name_key: str, legacy_key: str) -> str | None:
    """The name of the account these keys find (as :func:`login_row` finds it), or None."""
    async with storage.engine.connect() as connection:
        rows = (
            await connection.execute(
                sa.select(accounts.c.name, accounts.c.name_key)
                .where(_named(name_key, legacy_key))
            )
        ).all()
    row = _chosen(rows, legacy_key)
    return None if row is None else str(row.name)


async def password_hash(storage: Storage, account_id: int) -> str | None:
    """The password hash of ``account_id``, or None if there is no such account."""
    async with storage.engine.connect() as connection:
        found: str | None = await connection.scalar(
            sa.select(accounts.c.password_hash).where(accounts.c.id == account_id)
        )
    return found


# -- the seats accounts hold ---------------------------------------------------------------


@dataclass(frozen=True)
class SealedSeat:
    """A seat an account holds, its token sealed under the account's seat key."""

    table_code: str
    seat: int
    sealed: str


@dataclass(frozen=True)
class HeldSealedSeat(SealedSeat):
    """A sealed seat at a table still open, with the table's status and the hash of the token
    that takes the seat now (None once nobody holds it)."""

    status: str
    token_hash: str | None


Reseal = Callable[[SealedSeat], str | None]
"""A seat's token sealed again under a new key, or None when it no longer opens."""


async def hold_seat(
    storage: Storage, code: str, seat: int, account_id: int | None, sealed: str | None
) -> None:
    """Seat ``seat`` at table ``code`` is now ``account_id``'s, its token ``sealed`` (None when
    the browser has no seat key); with no account (a guest took it), whatever account held it
    before no longer does. One transaction: the seat is never held by two accounts."""

    async def run(connection: AsyncConnection) -> None:
        await connection.execute(
            seat_accounts.delete().where(
                seat_accounts.c.table_code == code, seat_accounts.c.seat == seat
            )
        )
        if account_id is not None:
            await connection.execute(
                seat_accounts.insert().values(
                    table_code=code, seat=seat, account_id=account_id, sealed=sealed
                )
            )

    await storage.write(run)


async def held_seats(storage: Storage, account_id: int) -> list[HeldSealedSeat]:
    """The sealed seats of ``account_id`` at tables waiting, playing or over (a table over
    may start a rematch), by table code."""
    async with storage.engine.connect() as connection:
        rows = (
            await connection.execute(
                sa.select(seat_accounts, tables.c.status, seats.c.token_hash)
                .join(tables, tables.c.code == seat_accounts.c.table_code)
                .join(seats, sa.and_(seats.c.table_code == seat_accounts.c.table_code,
                                     seats.c.seat == seat_accounts.c.seat))
                .where(seat_accounts.c.account_id == account_id,
                       seat_accounts.c.sealed.is_not(None),
                       tables.c.status.in_(("waiting", "playing", "over")))
                .order_by(seat_accounts.c.table_code)
            )
        ).all()
    return [HeldSealedSeat(row.table_code, row.seat, row.sealed, row.status, row.token_hash)
            for row in rows]


async def change_password(
    storage: Storage, account_id: int, new_hash: str, reseal: Reseal, *, keep_session: int
) -> None:
    """One transaction: ``account_id``'s password hash becomes ``new_hash``, each seat it holds
    sealed is sealed again by ``reseal`` (or its seal dropped), and every session of the
    account but ``keep_session`` ends. Being one transaction, no seat is ever left sealed under
    a key that no password gives any more."""

    async def run(connection: AsyncConnection) -> None:
        await connection.execute(
            accounts.update().where(accounts.c.id == account_id).values(password_hash=new_hash)
        )
        held = await connection.execute(
            sa.select(seat_accounts).where(
                seat_accounts.c.account_id == account_id, seat_accounts.c.sealed.is_not(None)
            )
        )
        for row in held.all():
            resealed = reseal(SealedSeat(row.table_code, row.seat, row.sealed))
            await connection.execute(
                seat_accounts.update()
                .where(seat_accounts.c.table_code == row.table_code,
                       seat_accounts.c.seat == row.seat)
                .values(sealed=resealed)
            )
        await connection.execute(
            sessions.delete().where(
                sessions.c.account_id == account_id, sessions.c.id != keep_session
            )
        )

    await storage.write(run)


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
    each seat at the table (by seat), and whether the table is rated."""

    players: list[dict[str, Any]]
    holders: dict[int, int]
    rated: bool


async def set_rated(storage: Storage, code: str, rated: bool) -> None:
    """Remember whether table ``code`` is rated (chosen when it is made)."""

    async def run(connection: AsyncConnection) -> None:
        await connection.execute(table_modes.insert().values(table_code=code, rated=rated))

    await storage.write(run)


async def is_rated(storage: Storage, code: str) -> bool:
    """Whether table ``code`` is rated (a table with no mode is casual)."""
    async with storage.engine.connect() as connection:
        return bool(
            await connection.scalar(
                sa.select(table_modes.c.rated).where(table_modes.c.table_code == code)
            )
        )


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
        rated = bool(
            await connection.scalar(
                sa.select(table_modes.c.rated).where(table_modes.c.table_code == code)
            )
        )
    return MatchAccounts(players, holders, rated)


async def record_match(
    storage: Storage, match_id: int, pool: str, played: Sequence[Played], moment: datetime,
    rate: Rate | None,
) -> None:
    """One transaction: match ``match_id`` goes in the record of each account that ``played``
    it, unless it is there already (recording twice changes nothing); with ``rate`` (a rated
    match; None for a casual one) the accounts' ratings in ``pool`` are read, ``rate`` moves
    them, and each new rating is written with its line of history."""

    async def run(connection: AsyncConnection) -> None:
        done = await connection.scalar(
            sa.select(sa.func.count()).select_from(account_matches).where(
                account_matches.c.match_id == match_id
            )
        )
        if done:
            return
        await connection.execute(account_matches.insert(), [
            {"match_id": match_id, "account_id": part.account_id, "seat": part.seat,
             "pool": pool, "rated": rate is not None, "result": part.result, "at": moment}
            for part in played
        ])
        if rate is None:
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
        for moved in rate(known):
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
    ``account_id``'s own with how many counted ratings are stronger; read on one connection."""
    strength = ratings.c.mu - 3 * ratings.c.sigma
    query = (
        sa.select(ratings, accounts.c.name)
        .join(accounts, accounts.c.id == ratings.c.account_id)
        .where(ratings.c.pool == pool)
    )
    async with storage.engine.connect() as connection:
        best = (
            await connection.execute(
                query.where(ratings.c.matches >= provisional)
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
                        ratings.c.matches >= provisional,
                        strength > mine.mu - 3 * mine.sigma,
                    )
                )
    return Standings([_named_rating(row) for row in best],
                     None if mine is None else _named_rating(mine),
                     None if above is None else int(above))


def _named_rating(row: Any) -> NamedRating:
    return NamedRating(row.account_id, row.pool, row.mu, row.sigma, row.matches, row.wins,
                       row.losses, row.name)


async def profile_of(
    storage: Storage, name_key: str, legacy_key: str, recent: int
) -> StoredProfile | None:
    """The profile of the account a typed name finds (its keys, as :func:`login_row` takes
    them), with its ``recent`` latest matches; None if nobody has the name."""
    async with storage.engine.connect() as connection:
        account = _chosen(
            (
                await connection.execute(
                    sa.select(accounts.c.id, accounts.c.name, accounts.c.name_key,
                              accounts.c.created_at).where(_named(name_key, legacy_key))
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
        since=_aware(account.created_at),
        ratings=[_stored_rating(row) for row in pools],
        history=[
            RatingChange(row.match_id, row.pool, row.seat, row.result, row.display_before,
                         row.display_after, _aware(row.at))
            for row in history
        ],
        results=results,
        recent=[
            RecordedMatch(row.match_id, row.seat, row.pool, row.rated, row.result, _aware(row.at),
                        row.players, row.rules)
            for row in played
        ],
    )


# -- replays and reviews -------------------------------------------------------------------


@dataclass(frozen=True)
class ReviewJob:
    """How far a review is, as the process working it out last wrote."""

    total: int
    done: int
    error: str | None


async def players_and_look(storage: Storage, match_id: int) -> tuple[list[dict[str, Any]], str]:
    """Match ``match_id``'s players and its table's deck look, for its replay (the match must
    exist: ``NoResultFound`` otherwise)."""
    async with storage.engine.connect() as connection:
        found = (
            await connection.execute(
                sa.select(matches.c.players, tables.c.look)
                .join(tables, tables.c.code == matches.c.table_code)
                .where(matches.c.id == match_id)
            )
        ).one()
    return found.players, found.look


async def stored_review(storage: Storage, match_id: int, seat: int) -> dict[str, Any] | None:
    """The finished review of ``seat``'s moves in match ``match_id``, if one was stored."""
    async with storage.engine.connect() as connection:
        found: dict[str, Any] | None = await connection.scalar(
            sa.select(reviews.c.result).where(
                reviews.c.match_id == match_id, reviews.c.seat == seat
            )
        )
    return found


async def review_job(storage: Storage, match_id: int, seat: int) -> ReviewJob | None:
    """The progress of the review of ``seat`` in match ``match_id``; None if nobody asked."""
    async with storage.engine.connect() as connection:
        row = (await connection.execute(
            sa.select(review_jobs).where(
                review_jobs.c.match_id == match_id, review_jobs.c.seat == seat)
        )).first()
    return None if row is None else ReviewJob(row.total, row.done, row.error)


async def claim_review(
    storage: Storage, match_id: int, seat: int, owner: str, total: int, moment: datetime,
    lapsed_before: datetime,
) -> bool:
    """Whether ``owner`` now holds the review of ``seat`` in match ``match_id``, of ``total``
    moves: a new row, or one that failed or whose owner wrote nothing since ``lapsed_before``.
    The unique key and the owner named in the ``UPDATE``'s ``WHERE`` let only one process win,
    whatever the others do meanwhile."""
    where = sa.and_(review_jobs.c.match_id == match_id, review_jobs.c.seat == seat)

    async def run(connection: AsyncConnection) -> bool:
        row = (await connection.execute(sa.select(review_jobs).where(where))).first()
        if row is None:
            await connection.execute(review_jobs.insert().values(
                match_id=match_id, seat=seat, owner=owner, done=0, total=total,
                error=None, touched_at=moment))
            return True
        taken = await connection.execute(
            review_jobs.update()
            .where(where, review_jobs.c.owner == row.owner,
                   sa.or_(review_jobs.c.error.is_not(None),
                          review_jobs.c.touched_at < lapsed_before))
            .values(owner=owner, done=0, total=total, error=None, touched_at=moment)
        )
        return taken.rowcount == 1

    try:
        return await storage.write(run)
    except sa.exc.IntegrityError:  # another process inserted the row first
        return False


async def review_progressed(
    storage: Storage, match_id: int, seat: int, owner: str, done: int
) -> bool:
    """``owner`` has reviewed ``done`` moves; False if its claim is gone (another process took
    the review over, or it failed)."""
    return await _note_review(storage, match_id, seat, owner, {"done": done})


async def review_failed(
    storage: Storage, match_id: int, seat: int, owner: str, error: str
) -> bool:
    """``owner``'s review failed with ``error``, so the next asking claims it again at once;
    False if its claim was gone already."""
    return await _note_review(storage, match_id, seat, owner, {"error": error})


async def _note_review(
    storage: Storage, match_id: int, seat: int, owner: str, values: dict[str, Any]
) -> bool:
    async def run(connection: AsyncConnection) -> bool:
        noted = await connection.execute(
            review_jobs.update()
            .where(review_jobs.c.match_id == match_id, review_jobs.c.seat == seat,
                   review_jobs.c.owner == owner, review_jobs.c.error.is_(None))
            .values(touched_at=now(), **values)
        )
        return noted.rowcount == 1

    return await storage.write(run)


async def store_review(
    storage: Storage, match_id: int, seat: int, result: dict[str, Any]
) -> None:
    """One transaction: the finished review of ``seat`` in match ``match_id`` is stored
    (unless another process stored it first) and its job's row goes, so that every process
    finds the review the moment its progress is gone."""
    moment = now()

    async def run(connection: AsyncConnection) -> None:
        exists = await connection.scalar(
            sa.select(reviews.c.match_id).where(
                reviews.c.match_id == match_id, reviews.c.seat == seat
            )
        )
        if exists is None:  # another process may have stored the same review first
            await connection.execute(reviews.insert().values(
                match_id=match_id, seat=seat, result=result, created_at=moment))
        await connection.execute(review_jobs.delete().where(
            review_jobs.c.match_id == match_id, review_jobs.c.seat == seat))

    await storage.write(run)


def _aware(moment: datetime) -> datetime:
    """SQLite gives back naive datetimes (stored as UTC)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
