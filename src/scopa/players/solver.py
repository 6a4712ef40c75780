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
from ..rules import Rules
from ..scoring import score_piles
from .outlook import Utility
from .simulation import Deal, round_model

_EXACT: Final = 0
_LOWER: Final = 1
_UPPER: Final = 2
_INFINITY: Final = float("inf")

_Key = tuple[tuple[int, ...], int, tuple[int, ...], tuple[int, ...], int, int, int]


class Solver:
    """Exact values of the moves of a position with nothing hidden, for ``side``.

    One solver serves one deal at a time: its tables are keyed by positions of
    that deal and cleared by :meth:`move_values`.
    """

    def __init__(self, rules: Rules, side: int, utility: Utility) -> None:
        self.rules = rules
        self.side = side
        self.utility = utility
        self.model = round_model(rules)
        self.nodes = 0
        """Positions searched by the last call, for tests and benchmarks."""
        self._table: dict[_Key, tuple[float, int]] = {}
        self._leaves: dict[tuple[tuple[int, ...], tuple[int, ...]], float] = {}
        self._stock: tuple[int, ...] = ()

    def move_values(
        self, deal: Deal, moves: Sequence[Move] | None = None
    ) -> list[tuple[Move, float]]:
        """The exact value of ``moves`` (by default every legal move) of the seat to
        play in ``deal``."""
        self._table = {}
        self._leaves = {}
        self._stock = tuple(deal.stock)
        self.nodes = 0
        hands = tuple(deal.hands)
        piles = tuple(deal.piles)
        sweeps = tuple(deal.sweeps)
        return [
            (
                move,
                self._after(
                    move,
                    hands,
                    deal.table,
                    piles,
                    sweeps,
                    0,
                    deal.seat,
                    deal.last,
                    -_INFINITY,
                    _INFINITY,
                ),
            )
            for move in (self.model.legal(hands[deal.seat], deal.table) if moves is None else moves)
        ]

    def _after(
        self,
        move: Move,
        hands: tuple[int, ...],
        table: int,
        piles: tuple[int, ...],
        sweeps: tuple[int, ...],
        dealt: int,
        seat: int,
        last: int,
        alpha: float,
        beta: float,
    ) -> float:
        """The value once ``seat`` plays ``move``; ``dealt`` cards of the stock are gone."""
        model = self.model
        bit = move.card_bit
        mover_hands = list(hands)
        mover_hands[seat] ^= bit
        captured = move.captured_mask
        if captured:
            side = seat % model.sides
            new_piles = list(piles)
            new_piles[side] |= captured | bit
            piles = tuple(new_piles)
            if captured == table and (
                not (model.ace_takes_all and move.card.rank_index == 0)
                and (model.last_play_sweep or dealt < len(self._stock) or any(mover_hands))
            ):
                new_sweeps = list(sweeps)
                new_sweeps[side] += 1
                sweeps = tuple(new_sweeps)
            table ^= captured
            last = side
        else:
            table |= bit
        seat = (seat + 1) % model.players
        if not mover_hands[seat]:
            if dealt == len(self._stock):
                return self._leaf(piles, sweeps, last, table)
            size = model.hand_size
            for k in range(model.players):
                hand = 0
                for card in self._stock[dealt : dealt + size]:
                    hand |= card
                mover_hands[(seat + k) % model.players] = hand
                dealt += size
        return self._search(
            tuple(mover_hands), table, piles, sweeps, dealt, seat, last, alpha, beta
        )

    def _leaf(
        self, piles: tuple[int, ...], sweeps: tuple[int, ...], last: int, table: int
    ) -> float:
        """The utility of the round's end: leftovers to the last capturer, then the score."""
        if last >= 0 and table:
            final = list(piles)
            final[last] |= table
            piles = tuple(final)
        key = (piles, sweeps)
        value = self._leaves.get(key)
        if value is None:
            scores = score_piles(self.rules, piles, sweeps)
            value = self._leaves[key] = self.utility([score.total for score in scores])
        return value

    def _search(
        self,
        hands: tuple[int, ...],
        table: int,
        piles: tuple[int, ...],
        sweeps: tuple[int, ...],
        dealt: int,
        seat: int,
        last: int,
        alpha: float,
        beta: float,
    ) -> float:
        """Alpha-beta value of the position, the seat ``seat`` to play."""
        self.nodes += 1
        key = (hands, table, piles, sweeps, dealt, seat, last)
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
        maximising = seat % self.model.sides == self.side
        best = -_INFINITY if maximising else _INFINITY
        for move in self._ordered(self.model.legal(hands[seat], table), table):
            value = self._after(move, hands, table, piles, sweeps, dealt, seat, last, alpha, beta)
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
