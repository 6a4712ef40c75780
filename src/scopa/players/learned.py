"""The ``learned`` level (not yet among the levels): determinized search with learned leaves.

It searches like ``master`` (:mod:`.master`): each decision deals the unseen cards
out at random many times, agreeing with everything the seat has seen
(:mod:`.sampling`), and scores every legal move on each deal, every move on the same
deals; the expert's two-turn foresight is added to every value, and endings with
few cards are solved exactly (:mod:`.solver`). What changes is the leaf: instead of
playing the round out with the playout policy, the position the move leaves is
scored by the learned evaluation (:mod:`.evaluation`), from what the seat to move
there would know (:mod:`.features`), after ``plies`` more moves of the playout
policy (0: straight after the move). The expected round points it predicts are
turned into the match-win chance by :mod:`.outlook`, as the master's playout points
are. A leaf costs a few microseconds instead of a playout's tens, so a decision can
afford more deals at the same time budget.

With ``weighting`` above 0 the guesses are not equal: each counts as much as it makes
the plays the opponent before us was seen to make likely, under the evaluation's
model of its play (:mod:`.weighting`; ``weighting`` is that model's sharpness).

Whether this plays better than ``master`` is what ``benchmarks/learned.py`` and
``scopa tournament`` measure (``docs/learned.md``); until it wins on paired seeds
it is not in :data:`scopa.players.LEVELS`.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Final

from ..cards import ALL_CARDS_MASK, value_of
from ..moves import Move
from ..round import Round
from ..view import View
from .base import check_turn
from .evaluation import Evaluation, evaluation_for
from .features import Record, record
from .master import Decision
from .outlook import Utility
from .simulation import RoundModel, round_model
from .weighting import PlayLikelihood

DEFAULT_SAMPLES: Final = 128
"""Guesses at the hidden cards per decision."""

DEFAULT_PLIES: Final = 1
"""Moves of the playout policy between the move weighed and the learned leaf."""

DEFAULT_TIME_BUDGET: Final = 0.5
"""Seconds after which a decision stops sampling and answers with what it has."""



class LearnedPlayer:
    """Determinized search with the learned evaluation at its leaves; see the module notes."""

    name = "learned"

    def __init__(
        self,
        seed: int | None = None,
        time_budget: float | None = DEFAULT_TIME_BUDGET,
        samples: int = DEFAULT_SAMPLES,
        plies: int = DEFAULT_PLIES,
        evaluation: Evaluation | None = None,
        weighting: float = 0.0,
    ) -> None:
        """``seed`` makes the moves reproducible; ``samples`` guesses per move; ``plies``
        policy moves before each leaf; ``evaluation`` (default: the package's weights
        for the game's rules, loaded at the first move) scores the leaves; ``weighting``
        (0: off) weighs the guesses by the opponent's plays, with that sharpness per
        round point (:mod:`.weighting`)."""
        if samples < 1:
            raise ValueError(f"samples must be 1 or more; got {samples}")
        if plies < 0:
            raise ValueError(f"plies must be 0 or more; got {plies}")
        if not 0 <= weighting < 100:
            raise ValueError(f"weighting must be from 0 to 100; got {weighting}")
        if time_budget is not None and time_budget <= 0:
            raise ValueError(f"time_budget must be positive seconds or None; got {time_budget}")
        self.seed = random.randrange(1 << 62) if seed is None else seed
        self.samples = samples
        self.plies = plies
        self.time_budget = time_budget
        self.evaluation = evaluation
        self.weighting = weighting

    def choose(self, view: View) -> Move:
        moves = check_turn(view)
        if len(moves) == 1:
            return moves[0]
        return self.evaluate(view)[0][0]

    def evaluate(self, view: View) -> list[tuple[Move, float]]:
        """Every legal move with its expected utility (about the match-win chance), best first."""
        start = time.perf_counter()
        rules = view.rules
        decision = Decision.of(view, self.seed)
        if decision.exact is not None:
            return decision.exact
        evaluation = self.evaluation or evaluation_for(rules)
        moves, knowledge, utility, rng, solver = (
            decision.moves, decision.knowledge, decision.utility, decision.rng, decision.solver
        )
        side = knowledge.side
        model = round_model(rules)
        prior = decision.foresight(model)
        totals = [0.0] * len(moves)
        counts = [0.0] * len(moves)
        # Leaves to score with the model: (move index, record, whether its mover is our
        # side, the guess's weight).
        leaves: list[tuple[int, Record, bool, float]] = []
        samples = 1 if knowledge.open else self.samples
        likelihood = (
            PlayLikelihood.of(view, knowledge, evaluation, self.weighting)
            if self.weighting and samples > 1 else None
        )
        solving = decision.solving
        sides = rules.sides
        for _ in range(samples):
            deal = knowledge.sample(rng)
            weight = 1.0 if likelihood is None else likelihood.weight(deal)
            if solving:
                for index, (_move, value) in enumerate(solver.move_values(deal, moves)):
                    totals[index] += weight * value
                    counts[index] += weight
            else:
                for index, move in enumerate(moves):
                    line = deal.copy()
                    line.apply(move)
                    play_policy(model, line, self.plies)
                    if line.over:
                        totals[index] += weight * utility(line.points())
                        counts[index] += weight
                    else:
                        leaves.append(
                            (index, record(line), line.to_move % sides == side, weight)
                        )
            if self.time_budget is not None and time.perf_counter() - start > self.time_budget:
                break
        if leaves:
            predicted = evaluation.points([leaf[1] for leaf in leaves]).tolist()
            for (index, _, ours, weight), (mover, others) in zip(leaves, predicted, strict=True):
                mine, theirs = (mover, others) if ours else (others, mover)
                totals[index] += weight * _soft_utility(utility, side, sides, mine, theirs)
                counts[index] += weight
        values = [
            total / count + score
            for total, count, score in zip(totals, counts, prior, strict=True)
        ]
        ranked = sorted(range(len(moves)), key=lambda index: -values[index])
        return [(moves[index], values[index]) for index in ranked]


def play_policy(model: RoundModel, state: Round, plies: int) -> None:
    """Up to ``plies`` moves of the quick playout policy (fewer if the round ends)."""
    players = state.players
    size = state.rules.hand_size
    for _ in range(plies):
        if state.over:
            return
        seat = state.to_move
        hand = state.hands[seat]
        table = state.table
        moves = model.legal(hand, table)
        if len(moves) > 1:
            seen = hand | table
            for pile in state.piles:
                seen |= pile
            following = state.hands[(seat + 1) % players]
            reply = following.bit_count() if following else min(state.stock_left, size)
            move = model.choose(moves, table, value_of(table), ALL_CARDS_MASK & ~seen, reply)
        else:
            move = moves[0]
        state.apply(move)


def _soft_utility(utility: Utility, side: int, sides: int, mine: float, theirs: float) -> float:
    """``utility`` of expected (fractional) round points: for two sides, interpolated
    between the whole points around them; with more, at the nearest whole points."""
    mine, theirs = max(mine, 0.0), max(theirs, 0.0)
    if sides != 2:
        points = [round(theirs)] * sides
        points[side] = round(mine)
        return utility(points)
    low_mine, low_theirs = math.floor(mine), math.floor(theirs)
    a, b = mine - low_mine, theirs - low_theirs

    def at(x: int, y: int) -> float:
        points: Sequence[int] = (x, y) if side == 0 else (y, x)
        return utility(points)

    return (
        (1 - a) * (1 - b) * at(low_mine, low_theirs)
        + a * (1 - b) * at(low_mine + 1, low_theirs)
        + (1 - a) * b * at(low_mine, low_theirs + 1)
        + a * b * at(low_mine + 1, low_theirs + 1)
    )
