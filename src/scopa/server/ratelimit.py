"""A token bucket per connection: bursts are fine, floods are not.

A person clicks a few times a second at most; a client that sends faster is broken or hostile,
and one connection must not be able to keep a table's writer busy.
"""

from __future__ import annotations

import time
from collections.abc import Callable


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
