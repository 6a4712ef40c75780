"""A puzzle: a position of a round's last deal where one move is strictly best, with its answer.

In two-player scopa and escoba, once the stock is empty every card the seat to move has not
seen is in the other hand, so the position is the seat's whole knowledge and the exact solver
(:mod:`scopa.players.solver`) knows every move's worth. A puzzle keeps the position as plain
data (cards as their codes, as the wire has them), the best move, every move's value, the
solver's line after the best move, what the best move does (its themes) and how hard it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from ..cards import Card, mask_of
from ..moves import Move
from ..round import Round
from ..rules import Rules

THEMES: Final = (
    "sweep",
    "deny_sweep",
    "settebello",
    "coins",
    "cards",
    "primiera",
    "sevens",
    "last_capture",
    "match",
    "lose_least",
)
"""What a best move can do, in the order a page lists them: sweep now, deny the opponent's
sweep, take the settebello (escoba's siete de velo), win the coins or the cards count, the
primiera (escoba's setenta) or the most sevens, take the leftovers by the last capture, keep
or take the match at the target, or lose the round by the least."""


@dataclass(frozen=True)
class Position:
    """The seat to move's knowledge on the last deal: everything, the other hand included."""

    rules: Rules
    seat: int
    hand: tuple[Card, ...]
    other_hand: tuple[Card, ...]
    table: tuple[Card, ...]
    piles: tuple[tuple[Card, ...], ...]
    """Each side's captured cards so far."""
    sweeps: tuple[int, ...]
    scores: tuple[int, ...]
    """The match's standing before this round's points."""
    last: int
    """The side that captured last (-1: nobody yet): it takes the leftovers."""

    def round(self) -> Round:
        """The position as the core's round state, to solve or play on."""
        hands = [0, 0]
        hands[self.seat] = mask_of(self.hand)
        hands[1 - self.seat] = mask_of(self.other_hand)
        return Round.position(
            self.rules, hands, mask_of(self.table), [mask_of(pile) for pile in self.piles],
            list(self.sweeps), [], self.seat, self.last,
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain data, without the rules: a set of puzzles writes them once for all."""

        def codes(cards: tuple[Card, ...]) -> list[str]:
            return [str(card) for card in cards]

        return {
            "seat": self.seat,
            "hand": codes(self.hand),
            "other_hand": codes(self.other_hand),
            "table": codes(self.table),
            "piles": [codes(pile) for pile in self.piles],
            "sweeps": list(self.sweeps),
            "scores": list(self.scores),
            "last": self.last,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], rules: Rules) -> Position:
        def cards(codes: list[str]) -> tuple[Card, ...]:
            return tuple(Card.parse(code) for code in codes)

        return cls(
            rules=rules,
            seat=data["seat"],
            hand=cards(data["hand"]),
            other_hand=cards(data["other_hand"]),
            table=cards(data["table"]),
            piles=tuple(cards(pile) for pile in data["piles"]),
            sweeps=tuple(data["sweeps"]),
            scores=tuple(data["scores"]),
            last=data["last"],
        )


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: find ``best`` in ``position``."""

    id: str
    position: Position
    best: Move
    values: dict[str, int]
    """Every legal move (its code) and the round's point difference it leads to, for the seat
    to move, with both sides playing their best from there."""
    line: tuple[Move, ...]
    """The solver's play after the best move, to the end of the round."""
    themes: tuple[str, ...]
    found: dict[str, float]
    """By bot level, the share of its tries that found the best move."""
    rating: int
    """How hard it is by the finder's rough formula (about 800 to 2,000, from the legal moves
    and the levels' misses). The card room shows its own rating instead, on its openskill
    scale, made from ``found`` (``scopa.server.puzzles.ratings``)."""
    source: dict[str, Any]
    """Where it was found: the match's seed, its players, the round and the play."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "position": self.position.to_dict(),
            "best": str(self.best),
            "values": dict(self.values),
            "line": [str(move) for move in self.line],
            "themes": list(self.themes),
            "found": dict(self.found),
            "rating": self.rating,
            "source": dict(self.source),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], rules: Rules) -> Puzzle:
        return cls(
            id=data["id"],
            position=Position.from_dict(data["position"], rules),
            best=Move.parse(data["best"]),
            values=dict(data["values"]),
            line=tuple(Move.parse(code) for code in data["line"]),
            themes=tuple(data["themes"]),
            found=dict(data["found"]),
            rating=data["rating"],
            source=dict(data["source"]),
        )
