"""Closing what a process holds in bounded time: a stop that waits forever on one socket's
goodbye is a process that never stops, and a room whose processes cannot be stopped surely
cannot be restarted or deployed."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Final

log = logging.getLogger(__name__)

CLOSE_SECONDS: Final = 2.0
"""How long one close may take before it is given up."""


async def within(what: str, closing: Awaitable[object], seconds: float = CLOSE_SECONDS) -> None:
    """Await ``closing``, giving it up (logged once, naming ``what``) after ``seconds``.

    redis-py's asyncio client can wait forever for a connection's close to be acknowledged
    (``StreamWriter.wait_closed`` in ``Connection.disconnect``: redis/redis-py#3941, open), in
    a pub/sub's ``aclose`` as in a pool's. What is left open then, the process's exit closes.
    """
    try:
        async with asyncio.timeout(seconds):
            await closing
    except TimeoutError:
        log.warning("%s did not close within %g s: left for the process's exit to close",
                    what, seconds)
