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
heuristic alone; their mix is what beats it (see ``_FORESIGHT_WEIGHT``).

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
from dataclasses import dataclass
from statistics import fmean, stdev
from typing import Final

from ..moves import Move
from ..view import View
from .base import check_turn
from .outlook import Utility, outlook
from .sampling import Knowledge
from .simulation import RoundModel, round_model
from .solver import Solver

DEFAULT_SAMPLES: Final = 64
"""Guesses at the hidden cards per decision."""

DEFAULT_TIME_BUDGET: Final = 0.5
"""Seconds after which a decision stops sampling and answers with what it has."""

_FORESIGHT_WEIGHT: Final = 0.2
"""Utility per round point of the foresight's score, added to every sampled value.

The foresight (what a move takes, what the next player can expect to take back, what
this seat can take after: the expert's two-turn look) is steady where playouts are
noisy, and the playouts see the whole round where the foresight sees two turns. Each
corrects the other: tournaments put the mix well above either alone. At 0.2 a point
of foresight outweighs a point of playout early in a match, where a point moves the
match-win chance by about 0.06; near the target, where the round decides the match,
the playouts' swings in that chance dominate."""

_FULL_MOVES: Final = 6
"""Up to this many legal moves a decision gets all its samples; with more (big hands,
escoba's many sums) the moves share ``samples * _FULL_MOVES`` playouts, which is what
bounds the worst case."""

_FEWEST: Final = 16
"""Samples a decision gets however many moves it has."""

_PHASES: Final = 4
"""The samples come in this many rounds; after each but the last, clear losers drop out."""

_CONFIDENCE: Final = 2.5
"""Standard errors below the leader at which a move drops out of the search."""

SOLVE_CARDS: Final = 8
"""An ending with the stock empty and at most this many cards in hand is solved exactly
(the open last deal, or a guessed deal) instead of played out: small enough to cost
about what the playouts would."""


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
        share = max(_FEWEST, self.samples * _FULL_MOVES // len(moves))
        samples = 1 if knowledge.open else min(self.samples, share)
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


@dataclass(frozen=True)
class Decision:
    """What a determinized search over one view starts from, shared by this level and the
    ``learned`` one (:mod:`.learned`), which differ only in how a sampled deal is scored.

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
        rng = random.Random(_decision_seed(seed, knowledge, view))
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
        per round point ``_FORESIGHT_WEIGHT``)."""
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
        return [_FORESIGHT_WEIGHT * score for score in scores]


def _decision_seed(seed: int, knowledge: Knowledge, view: View) -> str:
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
