"""Rate limits: a token bucket per connection, the lobby's limits per client address, the
accounts' limits on password checks and registrations, the limits on reviews asked for, and the
chat's per person and per address.

A person clicks a few times a second at most; a client that sends faster is broken or hostile,
and one connection must not be able to keep a table's writer busy, nor one address fill the
database with tables, nor guess passwords, nor keep the CPU hashing new accounts' passwords,
nor keep the reviews' workers busy, nor flood a table's talk or the moderators' reports by
opening more sockets.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Final

from limits import RateLimitItem, parse_many
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import MovingWindowRateLimiter

from .services import Service
from .settings import Settings


class TokenBucket:
    """Holds up to ``capacity`` tokens, refilled at ``rate`` per second; a message takes one.

    >>> now = [0.0]
    >>> bucket = TokenBucket(capacity=2, rate=1, clock=lambda: now[0])
    >>> bucket.take(), bucket.take(), bucket.take()
    (True, True, False)
    >>> now[0] = 1.0
    >>> bucket.take(), bucket.take()
    (True, False)
    """

    __slots__ = ("_clock", "_stamp", "_tokens", "capacity", "rate")

    def __init__(
        self, capacity: float, rate: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.capacity = capacity
        self.rate = rate
        self._clock = clock
        self._tokens = capacity
        self._stamp = clock()

    def take(self) -> bool:
        """Spend one token if there is one; ``False`` means the message is over the limit."""
        now = self._clock()
        self._tokens = min(self.capacity, self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        return False

    def give_back(self) -> None:
        """Return the token of a message that turned out to be no burden (a move played)."""
        self._tokens = min(self.capacity, self._tokens + 1)


def limit_storage(redis_url: str | None) -> Storage:
    """Where the ``limits`` library counts: this process's memory, or the room's Redis so that
    every process counts the same requests. Make it in the running event loop (the memory
    storage starts its expiry task there)."""
    if redis_url is None:
        return MemoryStorage()
    return RedisStorage("async+" + redis_url, implementation="redispy")


class HttpLimits:
    """The lobby's rate limits per client address, kept by the ``limits`` library: in this
    process's memory, or in Redis (``Settings.redis_url``) so that every process of the room
    counts the same requests.

    A moving window: 300 creations in 1.5 s from one address get 20 through, not 300.
    """

    def __init__(self, settings: Settings) -> None:
        self.writes = parse_many(settings.http_writes)
        self.reads = parse_many(settings.http_reads)
        self._redis_url = settings.redis_url
        self._limiter: MovingWindowRateLimiter | None = None

    async def open(self) -> None:
        """Make the storage (the memory one needs the running event loop for its expiry)."""
        self._limiter = MovingWindowRateLimiter(limit_storage(self._redis_url))

    async def refusal(self, address: str, write: bool) -> str | None:
        """``None`` when ``address`` may make one more request, else the sentence that says
        which limit it went over."""
        assert self._limiter is not None, "open() first"
        for limit in self.writes if write else self.reads:
            if not await self._limiter.hit(limit, "write" if write else "read", address):
                return f"too many requests from your address: at most {limit}; try again shortly"
        return None


class AccountLimits:
    """The accounts' limits, kept by the ``limits`` library like :class:`HttpLimits`.

    * A password check (a login, a password change) is limited per client address
      (``Settings.login_per_address``) and per pair of address and account
      (``Settings.login_per_account``), never per account alone: following OWASP's guidance on
      lockout, wrong guesses from one address cannot lock the owner out at another.
    * A registration is limited per address (``Settings.register_per_address``): each one costs
      two argon2id computations of 64 MiB.

    Every attempt counts, right or wrong, so that the answer to an attempt over a limit says
    nothing about the password. Each refusal is a sentence that names the limit.
    """

    def __init__(self, settings: Settings) -> None:
        self.per_address = parse_many(settings.login_per_address)
        self.per_account = parse_many(settings.login_per_account)
        self.registrations = parse_many(settings.register_per_address)
        self._limiter = MovingWindowRateLimiter(limit_storage(settings.redis_url))

    async def password_refusal(self, address: str, account_key: str) -> str | None:
        """``None`` when ``address`` may check one more password for the account whose name
        key is ``account_key``, else the sentence that says which limit it went over."""
        for limit in self.per_address:
            if not await self._limiter.hit(limit, "login-address", address):
                return f"too many login attempts from your address (at most {limit}): wait " \
                    "a little and try again"
        for limit in self.per_account:
            if not await self._limiter.hit(limit, "login-pair", address, account_key):
                return f"too many login attempts on this account from your address (at most " \
                    f"{limit}): wait a little and try again"
        return None

    async def registration_refusal(self, address: str) -> str | None:
        """``None`` when ``address`` may make one more account, else the sentence that says
        which limit it went over."""
        for limit in self.registrations:
            if not await self._limiter.hit(limit, "register-address", address):
                return f"too many new accounts from your address (at most {limit}): wait a " \
                    "little and try again"
        return None


ACCOUNT_LIMITS: Service[AccountLimits] = Service("account_limits")
"""The accounts' limits, as a dependency of the routes."""


class ReviewLimits:
    """How many reviews of finished matches may be asked for, kept by the ``limits`` library
    like :class:`HttpLimits`: per client address (``Settings.review_per_address``) and, for a
    logged-in asker, per account (``Settings.review_per_account``) from whatever address. A
    review costs a search per move of a seat, so these are far below the lobby's limits."""

    def __init__(self, settings: Settings) -> None:
        self.per_address = parse_many(settings.review_per_address)
        self.per_account = parse_many(settings.review_per_account)
        self._limiter = MovingWindowRateLimiter(limit_storage(settings.redis_url))

    async def refusal(self, address: str, account_id: int | None) -> str | None:
        """``None`` when one more review may be asked for from ``address`` (by the account
        ``account_id``, if logged in), else the sentence that says which limit it went over."""
        for limit in self.per_address:
            if not await self._limiter.hit(limit, "review-address", address):
                return f"too many reviews asked for from your address (at most {limit}): " \
                    "wait a little and ask again"
        if account_id is not None:
            for limit in self.per_account:
                if not await self._limiter.hit(limit, "review-account", str(account_id)):
                    return f"too many reviews asked for by your account (at most {limit}): " \
                        "wait a little and ask again"
        return None


REVIEW_LIMITS: Service[ReviewLimits] = Service("review_limits")
"""The reviews' limits, as a dependency of the routes."""


CHAT_PER_PERSON: Final = "5/10 seconds"
"""Messages (``say``) one person may send at the room's tables: a seat's token, a logged-in
spectator's account, a guest watching by their address."""
CHAT_PER_ADDRESS: Final = "10/10 seconds;60/minute"
"""The same from one client address, everyone behind it together: a household at one table
talks freely, and 150 sockets of one outsider get no more than two people's say."""
REPORTS_PER_PERSON: Final = "5/minute;20/hour"
"""Reports one person may file: each is a moderator's time, and one report of a message
brings its context with it."""
REPORTS_PER_ADDRESS: Final = "10/minute;40/hour"
"""Reports from one client address."""


class ChatLimits:
    """The chat's limits, per person and per client address and never per socket, so that a
    second socket gives nobody a second allowance; kept by the ``limits`` library like
    :class:`HttpLimits` (in Redis with ``Settings.redis_url``, so that every process of the
    room counts the same messages, wherever each socket is)."""

    def __init__(self, redis_url: str | None) -> None:
        self.per_person = parse_many(CHAT_PER_PERSON)
        self.per_address = parse_many(CHAT_PER_ADDRESS)
        self.reports_per_person = parse_many(REPORTS_PER_PERSON)
        self.reports_per_address = parse_many(REPORTS_PER_ADDRESS)
        self._limiter = MovingWindowRateLimiter(limit_storage(redis_url))

    async def chat_refusal(self, person: str, address: str) -> str | None:
        """``None`` when ``person`` (a key that names them) may say one more thing from
        ``address``, else the sentence that says which limit it went over."""
        for limit in self.per_person:
            if not await self._limiter.hit(limit, "chat-person", person):
                return f"at most {_messages(limit)} from you: wait a little and say it again"
        for limit in self.per_address:
            if not await self._limiter.hit(limit, "chat-address", address):
                return f"at most {_messages(limit)} from your address, everyone there " \
                    "together: wait a little and say it again"
        return None

    async def report_refusal(self, person: str, address: str) -> str | None:
        """``None`` when ``person`` may file one more report from ``address``, else the
        sentence that says which limit it went over."""
        for limit in self.reports_per_person:
            if not await self._limiter.hit(limit, "report-person", person):
                return f"at most {_reports(limit)} from you: the moderators have yours; " \
                    "report again later"
        for limit in self.reports_per_address:
            if not await self._limiter.hit(limit, "report-address", address):
                return f"at most {_reports(limit)} from your address: report again later"
        return None


def _messages(limit: RateLimitItem) -> str:
    """``5 messages in 10 seconds``, ``60 messages a minute``."""
    return f"{limit.amount} messages {_per(limit)}"


def _reports(limit: RateLimitItem) -> str:
    return f"{limit.amount} reports {_per(limit)}"


def _per(limit: RateLimitItem) -> str:
    """``in 10 seconds`` or ``a minute``: a limit's window as a sentence says it.

    >>> _per(parse_many("5/10 seconds")[0]), _per(parse_many("20/hour")[0])
    ('in 10 seconds', 'an hour')
    """
    unit = limit.GRANULARITY.name
    if limit.multiples == 1:
        return f"{'an' if unit == 'hour' else 'a'} {unit}"
    return f"in {limit.multiples} {unit}s"
