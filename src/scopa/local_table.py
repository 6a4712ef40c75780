"""One person against the bots with no server: the table that offline play runs in the
browser (issue 37), under Pyodide in a Web Worker, from the same core and the same bots.

It answers the messages a table's socket is sent (``docs/protocol.md``: ``welcome``,
``table``, ``state``, ``hint``, ``over``, ``error``, ``pong``) in the room's own shapes, so
that the web client's table component (``js/table.js``) plays offline unchanged: every
``state``'s view is ``Game.view(seat).to_dict()``, every refusal an ``error`` that changes
nothing. What only offline play has is one more message at a match's end, ``record``, with
``Game.record()``: the page keeps it, and uploads it once it is online (issue 37, item 4).

Everything is drawn from one seed: each match's deal and each bot's choices (the master with
``time_budget=None``: a wall-clock cap would cut its search where the machine's clock says,
and a seeded match would not replay the same). The table takes no time itself: the caller
(the worker) waits its person-like pause, then asks :meth:`LocalTable.play_bot`, one bot move
at a time, so the page hears each move as it is made.

Plain dicts in and out, no JSON: the worker writes them; the core stays free of I/O.

>>> table = LocalTable(Rules.preset("scopa", target=1), levels=["random"], seed=7)
>>> [message["type"] for message in table.receive({"type": "hello"})]
['welcome', 'table', 'state']
>>> table.receive({"type": "move", "move": "nonsense", "version": 0})[0]["code"]
'invalid_move'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

from .errors import IllegalMoveError, InvalidMoveError
from .game import Game
from .looks import LOOKS
from .players import LEVELS, MasterPlayer, Player, hint, make_player
from .players.outlook import outlook
from .rules import Rules
from .view import Play

CODE: Final = "OFFLINE"
"""The table's code in its messages: a client keys a table by its code, and a room's are six
characters without O or I, so this one is never a room's."""

SEED_BITS: Final = 53
"""A match's seed is drawn below ``2**53``, JavaScript's largest exact whole number, so a record
read and written again by the page replays the same deal (a 63-bit seed came back rounded)."""

Message = dict[str, Any]


def bot_player(level: str, seed: int) -> Player:
    """A bot of ``level`` whose choices come from ``seed`` alone: the master with fixed work."""
    if level == "master":
        return MasterPlayer(seed=seed, time_budget=None)
    return make_player(level, seed=seed)


class LocalTable:
    """A person's seat and bots at every other seat, for one match and its rematches.

    ``levels`` are the bots' levels, one per other seat in seat order (one level alone is
    used for every other seat). ``seed`` draws every match's deal and the bots' choices, so a
    table made again with the same seed and sent the same moves sends the same messages.
    """

    def __init__(
        self,
        rules: Rules,
        levels: Sequence[str],
        seed: int,
        *,
        seat: int = 0,
        name: str = "Guest",
        look: str = "french",
    ) -> None:
        if not 0 <= seat < rules.players:
            raise ValueError(f"seat must be 0..{rules.players - 1}; got {seat}")
        others = rules.players - 1
        chosen = list(levels) * others if len(levels) == 1 else list(levels)
        if len(chosen) != others:
            raise ValueError(f"{others} bot levels are needed (one per other seat); got "
                             f"{len(levels)}")
        for level in chosen:
            if level not in LEVELS:
                raise ValueError(f"unknown bot level {level!r}; the levels are: "
                                 f"{', '.join(LEVELS)}")
        if look not in LOOKS:
            raise ValueError(f"unknown deck look {look!r}; the looks are: {', '.join(LOOKS)}")
        self.rules = rules
        self.seat = seat
        self.name = name
        self.look = look
        bots = iter(chosen)
        self.levels: list[str | None] = [
            None if other == seat else next(bots) for other in range(rules.players)
        ]
        self._draw = random.Random(seed)
        self.match = 0
        self.continues = False
        """Whether the person's client holds the table at a round's end until it says
        ``continue`` (its hello said so), as the room's table does."""
        self.hold: int | None = None
        """The round (1: the first) whose end the table holds for its person: no bot plays
        meanwhile."""
        self.game: Game = self._deal()

    # -- the match -------------------------------------------------------------------------

    def _deal(self) -> Game:
        self.match += 1
        # 53 bits at most: the record's seed goes through JavaScript's numbers (the page keeps
        # and uploads it), which hold whole numbers exactly only up to 2**53.
        game = Game.new(self.rules, seed=self._draw.getrandbits(SEED_BITS))
        self._bots: dict[int, Player] = {
            other: bot_player(level, self._draw.getrandbits(62))
            for other, level in enumerate(self.levels)
            if level is not None
        }
        self._plays: list[Play] = []
        self.hold = None
        return game

    @property
    def version(self) -> int:
        """Moves played in the match: the version a ``state`` says."""
        return len(self._plays)

    @property
    def status(self) -> str:
        return "over" if self.game.is_over else "playing"

    def bot_to_move(self) -> bool:
        """Whether a bot is to play now (the caller waits its pause, then :meth:`play_bot`)."""
        to_move = self.game.to_move
        return to_move is not None and to_move != self.seat and self.hold is None

    def prepare(self) -> None:
        """Do now the work the master does once per rule set (its match-win outlook, from
        160 rounds of self-play: a quarter of a second under Pyodide), which would otherwise
        make its first move, or the first hint, that much slower. The worker calls it once
        the first deal is drawn, while the person looks at it."""
        outlook(self.rules)

    def play_bot(self) -> list[Message]:
        """The bot to move plays; the messages that tell the person. Nothing when no bot is
        to play (the person's turn, a held round's end, the match over)."""
        if not self.bot_to_move():
            return []
        to_move = self.game.to_move
        assert to_move is not None
        move = self._bots[to_move].choose(self.game.view(to_move))
        return self._apply(str(move), to_move)

    def _apply(self, move: str, seat: int) -> list[Message]:
        game = self.game
        rounds = len(game.round_scores)
        game.play(move, seat)
        last = game.last_move
        assert last is not None
        self._plays.append(last)
        out = [self.state_message()]
        if game.is_over:
            self.hold = None
            out += [self.table_message(), *self._ended()]
        elif len(game.round_scores) > rounds and self.continues:
            self.hold = len(game.round_scores)
            out.append(self.table_message())
        return out

    def _ended(self) -> list[Message]:
        game = self.game
        return [
            {"type": "over", "table": CODE, "match": self.match, "version": self.version,
             "winner": game.winner, "scores": game.scores, "record": None},
            {"type": "record", "table": CODE, "match": self.match, "record": game.record(),
             "seat": self.seat, "opponents": [level for level in self.levels if level],
             "look": self.look},
        ]

    # -- what the person sends ---------------------------------------------------------------

    def receive(self, message: Message) -> list[Message]:
        """The answers to one message of the person's client, as a table's socket sends
        them. A refused one is answered with an ``error`` and changes nothing."""
        kind = message.get("type")
        ref = message.get("ref")
        handlers = {
            "hello": self._hello, "move": self._move, "hint": self._hint,
            "continue": self._continue, "resign": self._resign, "sync": self._sync,
            "rematch": self._rematch,
        }
        if kind == "ping":
            return [{"type": "pong"}]
        handler = handlers.get(kind) if isinstance(kind, str) else None
        if handler is None:
            return [error("unknown_type", f"unknown message type {kind!r}", ref)]
        return handler(message, ref)

    def _hello(self, message: Message, ref: object) -> list[Message]:
        self.continues = bool(message.get("continues"))
        out = [self.welcome_message(), self.table_message(),
               self.state_message(since=(message.get("match"), message.get("version")))]
        if self.game.is_over:
            out.append(self._ended()[0])
        return out

    def _move(self, message: Message, ref: object) -> list[Message]:
        game = self.game
        move, version = message.get("move"), message.get("version")
        if not isinstance(move, str) or not isinstance(version, int):
            return [error("bad_message", "a move needs its code and the version", ref)]
        if game.is_over:
            return [error("no_match", "no match is being played at this table", ref)]
        if game.to_move != self.seat:
            return [error("not_your_turn", f"not your turn: seat {game.to_move} is to play",
                          ref)]
        if version != self.version:
            return [error("stale_version", f"the match is at version {self.version}, not "
                          f"{version}: sync first", ref)]
        held = self.hold
        self.hold = None  # a person's move ends a round's hold, as at the room's table
        try:
            out = self._apply(move, self.seat)
        except InvalidMoveError as refused:
            self.hold = held
            return [error("invalid_move", str(refused), ref)]
        except IllegalMoveError as refused:
            self.hold = held
            return [error("illegal_move", str(refused), ref)]
        return out

    def _hint(self, message: Message, ref: object) -> list[Message]:
        game = self.game
        if game.is_over:
            return [error("no_match", "no match is being played at this table", ref)]
        if game.to_move != self.seat:
            return [error("not_your_turn",
                          f"no hint: it is not your turn (seat {game.to_move} is to play)", ref)]
        move, why = hint(game.view(self.seat), MasterPlayer(seed=0, time_budget=None))
        answer: Message = {
            "type": "hint", "table": CODE, "match": self.match, "version": self.version,
            "move": str(move),
            "reason": {"key": why.key, "params": dict(why.params), "text": str(why)},
        }
        if ref is not None:
            answer["ref"] = ref
        return [answer]

    def _continue(self, message: Message, ref: object) -> list[Message]:
        if self.hold is None or message.get("round") != self.hold:
            return [error("not_held", "the table is not waiting for you at that round's end",
                          ref)]
        self.hold = None
        return [self.table_message()]

    def _resign(self, message: Message, ref: object) -> list[Message]:
        if self.game.is_over:
            return [error("no_match", "no match is being played at this table", ref)]
        self.game.resign(self.seat)
        self.hold = None
        return [self.state_message(), self.table_message(), *self._ended()]

    def _sync(self, message: Message, ref: object) -> list[Message]:
        return [self.state_message(since=(message.get("match"), message.get("version")))]

    def _rematch(self, message: Message, ref: object) -> list[Message]:
        if not self.game.is_over:
            return [error("match_on", "the match is still being played: finish or resign "
                          "it first", ref)]
        self.game = self._deal()
        return [self.table_message(), self.state_message()]

    # -- the messages ------------------------------------------------------------------------

    def welcome_message(self) -> Message:
        return {"type": "welcome", "table": CODE, "seat": self.seat,
                "side": self.rules.side_of(self.seat), "name": self.name, "hints": True,
                "rated": False, "casual": None}

    def info(self) -> Message:
        """The table as the lobby shows a room's (``TableView``)."""
        rules = self.rules
        return {
            "code": CODE, "status": self.status, "rules": rules.to_dict(), "look": self.look,
            "players": rules.players, "sides": rules.sides,
            "seats": [
                {"seat": seat, "side": rules.side_of(seat),
                 "kind": "human" if level is None else "bot",
                 "name": self.name if level is None else f"Bot {seat + 1}", "level": level,
                 "open": False, "connected": True, "stand_in": False}
                for seat, level in enumerate(self.levels)
            ],
            "match": self.match, "version": self.version,
            "continuing": [] if self.hold is None else [self.seat],
            "rated": False, "casual": None,
        }

    def table_message(self) -> Message:
        return {"type": "table", "table": self.info()}

    def state_message(self, since: tuple[object, object] | None = None) -> Message:
        """The person's view at this version; with ``since`` (a match and version the client
        had), the plays after it, as a ``hello`` or ``sync`` is answered."""
        message: Message = {
            "type": "state", "table": CODE, "match": self.match, "version": self.version,
            "play": self._plays[-1].to_dict() if self._plays else None,
            "view": self.game.view(self.seat).to_dict(),
            "stand_in_played": False, "clock": None,
        }
        if since is not None:
            match, version = since
            if match == self.match and isinstance(version, int) and 0 <= version <= self.version:
                message["missed"] = [play.to_dict() for play in self._plays[version:]]
        return message

    def record(self) -> dict[str, Any]:
        """The match's record as the core writes it (``Game.record()``)."""
        return self.game.record()


def error(code: str, message: str, ref: object = None) -> Message:
    """A refusal, as a table's socket words it: nothing changed."""
    return {"type": "error", "code": code, "message": message, "ref": ref}
