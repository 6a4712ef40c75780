"""Sending pushes: one process's queue and the workers that post each one.

A push is asked for by the process that handles its event (:meth:`Pusher.notify`): the
challenge's request, the tournament's director. That process checks that the account takes
that kind, notes the event once in the database (two processes that hear it push it once),
counts it against the room's and the account's rates, and queues one post per subscription,
to the account's :data:`USED` most recently seen (lila's rule). Nothing waits for the post: the
queue is bounded (``PushSettings.queue``), and a push past it is dropped and logged, so no
request and no table waits on a push service.

Each post is lila's: encrypted for the browser (aes128gcm, RFC 8291, by pywebpush) and signed
with the room's VAPID key (RFC 8292, by py_vapid), both in a thread, off the event loop; then
posted with aiohttp through :class:`.addresses.PublicResolver`, no redirect followed, with a
``TTL`` of at most 12 hours, an ``Urgency`` by kind and a ``Topic`` per match and kind, so a
push service keeps only the latest undelivered one (RFC 8030, section 5.4), as the service
worker's notification tag keeps only the latest shown. An endpoint answered 404 or 410 is gone
and its subscription is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import ssl
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final
from urllib.parse import urlsplit

import aiohttp
from cryptography.hazmat.primitives.asymmetric import ec
from limits import parse_many
from limits.aio.strategies import MovingWindowRateLimiter
from py_vapid import Vapid02
from pywebpush import WebPusher

from ..common.errors import Param
from ..common.ratelimit import limit_storage
from ..common.services import Service
from ..store.storage import Storage, now
from . import queries
from .addresses import PrivateAddressError, PublicResolver, check_literal
from .keys import public_key, room_key
from .settings import PushSettings

log = logging.getLogger(__name__)

KINDS: Final[Mapping[str, str]] = {
    "your_turn": "normal",
    "time_alarm": "high",
    "challenge": "high",
    "pool_match": "high",
    "tournament_start": "normal",
}
"""Every kind of push, each a choice on the account page, with its ``Urgency`` (RFC 8030,
section 5.3): high for what is lost in minutes (a challenge waits a minute, a clock runs out,
a table is dealt), normal for what waits (a move a day, a start announced ahead)."""
USED: Final = 5
"""Subscriptions of an account pushed to: its most recently seen (lila's rule)."""
MOST_TTL: Final = 12 * 3600
"""The longest a push service keeps a push for a browser that is away: 12 hours, as lila."""
WORKERS: Final = 4
"""Posts one process makes at once."""
POST_SECONDS: Final = 10.0
"""How long one post may take, connecting included."""


@dataclass(frozen=True)
class Post:
    """One push to one subscription."""

    subscription: queries.Stored
    payload: bytes
    kind: str
    topic: str
    ttl: int


def topic(kind: str, subject: str) -> str:
    """The ``Topic`` of a push (32 characters of the URL-safe alphabet at most, RFC 8030):
    one per kind and match, challenge or tournament.

    >>> topic("challenge", "abc") == topic("challenge", "abc") != topic("your_turn", "abc")
    True
    >>> len(topic("your_turn", "x" * 200))
    32
    """
    digest = hashlib.sha256(f"{kind}:{subject}".encode()).digest()
    return digest.hex()[:32]


class Pusher:
    """This process's pushes: the queue, its workers and their HTTP client."""

    def __init__(self, storage: Storage, settings: PushSettings, redis_url: str | None) -> None:
        self.storage = storage
        self.settings = settings
        self.redis_url = redis_url
        self.key: ec.EllipticCurvePrivateKey | None = None
        self.queue: asyncio.Queue[Post] = asyncio.Queue(settings.queue)
        self._limiter: MovingWindowRateLimiter | None = None
        self._session: aiohttp.ClientSession | None = None
        self._workers: list[asyncio.Task[None]] = []

    @property
    def public_key(self) -> str:
        """The ``applicationServerKey`` browsers subscribe with."""
        assert self.key is not None, "the pusher is opened with the room"
        return public_key(self.key)

    async def open(self) -> None:
        self.key = await room_key(self.storage, self.settings.vapid_key)
        self._limiter = MovingWindowRateLimiter(limit_storage(self.redis_url))
        context = ssl.create_default_context()
        if self.settings.ca_file is not None:
            context.load_verify_locations(cafile=self.settings.ca_file)
        connector = aiohttp.TCPConnector(
            resolver=PublicResolver(self.settings.allow_hosts), ssl=context, limit=WORKERS)
        self._session = aiohttp.ClientSession(
            connector=connector, timeout=aiohttp.ClientTimeout(total=POST_SECONDS))
        self._workers = [asyncio.create_task(self._work(), name=f"scopa-push-{n}")
                         for n in range(WORKERS)]

    async def close(self) -> None:
        for worker in self._workers:
            worker.cancel()
        for worker in self._workers:
            with contextlib.suppress(asyncio.CancelledError):
                await worker
        self._workers = []
        if self._session is not None:
            await self._session.close()

    async def reachable(self, account_id: int, kind: str) -> bool:
        """Whether a push of ``kind`` would reach ``account_id``: they take it and have a
        subscription."""
        wanted = await queries.choices(self.storage, account_id, (kind,))
        return wanted[kind] and await queries.count(self.storage, account_id) > 0

    async def notify(self, account_id: int, kind: str, subject: str,
                     params: Mapping[str, Param], url: str, ttl: float | None = None,
                     once: str | None = None) -> int:
        """Push ``kind`` about ``subject`` (a match's, challenge's or tournament's id) to the
        account's browsers, opening ``url`` (the room's page, ``/#/...``) when clicked; the
        number of posts queued. ``params`` are what the notification's words are made of
        (the service worker words it in its reader's language). ``once`` names the event:
        pushed the first time any process asks, never again. ``ttl`` (seconds, at most and by
        default 12 hours) is how long it is worth delivering."""
        if kind not in KINDS:
            raise ValueError(f"no push kind {kind!r}: one of {', '.join(KINDS)}")
        if not (await queries.choices(self.storage, account_id, (kind,)))[kind]:
            return 0
        subscriptions = await queries.recent(self.storage, account_id, USED)
        if not subscriptions:
            return 0
        if once is not None and not await queries.first_time(
            self.storage, account_id, f"{kind}:{once}", now()
        ):
            return 0
        if not await self._within_rates(account_id):
            log.warning("push: %s to account %s dropped: past the rate", kind, account_id)
            return 0
        payload = json.dumps({
            "kind": kind, "params": dict(params), "url": url, "tag": f"{kind}:{subject}",
            "sent": int(time.time()),
        }, separators=(",", ":")).encode()
        lives = MOST_TTL if ttl is None else max(0, min(MOST_TTL, round(ttl)))
        queued = 0
        for subscription in subscriptions:
            try:
                self.queue.put_nowait(
                    Post(subscription, payload, kind, topic(kind, subject), lives))
                queued += 1
            except asyncio.QueueFull:
                log.warning("push: the queue is full; %s to account %s dropped", kind,
                            account_id)
        return queued

    async def _within_rates(self, account_id: int) -> bool:
        assert self._limiter is not None
        for rate, key in ((self.settings.per_room, "room"),
                          (self.settings.per_account, str(account_id))):
            for limit in parse_many(rate):
                if not await self._limiter.hit(limit, "push", key):
                    return False
        return True

    async def _work(self) -> None:
        while True:
            post = await self.queue.get()
            try:
                await self._post(post)
            except Exception:
                log.exception("push: posting to %s failed",
                              urlsplit(post.subscription.endpoint).hostname)
            finally:
                self.queue.task_done()

    def _sealed(self, post: Post) -> tuple[bytes, dict[str, str]]:
        """The encrypted body and the headers of one post (CPU work: run in a thread)."""
        assert self.key is not None
        endpoint = post.subscription.endpoint
        parts = urlsplit(endpoint)
        body = WebPusher({"endpoint": endpoint, "keys": {
            "p256dh": post.subscription.p256dh, "auth": post.subscription.auth,
        }}).encode(post.payload, "aes128gcm")["body"]
        signed = Vapid02(self.key).sign({
            "aud": f"{parts.scheme}://{parts.netloc}", "sub": self.settings.subject,
            "exp": int(time.time()) + MOST_TTL,
        })
        headers = {
            "Authorization": signed["Authorization"], "Content-Encoding": "aes128gcm",
            "Content-Type": "application/octet-stream", "TTL": str(post.ttl),
            "Urgency": KINDS[post.kind], "Topic": post.topic,
        }
        return bytes(body), headers

    async def _post(self, post: Post) -> None:
        assert self._session is not None
        endpoint = post.subscription.endpoint
        host = urlsplit(endpoint).hostname or ""
        try:
            check_literal(host, self.settings.allow_hosts)
            body, headers = await asyncio.to_thread(self._sealed, post)
            async with self._session.post(endpoint, data=body, headers=headers,
                                          allow_redirects=False) as answer:
                status = answer.status
        except PrivateAddressError as error:
            log.warning("push: not posted to %s: %s", host, error)
            return
        except (aiohttp.ClientError, TimeoutError) as error:
            log.warning("push: posting to %s failed: %s", host, error)
            return
        if status in (404, 410):
            await queries.drop(self.storage, post.subscription.id)
        elif not 200 <= status < 300:
            log.warning("push: %s answered %s", host, status)


PUSHER: Service[Pusher] = Service("pusher")
"""This process's pushes, as a dependency of the routes."""
