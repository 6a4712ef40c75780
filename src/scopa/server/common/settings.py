"""The card room's knobs, in one frozen value that the app, the tables and the tests share.

Defaults are what a person wants from ``scopa serve``; tests turn the bot pause to zero so that
they wait on messages, never on the clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from .fairplay import NEWCOMER_MATCHES

S = TypeVar("S")

DEFAULT_DB = "sqlite+aiosqlite:///scopa.db"
"""A SQLite file in the working directory: the card room runs with nothing else installed."""
DEFAULT_TURN_TIMEOUT = 60.0
"""Seconds a person has for a turn at a table of people, unless ``--turn-timeout`` says else."""
DEFAULT_PROVISIONAL_MATCHES = 5
"""Rated matches in a pool before a player's rating counts (docs/ratings.md)."""
DEFAULT_LOGIN_PER_ADDRESS = "10/minute;60/hour"
"""Login attempts one client address may make, right or wrong."""
DEFAULT_LOGIN_PER_ACCOUNT = "5/minute;30/hour"
"""Login attempts on one account from one client address. Counted per (address, account) pair,
never per account alone: a stranger's wrong guesses from their address must not lock the owner
out at theirs (OWASP's authentication cheat sheet on lockout)."""
DEFAULT_REGISTER_PER_ADDRESS = "5/minute;30/hour"
"""Accounts one client address may try to make. Each one costs two argon2id computations of
64 MiB, so the lobby's write limit (18,000 an hour) would let one address keep the CPU busy."""
DEFAULT_REVIEW_PER_ADDRESS = "10/minute;60/hour"
"""Reviews one client address may ask for. A review is a search per move of a seat, seconds of
a worker's time each: one asker must not keep the reviews' workers busy for everyone."""
DEFAULT_REVIEW_PER_ACCOUNT = "10/minute;60/hour"
"""Reviews one logged-in account may ask for, from any address."""
DEFAULT_REVIEW_QUEUE = 4
"""Reviews one process works out at once; one more asked is refused (503), not queued."""
@dataclass(frozen=True)
class Settings:
    db_url: str = DEFAULT_DB
    bot_delay: tuple[float, float] = (0.5, 1.0)
    """A bot waits this long (seconds, uniformly in the range) before it plays, as a person would;
    ``(0, 0)`` plays at once."""
    turn_timeout: float | None = DEFAULT_TURN_TIMEOUT
    """Seconds a person may take for a turn, at a table of two or more people, connected or not,
    before a stand-in bot plays for them until they come back, with their next message but a
    ping (None: forever). With one person against bots only that person waits, so they get all
    the time they like."""
    waiting_expiry: float = 30 * 60.0
    """Seconds a waiting table lives with nobody joining, leaving or starting it; it then
    expires (410 to whoever tries it) and is not brought back at restart."""
    idle_eviction: float = 5 * 60.0
    """Seconds a table that is not waiting stays in memory with no sockets and nothing to do;
    then it leaves memory, and comes back from the database when someone asks for it."""
    sweep_every: float = 30.0
    """Seconds between two sweeps for expired and idle tables."""
    http_writes: str = "20/second;300/minute"
    """The lobby's POST requests allowed per client address (the ``limits`` library's notation,
    several limits joined by ``;``)."""
    http_reads: str = "50/second;1200/minute"
    """The lobby's GET requests allowed per client address."""
    redis_url: str | None = None
    """Redis, shared by every process of the room (leases, messages between processes, rate
    limits); None: one process alone."""
    bot_queue: bool = False
    """Bots and hints run in ``scopa bots`` workers through Redis, not in this machine's pool."""
    process_name: str | None = None
    """This process's name among the room's processes (default: host and process id)."""
    sockets_per_seat: int = 3
    """Sockets one seat may keep open at once (a phone, a laptop, ...); a newer one replaces
    the oldest past this."""
    max_strangers: int = 1000
    """Sockets open at once that have not said hello yet; more are closed at once (1013)."""
    table_sockets_per_address: int = 30
    """Table sockets (``/ws/tables``) one client address may keep open on a process, said
    hello or not; more are closed at once (1013). Six people of a household at one table on
    three devices each, and a few watching, fit; an outsider's hundreds of spectators do not,
    nor their share of the strangers' places. A load test from loopback raises it."""
    max_message_bytes: int = 4096
    """Longest message a client may send; longer ones are refused with an error."""
    rate_capacity: float = 20.0
    """Messages a connection may send in one burst before the rate limit applies."""
    rate_per_second: float = 10.0
    """Messages a connection may send per second in the long run."""
    hello_timeout: float = 30.0
    """Seconds a new WebSocket has to say hello before it is closed."""
    outbox_size: int = 512
    """Messages queued for a client that does not read them before it is dropped."""
    bot_workers: int = 2
    """Processes that run bot searches and hints, off the web process's event loop and its
    interpreter lock."""
    review_workers: int = 1
    """Processes that run the master's reviews, apart from the bots' (and at a lower CPU
    priority), so that a bot's move at a live table never waits behind a review."""
    review_queue: int = DEFAULT_REVIEW_QUEUE
    """Reviews this process works out at once; past this a review asked for is refused with
    503 and Retry-After, and nothing is queued."""
    review_per_address: str = DEFAULT_REVIEW_PER_ADDRESS
    """Reviews asked for allowed per client address (the ``limits`` library's notation)."""
    review_per_account: str = DEFAULT_REVIEW_PER_ACCOUNT
    """Reviews asked for allowed per logged-in account."""
    provisional_matches: int = DEFAULT_PROVISIONAL_MATCHES
    """Rated matches in a pool before a rating is no longer provisional: until then the
    player is left out of the leaderboard's top."""
    login_per_address: str = DEFAULT_LOGIN_PER_ADDRESS
    """Login attempts allowed per client address (the ``limits`` library's notation)."""
    login_per_account: str = DEFAULT_LOGIN_PER_ACCOUNT
    """Login attempts (and password changes) allowed per account from one client address."""
    register_per_address: str = DEFAULT_REGISTER_PER_ADDRESS
    """Registrations allowed per client address (the ``limits`` library's notation)."""
    newcomer_matches: int = NEWCOMER_MATCHES
    """Finished matches an account plays before its first rated challenge or rated pool
    (:data:`.common.fairplay.NEWCOMER_MATCHES`; 0: none, as a club of known players may
    choose)."""

    sections: tuple[object, ...] = ()
    """The features' own settings, one value of each section's class (:mod:`..feature`: a
    feature declares its section and its flags); a section not given takes its defaults."""

    def section(self, kind: type[S]) -> S:
        """The section of class ``kind``: the one given, else ``kind()`` with its defaults."""
        for found in self.sections:
            if isinstance(found, kind):
                return found
        return kind()

    def __post_init__(self) -> None:
        low, high = self.bot_delay
        if not 0 <= low <= high:
            raise ValueError(f"bot_delay must be a range 0 <= low <= high; got {self.bot_delay}")
        if self.turn_timeout is not None and self.turn_timeout <= 0:
            raise ValueError(f"turn_timeout must be positive or None; got {self.turn_timeout}")
        if self.bot_queue and self.redis_url is None:
            raise ValueError("the bot queue is in Redis: give a redis_url too")
        if min(self.sockets_per_seat, self.max_strangers, self.bot_workers,
               self.review_workers, self.review_queue) < 1:
            raise ValueError("sockets_per_seat, max_strangers, bot_workers, review_workers and "
                             "review_queue must be 1 or more")
        if self.table_sockets_per_address < 1:
            raise ValueError("table_sockets_per_address must be 1 or more; got "
                             f"{self.table_sockets_per_address}")
        kinds = [type(found) for found in self.sections]
        if len(set(kinds)) != len(kinds):
            raise ValueError("sections must hold one value of each section's class")
        if self.newcomer_matches < 0:
            raise ValueError(f"newcomer_matches must be 0 or more; got {self.newcomer_matches}")
        if self.provisional_matches < 0:
            raise ValueError(
                f"provisional_matches must be 0 or more; got {self.provisional_matches}")
