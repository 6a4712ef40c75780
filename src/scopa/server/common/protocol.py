"""The WebSocket protocol: reading what clients send and writing what the server says.

Every client message is a JSON object with a ``type``. Reading one either gives a typed value or
raises :class:`ProtocolError`, whose code and sentence go back to that client as an ``error``
message; nothing else happens. ``docs/protocol.md`` describes each message with an example.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from typing import Any, Final

import orjson

from .text import shown_fault

ERROR_CODES: Final = (
    "bad_json",  # not a JSON object
    "bad_message",  # a known type with missing or wrong fields
    "unknown_type",  # a type the server does not know
    "too_large",  # over the size limit
    "rate_limited",  # too many messages too fast: the connection is closed
    "hello_first",  # anything but hello (or ping) before hello
    "already_said_hello",  # a second hello on one connection
    "bad_token",  # no seat of this table has that token: the connection is closed
    "no_table",  # no table has that code: the connection is closed
    "not_seated",  # a spectator tried to play, resign or continue, or asked for a hint
    "no_match",  # no match is being played at this table
    "stale_version",  # the move was for an older version of the match
    "not_your_turn",  # a move or a hint from a seat that is not to play
    "no_hints",  # a hint asked at a rated table, a tournament's game or the daily deal
    "not_held",  # a continue for a round's end the table is not holding
    "invalid_move",  # a move code that cannot be read
    "illegal_move",  # a readable move the rules do not allow now
    "server_error",  # the move could not be stored; the table is unchanged
    "replaced",  # the seat was opened in more places than allowed: the oldest is closed
    "busy",  # too many connections have not said hello yet: closed, try again later
    "phrases_only",  # free text from a guest, a spectator, a new or a silenced account
    "bad_text",  # free text too long, empty, or with control characters or bidi overrides
    "chat_too_fast",  # more chat than the chat's own limit allows: nothing said
    "no_message",  # a report of a message this table does not have (or never showed you)
    "too_many_sockets",  # one address has its table sockets open already: closed, 1013
    "too_many_reports",  # more reports than a person's or an address's limit: none kept
    "log_in_to_report",  # a report from a guest watching: a report needs an account or a seat
    "already_reported",  # a second report of one message by one reporter: kept once
)

PHRASES: Final = ("good_luck", "well_played", "nice_sweep", "thanks", "good_game")
"""The quick phrases: sent as these ids, shown in each reader's language."""
MAX_TEXT: Final = 200
"""Characters of free text a message may have, once cleaned."""
_BIDI: Final = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

MAX_REF_LENGTH: Final = 64


class ProtocolError(Exception):
    """A message the server refuses; ``code`` is one of :data:`ERROR_CODES`."""

    def __init__(self, code: str, message: str, ref: str | int | None = None) -> None:
        assert code in ERROR_CODES, code
        super().__init__(message)
        self.code = code
        self.message = message
        self.ref = ref


@dataclass(frozen=True)
class Hello:
    """The first message: a seat token (none: a spectator) and what the client already has."""

    token: str | None = None
    match: int | None = None
    version: int | None = None
    continues: bool = False
    """The client sends ``continue`` once its person has read a round's breakdown: the table
    may hold a round's end for this seat (clients that do not say so are never waited for)."""


@dataclass(frozen=True)
class MoveRequest:
    move: str
    version: int | None = None
    """The version the client saw when it chose; a move for an older version is refused."""
    ref: str | int | None = None
    """Any short value the client likes; an error about this move carries it back."""


@dataclass(frozen=True)
class HintRequest:
    """Ask what the master would play for this seat, and why (only on this seat's turn)."""

    ref: str | int | None = None
    """Any short value the client likes; the hint, or an error about it, carries it back."""


@dataclass(frozen=True)
class ContinueRequest:
    """This seat's person has seen the breakdown of round ``round`` (1: the first round's end)
    and is ready for the next deal: the table holds a round's end until every person at it
    has said so, or :data:`~scopa.server.table.tables.HOLD_SECONDS` have passed."""

    round: int
    ref: str | int | None = None


@dataclass(frozen=True)
class ResignRequest:
    """This seat's person gives the match up: their side loses, and the match is over. A
    client asks its person to confirm first: nothing takes it back."""

    ref: str | int | None = None


@dataclass(frozen=True)
class Sync:
    """Ask again for the current state, and the plays missed since ``version`` of ``match``."""

    match: int | None = None
    version: int | None = None


@dataclass(frozen=True)
class Ping:
    pass


@dataclass(frozen=True)
class SayRequest:
    """Say something at the table: one of :data:`PHRASES` (``phrase``) or, from an account
    allowed to write, free ``text`` (cleaned, :func:`clean_text`). Exactly one is set."""

    phrase: str | None = None
    text: str | None = None
    ref: str | int | None = None


@dataclass(frozen=True)
class ReportRequest:
    """Report the message ``id`` (a ``said`` message's) to the moderators."""

    id: int
    ref: str | int | None = None


ClientMessage = (
    Hello | MoveRequest | HintRequest | ContinueRequest | ResignRequest | SayRequest
    | ReportRequest | Sync | Ping
)


def clean_text(text: str, ref: str | int | None = None) -> str:
    """Free text as the table shows it: NFC, its runs of spaces one space, trimmed; refused
    (``bad_text``) when empty, over :data:`MAX_TEXT` characters, or holding a control
    character or a bidirectional override, which could hide or reorder what others read, or
    failing the rule of all text shown to others (:func:`..common.text.shown_fault`): no
    invisible character, a letter, digit or symbol, few combining marks on a character.

    >>> clean_text("  ben   giocata ")
    'ben giocata'
    >>> clean_text("a\u202eb")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scopa.server.common.protocol.ProtocolError: a message may not hold bidirectional ...
    """
    for char in text:
        if char in _BIDI:
            raise ProtocolError(
                "bad_text",
                f"a message may not hold bidirectional overrides (U+{ord(char):04X}): they "
                "reorder what others read",
                ref,
            )
        if unicodedata.category(char) == "Cc" and char != " ":
            raise ProtocolError(
                "bad_text",
                f"a message may not hold control characters (U+{ord(char):04X}): write it on "
                "one line, as plain text",
                ref,
            )
    cleaned = " ".join(unicodedata.normalize("NFC", text).split())
    if not cleaned:
        raise ProtocolError("bad_text", "a message needs at least one visible character", ref)
    if len(cleaned) > MAX_TEXT:
        raise ProtocolError(
            "bad_text",
            f"a message may have at most {MAX_TEXT} characters; this one has {len(cleaned)}",
            ref,
        )
    # Nothing that shows, invisible characters or stacked accents (issue 34, item 10).
    fault = shown_fault(cleaned, "a message")
    if fault is not None:
        raise ProtocolError("bad_text", fault, ref)
    return cleaned


def _optional_count(data: dict[str, Any], key: str, ref: str | int | None) -> int | None:
    value = data.get(key)
    if value is None:
        return None
    if type(value) is not int or value < 0:
        raise ProtocolError(
            "bad_message", f"{key!r} must be a whole number of 0 or more; got {value!r}", ref
        )
    return value


def _ref(data: dict[str, Any]) -> str | int | None:
    """The client's ``ref``, when it is one a reply may carry (else the reply has none)."""
    ref = data.get("ref")
    if type(ref) is int or (isinstance(ref, str) and len(ref) <= MAX_REF_LENGTH):
        return ref
    return None


def parse(text: str) -> ClientMessage:
    """One client message from its JSON text.

    >>> parse('{"type": "move", "move": "5Dx2H+3C", "version": 4}')
    MoveRequest(move='5Dx2H+3C', version=4, ref=None)
    >>> parse('{"type": "dance"}')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scopa.server.common.protocol.ProtocolError: unknown message type 'dance'; the types are ...
    """
    # orjson reads a message in a fifth of the standard library's time. What it refuses and
    # the standard library reads (NaN, a lone surrogate, a number past a double) and a field
    # it reads as a float (an integer past 64 bits, an int to the standard library) are read
    # by the standard library, as before: a message means the same either way.
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError:
        data = None
    if data is None or (
        isinstance(data, dict) and any(type(value) is float for value in data.values())
    ):
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            raise ProtocolError("bad_json", "a message must be a JSON object") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", "a message must be a JSON object, not an array or a value")
    ref = _ref(data)
    kind = data.get("type")
    if kind == "move":
        move = data.get("move")
        if not isinstance(move, str):
            raise ProtocolError("bad_message", "a move message needs 'move', a move code", ref)
        return MoveRequest(move, _optional_count(data, "version", ref), ref)
    if kind == "hello":
        token = data.get("token")
        if token is not None and not isinstance(token, str):
            raise ProtocolError("bad_message", "'token' must be the seat token text", ref)
        match = _optional_count(data, "match", ref)
        continues = data.get("continues", False)
        if type(continues) is not bool:
            raise ProtocolError("bad_message", "'continues' must be true or false", ref)
        return Hello(token, match, _optional_count(data, "version", ref), continues)
    if kind == "hint":
        return HintRequest(ref)
    if kind == "continue":
        finished = _optional_count(data, "round", ref)
        if not finished:
            raise ProtocolError(
                "bad_message", "a continue message needs 'round', the round seen (1 or more)", ref
            )
        return ContinueRequest(finished, ref)
    if kind == "resign":
        return ResignRequest(ref)
    if kind == "say":
        return _say(data, ref)
    if kind == "report":
        said = data.get("id")
        if type(said) is not int or said < 1:
            raise ProtocolError(
                "bad_message", "a report message needs 'id', the id of a said message", ref
            )
        return ReportRequest(said, ref)
    if kind == "sync":
        return Sync(_optional_count(data, "match", ref), _optional_count(data, "version", ref))
    if kind == "ping":
        return Ping()
    if not isinstance(kind, str):
        raise ProtocolError("bad_message", "a message needs a 'type'", ref)
    raise ProtocolError(
        "unknown_type",
        f"unknown message type {kind[:MAX_REF_LENGTH]!r}; "
        "the types are hello, move, hint, continue, resign, say, report, sync, ping",
        ref,
    )


def _say(data: dict[str, Any], ref: str | int | None) -> SayRequest:
    phrase, text = data.get("phrase"), data.get("text")
    if (phrase is None) == (text is None):
        raise ProtocolError(
            "bad_message", "a say message needs either 'phrase' or 'text', not both", ref
        )
    if phrase is not None:
        if phrase not in PHRASES:
            raise ProtocolError(
                "bad_message", f"'phrase' must be one of {', '.join(PHRASES)}", ref
            )
        return SayRequest(phrase=phrase, ref=ref)
    if not isinstance(text, str):
        raise ProtocolError("bad_message", "'text' must be text", ref)
    return SayRequest(text=clean_text(text, ref), ref=ref)


def encode(message: dict[str, Any]) -> str:
    """Compact JSON: thousands of these go out every second under load, so orjson writes them
    (a view in a tenth of the standard library's time); what it cannot write (an integer past
    64 bits, a lone surrogate, both only ever echoed from a client) the standard library does.

    Keys that are not text (a seat number) orjson writes only with ``OPT_NON_STR_KEYS``, which
    makes every message cost 60% more (3.4 against 2.1 us a state): a message is tried without
    it first, as nearly all have text keys only (the option changes nothing for those).

    >>> encode({"type": "pong"}), encode({"type": "error", "ref": 2**70}), encode({1: [2]})
    ('{"type":"pong"}', '{"type":"error","ref":1180591620717411303424}', '{"1":[2]}')
    """
    try:
        return orjson.dumps(message).decode()
    except TypeError:
        pass
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(message, separators=(",", ":"))


def encode_list(messages: list[dict[str, Any]]) -> str:
    """Messages as one JSON array, as :func:`encode` writes each."""
    return f"[{','.join(encode(message) for message in messages)}]"


def state_position(text: str) -> tuple[int | None, int] | None:
    """The (match, version) of a ``state`` message as the server writes it (``type`` first,
    as :func:`encode` keeps a message's order), or ``None`` for any other message.

    A socket whose table is owned by another process reads it off what it is sent: when the
    table moves, its next owner is told the version the socket was last shown, so that the
    state it sends lists every play after it as ``missed`` (a socket is never made to skip one).

    >>> state_position('{"type":"state","table":"FL7DNF","match":3,"version":12,"play":null}')
    (3, 12)
    >>> state_position('{"type":"table","table":{"version":12}}') is None
    True
    """
    if not text.startswith('{"type":"state"'):
        return None
    message = orjson.loads(text)
    return message["match"], message["version"]


def error_message(error: ProtocolError) -> str:
    message: dict[str, Any] = {"type": "error", "code": error.code, "message": error.message}
    if error.ref is not None:
        message["ref"] = error.ref
    return encode(message)
