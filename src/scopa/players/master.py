"""The ``master`` level: search over guesses at the hidden cards.

Each decision deals the unseen cards out at random many times, always agreeing
with what the seat has seen (:mod:`.sampling`), and scores every legal move on
each of those deals (determinized search, "perfect-information Monte Carlo").
A move is scored by playing the round out (:mod:`.simulation`: the next two moves
with the expert-like foresight, the rest with a quicker policy) or, once few cards
are left, by solving the ending exactly (:mod:`.solver`); the score is the
match-win chance the round's points leave (:mod:`.outlook`). Every move sees the
same deals, so moves are compared on equal luck; moves clearly behind drop out
after each quarter of the deals, and the move with the best mean wins.

Playouts alone play about as well as the expert heuristic, and so does the
heuristic alone; their mix is what beats it (see :data:`.decision.FORESIGHT_WEIGHT`).

In two-player games the last deal hides nothing (the opponent holds the unseen
cards) and the master plays it perfectly with the solver alone.

The work per move is fixed by ``samples``, not by the clock, so a seeded master
makes the same moves on every machine, unless the wall-clock cap ``time_budget``
(half a second by default) cuts a search short: that happens only on a loaded
machine or in a rare crowded position (the mean move takes about 10 ms), and it
keeps a person's wait bounded. ``time_budget=None`` gives fixed work, for
experiments that must repeat exactly.
"""

from __future__ import annotations

import math
import random
import time
from statistics import fmean, stdev
from typing import Final

from ..moves import Move
from ..view import View
from .base import check_turn
from .decision import Decision, samples_for
from .simulation import round_model

DEFAULT_SAMPLES: Final = 64
"""Guesses at the hidden cards per decision."""

DEFAULT_TIME_BUDGET: Final = 0.5
"""Seconds after which a decision stops sampling and answers with what it has."""

_PHASES: Final = 4
"""The samples come in this many rounds; after each but the last, clear losers drop out."""

_CONFIDENCE: Final = 2.5
"""Standard errors below the leader at which a move drops out of the search."""

class MasterPlayer:
    """Determinized search with an exact endgame solver; see the module notes."""

    name = "master"

    def __init__(
        self,
        seed: int | None = None,
        time_budget: float | None = DEFAULT_TIME_BUDGET,
        samples: int = DEFAULT_SAMPLES,
    ) -> None:
        """``seed`` makes the moves reproducible; ``samples`` is the number of guesses at
        the hidden cards per move (fewer when there are more than six moves to weigh);
        ``time_budget`` (seconds; ``None``: no cap) stops sampling early."""
        if samples < 1:
            raise ValueError(f"samples must be 1 or more; got {samples}")
        if time_budget is not None and time_budget <= 0:
            raise ValueError(f"time_budget must be positive seconds or None; got {time_budget}")
        self.seed = random.randrange(1 << 62) if seed is None else seed
        self.samples = samples
        self.time_budget = time_budget

    def choose(self, view: View) -> Move:
        moves = check_turn(view)
        if len(moves) == 1:
            return moves[0]
        return self.evaluate(view)[0][0]

    def evaluate(self, view: View) -> list[tuple[Move, float]]:
        """Every legal move with its expected utility (about the match-win chance), best
        first. Moves dropped early in the search come after those kept to the end."""
        start = time.perf_counter()
        decision = Decision.of(view, self.seed)
        if decision.exact is not None:
            return decision.exact
        moves, knowledge, utility, rng, solver = (
            decision.moves, decision.knowledge, decision.utility, decision.rng, decision.solver
        )
        model = round_model(view.rules)
        prior = dict(zip(moves, decision.foresight(model), strict=True))
        values: dict[Move, list[float]] = {move: [] for move in moves}
        alive = moves
        dropped: list[Move] = []
        # With nothing hidden (an open deal too big to solve) every guess is the truth.
        samples = 1 if knowledge.open else samples_for(self.samples, len(moves))
        solving = decision.solving
        checkpoints = {samples * k // _PHASES for k in range(1, _PHASES)}
        for done in range(1, samples + 1):
            deal = knowledge.sample(rng)
            if solving:
                for move, value in solver.move_values(deal, alive):
                    values[move].append(value + prior[move])
            else:
                for move in alive:
                    line = deal.copy()
                    line.apply(move)
                    model.play_out(line)
                    value = utility(line.points())
                    values[move].append(value + prior[move])
            if self.time_budget is not None and time.perf_counter() - start > self.time_budget:
                break
            if done in checkpoints and len(alive) > 1:
                kept = _survivors(alive, values)
                dropped = [move for move in alive if move not in kept] + dropped
                alive = kept
        ranked = sorted(alive, key=lambda move: -fmean(values[move]))
        return [(move, fmean(values[move])) for move in ranked + dropped]


def _survivors(moves: list[Move], values: dict[Move, list[float]]) -> list[Move]:
    """The moves still worth sampling: all but those clearly worse than the leader.

    Moves are compared on the same deals, so the test is on the paired differences
    with the leader: dropped when their mean is more than ``_CONFIDENCE`` standard
    errors below zero. The order of ``moves`` is kept.
    """
    leader = max(moves, key=lambda move: fmean(values[move]))
    best = values[leader]
    kept = []
    for move in moves:
        differences = [mine - theirs for mine, theirs in zip(values[move], best, strict=True)]
        mean = fmean(differences)
        spread = stdev(differences) / math.sqrt(len(differences)) if len(differences) > 1 else 0
        if move is leader or mean + _CONFIDENCE * spread >= 0:
            kept.append(move)
    return kept
