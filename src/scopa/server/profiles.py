"""Leaderboards and profiles over HTTP: the top of each pool and your rank, a player's ratings
with their history, their record and their recent matches with links to the replays, among
them the matches played offline against the computer and uploaded (never rated: they count in
no rating, leaderboard or record of wins and losses, and are marked ``offline``).

Everything here is public (as on any card room's site) except nothing: sessions, passwords and
seat tokens live elsewhere. Unknown pools and names are 404s with a sentence.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Final

from fastapi import APIRouter, Depends, Path, Request
from pydantic import BaseModel, Field

from ..rules import Rules
from .accounts.accounts import clean_name, current_account, legacy_name_key, name_key, rate_limit
from .accounts.ratings import display
from .common.errors import LobbyError
from .feature import ROOM
from .offline import history as offline_history
from .puzzles import ratings as puzzle_ratings
from .store import rating_queries
from .store.rating_queries import NamedRating, RecordedMatch
from .store.storage import Storage

TOP: Final = 100
RECENT: Final = 20
"""Recent matches a profile lists."""
POOLS: Final = tuple(
    f"{game}-{format_}"
    for game in ("scopa", "escoba")
    for format_ in ("2", "3", "teams", "6-teams", "6-pairs")
)

router = APIRouter(prefix="/api", tags=["players"], dependencies=[Depends(rate_limit)])


def _storage(request: Request) -> Storage:
    return ROOM(request).storage


def _provisional(request: Request) -> int:
    """Rated matches before a rating counts: the room's setting."""
    return ROOM(request).settings.provisional_matches


def _iso(moment: datetime) -> str:
    """A stored moment (time-zone aware, as the store gives them back) as text."""
    return moment.isoformat()


def check_pool(pool: str) -> str:
    if pool not in POOLS:
        raise LobbyError(404, f"there is no pool {pool!r}; the pools are: {', '.join(POOLS)}",
                         code="no_pool", params={"pool": pool})
    return pool


class Standing(BaseModel):
    rank: int | None = Field(description="1 is the best; None while provisional")
    id: int
    name: str
    rating: int = Field(description="the conservative rating shown: 1000 + 40 (mu - 3 sigma)")
    matches: int
    wins: int
    losses: int
    provisional: bool
    deleted: bool = Field(False, description="a deleted account: its name is blank")


class Leaderboard(BaseModel):
    pool: str
    provisional_matches: int = Field(description="rated matches before a rating counts")
    top: list[Standing] = Field(description="the best 100 players who are not provisional")
    me: Standing | None = Field(description="your own line, when logged in and rated here")


class HistoryPoint(BaseModel):
    match: int
    at: str
    rating: int
    result: str


class PoolRating(BaseModel):
    pool: str
    rating: int
    mu: float
    sigma: float
    matches: int
    wins: int
    losses: int
    provisional: bool
    history: list[HistoryPoint]


class Seat(BaseModel):
    seat: int
    side: int
    name: str | None
    kind: str
    level: str | None
    deleted: bool = Field(False, description="a deleted account's seat: its name is gone")


class PlayedMatch(BaseModel):
    match: int
    at: str
    pool: str
    rated: bool
    result: str = Field(description="win, loss or left (walked out of it: a loss)")
    seat: int
    players: list[Seat]
    replay: str = Field(description="the replay's page in the web client, to share")
    change: int | None = Field(description="the rating's change, for a rated match")
    offline: bool = Field(False, description="played offline against the computer and "
                          "uploaded: never rated; ``match`` is its id among offline matches "
                          "(/api/offline/matches/{id})")


class PuzzleRating(BaseModel):
    preset: str = Field(description="the game: scopa or escoba")
    rating: int = Field(description="shown as a match rating is: 1000 + 40 (mu - 3 sigma)")
    tries: int = Field(description="puzzles tried (the first try of each counts)")
    solved: int


class Profile(BaseModel):
    id: int
    name: str
    since: str
    wins: int
    losses: int
    abandoned: int
    ratings: list[PoolRating]
    recent: list[PlayedMatch]
    puzzles: list[PuzzleRating] = Field(description="the puzzle rating in each game tried")


@router.get("/pools")
async def list_pools() -> list[str]:
    """The rating pools: a game, then a format."""
    return list(POOLS)


@router.get("/leaderboards/{pool}")
async def leaderboard(
    pool: Annotated[str, Path(max_length=32)], request: Request
) -> Leaderboard:
    """The top 100 of a pool (provisional players left out), and your own line."""
    check_pool(pool)
    provisional = _provisional(request)
    me = await current_account(request)
    found = await rating_queries.standings(
        _storage(request), pool, provisional, TOP, None if me is None else me.id
    )
    mine, above = found.mine, found.above
    return Leaderboard(
        pool=pool,
        provisional_matches=provisional,
        top=[_standing(row, rank, provisional) for rank, row in enumerate(found.top, 1)],
        me=None if mine is None else _standing(mine, None if above is None else above + 1,
                                               provisional),
    )


def _standing(row: NamedRating, rank: int | None, provisional: int) -> Standing:
    return Standing(
        rank=rank, id=row.account_id, name=row.name, rating=display(row.mu, row.sigma),
        matches=row.matches, wins=row.wins, losses=row.losses,
        provisional=row.matches < provisional, deleted=row.deleted,
    )


@router.get("/profiles/{name:path}")
async def profile(name: Annotated[str, Path(max_length=64)], request: Request) -> Profile:
    """A player's ratings (with their history), record and recent matches. The name is the
    rest of the path, so a name with a ``/`` in it (``AC/DC fan``, sent as ``AC%2FDC%20fan``)
    has its profile too; it is cleaned and found as a login finds it."""
    account = await rating_queries.profile_of(
        _storage(request), name_key(name), legacy_name_key(name), RECENT
    )
    if account is None:
        raise LobbyError(404, f"no player is named {clean_name(name)!r}",
                         code="no_player", params={"name": clean_name(name)})
    history, counts = account.history, account.results
    changes = {row.match_id: row.display_after - row.display_before for row in history}
    offline = await offline_history.recent(_storage(request), account.account_id, RECENT)
    recent = sorted(
        [(row.at, _played(row, changes.get(row.match_id))) for row in account.recent]
        + [(row.at, _played(row, None, offline=True)) for row in offline],
        key=lambda pair: pair[0], reverse=True)[:RECENT]
    return Profile(
        id=account.account_id,
        name=account.name,
        since=_iso(account.since),
        wins=counts.get("win", 0),
        losses=counts.get("loss", 0) + counts.get("left", 0),
        abandoned=counts.get("left", 0),
        ratings=[
            PoolRating(
                pool=row.pool, rating=display(row.mu, row.sigma), mu=row.mu, sigma=row.sigma,
                matches=row.matches, wins=row.wins, losses=row.losses,
                provisional=row.matches < _provisional(request),
                history=[
                    HistoryPoint(match=point.match_id, at=_iso(point.at),
                                 rating=point.display_after, result=point.result)
                    for point in history
                    if point.pool == row.pool
                ],
            )
            for row in account.ratings
        ],
        recent=[played for _, played in recent],
        puzzles=[
            PuzzleRating(preset=row.preset, rating=display(row.mu, row.sigma), tries=row.tries,
                         solved=row.solved)
            for row in await puzzle_ratings.ratings_of(_storage(request), account.account_id)
        ],
    )


def _played(row: RecordedMatch, change: int | None, offline: bool = False) -> PlayedMatch:
    """One line of the recent matches; an ``offline`` one's replay is offline play's own."""
    sides = _sides(row.rules)
    return PlayedMatch(
        match=row.match_id, at=_iso(row.at), pool=row.pool, rated=row.rated, result=row.result,
        seat=row.seat,
        players=[
            Seat(seat=player["seat"], side=player["seat"] % sides, name=player.get("name"),
                 kind=player.get("kind", "human"), level=player.get("level"),
                 deleted=player.get("deleted", False))
            for player in row.players
        ],
        replay=f"/#/offline/{row.match_id}" if offline else f"/#/m/{row.match_id}",
        change=change,
        offline=offline,
    )


def _sides(rules: dict[str, Any]) -> int:
    """How many sides a stored match's rules have (as :attr:`Rules.sides` says)."""
    return Rules.from_dict(rules).sides
