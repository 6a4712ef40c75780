"""The master's search values as training targets (expert iteration, one step).

Generation 0 learns what the *playout policy's* play went on to score, so its leaf can be
no wiser than those playouts. Here the target is the master's own search instead: the
master plays whole matches against itself (with a share of random moves, as in
:mod:`.selfplay`), and every decision is labelled with the value its search gives the
move it ranks first (:meth:`~scopa.players.master.MasterPlayer.evaluate`, from the
mover's side: about the match-win chance, exact when its solver runs at the end of a
round). A net fitted to those labels imitates the search; the learned level then
searches with the net at its leaves, as AlphaZero and ExIt do.

The master adds the expert's foresight to every move's value (a prior of 0.2 utility per
round point of its two-turn look, :data:`~scopa.players.decision.FORESIGHT_WEIGHT`), which
is a bias that ranks moves, not part of a position's win chance; the learned level adds
it again at its root. So each position keeps both the search's value of its best move
and that move's prior, and the net learns their difference: the search's utility of the
position. Endings solved exactly get no prior.

Matches are played through :class:`~scopa.env.engine.Match` (the same matches as
:class:`~scopa.game.Game` from a seed), whose views are the seat's; the record of each
position is :func:`~scopa.learning.features.record` of the round, the seat's knowledge
only, and the match standing from the mover's side goes beside it.

The master searches with no clock (``time_budget=None``), so labels repeat exactly from
the run's seed; work is split into chunks of :data:`CHUNK_MATCHES` matches, each seeded
from the run's seed, so one process or several give the same data.
"""

from __future__ import annotations

import random
import time
from typing import Final

import numpy as np

from ..env.engine import Match
from ..players.decision import Decision
from ..players.master import DEFAULT_SAMPLES, MasterPlayer
from ..players.simulation import round_model
from ..rules import Rules
from .features import record, record_length
from .selfplay import DEFAULT_EPSILON, Generated, Positions, chunks, run_chunks

SEARCH_TARGETS: Final = ("search_value", "search_prior", "match_won")
"""The columns of a labelled position's ``targets``, from the mover's side: the master's
value of its best move (as :meth:`~scopa.players.master.MasterPlayer.evaluate` gives it),
that move's foresight prior inside the value, and the match result (1 won, 0 lost)."""

CHUNK_MATCHES: Final = 5
"""Matches per unit of work: a match of labels costs about a CPU second."""


def label_matches(rules: Rules, matches: int, seed: int, epsilon: float = DEFAULT_EPSILON,
                  samples: int = DEFAULT_SAMPLES) -> Positions:
    """``matches`` whole matches of the master's self-play from ``seed`` (a share
    ``epsilon`` of the moves at random), every decision labelled with the master's search
    value (see the module notes)."""
    if not 0 <= epsilon <= 1:
        raise ValueError(f"epsilon must be between 0 and 1; got {epsilon}")
    rng = random.Random(seed)
    master = MasterPlayer(rng.randrange(1 << 62), time_budget=None, samples=samples)
    model = round_model(rules)
    sides = rules.sides
    records: list[tuple[int, ...]] = []
    standing: list[tuple[int, int]] = []
    targets: list[list[float]] = []
    movers: list[int] = []
    for _ in range(matches):
        match = Match(rules, rng.randrange(1 << 62))
        first = len(records)
        while not match.is_over:
            state = match.state
            seat = state.to_move
            side = seat % sides
            view = match.view(seat)
            decision = Decision.of(view, master.seed)
            if decision.exact is not None:
                best, value = decision.exact[0]
                prior = 0.0
            else:
                best, value = master.evaluate(view)[0]
                prior = decision.foresight(model)[decision.moves.index(best)]
            records.append(record(state))
            scores = match.scores
            standing.append((scores[side], max(s for k, s in enumerate(scores) if k != side)))
            targets.append([value, prior, 0.0])
            movers.append(side)
            moves = match.legal_moves()
            if rng.random() < epsilon:
                best = moves[int(rng.random() * len(moves))]
            match.play(best)
        for k in range(first, len(records)):
            targets[k][-1] = 1.0 if movers[k] == match.winner else 0.0
    return Positions(
        np.array(records, dtype=np.int64).reshape(-1, record_length("seat", rules.players)),
        np.array(standing, dtype=np.int16).reshape(-1, 2),
        np.array(targets, dtype=np.float32).reshape(-1, len(SEARCH_TARGETS)),
    )


def _chunk(args: tuple[Rules, int, int, float, int]) -> tuple[Positions, float]:
    rules, matches, seed, epsilon, samples = args
    start = time.process_time()
    positions = label_matches(rules, matches, seed, epsilon, samples)
    return positions, time.process_time() - start


def label(rules: Rules, matches: int, seed: int, jobs: int = 1,
          epsilon: float = DEFAULT_EPSILON, samples: int = DEFAULT_SAMPLES) -> Generated:
    """``matches`` matches of labelled master self-play in chunks of
    :data:`CHUNK_MATCHES` (the last may be short), chunk ``k`` seeded
    ``seed * 1_000_003 + k``, on ``jobs`` processes."""
    if rules.sides != 2:
        raise ValueError(f"the search target needs two sides; these rules have {rules.sides}")
    work = [
        (rules, count, chunk_seed, epsilon, samples)
        for count, chunk_seed in chunks(matches, seed, jobs, CHUNK_MATCHES)
    ]
    return run_chunks(_chunk, work, jobs)
