"""The daily deal over HTTP: today's deal and its table, a seat at it, your match beside the
master's, and a past day's records with its seed (docs/protocol.md, docs/daily.md)."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Final

from fastapi import APIRouter, Depends, Path, Request
from pydantic import BaseModel, Field, StringConstraints

from ..accounts import accounts
from ..accounts.replays import frames
from ..common.errors import LobbyError
from ..common.tokens import normalise_code, token_matches
from ..feature import CLUSTER
from ..lobby import Name, SeatGrant, TableView, Token, rate_limit
from ..store import review_queries
from . import queries as daily_queries
from .deals import DAILY, PLAYER_SEAT, RULES, DailyDeals
from .queries import Attempt

STANDINGS: Final = 100
"""Lines of a day's table shown."""

router = APIRouter(prefix="/api/daily", tags=["daily"], dependencies=[Depends(rate_limit)])





Daily = Annotated[DailyDeals, Depends(DAILY)]


class Standing(BaseModel):
    rank: int
    name: str
    won: bool
    margin: int = Field(description="the player's match points less the master's")
    scores: list[int] = Field(description="each side's match points: the player's first")
    match: int | None = Field(description="the match, once the day is over (its replay)")


class MyAttempt(BaseModel):
    table: str = Field(description="the code of the table the attempt is played at")
    match: int | None
    finished: bool
    won: bool | None
    margin: int | None
    scores: list[int] | None


class Today(BaseModel):
    day: str = Field(description="the UTC day, as YYYY-MM-DD")
    ends_at: str = Field(description="when the day is over and its seed is published")
    rules: dict[str, Any]
    mine: MyAttempt | None = Field(description="your attempt today (logged in)")
    streak: int | None = Field(description="your days in a row with the deal played")
    players: int = Field(description="accounts that finished today's deal")
    standings: list[Standing] = Field(description="the day's table, best first (100 lines)")


class DayRecords(BaseModel):
    day: str
    over: bool = Field(description="the day is over: its seed and matches are public")
    seed: int | None = Field(description="the day's seed: once the day is over, never before")
    master: int | None = Field(
        description="the master's own play of the deal (a match id), once the day is over"
    )
    standings: list[Standing]


class Start(BaseModel):
    name: Name = Field("Guest", description="your display name as a guest")
    look: str = Field("french", max_length=16, description="deck look")


class Ask(BaseModel):
    day: Annotated[str, StringConstraints(max_length=10)] | None = Field(
        None, description="the day (YYYY-MM-DD); default today"
    )
    table: Annotated[str, StringConstraints(max_length=16)] | None = Field(
        None, description="a guest's table: with its seat's token, proof of a guest's attempt"
    )
    token: Token | None = None


class Side(BaseModel):
    match: int
    seat: int = Field(description="the seat compared: the player's seat, in both matches")
    scores: list[int]
    winner: int | None
    replay: dict[str, Any] = Field(description="the match frame by frame, as /api/replays/ID")


class Comparison(BaseModel):
    day: str
    yours: Side
    master: Side | None = Field(
        description="None while the master is still playing the deal, or while its play is "
        "sealed to you (``master_sealed`` says why)")
    master_sealed: str | None = Field(
        None, description="why the master's play is not shown yet: until the day is over it "
        "is shown only to an account that has finished its own (ranked) attempt; then "
        "``yours`` shows the other seat's hands hidden")
    master_opens_at: str | None = Field(
        None, description="when the master's play opens to everyone, while it is sealed")
    streak: int | None


MASTER_SEALED: Final = (
    "the master's play of the day's deal shows every hand of every round: until the day is "
    "over (00:00 UTC) it is shown only to a logged-in player who has finished their own "
    "attempt at the deal"
)


def _standings(found: list[daily_queries.Standing], over: bool) -> list[Standing]:
    """The day's table as shown; the matches only once the day is over (their replays are
    sealed before)."""
    return [
        Standing(rank=rank, name=line.name, won=line.won, margin=line.margin, scores=line.scores,
                 match=line.match_id if over else None)
        for rank, line in enumerate(found, start=1)
    ]


def _mine(attempt: Attempt | None) -> MyAttempt | None:
    if attempt is None:
        return None
    return MyAttempt(table=attempt.table_code, match=attempt.match_id,
                     finished=attempt.finished, won=attempt.won, margin=attempt.margin,
                     scores=attempt.scores)


def parse_day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise LobbyError(422, f"{text!r} is not a day: write it as YYYY-MM-DD",
                         code="not_a_day", params={"text": text}) from None


@router.get("")
async def today(daily: Daily, request: Request) -> Today:
    """Today's deal: when it ends, your attempt and streak, and the day's table so far. Never
    the seed."""
    day = daily.today()
    storage = daily.room.storage
    account = await accounts.current_account(request)
    mine = streak = None
    if account is not None:
        mine = _mine(await daily_queries.attempt_of_account(storage, day, account.id))
        streak = await daily.streak(account.id)
    found = await daily_queries.standings(storage, day, STANDINGS)
    return Today(
        day=day.isoformat(), ends_at=daily.ends_at(day).isoformat(), rules=RULES.to_dict(),
        mine=mine, streak=streak, players=await daily_queries.finished_count(storage, day),
        standings=_standings(found, False),
    )


@router.post("/play", status_code=201)
async def play(body: Start, daily: Daily, request: Request) -> SeatGrant:
    """Sit at today's deal, against the master, dealt at once: logged in, once a day (an
    unfinished attempt is given back to resume); as a guest, unranked, any number of times."""
    account = await accounts.seat_holder(request)
    if account is None:
        await accounts.check_guest_name(daily.room.storage, body.name)
    else:
        known = await daily_queries.attempt_of_account(daily.room.storage, daily.today(),
                                                       account.id)
        if known is not None and not known.finished:
            return await _resume(known, daily, request, account)
    name = accounts.seat_name(account, body.name)
    assert name is not None
    started = await daily.start(None if account is None else account.id, name, body.look)
    code = started.table["code"]
    await accounts.table_made(daily.room.storage, code, started.seat, account, False,
                              started.token)
    return SeatGrant(table=TableView.model_validate(started.table), seat=started.seat,
                     token=started.token, socket=f"/ws/tables/{code}")


async def _resume(
    attempt: Attempt, daily: Daily, request: Request, account: accounts.Account
) -> SeatGrant:
    """The seat of an unfinished attempt, with its token as the account holds it sealed."""
    held = [seat for seat in await accounts.held_seats(request, account)
            if seat.code == attempt.table_code and seat.seat == PLAYER_SEAT]
    if not held:  # another browser, or the attempt's own request has not noted its seat yet
        raise daily.second_attempt(attempt)
    shown = await CLUSTER(request).act(attempt.table_code, "show", {})
    return SeatGrant(table=TableView.model_validate(shown["table"]), seat=PLAYER_SEAT,
                     token=held[0].token, socket=f"/ws/tables/{attempt.table_code}")


@router.post("/comparison")
async def comparison(body: Ask, daily: Daily, request: Request) -> Comparison:
    """Your finished match of a day's deal beside the master's own play of it, seat for seat:
    logged in, your attempt; as a guest, the one at ``table`` whose seat ``token`` holds. Shown
    only once you have finished it (409 before).

    Until the day is over, no comparison shows a card its asker was not dealt (issue 34,
    item 3): the master's play is every hand of every round of the day's deck, so it opens
    early only to an account that has finished its own ranked attempt (which can no longer
    use it); to anyone else (a guest, who may resign at once and then play for rank) it is
    sealed, and their own match is shown as their seat saw it, the other hand hidden."""
    day = daily.today() if body.day is None else parse_day(body.day)
    storage = daily.room.storage
    account = await accounts.current_account(request)
    attempt = None
    if body.table is not None and body.token is not None:
        attempt = await daily_queries.attempt_at(storage, normalise_code(body.table))
        held = None if attempt is None else await daily_queries.seat_token_hash(
            storage, attempt.table_code, PLAYER_SEAT)
        if attempt is None or attempt.day != day or not token_matches(body.token, held):
            raise LobbyError(403, "that token holds no seat at that day's deal",
                             code="bad_daily_token")
    elif account is not None:
        attempt = await daily_queries.attempt_of_account(storage, day, account.id)
    if attempt is None:
        raise LobbyError(404, f"you have no attempt at the deal of {day.isoformat()}",
                         code="no_daily_attempt", params={"day": day.isoformat()})
    if not attempt.finished or attempt.match_id is None:
        raise LobbyError(409, "finish the deal first: the master's play of it is shown once "
                         "yours is over", code="daily_not_finished")
    deck_open = daily.is_over(day) or (
        account is not None and await daily.has_played(day, account.id))
    yours = await _side(daily, attempt.match_id, None if deck_open else PLAYER_SEAT)
    assert yours is not None
    streak = None if account is None else await daily.streak(account.id)
    master_id = await daily_queries.master_match(storage, day)
    if master_id is None:
        daily.master_play(day)
    if not deck_open:
        return Comparison(day=day.isoformat(), yours=yours, master=None,
                          master_sealed=MASTER_SEALED,
                          master_opens_at=daily.ends_at(day).isoformat(), streak=streak)
    return Comparison(
        day=day.isoformat(), yours=yours,
        master=None if master_id is None else await _side(daily, master_id),
        master_sealed=None, master_opens_at=None, streak=streak,
    )


def seat_view(replay: dict[str, Any], seat: int) -> dict[str, Any]:
    """A replay as ``seat`` saw its match: the other seats' hands empty in every frame (what
    they played shows on the table, as it did), and ``hidden`` naming them.

    >>> shown = seat_view({"frames": [{"hands": [["1C"], ["7D", "KS"]], "table": ["3S"]}]}, 0)
    >>> shown["frames"], shown["hidden"]
    ([{'hands': [['1C'], []], 'table': ['3S']}], [1])
    """
    hidden = [other for other in range(len(replay["frames"][0]["hands"])) if other != seat]
    return {**replay, "hidden": hidden, "frames": [
        {**frame, "hands": [hand if index == seat else [] for index, hand in
                            enumerate(frame["hands"])]}
        for frame in replay["frames"]
    ]}


async def _side(daily: DailyDeals, match_id: int, view: int | None = None) -> Side | None:
    """One match of the comparison; with ``view``, as that seat saw it (:func:`seat_view`)."""
    found = await daily.room.storage.load_match_record(match_id)
    if found is None or found[1] is None:
        return None
    record = found[1]
    players, look = await review_queries.players_and_look(daily.room.storage, match_id)
    replay = {"match": match_id, "players": players, "look": look, **frames(record),
              "chat": []}
    if view is not None:
        replay = seat_view(replay, view)
    return Side(match=match_id, seat=PLAYER_SEAT, scores=replay["scores"],
                winner=replay["winner"], replay=replay)


@router.get("/{day}")
async def day_records(
    day: Annotated[str, Path(max_length=10, description="the day, as YYYY-MM-DD")],
    daily: Daily,
) -> DayRecords:
    """A day's table; once the day is over, its seed and the master's play too. A day to
    come is not found."""
    when = parse_day(day)
    if when > daily.today():
        raise LobbyError(404, f"the deal of {when.isoformat()} is not dealt yet",
                         code="daily_not_dealt", params={"day": when.isoformat()})
    over = daily.is_over(when)
    storage = daily.room.storage
    return DayRecords(
        day=when.isoformat(), over=over,
        seed=await daily.seed(when) if over else None,
        master=await daily_queries.master_match(storage, when) if over else None,
        standings=_standings(await daily_queries.standings(storage, when, STANDINGS), over),
    )
