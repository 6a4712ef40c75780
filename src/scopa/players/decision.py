"""Where a determinized search over one view starts, and how many guesses it affords.

The master (:mod:`.master`) and the learned level (:mod:`scopa.learning.learned`) search
the same way and differ only in how a guessed deal is scored: both start from a
:class:`Decision` and take :func:`samples_for` guesses, so they weigh moves on equal terms.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from ..moves import Move
from ..view import View
from .base import check_turn
from .outlook import Utility, outlook
from .sampling import Knowledge
from .simulation import RoundModel
from .solver import Solver

FORESIGHT_WEIGHT: Final = 0.2
"""Utility per round point of the foresight's score, added to every sampled value.

The foresight (what a move takes, what the next player can expect to take back, what
this seat can take after: the expert's two-turn look) is steady where playouts are
noisy, and the playouts see the whole round where the foresight sees two turns. Each
corrects the other: tournaments put the mix well above either alone. At 0.2 a point
of foresight outweighs a point of playout early in a match, where a point moves the
match-win chance by about 0.06; near the target, where the round decides the match,
the playouts' swings in that chance dominate."""

FULL_MOVES: Final = 6
"""Up to this many legal moves a decision gets all its samples; with more (big hands,
escoba's many sums) the moves share ``samples * FULL_MOVES`` playouts, which is what
bounds the worst case."""

FEWEST: Final = 16
"""Samples a decision gets however many moves it has."""

SOLVE_CARDS: Final = 8
"""An ending with the stock empty and at most this many cards in hand is solved exactly
(the open last deal, or a guessed deal) instead of played out: small enough to cost
about what the playouts would."""



def samples_for(samples: int, moves: int) -> int:
    """The guesses a decision among ``moves`` legal moves gets out of ``samples``: all of them
    up to ``FULL_MOVES`` moves, a share of ``samples * FULL_MOVES`` playouts beyond, and never
    fewer than ``FEWEST``."""
    return min(samples, max(FEWEST, samples * FULL_MOVES // moves))


@dataclass(frozen=True)
class Decision:
    """What a determinized search over one view starts from, shared by the master and the
    learned level, which differ only in how a sampled deal is scored.

    ``exact`` is set when the deal is open and small enough to solve outright: the moves
    with their exact values, best first, and nothing is left to search."""

    moves: list[Move]
    knowledge: Knowledge
    utility: Utility
    rng: random.Random
    solver: Solver
    exact: list[tuple[Move, float]] | None

    @classmethod
    def of(cls, view: View, seed: int) -> Decision:
        moves = check_turn(view)
        knowledge = Knowledge(view)
        utility = outlook(view.rules).utility(knowledge.side, knowledge.scores)
        rng = random.Random(decision_seed(seed, knowledge, view))
        solver = Solver(view.rules, knowledge.side, utility)
        exact = None
        if knowledge.open and sum(knowledge.hand_sizes) <= SOLVE_CARDS:
            solved = solver.move_values(knowledge.sample(rng), moves)
            exact = sorted(solved, key=lambda item: -item[1])
        return cls(moves, knowledge, utility, rng, solver, exact)

    @property
    def solving(self) -> bool:
        """Whether each sampled deal's ending is solved exactly rather than scored."""
        knowledge = self.knowledge
        return not knowledge.stock_size and sum(knowledge.hand_sizes) <= SOLVE_CARDS

    def foresight(self, model: RoundModel) -> list[float]:
        """Each move's foresight score, weighted to add to a sampled value (the utility
        per round point ``FORESIGHT_WEIGHT``)."""
        knowledge = self.knowledge
        rules = model.rules
        following = (knowledge.seat + 1) % rules.players
        reply = knowledge.hand_sizes[following] or (rules.hand_size if knowledge.stock_size else 0)
        scores = model.foresight_scores(
            self.moves,
            knowledge.hand,
            knowledge.table,
            # The next player holds none of the cards its trails ruled out.
            knowledge.unseen & ~knowledge.forbidden[following],
            reply,
        )
        return [FORESIGHT_WEIGHT * score for score in scores]


def decision_seed(seed: int, knowledge: Knowledge, view: View) -> str:
    """A seed for a decision from the player's seed and public facts only, so the same
    view always gets the same move, whatever was asked before."""
    facts = (
        view.round_number,
        len(view.plays),
        knowledge.hand,
        knowledge.table,
        *knowledge.piles,
        *knowledge.scores,
    )
    return f"{seed}:" + ",".join(str(fact) for fact in facts)
