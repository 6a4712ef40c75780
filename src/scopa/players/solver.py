"""Exact play for the end of a round once every card is known.

In two-player games the last deal is open information: with the stock empty,
the opponent's hand is exactly the cards not yet seen. From there the best play
is a matter of search, not guessing: a card held back now may take the table
later, and the last capture also takes the leftovers. The solver searches every
line to the round's end with alpha-beta on a side's utility (the match-win chance
of the round's points, see :mod:`.outlook`), remembering positions it has met in a
transposition table. Inside the master's sampled deals it solves endings too,
treating each guess as if it were the truth.

With more than two sides the search is "paranoid": every other side is taken to
play against the solving side, which keeps it a two-sided search.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..moves import Move
from ..round import Round
from ..rules import Rules
from .outlook import Utility
from .simulation import round_model

_EXACT: Final = 0
_LOWER: Final = 1
_UPPER: Final = 2
_INFINITY: Final = float("inf")


class Solver:
    """Exact values of the moves of a position with nothing hidden, for ``side``.

    One solver serves one deal at a time: its tables are keyed by positions of
    that deal (:meth:`Round.key <scopa.round.Round.key>`) and cleared by
    :meth:`move_values`. The rules of every step are the core's round state.
    """

    def __init__(self, rules: Rules, side: int, utility: Utility) -> None:
        self.rules = rules
        self.side = side
        self.utility = utility
        self.model = round_model(rules)
        self.nodes = 0
        """Positions searched by the last call, for tests and benchmarks."""
        self._table: dict[tuple[int, ...], tuple[float, int]] = {}
        self._leaves: dict[tuple[int, ...], float] = {}

    def move_values(
        self, state: Round, moves: Sequence[Move] | None = None
    ) -> list[tuple[Move, float]]:
        """The exact value of ``moves`` (by default every legal move) of the seat to
        play in ``state``, which is left as it is."""
        self._table = {}
        self._leaves = {}
        self.nodes = 0
        return [
            (move, self._after(state, move, -_INFINITY, _INFINITY))
            for move in (state.legal() if moves is None else moves)
        ]

    def _after(self, state: Round, move: Move, alpha: float, beta: float) -> float:
        """The value once the seat to move in ``state`` plays ``move``."""
        child = state.copy()
        child.apply(move)
        if child.over:
            return self._leaf(child)
        return self._search(child, alpha, beta)

    def _leaf(self, state: Round) -> float:
        """The utility of a round that is over (the leftovers are in its piles)."""
        key = (*state.piles, *state.sweeps)
        value = self._leaves.get(key)
        if value is None:
            value = self._leaves[key] = self.utility(state.points())
        return value

    def _search(self, state: Round, alpha: float, beta: float) -> float:
        """Alpha-beta value of the position."""
        self.nodes += 1
        key = state.key()
        entry = self._table.get(key)
        if entry is not None:
            value, bound = entry
            if (
                bound == _EXACT
                or (bound == _LOWER and value >= beta)
                or (bound == _UPPER and value <= alpha)
            ):
                return value
        start_alpha, start_beta = alpha, beta
        maximising = state.to_move % state.sides == self.side
        best = -_INFINITY if maximising else _INFINITY
        for move in self._ordered(state.legal(), state.table):
            value = self._after(state, move, alpha, beta)
            if maximising:
                if value > best:
                    best = value
                    alpha = max(alpha, value)
            elif value < best:
                best = value
                beta = min(beta, value)
            if alpha >= beta:
                break
        if best <= start_alpha:
            bound = _UPPER
        elif best >= start_beta:
            bound = _LOWER
        else:
            bound = _EXACT
        self._table[key] = (best, bound)
        return best

    def _ordered(self, moves: Sequence[Move], table: int) -> Sequence[Move]:
        """Likely best moves first, which is where alpha-beta gains: sweeps, then the
        richest captures, then trails of the cards worth least."""
        if len(moves) < 2:
            return moves
        model = self.model

        def promise(move: Move) -> float:
            if move.captured_mask:
                worth = model.capture_facts(move)[0]
                return worth + 100 if move.captured_mask == table else worth
            return -model.card_worth[move.card.id]

        return sorted(moves, key=promise, reverse=True)
