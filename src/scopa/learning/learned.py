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

The leaf reads the evaluation's feature set: the seat's knowledge (the shipped
weights), or with a ``"determinized"`` evaluation also the other hands *of the guess*,
so that it can tell a guess where the opponent holds the card that sweeps from one
where it does not (the real hands are never read: a guess is dealt from the view). With
``reply="minimax"`` the move is not followed by the playout policy's reply but by each
legal reply of the next seat, and the guess keeps the one worst for us by the
evaluation (a 2-ply minimax inside each guess, every leaf of the decision scored in one
batch).

With ``mix`` (lambda) above 0 the leaf is AlphaGo's mix rather than the net alone: the
round is also played out from the leaf's position by the master's playout policy, and
the guess's value of the move is ``(1 - mix) * net + mix * playout`` (both as
match-win utilities). The two err differently: the net is steady but reads only what
the seat knows, the playout reads the guessed hands but is noisy. Playouts cost tens
of microseconds each, so a mixing search takes :data:`MIX_SAMPLES` guesses and, like
the master, shares them out when a hand has many moves. ``mix=0`` (the default) is the
net alone, exactly as before; the mix goes with the playout policy's reply only.

The evaluation's target decides how a leaf is read (``meta["target"]``): a ``"points"``
model (the shipped weights) predicts round points, turned into the match-win chance as
above; a ``"search"`` model (:mod:`scopa.learning.distil`: the master's search values
distilled) predicts that chance itself from the record and the match standing, and its
value for the leaf's mover is ours, or one less it when the mover is on the other side
(exact for two sides: the chances add to one and the tie-break changes sign).

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
from collections.abc import Callable, Sequence
from typing import Final

from ..cards import ALL_CARDS_MASK, value_of
from ..moves import Move
from ..players.base import check_turn
from ..players.decision import Decision, samples_for
from ..players.outlook import Utility
from ..players.simulation import RoundModel, round_model
from ..round import Round
from ..rules import Rules
from ..view import View
from .evaluation import Evaluation, evaluation_for
from .features import Record, check_features, recorder
from .weighting import PlayLikelihood

DEFAULT_SAMPLES: Final = 128
"""Guesses at the hidden cards per decision."""

MIX_SAMPLES: Final = 64
"""Guesses per decision when the leaf mixes in a playout (``mix`` above 0): the master's
count, so that a decision costs about what the master's does."""

DEFAULT_PLIES: Final = 1
"""Moves of the playout policy between the move weighed and the learned leaf."""

DEFAULT_TIME_BUDGET: Final = 0.5
"""Seconds after which a decision stops sampling and answers with what it has."""

REPLIES: Final = ("policy", "minimax")
"""How the reply before a leaf is chosen: by the playout policy (``plies`` of them), or
the one among the next seat's legal moves the evaluation finds worst for the mover."""


def check_reply(reply: str, plies: int) -> None:
    """A ``ValueError`` for an unknown ``reply`` or ``plies`` that do not go with it."""
    if reply not in REPLIES:
        raise ValueError(f"unknown reply {reply!r}; the replies are {list(REPLIES)}")
    if plies < 0:
        raise ValueError(f"plies must be 0 or more; got {plies}")
    if reply == "minimax" and plies != 1:
        raise ValueError(f"the minimax reply is one ply: plies must be 1; got {plies}")


class LearnedPlayer:
    """Determinized search with the learned evaluation at its leaves; see the module notes."""

    name = "learned"

    def __init__(
        self,
        seed: int | None = None,
        time_budget: float | None = DEFAULT_TIME_BUDGET,
        samples: int | None = None,
        plies: int = DEFAULT_PLIES,
        evaluation: Evaluation | None = None,
        weighting: float = 0.0,
        features: str | None = None,
        reply: str = "policy",
        mix: float = 0.0,
    ) -> None:
        """``seed`` makes the moves reproducible; ``samples`` guesses per move; ``plies``
        policy moves before each leaf; ``evaluation`` (default: the package's weights
        for the game's rules and ``features``, loaded at the first move) scores the
        leaves; ``features`` (default: ``evaluation``'s set, else ``"seat"``) the leaf's
        feature set; ``reply`` ``"minimax"`` picks the reply before the leaf by the
        evaluation (module notes); ``weighting`` (0: off) weighs the guesses by the
        opponent's plays, with that sharpness per round point (:mod:`.weighting`); ``mix``
        (0 to 1, default 0: the net alone) the playout's share of each leaf's value, and
        then ``samples`` defaults to :data:`MIX_SAMPLES` (module notes)."""
        if not 0 <= mix <= 1:
            raise ValueError(f"mix must be a number from 0 to 1; got {mix}")
        if samples is None:
            samples = MIX_SAMPLES if mix else DEFAULT_SAMPLES
        if samples < 1:
            raise ValueError(f"samples must be 1 or more; got {samples}")
        check_reply(reply, plies)
        if mix and reply != "policy":
            raise ValueError(f"the mix goes with the policy's reply, not {reply!r}")
        if not 0 <= weighting < 100:
            raise ValueError(f"weighting must be from 0 to 100; got {weighting}")
        if features is not None:
            check_features(features)
        if evaluation is not None:
            if features not in (None, evaluation.features):
                raise ValueError(f"the evaluation reads the {evaluation.features!r} feature "
                                 f"set, not {features!r}")
            features = evaluation.features
            if weighting and evaluation.target != "points":
                raise ValueError("weighted guesses need an evaluation of round points; this "
                                 f"one predicts the {evaluation.target!r} target")
        features = features or "seat"
        if weighting and features != "seat":
            raise ValueError("weighted guesses need an evaluation of the 'seat' feature set; "
                             f"this one reads {features!r}")
        if time_budget is not None and time_budget <= 0:
            raise ValueError(f"time_budget must be positive seconds or None; got {time_budget}")
        self.seed = random.randrange(1 << 62) if seed is None else seed
        self.samples = samples
        self.plies = plies
        self.time_budget = time_budget
        self.evaluation = evaluation
        self.weighting = weighting
        self.features = features
        self.reply = reply
        self.mix = mix

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
        evaluation = self.evaluation or evaluation_for(rules, self.features)
        evaluation.check_players(rules.players)
        record = recorder(evaluation.features)
        minimax = self.reply == "minimax"
        moves, knowledge, utility, rng, solver = (
            decision.moves, decision.knowledge, decision.utility, decision.rng, decision.solver
        )
        side = knowledge.side
        model = round_model(rules)
        prior = decision.foresight(model)
        totals = [0.0] * len(moves)
        counts = [0.0] * len(moves)
        # Leaves to score with the model, and whether their mover is our side; by guess
        # and move, its weight, the utilities of its lines that ended the round and the
        # slice of ``leaves`` that are its other lines (one without minimax; with it, one
        # a reply): the guess's value of the move is the worst of them. With the mix,
        # ``rollouts`` holds each group's playout utility from its leaf.
        leaves: list[Record] = []
        ours: list[bool] = []
        groups: list[tuple[int, float, list[float], int, int]] = []
        mix = self.mix
        rollouts: list[float] = []
        samples = self.samples
        if mix:
            # As the master does: many moves share the playouts of a few.
            samples = samples_for(samples, len(moves))
        samples = 1 if knowledge.open else samples
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
                    if minimax and not line.over:
                        first = len(leaves)
                        ended = every_reply(line, record, utility, side, leaves, ours)
                        groups.append((index, weight, ended, first, len(leaves)))
                        continue
                    play_policy(model, line, self.plies)
                    if line.over:
                        totals[index] += weight * utility(line.points())
                        counts[index] += weight
                    else:
                        groups.append((index, weight, [], len(leaves), len(leaves) + 1))
                        leaves.append(record(line))
                        ours.append(line.to_move % sides == side)
                        if mix:
                            model.play_out(line)
                            rollouts.append(utility(line.points()))
            if self.time_budget is not None and time.perf_counter() - start > self.time_budget:
                break
        if groups:
            scored = _leaf_values(evaluation, leaves, ours, knowledge.scores, rules, utility,
                                  side)
            for number, (index, weight, ended, first, last) in enumerate(groups):
                value = min(ended + scored[first:last])
                if mix:
                    value = (1 - mix) * value + mix * rollouts[number]
                totals[index] += weight * value
                counts[index] += weight
        values = [
            total / count + score
            for total, count, score in zip(totals, counts, prior, strict=True)
        ]
        ranked = sorted(range(len(moves)), key=lambda index: -values[index])
        return [(moves[index], values[index]) for index in ranked]


def _leaf_values(evaluation: Evaluation, leaves: list[Record], ours: list[bool],
                 scores: Sequence[int], rules: Rules, utility: Utility, side: int
                 ) -> list[float]:
    """Each leaf's utility for ``side`` (``ours``: whether its mover is on ``side``), from
    the evaluation's round points or, for a ``"search"`` model, its value (module notes)."""
    if not leaves:
        return []
    if evaluation.target == "search":
        return search_values(evaluation, leaves, ours, scores, rules, side)
    sides = rules.sides
    predicted = evaluation.points(leaves).tolist()
    return [
        _soft_utility(utility, side, sides, *((mover, others) if mine else (others, mover)))
        for mine, (mover, others) in zip(ours, predicted, strict=True)
    ]


def search_values(evaluation: Evaluation, leaves: list[Record], ours: list[bool],
                  scores: Sequence[int], rules: Rules, side: int) -> list[float]:
    """Each leaf's utility for ``side`` from a ``"search"`` model, which predicts it for the
    leaf's mover from the standing seen from the mover's side: ours, or one less it when
    the mover is the other side (two sides only)."""
    mine, theirs = scores[side], scores[1 - side]
    standing = [(mine, theirs) if own else (theirs, mine) for own in ours]
    values = evaluation.utilities(leaves, standing, rules).tolist()
    return [value if own else 1.0 - value for own, value in zip(ours, values, strict=True)]


def every_reply(
    line: Round,
    record: Callable[[Round], Record],
    value: Callable[[Sequence[int]], float],
    side: int,
    leaves: list[Record],
    ours: list[bool],
) -> list[float]:
    """Every legal reply of the seat to move in ``line``, for a minimax over replies: the
    ``value`` of the round's points after each reply that ends the round is returned; each
    other reply's position goes to ``leaves`` (with whether ``side`` moves there, in
    ``ours``) for the evaluation to score with all of a decision's leaves in one batch."""
    sides = line.rules.sides
    ended: list[float] = []
    for answer in line.legal():
        after = line.copy()
        after.apply(answer)
        if after.over:
            ended.append(value(after.points()))
        else:
            leaves.append(record(after))
            ours.append(after.to_move % sides == side)
    return ended


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
