"""One table's talk: who may say what, to whom, and what a report keeps.

Everyone at a table (seats and spectators) may send the quick phrases. Free text needs an
account: the seat's (:func:`.chat_queries.seat_writer`), or a spectator's, which its socket
read from the session cookie when it said hello (never from what the client sends, and carried
to the table's owner by the room's own processes); past its first :data:`FIRST_MATCHES`
finished matches and not silenced by a moderator. A spectator's words go to the spectators
alone while a match is being played, so nobody watching can pass the players information;
once it is over (or before it starts) everyone hears them. Whoever's account blocked the
speaker's hears nothing from them (:func:`.chat_queries.blockers`). Each message is stored
before it is shown (its id is its row's), with the match it was said at, so the match's replay
can show what everyone saw.

A socket that says hello is sent the table's last :data:`KEPT` messages it may see (``chat``),
so a page reloaded, or a person coming back after the table left memory or moved to another
process, reads what was said before: the table fills its memory of them from the database the
first time it needs it (:func:`.chat_queries.recent_messages`).

Chat has its own limits, per person and per client address, never per socket
(:class:`~..common.ratelimit.ChatLimits`, shared through Redis by the room's processes): one
person's second socket, or an outsider's hundred, gives no new allowance. The socket's own
process counts them (:func:`pace`), since it alone knows the client's address, before a
message goes to the table's owner. A flood is refused with ``chat_too_fast``, reports past
their own limits with ``too_many_reports``; either changes nothing, and the socket stays open.
Each message counts against the connection's general limit as well.

A report is filed by an account (the seat's, or a logged-in spectator's) or by a guest's seat,
once per reporter and message (the database holds it to that: ``already_reported``). A guest
watching cannot report (``log_in_to_report``): nothing tells one guest spectator from the next
(another socket is another spectator), so their reports could not be counted once, and the
moderators would read a flood of anonymous ones. A guest at a seat may, once per message: the
seat is who they are at the table, and a player someone abuses is who most needs to report.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Iterable, Sequence
from types import SimpleNamespace
from typing import Any, Final, Protocol
from weakref import WeakKeyDictionary

from ..common.protocol import ProtocolError, ReportRequest, SayRequest, encode
from ..common.ratelimit import ChatLimits
from ..common.tokens import hash_token
from ..store import chat_queries
from ..store.storage import Storage, StoredSeat, now

log = logging.getLogger(__name__)

FIRST_MATCHES: Final = 3
"""Finished matches an account plays with the quick phrases alone before it may write."""
CONTEXT: Final = 10
"""Messages a report keeps: the reported one and those said just before it."""
KEPT: Final = 50
"""Messages a table keeps in memory, so that they can be reported, and sends each socket that
says hello."""
HIDDEN_KEYS: Final = frozenset({"version", "account"})
"""What the table keeps of a message besides its ``said`` fields: never sent to a client."""


class Talker(Protocol):
    """A connection at the table: its seat (``None``: a spectator), the account a spectator's
    socket is logged in as (vouched for by the room) and outbox."""

    seat: int | None
    token: str | None
    account_id: int | None

    def push(self, text: str) -> None: ...


class Hearer(Protocol):
    """A connection the table's messages go to: its seat (``None``: a spectator) and, for a
    spectator, the account its socket is logged in as."""

    seat: int | None
    account_id: int | None

    def push(self, text: str) -> None: ...


class Table(Protocol):
    """What the chat reads of its table: where it is, its seats and who listens. A protocol,
    not the table's class, so the chat and the table that holds it import one way only."""

    code: str
    status: str
    match_id: int | None

    @property
    def seats(self) -> Sequence[StoredSeat]: ...

    @property
    def version(self) -> int: ...

    @property
    def listeners(self) -> Iterable[Hearer]: ...


def person_of(token: str | None, account_id: int | None, address: str) -> str:
    """Who a socket's client is, as the chat's limits count them: a seat's person by its token
    (hashed, so the limits' storage holds no bearer secret), a logged-in spectator by its
    account, a guest watching by its address, the only thing that tells them apart.

    >>> person_of(None, 7, "192.0.2.1"), person_of(None, None, "192.0.2.1")
    ('account:7', 'guest:192.0.2.1')
    """
    if token is not None:
        return "seat:" + hash_token(token)
    if account_id is not None:
        return f"account:{account_id}"
    return f"guest:{address}"


async def pace(
    limits: ChatLimits, request: SayRequest | ReportRequest, person: str, address: str
) -> None:
    """Count ``request`` against the limits of ``person`` (:func:`person_of`) and of
    ``address``: the chat's for a ``say``, the reports' for a ``report``; past one, a refusal
    that says which (``chat_too_fast``, ``too_many_reports``), and the request goes no
    further."""
    if isinstance(request, ReportRequest):
        refusal = await limits.report_refusal(person, address)
        if refusal is not None:
            raise ProtocolError("too_many_reports", refusal, request.ref)
        return
    refusal = await limits.chat_refusal(person, address)
    if refusal is not None:
        raise ProtocolError("chat_too_fast", refusal, request.ref)


class TableChat:
    """The table's last messages (what reports are checked against and copy) and, for each
    spectator, the number the table shows it by."""

    def __init__(self, storage: Storage) -> None:
        self._storage = storage
        self.recent: deque[dict[str, Any]] = deque(maxlen=KEPT)
        self._spectators: WeakKeyDictionary[Talker, int] = WeakKeyDictionary()
        self._numbered = 0
        """The last number given to a spectator: a new one (after one left, after the table
        came back into memory) is never shown by an old one's."""
        self._loading: asyncio.Future[None] | None = None
        """Filling :attr:`recent` from the database, once, before it is first read or added to."""

    def made_now(self) -> None:
        """The table was just made: nothing was said at it, so nothing is read (a new table's
        first hello costs no query of the room's whole chat)."""
        self._loading = asyncio.get_running_loop().create_future()
        self._loading.set_result(None)

    async def _loaded(self, code: str) -> None:
        if self._loading is None:
            self._loading = asyncio.create_task(self._load(code))
        try:
            await asyncio.shield(self._loading)
        except Exception:
            # The talk goes on without what was said before; the next hello tries again.
            log.exception("table %s: could not read its chat", code)
            self._loading = None

    async def _load(self, code: str) -> None:
        stored = await chat_queries.recent_messages(self._storage, code, KEPT)
        known = {message["id"] for message in stored}
        # Anything said while the rows were read came after them.
        later = [message for message in self.recent if message["id"] not in known]
        self.recent.clear()
        self.recent.extend(stored + later)
        self._numbered = max([self._numbered, *(m["spectator"] or 0 for m in stored)])

    def _spectator_number(self, talker: Talker) -> int:
        number = self._spectators.get(talker)
        if number is None:
            self._numbered += 1
            number = self._spectators[talker] = self._numbered
        return number

    async def say(self, table: Table, talker: Talker, request: SayRequest) -> None:
        """Store ``request`` and send it (``said``) to those who may hear it; a refusal raises
        :class:`ProtocolError` and nothing is stored or sent."""
        seat = talker.seat
        account_id = None if seat is not None else talker.account_id
        if request.text is not None:
            account_id = await self._may_write(table, talker, request.ref)
        await self._loaded(table.code)
        # Not shown to whoever's account blocked the speaker's (issue 23, item 2).
        blocked = await chat_queries.blockers(self._storage, table.code, seat, account_id)
        playing = table.status == "playing"
        values: dict[str, Any] = {
            "table_code": table.code,
            "match_id": table.match_id,
            "seat": seat,
            "spectator": None if seat is not None else self._spectator_number(talker),
            "account_id": blocked.speaker,
            "name": None if seat is None else table.seats[seat].name,
            "phrase": request.phrase,
            "text": request.text,
            "audience": "spectators" if seat is None and playing else "all",
            "at": now(),
        }
        try:
            message_id = await chat_queries.insert_message(self._storage, values)
        except Exception:
            log.exception("table %s: could not store a chat message", table.code)
            raise ProtocolError(
                "server_error", "the message could not be stored; say it again", request.ref
            ) from None
        said = chat_queries.said(SimpleNamespace(id=message_id, **values))
        self.recent.append({**said, "version": table.version, "account": blocked.speaker})
        text = encode({"type": "said", "table": table.code, **said})
        # The speaker's copy says so: a spectator's page knows its words by nothing else.
        yours = encode({"type": "said", "table": table.code, **said, "yours": True})
        for listener in list(table.listeners):
            if listener.seat in blocked.seats or (
                listener.seat is None and listener.account_id in blocked.accounts
            ):
                continue
            if said["audience"] == "all" or listener.seat is None:
                listener.push(yours if listener is talker else text)

    async def _may_write(self, table: Table, talker: Talker, ref: str | int | None) -> int:
        """The account writing free text from ``talker``'s seat or, for a spectator, its
        socket's, if it may (else ``phrases_only``)."""
        writer: chat_queries.Writer | None = None
        if talker.seat is not None:
            writer = await chat_queries.seat_writer(self._storage, table.code, talker.seat)
        elif talker.account_id is not None:
            writer = await chat_queries.account_writer(self._storage, talker.account_id)
        if writer is None:
            raise ProtocolError(
                "phrases_only", "guests send the quick phrases: log in to write your own words",
                ref,
            )
        if writer.silenced is not None:
            raise ProtocolError(
                "phrases_only",
                f"a moderator silenced your account ({writer.silenced}): the quick phrases "
                "only",
                ref,
            )
        if writer.finished < FIRST_MATCHES:
            raise ProtocolError(
                "phrases_only",
                f"a new account sends the quick phrases in its first {FIRST_MATCHES} matches "
                f"(finished: {writer.finished}); free text after that",
                ref,
            )
        return writer.account_id

    async def report(self, table: Table, talker: Talker, request: ReportRequest) -> None:
        """Keep the message ``request.id`` with its context for the moderators and tell the
        reporter (``reported``). Only a message this table still holds and showed the reporter
        may be reported (``no_message`` otherwise), by an account or a guest's seat
        (``log_in_to_report`` for a guest watching), once (``already_reported``)."""
        await self._loaded(table.code)
        shown = [
            message for message in self.recent
            if message["audience"] == "all" or talker.seat is None
        ]
        at = next((i for i, message in enumerate(shown) if message["id"] == request.id), None)
        if at is None:
            raise ProtocolError(
                "no_message", f"this table has no message {request.id} that you were shown",
                request.ref,
            )
        message = shown[at]
        reporter = talker.account_id if talker.seat is None else None
        if talker.seat is not None:
            reporter = await chat_queries.seat_account(self._storage, table.code, talker.seat)
        elif reporter is None:
            raise ProtocolError(
                "log_in_to_report",
                "a guest watching cannot report a message: log in, so that your report "
                "counts once, and report it again",
                request.ref,
            )
        values = {
            "message_id": request.id,
            "table_code": table.code,
            "match_id": table.match_id,
            "version": message["version"],
            "reporter_seat": talker.seat,
            "reporter_account": reporter,
            "message": message,
            "context": _context(list(self.recent), message),
            "at": now(),
        }
        try:
            stored = await chat_queries.insert_report(self._storage, values)
        except Exception:
            log.exception("table %s: could not store a report", table.code)
            raise ProtocolError(
                "server_error", "the report could not be stored; report it again", request.ref
            ) from None
        if stored is None:
            raise ProtocolError(
                "already_reported",
                f"you reported message {request.id} already: the moderators have it, and a "
                "report counts once",
                request.ref,
            )
        answer: dict[str, Any] = {"type": "reported", "id": request.id}
        if request.ref is not None:
            answer["ref"] = request.ref
        talker.push(encode(answer))


    async def greeting(self, table: Table, seat: int | None, account_id: int | None) -> str | None:
        """The ``chat`` message for a socket saying hello at ``seat`` (a spectator: ``None``,
        logged in as ``account_id``): the table's last messages it may see. A seat does not
        get the spectators' words said during a match, nor anyone the words of an account
        theirs blocked. ``None`` when nothing was said. Read before the socket is attached,
        so that nothing waits between its state and its first command."""
        await self._loaded(table.code)
        shown = [m for m in self.recent if m["audience"] == "all" or seat is None]
        if not shown:
            return None
        blocked = await chat_queries.blocked_by(
            self._storage, table.code, seat, account_id if seat is None else None)
        said = [
            {key: value for key, value in message.items() if key not in HIDDEN_KEYS}
            for message in shown if message["account"] not in blocked
        ]
        return encode({"type": "chat", "table": table.code, "said": said})


def _context(messages: list[dict[str, Any]], message: dict[str, Any]) -> list[dict[str, Any]]:
    """The reported message and the :data:`CONTEXT` - 1 said at the table just before it,
    spectators' included: a moderator reads what the table was saying."""
    index = messages.index(message)
    return messages[max(0, index - CONTEXT + 1): index + 1]
