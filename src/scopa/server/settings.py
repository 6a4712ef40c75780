"""The card room's knobs, in one frozen value that the app, the tables and the tests share.

Defaults are what a person wants from ``scopa serve``; tests turn the bot pause to zero so that
they wait on messages, never on the clock.
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_DB = "sqlite+aiosqlite:///scopa.db"
"""A SQLite file in the working directory: the card room runs with nothing else installed."""


@dataclass(frozen=True)
class Settings:
    db_url: str = DEFAULT_DB
    bot_delay: tuple[float, float] = (0.5, 1.0)
    """A bot waits this long (seconds, uniformly in the range) before it plays, as a person would;
    ``(0, 0)`` plays at once."""
    turn_timeout: float | None = None
    """Seconds a person may take for a turn before a stand-in bot plays for them (None: forever)."""
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
    bot_threads: int = 2
    """Threads that run bot searches, off the event loop."""

    def __post_init__(self) -> None:
        low, high = self.bot_delay
        if not 0 <= low <= high:
            raise ValueError(f"bot_delay must be a range 0 <= low <= high; got {self.bot_delay}")
        if self.turn_timeout is not None and self.turn_timeout <= 0:
            raise ValueError(f"turn_timeout must be positive or None; got {self.turn_timeout}")
