"""Where an account is seen from at the tables: each seat's socket that carries a live session
leaves a sighting, as each login does (:func:`.accounts.login`): the keyed hashes of the
address and of the browser's key it came from (:mod:`..store.fairplay_queries`), kept 30 days.
What a moderator reads with ``scopa moderate links NAME`` to find a second account of one's own
(issue 34, item C; what is kept and why: docs/accounts.md, "Fair play").
"""

from __future__ import annotations

from starlette.websockets import WebSocket

from ..common.browser import known_key
from ..store import fairplay_queries
from ..store.storage import Storage, now
from .accounts import client_address, current_account


async def seen_at_table(storage: Storage, socket: WebSocket, code: str) -> None:
    """A seat's socket said hello at table ``code``: if it carries a live session, its
    account was seen there, from its address and browser."""
    account = await current_account(socket)
    if account is not None:
        await fairplay_queries.record_sighting(
            storage, account.id, "table", code, client_address(socket), known_key(socket),
            now())
