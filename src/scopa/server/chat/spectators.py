"""Which account a spectator's table socket is logged in as: what lets it write free text.

A seat's account is known from the seat (``seat_accounts``); a spectator has no seat, so its
socket reads the session cookie when it says hello, as the room's other sockets do
(:func:`.accounts.current_account`). The account is the room's word, never the client's: a
``hello`` names none, and a relayed socket's account travels to the table's owner in the relay's
own message between the room's processes.
"""

from __future__ import annotations

from starlette.websockets import WebSocket

from ..accounts.accounts import current_account
from ..common.errors import LobbyError


async def spectator_account(socket: WebSocket) -> int | None:
    """The account of ``socket``'s live session, if it has one. A socket opened by another
    site's page carries the cookie without its person's say: it watches as a guest."""
    try:
        account = await current_account(socket, write=True)
    except LobbyError:
        return None
    return None if account is None else account.id
