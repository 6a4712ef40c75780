"""The lobby over HTTP: create, list, join, leave, start, play the computer, rematch, records,
and the computer's levels.

FastAPI documents every route from these models at ``/docs`` and ``/openapi.json``. A seat is
held by a secret token, returned once when the seat is taken; every seat action sends it.

Every value a request carries is bounded here (lengths, numbers, counts), so that nothing a
client sends can reach the database out of range: a bad value is a 422 with one sentence.
Every route is rate limited per client address (:class:`~.ratelimit.HttpLimits`). A guest may
not sit under a name that looks like an account's (:func:`.accounts.check_guest_name`): a seat
named ``Anna`` is Anna's account, or nobody's.
"""

from __future__ import annotations

from typing import Annotated, Any, Final

from fastapi import APIRouter, Depends, Path, Request
from pydantic import BaseModel, Field, StringConstraints

from ..players import LEVEL_NAMES, LEVELS
from .accounts import accounts
from .cluster.cluster import Cluster
from .common.errors import LobbyError
from .feature import CLUSTER, ROOM
from .table.bots import default_level
from .table.room import CardRoom, build_rules, check_level

MAX_SEATS: Final = 16
"""More seats than any rules allow: bounds the numbers a request may carry."""
MAX_MATCH_ID: Final = 2**31 - 1
"""Match ids are 32-bit integers in every database."""
Word = Annotated[str, StringConstraints(max_length=32)]
Name = Annotated[str, StringConstraints(max_length=256)]
"""A display name as sent: the lobby trims it and then allows 32 characters."""
Token = Annotated[str, StringConstraints(max_length=256)]
Code = Annotated[str, Path(max_length=16, description="the table's code (any case)")]


Room = Annotated[CardRoom, Depends(ROOM)]
Processes = Annotated[Cluster, Depends(CLUSTER)]
"""Lobby requests on a table go to the process that owns it, wherever they arrive."""


async def rate_limit(request: Request, room: Room) -> None:
    """Refuse (429) a client address over the lobby's limits: reads and writes apart."""
    address = request.client.host if request.client is not None else "unknown"
    refusal = await room.limits.refusal(address, write=request.method != "GET")
    if refusal is not None:
        raise LobbyError(429, refusal, code="too_many_requests")


router = APIRouter(prefix="/api", tags=["lobby"], dependencies=[Depends(rate_limit)])


class RulesChoice(BaseModel):
    preset: Word = Field("scopa", description="a rule preset: scopa, escoba, scopa-classic, ...")
    players: int | None = Field(
        None, ge=1, le=MAX_SEATS, description="2, 3, 4 or 6 (default: the preset's)"
    )
    teams: int | None = Field(
        None, ge=1, le=MAX_SEATS, description="sides for 6 players: 2 (default) or 3"
    )
    target: int | None = Field(
        None, ge=1, le=1000, description="points to win (default: the preset's)"
    )
    look: Word = Field("french", description="deck look: french, italian or spanish")
    rated: bool = Field(
        False, description="rated: the match moves the ratings of the accounts that play it"
    )


class NewTable(RulesChoice):
    bots: dict[Annotated[int, Field(ge=0, lt=MAX_SEATS)], Word] = Field(
        default_factory=dict,
        max_length=MAX_SEATS,
        description="bot seats and their levels, as {\"1\": \"expert\"}",
    )
    name: Name | None = Field(
        None, description="your display name: you take the first seat without a bot"
    )


class Computer(RulesChoice):
    name: Name = Field("Guest", description="your display name; you sit at seat 0")
    level: Word | None = Field(None, description="the bots' level (default: the expert)")


class Join(BaseModel):
    name: Name = Field(description="your display name as a guest")
    seat: int | None = Field(
        None, ge=0, lt=MAX_SEATS, description="the seat you want (default: the first free)"
    )


class SeatToken(BaseModel):
    token: Token = Field(description="the secret token you got when you took the seat")


class SeatView(BaseModel):
    seat: int
    side: int
    kind: str = Field(description="human or bot")
    name: str | None
    level: str | None
    open: bool = Field(description="free for someone to join")
    connected: bool = Field(description="a socket is open for the seat (bots: always)")
    stand_in: bool = Field(
        description="a bot plays for the person of this seat, whose turn timed out, until "
        "they come back"
    )


class TableView(BaseModel):
    code: str = Field(description="the table's code, to share with friends")
    status: str = Field(description="waiting, playing, over or expired")
    pace: str = Field("live", description="how its turns are timed: live (a turn clock of "
                      "seconds) or correspondence (days a move: /api/correspondence/tables/CODE)")
    rules: dict[str, Any]
    look: str
    players: int
    sides: int
    seats: list[SeatView]
    match: int | None = Field(description="the id of the current (or last) match")
    version: int = Field(description="moves played in that match")
    rated: bool | None = Field(
        None, description="whether that match is rated, as its deal decided (null before one)")
    casual: dict[str, str] | None = Field(
        None, description="a table chosen rated whose match plays casual: why, as a stable "
        "code and a sentence (pair_cap: its two accounts' rated matches of the day are played)")


class SeatGrant(BaseModel):
    table: TableView
    seat: int | None
    token: str | None = Field(description="keep it secret: it is your seat")
    socket: str = Field(description="the WebSocket path to play on")


class Level(BaseModel):
    level: str = Field(description="what to send as a bot's level, such as \"expert\"")
    name: str = Field(description="the level's name for people, in English")
    default: bool = Field(description="the level of play against the computer when none is named")


class Health(BaseModel):
    status: str
    process: str = Field(description="this process's name among the room's processes")
    tables: int = Field(description="tables in this process's memory: the ones it owns")
    owned: list[str] = Field(description="the codes of the tables this process owns now")
    relayed: int = Field(
        description="commands this process's sockets sent to other processes' tables (moves, "
        "hints, syncs) since it started: few, when each table's sockets reach its owner"
    )
    relaying: int = Field(
        description="sockets of this process whose tables another process owns, now"
    )


def _grant(info: dict[str, Any], seat: int | None, token: str | None) -> SeatGrant:
    return SeatGrant(
        table=TableView.model_validate(info),
        seat=seat,
        token=token,
        socket=f"/ws/tables/{info['code']}",
    )


async def _act(cluster: Cluster, code: str, action: str, **args: Any) -> dict[str, Any]:
    return await cluster.act(code, action, args)


@router.post("/tables", status_code=201)
async def create_table(body: NewTable, room: Room, request: Request) -> SeatGrant:
    """A new table. With ``name`` you sit at it and get your seat token."""
    rules = build_rules(body.preset, body.players, body.teams, body.target)
    account = await accounts.seat_holder(request)
    if account is None and body.name is not None:
        await accounts.check_guest_name(room.storage, body.name)
    table, seat, token = await room.create(
        rules, body.look, body.bots, accounts.seat_name(account, body.name)
    )
    await accounts.table_made(room.storage, table.code, seat, account, body.rated, token)
    return _grant(table.info(), seat, token)


@router.get("/tables")
async def list_tables(room: Room) -> list[TableView]:
    """Tables waiting for people, with at least one free seat."""
    return [TableView.model_validate(info) for info in await room.open_tables()]


@router.get("/tables/{code}")
async def show_table(code: Code, cluster: Processes) -> TableView:
    return TableView.model_validate((await _act(cluster, code, "show"))["table"])


@router.post("/tables/{code}/join")
async def join_table(
    code: Code, body: Join, cluster: Processes, room: Room, request: Request
) -> SeatGrant:
    """Take a free seat (as a guest, under a name no account looks like); the answer holds your
    secret seat token."""
    account = await accounts.seat_holder(request)
    if account is None:
        await accounts.check_guest_name(room.storage, body.name)
    name = accounts.seat_name(account, body.name)
    done = await _act(cluster, code, "join", name=name, seat=body.seat)
    await accounts.remember_seat(
        room.storage, done["table"]["code"], done["seat"], account, done["token"]
    )
    return _grant(done["table"], done["seat"], done["token"])


@router.post("/tables/{code}/leave")
async def leave_table(code: Code, body: SeatToken, cluster: Processes) -> TableView:
    """Give up your seat: before a match it is free again, during one a bot takes it over."""
    return TableView.model_validate((await _act(cluster, code, "leave", token=body.token))["table"])


@router.post("/tables/{code}/start")
async def start_table(code: Code, body: SeatToken, cluster: Processes) -> TableView:
    """Deal the match once every seat is taken."""
    return TableView.model_validate((await _act(cluster, code, "start", token=body.token))["table"])


@router.post("/tables/{code}/rematch")
async def rematch(code: Code, body: SeatToken, cluster: Processes) -> TableView:
    """After a match, deal another with the same seats (or wait for free seats to fill)."""
    done = await _act(cluster, code, "rematch", token=body.token)
    return TableView.model_validate(done["table"])


@router.get("/levels")
async def list_levels() -> list[Level]:
    """The computer's levels, weakest first: the choices for ``bots`` and ``level``."""
    default = default_level()
    return [
        Level(level=level, name=LEVEL_NAMES[level], default=level == default)
        for level in LEVELS
    ]


@router.post("/play", status_code=201)
async def play_computer(body: Computer, room: Room, request: Request) -> SeatGrant:
    """Play against the computer in one call: you at seat 0, bots elsewhere, dealt at once."""
    rules = build_rules(body.preset, body.players, body.teams, body.target)
    level = check_level(body.level or default_level())
    bots = {seat: level for seat in range(1, rules.players)}
    account = await accounts.seat_holder(request)
    if account is None:
        await accounts.check_guest_name(room.storage, body.name)
    table, seat, token = await room.create(
        rules, body.look, bots, accounts.seat_name(account, body.name)
    )
    await accounts.table_made(room.storage, table.code, seat, account, body.rated, token)
    await table.start_now()
    return _grant(table.info(), seat, token)


@router.get("/matches/{match_id}")
async def match_record(
    match_id: Annotated[int, Path(ge=1, le=MAX_MATCH_ID)], room: Room
) -> dict[str, Any]:
    """A finished match's full record (seed and deck order included) for ``scopa replay``;
    403 while it is being played."""
    return await room.match_record(match_id)


async def health(room: Room, cluster: Processes) -> Health:
    """The server is up and its database answers."""
    await room.storage.ping()
    owned = sorted(room.tables)
    return Health(
        status="ok", process=room.name, tables=len(owned), owned=owned, relayed=room.relayed,
        relaying=len(cluster.relayed),
    )
