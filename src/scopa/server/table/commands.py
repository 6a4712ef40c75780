"""What a seated client may ask of its table once it has said hello: a move, a hint, a
continue (a round's breakdown read), a resignation, a word said or reported, a sync.

The owner of a table runs these for its own sockets and for sockets relayed from other
processes alike (``Peer`` is either); a refusal raises :class:`ProtocolError`, which goes back
to that client alone.
"""

from __future__ import annotations

from typing import Protocol

from ..common.protocol import (
    ClientMessage,
    ContinueRequest,
    HintRequest,
    MoveRequest,
    ProtocolError,
    ReportRequest,
    ResignRequest,
    SayRequest,
    Sync,
)
from .tables import Table


class Peer(Protocol):
    """A client of the table: its seat (``None``: a spectator), token, a spectator's account
    (its socket's, for the chat) and outbox."""

    seat: int | None
    token: str | None
    account_id: int | None

    def push(self, text: str) -> None: ...


async def run(peer: Peer, table: Table, message: ClientMessage) -> bool:
    """Carry out ``message`` for ``peer``; whether it was a move that was played. Any of
    them from a seat is its person's sign of life: a stand-in playing for them stops."""
    if peer.seat is not None:
        await table.come_back(peer.seat, peer.token)
    if isinstance(message, MoveRequest):
        if peer.seat is None:
            raise ProtocolError(
                "not_seated", "spectators cannot play: say hello with a seat token", message.ref
            )
        await table.play(peer.seat, message.move, message.version, message.ref, peer.token)
        return True
    if isinstance(message, HintRequest):
        if peer.seat is None:
            raise ProtocolError(
                "not_seated", "spectators get no hints: say hello with a seat token", message.ref
            )
        # Awaited, like a move: this connection's next message waits for the hint, so one
        # client has at most one search running for it. It counts against the rate limit.
        peer.push(await table.hint(peer.seat, message.ref, peer.token))
    elif isinstance(message, ContinueRequest):
        if peer.seat is None:
            raise ProtocolError(
                "not_seated", "the table does not wait for spectators to continue", message.ref
            )
        await table.continue_round(peer.seat, message.round, message.ref, peer.token)
    elif isinstance(message, ResignRequest):
        if peer.seat is None:
            raise ProtocolError(
                "not_seated", "spectators have no match to resign: say hello with a seat token",
                message.ref,
            )
        await table.resign(peer.seat, message.ref, peer.token)
    elif isinstance(message, SayRequest):
        await table.chat.say(table, peer, message)
    elif isinstance(message, ReportRequest):
        await table.chat.report(table, peer, message)
    elif isinstance(message, Sync):
        async with table.lock:
            if table.game is None:
                raise ProtocolError("no_match", "no match has been dealt at this table yet")
            peer.push(table.state_message(peer.seat, (message.match, message.version)))
    return False
