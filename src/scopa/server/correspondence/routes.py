"""Correspondence play over HTTP: your games, the offers and seeks, and a table's clock.

Every route but a table's clock needs a logged-in player, and every write passes the accounts'
Origin check (:data:`..accounts.accounts.Me`) and the lobby's limits per client address. A
refusal is one sentence and changes nothing. The moves themselves are played on the table's
WebSocket, as at any table.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path
from pydantic import BaseModel, Field, StringConstraints

from ...rules import Rules
from ..accounts.accounts import Me, rate_limit
from ..common.errors import LobbyError
from ..common.tokens import normalise_code
from ..lobby import SeatGrant, TableView
from . import queries as games_queries
from .games import FINISHED_SHOWN_DAYS, GAMES, Games
from .offers import OFFERS, Dealt, Offers

router = APIRouter(prefix="/api/correspondence", tags=["correspondence"],
                   dependencies=[Depends(rate_limit)])

Desk = Annotated[Games, Depends(GAMES)]
Book = Annotated[Offers, Depends(OFFERS)]
OfferId = Annotated[str, Path(max_length=32, description="the offer's id")]
Code = Annotated[str, Path(max_length=16, description="the table's code (any case)")]


class NewOffer(BaseModel):
    kind: Literal["name", "link", "seek"] = Field(
        description="to a player by name, to whoever opens its link, or a seek in the "
        "correspondence pool (paired with the first like seek of another player)")
    to: Annotated[str, StringConstraints(max_length=256)] | None = Field(
        None, description="the player's user name, for an offer by name")
    preset: Annotated[str, StringConstraints(max_length=32)] = Field(
        "scopa", description="the game: a rule preset for two players (scopa, escoba, ...)")
    target: int | None = Field(None, ge=1, le=1000, description="points to win")
    look: Annotated[str, StringConstraints(max_length=32)] = Field(
        "french", description="deck look: french, italian or spanish")
    rated: bool = Field(False, description="rated: the match moves both players' "
                        "correspondence ratings")
    days: int = Field(3, description="days a move: 1, 2, 3, 5, 7 or 14")


class OfferView(BaseModel):
    id: str
    kind: str
    by: str = Field(description="who made it")
    to: str | None = Field(description="whom it is made to, by name")
    preset: str
    target: int | None
    look: str
    rated: bool
    days: int
    state: str = Field(description="open, accepted, declined, cancelled or expired")
    table: str | None = Field(description="the table its match is played at, once accepted")
    expires: str = Field(description="when it stops waiting (ISO 8601)")
    link: str = Field(description="the page that answers it")


class Made(BaseModel):
    offer: OfferView
    grant: SeatGrant | None = Field(
        None, description="a seek paired at once: the match dealt, and your seat")


class GameView(BaseModel):
    table: str
    seat: int = Field(description="your seat")
    status: str = Field(description="playing or over")
    your_turn: bool
    days: int
    rated: bool
    rules: dict[str, Any]
    opponents: list[str]
    deadline: str | None = Field(description="when the mover's time runs out (ISO 8601); "
                                 "null once over, or when the late mover is waited for")
    seconds_left: float | None
    vacation: int = Field(description="vacation days the mover spent on this turn")
    overdue: bool = Field(description="the mover ran out of time and the other waits")
    result: Literal["win", "loss"] | None = Field(
        description="yours, once over (a loss on time is a loss)")


class Vacation(BaseModel):
    year: int
    used: int
    left: int


class Overview(BaseModel):
    games: list[GameView] = Field(description="your turn first, then the least time left")
    your_turn: int = Field(description="the matches where it is your turn")
    offers: list[OfferView] = Field(description="open offers you made or were made")
    vacation: Vacation
    most: int = Field(description="correspondence matches one may play at once")


class Badge(BaseModel):
    your_turn: int


class ClockView(BaseModel):
    table: str
    status: str
    version: int = Field(description="the moves played when the clock was last set (-1: "
                         "not dealt yet)")
    days: int
    rated: bool
    mover: int | None
    deadline: str | None
    seconds_left: float | None
    vacation: int = Field(description="vacation days the mover spent on this turn (each "
                          "added 24 hours)")
    patient: list[int] = Field(description="seats whose people wait for a late opponent "
                               "rather than win on time")
    overdue: bool


class Patience(BaseModel):
    wait: bool = Field(description="wait for a late opponent (true) or win on time (false)")


def _offer_view(offer: games_queries.Offer) -> OfferView:
    return OfferView(
        id=offer.id, kind=offer.kind, by=offer.from_name, to=offer.to_name, preset=offer.preset,
        target=offer.target, look=offer.look, rated=offer.rated, days=offer.days,
        state=offer.state, table=offer.table_code, expires=offer.expires_at.isoformat(),
        link=f"/#/games/offer/{offer.id}")


def _grant(dealt: Dealt) -> SeatGrant:
    info = dealt.table.info()
    return SeatGrant(table=TableView.model_validate(info), seat=dealt.seat, token=dealt.token,
                     socket=f"/ws/tables/{info['code']}")


def _result(game: games_queries.Game) -> Literal["win", "loss"] | None:
    if game.status != "over" or game.winner is None:
        return None
    return "win" if Rules.from_dict(game.rules).side_of(game.seat) == game.winner else "loss"


def _left(deadline: datetime | None, moment: datetime) -> float | None:
    return None if deadline is None else max(0.0, (deadline - moment).total_seconds())


@router.get("")
async def overview(me: Me, desk: Desk) -> Overview:
    """Your correspondence matches (those where it is your turn first, then by the time
    left), the offers open to you or by you, and your vacation days of the year."""
    storage = desk.room.storage
    moment = desk.clock()
    games = await games_queries.games_of(storage, me.id,
                                         moment - timedelta(days=FINISHED_SHOWN_DAYS))
    views = [
        GameView(table=game.code, seat=game.seat, status=game.status,
                 your_turn=game.status == "playing" and game.mover == game.seat,
                 days=game.days, rated=game.rated, rules=game.rules,
                 opponents=list(game.opponents),
                 deadline=None if game.deadline is None else game.deadline.isoformat(),
                 seconds_left=_left(game.deadline, moment), vacation=game.vacation,
                 overdue=game.overdue, result=_result(game))
        for game in games
    ]
    views.sort(key=lambda view: (view.status != "playing", not view.your_turn,
                                 view.seconds_left if view.seconds_left is not None
                                 else float("inf")))
    used = await games_queries.vacation_used(storage, me.id, moment.year)
    allowed = desk.settings.vacation_days
    return Overview(
        games=views, your_turn=sum(view.your_turn for view in views),
        offers=[_offer_view(offer)
                for offer in await games_queries.open_offers(storage, me.id, moment)],
        vacation=Vacation(year=moment.year, used=used, left=max(0, allowed - used)),
        most=desk.settings.max_matches)


@router.get("/badge")
async def badge(me: Me, desk: Desk) -> Badge:
    """How many of your correspondence matches wait for your move (the badge every page
    shows)."""
    games = await games_queries.games_of(desk.room.storage, me.id, desk.clock())
    return Badge(your_turn=sum(game.status == "playing" and game.mover == game.seat
                               for game in games))


@router.post("/offers", status_code=201)
async def make_offer(body: NewOffer, me: Me, book: Book) -> Made:
    """Offer a correspondence match: to a player by name (they are told, and pushed it), as
    a link anyone logged in may accept, or as a seek that the first like seek pairs with."""
    offer, dealt = await book.make(me, body.kind, body.to, body.preset, body.target, body.look,
                                   body.rated, body.days)
    return Made(offer=_offer_view(offer), grant=None if dealt is None else _grant(dealt))


@router.get("/offers/{offer_id}")
async def show_offer(offer_id: OfferId, me: Me, book: Book) -> OfferView:
    """An offer, as its link shows it."""
    return _offer_view(await book.get(offer_id))


@router.post("/offers/{offer_id}/accept")
async def accept_offer(offer_id: OfferId, me: Me, book: Book) -> SeatGrant:
    """Accept an offer made to you, or one whose link you opened: the match is dealt, you at
    seat 1; your seat follows you to your other devices."""
    return _grant(await book.accept(me, offer_id))


@router.post("/offers/{offer_id}/decline", status_code=204)
async def decline_offer(offer_id: OfferId, me: Me, book: Book) -> None:
    """Decline an offer made to you, or cancel your own."""
    await book.decline(me, offer_id)


async def _clock(desk: Desk, code: str) -> games_queries.Clock:
    clock = await games_queries.clock_of(desk.room.storage, normalise_code(code))
    if clock is None:
        raise LobbyError(404, f"table {normalise_code(code)} plays no correspondence match",
                         code="not_correspondence", params={"code": normalise_code(code)})
    return clock


@router.get("/tables/{code}")
async def table_clock(code: Code, desk: Desk) -> ClockView:
    """A correspondence table's clock: whose move, until when, the vacation days spent on
    the turn, who waits for a late opponent. Anyone watching may read it."""
    clock = await _clock(desk, code)
    return ClockView(
        table=clock.code, status=clock.status, version=clock.version, days=clock.days,
        rated=clock.rated,
        mover=clock.mover,
        deadline=None if clock.deadline is None else clock.deadline.isoformat(),
        seconds_left=_left(clock.deadline, desk.clock()), vacation=clock.vacation,
        patient=list(clock.patient), overdue=clock.overdue)


async def _my_seat(desk: Desk, me: Me, clock: games_queries.Clock) -> int:
    holders = await games_queries.seat_holders(desk.room.storage, clock.code)
    mine = [seat for seat, account in holders.items() if account == me.id]
    if not mine:
        raise LobbyError(403, "you do not play at this table", code="not_your_table")
    return mine[0]


@router.put("/tables/{code}/patience")
async def patience(code: Code, body: Patience, me: Me, desk: Desk) -> ClockView:
    """Choose what happens when your opponent runs out of time: you win on time (the
    default), or you wait for them (you may claim the win at any moment after)."""
    clock = await _clock(desk, code)
    if clock.status != "playing":
        raise LobbyError(409, "this match is over", code="match_over")
    seat = await _my_seat(desk, me, clock)
    await games_queries.set_patient(desk.room.storage, clock.code, seat, body.wait)
    return await table_clock(clock.code, desk)


@router.post("/tables/{code}/claim")
async def claim(code: Code, me: Me, desk: Desk) -> ClockView:
    """Claim the win from an opponent who ran out of time while you waited for them."""
    clock = await _clock(desk, code)
    seat = await _my_seat(desk, me, clock)
    if not clock.overdue or clock.mover is None or clock.mover == seat:
        raise LobbyError(409, "there is no win to claim: your opponent's time has not run out",
                         code="nothing_to_claim")
    await desk.claim(clock, seat)
    return await table_clock(clock.code, desk)

