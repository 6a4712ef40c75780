"""What one seat may know: the only picture of a game that leaves the engine.

A ``View`` is built from public facts plus one hand, so a bot or a client that
holds a view cannot reach another hand, the stock or the seed: they are not in
it. It can be built by the engine (``game.view(seat)``) or by anyone who watched
the game (``View(...)`` with the facts), which lets bots play inside other
programs' games.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .capture import legal_moves_of
from .cards import Card, mask_of
from .moves import Move
from .rules import Rules
from .scoring import RoundScore


@dataclass(frozen=True)
class Play:
    """One move as everyone saw it: who played it and whether it swept the table."""

    seat: int
    move: Move
    sweep: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "move": str(self.move), "sweep": self.sweep}


@dataclass(frozen=True)
class View:
    """One seat's knowledge of a game (``seat=None``: a spectator, who holds no hand)."""

    rules: Rules
    seat: int | None
    hand: tuple[Card, ...]
    table: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    """Cards in each seat's hand, by seat."""
    stock_size: int
    piles: tuple[tuple[Card, ...], ...]
    """Cards captured this round, by side."""
    sweeps: tuple[int, ...]
    """Sweeps this round, by side (dealer bonus included)."""
    scores: tuple[int, ...]
    """Match totals, by side."""
    to_move: int | None
    dealer: int
    round_number: int
    plays: tuple[Play, ...] = ()
    """This round's moves in order: the cards played so far are public."""
    dealer_bonus: tuple[Card, ...] = ()
    """The first table of this round, when the dealer took it as a bonus."""
    round_scores: tuple[tuple[RoundScore, ...], ...] = ()
    """Breakdown of each finished round, by side."""
    winner: int | None = None
    last_move: Play | None = field(default=None)
    """The most recent move of the match (it may belong to the round before this one)."""
    resigned: int | None = None
    """The seat that gave the match up, when it ended so: no move shows it."""

    @property
    def side(self) -> int | None:
        return None if self.seat is None else self.rules.side_of(self.seat)

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat == self.to_move

    def legal_moves(self) -> list[Move]:
        """The moves this seat may make now (empty when it is not this seat's turn)."""
        if not self.my_turn:
            return []
        return legal_moves_of(self.rules, mask_of(self.hand), mask_of(self.table))

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data, for the wire and for logs."""

        def codes(cards: tuple[Card, ...]) -> list[str]:
            return [str(card) for card in cards]

        return {
            "rules": self.rules.to_dict(),
            "seat": self.seat,
            "hand": codes(self.hand),
            "table": codes(self.table),
            "hand_sizes": list(self.hand_sizes),
            "stock_size": self.stock_size,
            "piles": [codes(pile) for pile in self.piles],
            "sweeps": list(self.sweeps),
            "scores": list(self.scores),
            "to_move": self.to_move,
            "dealer": self.dealer,
            "round_number": self.round_number,
            "plays": [play.to_dict() for play in self.plays],
            "dealer_bonus": codes(self.dealer_bonus),
            "round_scores": [[score.to_dict() for score in sides] for sides in self.round_scores],
            "winner": self.winner,
            "last_move": None if self.last_move is None else self.last_move.to_dict(),
            "legal_moves": [str(move) for move in self.legal_moves()],
            "resigned": self.resigned,
        }
