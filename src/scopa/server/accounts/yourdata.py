"""Your data (issue 23, item 5): download everything the room holds about your account, or
delete the account.

The download is one JSON file (``Content-Disposition: attachment``) of the sections
:mod:`..store.export_queries` reads: the account's own rows, never a secret (no password
hash, no session secret, no seat token, sealed or not) and never another account's private
data. It reads every match the account played, so it is limited per account
(:data:`EXPORTS_PER_ACCOUNT`) besides the lobby's limits per address.

Deleting asks for the password again, under the login's limits (a stolen session alone cannot
delete an account), and makes the account a tombstone (:mod:`..store.deletion_queries` says
what goes and why the row stays). The account then lives on at no table (issue 34, item 12):
the room, every process of it, resigns the matches it was playing, its seats read "deleted
player" and their tokens open nothing, and its sockets close
(:meth:`..table.room.CardRoom.account_deleted`). Its name is free again for a new registration after
:data:`.accounts.NAME_KEPT`.
"""

from __future__ import annotations

import json
import logging
from typing import Annotated, Final

from fastapi import APIRouter, Depends, Request, Response
from limits import parse_many
from limits.aio.strategies import MovingWindowRateLimiter
from pydantic import BaseModel, Field, StringConstraints

from ..common.errors import LobbyError
from ..common.ratelimit import limit_storage
from ..common.services import Service
from ..common.settings import Settings
from ..feature import ACCOUNT_DATA, ROOM
from ..store import account_queries, deletion_queries, export_queries
from ..store.account_data import AccountData
from . import seatkeys
from .accounts import (
    COOKIE,
    Me,
    clock,
    limit_password_checks,
    name_key,
    password_matches,
    rate_limit,
)

log = logging.getLogger(__name__)

EXPORTS_PER_ACCOUNT: Final = "3/minute;20/hour"
"""Downloads one account may make: each reads every match it ever played."""

router = APIRouter(prefix="/api/account", tags=["accounts"], dependencies=[Depends(rate_limit)])


def export_limiter(settings: Settings) -> MovingWindowRateLimiter:
    """The downloads' limiter, counting in the room's Redis when it has one, so that every
    process counts the same."""
    return MovingWindowRateLimiter(limit_storage(settings.redis_url))


EXPORTS: Service[MovingWindowRateLimiter] = Service("export_limiter")
"""The downloads' limiter, as a dependency of the routes."""
PartsData = Annotated[tuple[AccountData, ...], Depends(ACCOUNT_DATA)]
"""What the features keep about an account, read and erased beside the floors' own."""


@router.get("/export", response_class=Response, responses={
    200: {"content": {"application/json": {}},
          "description": "a file to save: scopa-account-ID.json"}})
async def export(
    request: Request, account: Me,
    limiter: Annotated[MovingWindowRateLimiter, Depends(EXPORTS)], parts: PartsData,
) -> Response:
    """Everything the room holds about your account, as one JSON file to save: profile,
    ratings and their history, matches (with their records where finished), the chat messages
    you wrote and the reports you made, sessions, the seats you hold (codes, not tokens) and
    any sanction. Nothing secret, and nothing of another account's but what everyone at your
    tables saw (the players' names)."""
    for limit in parse_many(EXPORTS_PER_ACCOUNT):
        if not await limiter.hit(limit, "export-account", str(account.id)):
            raise LobbyError(429, f"too many downloads of your data (at most {limit}): wait a "
                             "little and try again",
                             code="too_many_downloads", params={"most": str(limit)})
    data = await export_queries.everything(ROOM(request).storage, account.id, parts)
    for match in data["matches"]:
        # A record the room still seals (a daily deal's, until its day is over) is not given.
        if match.get("record") is not None and await ROOM(request).sealed(match["match"]):
            match["record"] = None
    body = {"exported_at": clock(request).isoformat(), **data}
    return Response(
        json.dumps(body, ensure_ascii=False, indent=1).encode(),
        media_type="application/json",
        headers={
            "Content-Disposition": f'attachment; filename="scopa-account-{account.id}.json"',
            "Cache-Control": "no-store",
        },
    )


class Deletion(BaseModel):
    password: Annotated[str, StringConstraints(max_length=4096)] = Field(
        description="your password, asked again: deleting cannot be undone")


@router.delete("", status_code=204)
async def delete_account(
    body: Deletion, request: Request, response: Response, account: Me, parts: PartsData
) -> None:
    """Delete your account, after your password. Your name shows as a deleted player in the
    matches you played and on the leaderboards, your sessions and the seats you hold go, and
    the name is free for someone else after 30 days. Cannot be undone."""
    await limit_password_checks(request, name_key(account.name))
    storage = ROOM(request).storage
    stored = await account_queries.password_hash(storage, account.id)
    if stored is None or not await password_matches(body.password, stored):
        raise LobbyError(403, "the password is wrong: the account was not deleted",
                         code="wrong_password_delete")
    held = await deletion_queries.delete_account(storage, account.id, clock(request), parts)
    try:
        await ROOM(request).account_deleted(account.id, held)
    except Exception:
        # Deleted all the same: its stored seats already open nothing (deletion_queries).
        log.exception("account %s: its tables and sockets could not all be told", account.id)
    for name in (COOKIE, seatkeys.KEY_COOKIE):
        response.delete_cookie(name, path="/", httponly=True, samesite="lax")
