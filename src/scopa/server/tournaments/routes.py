"""The tournaments over HTTP: list, make, show, join, withdraw and start early.

Every value is bounded and every refusal is one sentence that changes nothing: a length over
a day or zero rounds, a start in the past, an unknown tournament, joining twice or after it
closed, and anything but reading for a visitor who is not logged in. A player may have
:data:`MAX_OPEN_PER_ACCOUNT` tournaments of their own not yet finished, and a tournament takes
:data:`MAX_PLAYERS` players: each one costs the director a pairing's work.
"""

from __future__ import annotations

import unicodedata
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, Final, Literal

from fastapi import APIRouter, Depends, Path, Request
from pydantic import BaseModel, Field, StringConstraints

from ..accounts import accounts
from ..common.errors import LobbyError
from ..common.text import shown_fault
from ..lobby import rate_limit
from ..table.room import build_rules
from . import queries as tournament_queries
from .director import TOURNAMENTS, Tournaments
from .queries import StoredTournament
from .views import own_part, public_view, summary

MAX_MINUTES: Final = 24 * 60
MAX_ROUNDS: Final = 15
MAX_PLAYERS: Final = 512
MAX_OPEN_PER_ACCOUNT: Final = 3
MAX_AHEAD: Final = timedelta(days=30)
MAX_NAME: Final = 64
LISTED: Final = 50
RECENT: Final = timedelta(days=1)
"""Finished tournaments stay in the lobby's list this long, their podium on show."""

TournamentId = Annotated[int, Path(ge=1, le=2**31 - 1, description="the tournament's id")]

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"],
                   dependencies=[Depends(rate_limit)])


Director = Annotated[Tournaments, Depends(TOURNAMENTS)]


class NewTournament(BaseModel):
    name: Annotated[str, StringConstraints(max_length=256)] = Field(
        description="what the lobby calls it, 1 to 64 characters")
    kind: Literal["arena", "swiss"] = Field(
        description="arena: a set length, paired again as soon as a game ends; swiss: a set "
        "number of rounds")
    preset: Annotated[str, StringConstraints(max_length=32)] = Field(
        "scopa", description="the game: a preset played by two")
    minutes: int | None = Field(None, description="an arena's length, 1 to 1440 (a day)")
    rounds: int | None = Field(None, description="a Swiss's rounds, 1 to 15")
    starts_at: datetime = Field(
        description="when it starts (ISO 8601; no zone is UTC); its maker may start it "
        "earlier with /start")


def _check(body: NewTournament, moment: datetime) -> tuple[str, datetime]:
    name = " ".join(unicodedata.normalize("NFC", body.name).split())
    if not 1 <= len(name) <= MAX_NAME:
        raise LobbyError(422, f"a tournament's name is 1 to {MAX_NAME} characters",
                         code="tournament_name_length", params={"most": MAX_NAME})
    # The lobby shows it to everyone: the rule of user names and chat (issue 34, item 11).
    fault = shown_fault(name, "a tournament's name")
    if fault is not None:
        raise LobbyError(422, fault, code="tournament_name_unfit")
    rules = build_rules(body.preset, 2, None, None)
    if rules.players != 2:
        raise LobbyError(422, "a tournament's games are played by two", code="tournament_two")
    if body.kind == "arena":
        if body.rounds is not None:
            raise LobbyError(422, "an arena has no rounds: give its length in minutes",
                             code="arena_no_rounds")
        if body.minutes is None or not 1 <= body.minutes <= MAX_MINUTES:
            raise LobbyError(
                422, f"an arena lasts from 1 minute to a day ({MAX_MINUTES} minutes); got "
                f"{body.minutes}", code="arena_minutes", params={"most": MAX_MINUTES})
    else:
        if body.minutes is not None:
            raise LobbyError(422, "a Swiss has no set length: give its number of rounds",
                             code="swiss_no_minutes")
        if body.rounds is None or not 1 <= body.rounds <= MAX_ROUNDS:
            raise LobbyError(
                422, f"a Swiss has from 1 to {MAX_ROUNDS} rounds; got {body.rounds}",
                code="swiss_rounds", params={"most": MAX_ROUNDS})
    starts = body.starts_at
    if starts.tzinfo is None:
        starts = starts.replace(tzinfo=UTC)
    if starts < moment:
        raise LobbyError(
            422, f"the start {starts.isoformat(timespec='minutes')} is in the past: choose a "
            "time from now on", code="start_in_past")
    if starts > moment + MAX_AHEAD:
        raise LobbyError(422, "a tournament starts within 30 days",
                         code="start_too_far", params={"days": 30})
    return name, starts


async def _found(director: Tournaments, tournament_id: int) -> StoredTournament:
    found = await tournament_queries.find(director.storage, tournament_id)
    if found is None:
        raise LobbyError(404, f"no tournament has the id {tournament_id}",
                         code="no_tournament", params={"id": tournament_id})
    return found


async def _shown(director: Tournaments, tournament: StoredTournament,
                 request: Request) -> dict[str, Any]:
    account = await accounts.current_account(request)
    return {**await public_view(director.storage, tournament),
            "me": await own_part(director.storage, tournament,
                                 None if account is None else account.id)}


@router.get("")
async def list_tournaments(director: Director) -> list[dict[str, Any]]:
    """Open and running tournaments, soonest first, then those of the last day that ended."""
    moment = director.clock()
    return [summary(t) for t in await tournament_queries.listed(
        director.storage, moment - RECENT, LISTED)]


@router.post("", status_code=201)
async def create_tournament(body: NewTournament, director: Director,
                            request: Request) -> dict[str, Any]:
    """Make a tournament (logged in): an arena of ``minutes`` or a Swiss of ``rounds``."""
    account = await accounts.require_account(request, write=True)
    moment = director.clock()
    name, starts = _check(body, moment)
    if await tournament_queries.open_count(director.storage, account.id) >= MAX_OPEN_PER_ACCOUNT:
        raise LobbyError(
            409, f"you have {MAX_OPEN_PER_ACCOUNT} tournaments not finished yet: make another "
            "once one has ended",
            code="too_many_tournaments", params={"most": MAX_OPEN_PER_ACCOUNT})
    ends = None if body.minutes is None else starts + timedelta(minutes=body.minutes)
    made = await tournament_queries.create(director.storage, {
        "name": name, "kind": body.kind, "preset": body.preset, "minutes": body.minutes,
        "rounds": body.rounds, "starts_at": starts, "ends_at": ends, "status": "open",
        "created_by": account.id, "daily_key": None, "created_at": moment,
    })
    assert made is not None
    await director.changed(made)
    return await _shown(director, await _found(director, made), request)


@router.get("/{tournament_id}")
async def show_tournament(tournament_id: TournamentId, director: Director,
                          request: Request) -> dict[str, Any]:
    """The standings, the games (live tables to watch, replays), the podium once over, and
    your own part: your table and seat token while you have a game in play."""
    return await _shown(director, await _found(director, tournament_id), request)


@router.post("/{tournament_id}/join")
async def join_tournament(tournament_id: TournamentId, director: Director,
                          request: Request) -> dict[str, Any]:
    """Join (logged in): an arena until its end, a Swiss until its first round is paired."""
    account = await accounts.require_account(request, write=True)
    tournament = await _found(director, tournament_id)
    moment = director.clock()
    if tournament.status == "finished" or (
        tournament.ends_at is not None and tournament.ends_at <= moment
    ):
        raise LobbyError(409, "the tournament is over: joining closed at its end",
                         code="tournament_over")
    coming_back = account.id in await tournament_queries.withdrawn(
        director.storage, tournament_id)
    if tournament.kind == "swiss" and tournament.status != "open" and not coming_back:
        raise LobbyError(
            409, "the Swiss has begun: joining closed when its first round was paired",
            code="swiss_begun")
    if len(await tournament_queries.players(director.storage, tournament_id)) >= MAX_PLAYERS:
        raise LobbyError(409, f"the tournament is full: {MAX_PLAYERS} players",
                         code="tournament_full", params={"most": MAX_PLAYERS})
    if not await tournament_queries.join(
        director.storage, tournament_id, account.id, account.name, moment
    ):
        raise LobbyError(409, "you have joined this tournament already", code="joined_already")
    await director.changed(tournament_id)
    return await _shown(director, tournament, request)


@router.post("/{tournament_id}/withdraw")
async def withdraw_from_tournament(tournament_id: TournamentId, director: Director,
                                   request: Request) -> dict[str, Any]:
    """Be paired no more (a game in play goes on; what you played still counts); joining
    again brings you back, in a Swiss too."""
    account = await accounts.require_account(request, write=True)
    tournament = await _found(director, tournament_id)
    if tournament.status == "finished":
        raise LobbyError(409, "the tournament is over: there is nothing to withdraw from",
                         code="tournament_over_withdraw")
    if not await tournament_queries.withdraw(director.storage, tournament_id, account.id):
        raise LobbyError(409, "you are not playing in this tournament", code="not_playing")
    await director.changed(tournament_id)
    return await _shown(director, tournament, request)


@router.post("/{tournament_id}/start")
async def start_tournament(tournament_id: TournamentId, director: Director,
                           request: Request) -> dict[str, Any]:
    """Start now, not at the hour set (its maker only, while it is open): a club night
    begins when everyone is there."""
    account = await accounts.require_account(request, write=True)
    tournament = await _found(director, tournament_id)
    if tournament.created_by != account.id:
        raise LobbyError(403, "only the player who made the tournament may start it early",
                         code="not_your_tournament")
    moment = director.clock()
    ends = None if tournament.minutes is None else moment + timedelta(minutes=tournament.minutes)
    if tournament.status != "open" or not await tournament_queries.start(
        director.storage, tournament_id, moment, ends
    ):
        raise LobbyError(409, "the tournament has started already", code="started_already")
    await director.changed(tournament_id)
    return await _shown(director, await _found(director, tournament_id), request)
