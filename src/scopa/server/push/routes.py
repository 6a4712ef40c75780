"""``/api/push``: the room's VAPID public key, an account's browsers' subscriptions and its
choice of what is pushed.

A browser subscribes only when its person presses "Notify me" (never on load), and gives its
subscription again on each visit of the account page, so the room knows which are still in
use (the most recently seen are pushed to). Every bad subscription is refused with its
sentence before anything is kept (:mod:`.subscriptions`).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from ..accounts.accounts import Me, clock, rate_limit
from ..common.errors import LobbyError
from ..feature import ROOM
from . import queries, subscriptions
from .sender import KINDS, PUSHER, Pusher
from .settings import PushSettings

router = APIRouter(prefix="/api/push", tags=["push"], dependencies=[Depends(rate_limit)])

Sender = Annotated[Pusher, Depends(PUSHER)]


class PushKey(BaseModel):
    key: str = Field(description="the room's VAPID public key, base64url (the uncompressed "
                     "P-256 point): a browser's applicationServerKey")


class SubscriptionKeys(BaseModel):
    p256dh: str = Field(max_length=100, description="the browser's P-256 public key")
    auth: str = Field(max_length=32, description="the browser's 16-byte auth secret")


class PushSubscriptionBody(BaseModel):
    """A browser's ``PushSubscription.toJSON()``."""

    model_config = ConfigDict(extra="ignore")

    endpoint: str = Field(max_length=subscriptions.MAX_ENDPOINT,
                          description="the push service's https address for this browser")
    expirationTime: int | None = Field(None, description="ignored: the push service says "
                                       "when a subscription is gone (404 or 410)")
    keys: SubscriptionKeys


class Endpoint(BaseModel):
    endpoint: str = Field(max_length=subscriptions.MAX_ENDPOINT)


class Subscribed(BaseModel):
    subscriptions: int = Field(description="the account's subscriptions kept now")
    kinds: dict[str, bool] = Field(description="what the account takes, kind by kind")


@router.get("/key")
async def push_key(pusher: Sender) -> PushKey:
    """The key a browser subscribes with (``applicationServerKey``)."""
    return PushKey(key=pusher.public_key)


@router.post("/subscriptions", status_code=201)
async def subscribe(body: PushSubscriptionBody, request: Request, account: Me) -> Subscribed:
    """Keep this browser's subscription for the account (again: it was seen now). Refused
    with a sentence: an endpoint that is not https, not a URL, or on the loopback or a
    private network; a p256dh that is not a P-256 point; an auth that is not 16 bytes."""
    room = ROOM(request)
    settings = room.settings.section(PushSettings)
    checked = await subscriptions.check(body.endpoint, body.keys.p256dh, body.keys.auth,
                                        settings.allow_hosts)
    await queries.subscribe(room.storage, account.id, checked,
                            settings.subscriptions_per_account, clock(request))
    return Subscribed(subscriptions=await queries.count(room.storage, account.id),
                      kinds=await queries.choices(room.storage, account.id, KINDS))


@router.delete("/subscriptions", status_code=204)
async def unsubscribe(body: Endpoint, request: Request, account: Me) -> Response:
    """Forget this browser's subscription (the person turned notifications off here)."""
    await queries.unsubscribe(ROOM(request).storage, account.id, body.endpoint)
    return Response(status_code=204)


@router.get("/kinds")
async def kinds(request: Request, account: Me) -> dict[str, bool]:
    """What the account takes, kind by kind (every kind is on until turned off)."""
    return await queries.choices(ROOM(request).storage, account.id, KINDS)


@router.put("/kinds")
async def choose(body: dict[str, bool], request: Request, account: Me) -> dict[str, bool]:
    """Turn kinds on or off (the kinds not named keep their choice)."""
    for kind in body:
        if kind not in KINDS:
            raise LobbyError(422, f"there is no kind of notification {kind!r}: the kinds are "
                             f"{', '.join(KINDS)}", code="unknown_push_kind",
                             params={"kind": kind[:40]})
    storage = ROOM(request).storage
    await queries.choose(storage, account.id, body)
    return await queries.choices(storage, account.id, KINDS)
