"""Self-play data: positions of whole matches on the round state, with what followed.

Matches are played on :class:`~scopa.round.Round` directly (no ``Game``, no views), with
a share of uniformly random moves, so the data also holds the positions that weaker play
reaches. Generation 0 plays the levels' playout policy
(:class:`~scopa.players.simulation.RoundModel`'s quick policy, the master's playouts);
every later generation plays the evaluation the one before learned
(:class:`LearnedPolicy`: the learned level's search at its cheapest). Every decision
is written down as the :func:`~scopa.learning.features.record` of what the seat to move
knows (never the other hands) and the match standing from its side, and once known, its
targets from its side: the round's points in total and by category for its side and for
the other sides (their mean), and the match result (1 won, 0 lost).

With ``features="determinized"`` each position is written down as the
:func:`~scopa.learning.features.determinized_record` instead: the same record followed
by the other hands' cards. That is training data made on the round state, for a leaf
that sees a guess's hands inside a search; it never leaves the process (no view, no
message, no file a player could read) and the stock's order is never in it.

With ``open_play`` the playout policy plays generation 0 with the cards on the table:
each mover's sweep risk is read from the next hand itself rather than from every card
it has not seen, so the targets are the outcome of (cheap) perfect-information play,
the value a determinized leaf would take in the search of a perfect-information
program (the records are unchanged).

Work is split into chunks of matches, each with a seed of its own derived from the
run's seed, so a run gives the same data on any number of processes.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Final, TypeVar

import numpy as np
import numpy.typing as npt

from ..cards import ALL_CARDS_MASK, ids_of, value_of
from ..moves import Move
from ..players.outlook import outlook
from ..players.simulation import round_model
from ..round import Round, shuffled_deck
from ..rules import Rules
from ..scoring import RoundScore, match_winner
from .evaluation import Evaluation
from .features import Record, record_length, recorder
from .learned import check_reply, every_reply, play_policy, search_values

CATEGORIES: Final = ("cards", "coins", "settebello", "primiera", "sweeps", "re_bello", "napola",
                     "sevens")
"""The round's point categories, as in :class:`~scopa.scoring.RoundScore`."""

TARGETS: Final = (
    "own_points",
    "other_points",
    *(f"own_{name}" for name in CATEGORIES),
    *(f"other_{name}" for name in CATEGORIES),
    "match_won",
)
"""The columns of ``targets``, all from the side of the seat to move."""

CHUNK_MATCHES: Final = 50
"""Matches per unit of work (each with its own seed)."""

DEFAULT_EPSILON: Final = 0.1
"""The share of moves played at random."""

DEFAULT_GUESSES: Final = 8
"""Guesses at the hidden cards per decision of :class:`LearnedPolicy`."""

DEFAULT_PLIES: Final = 1
"""Moves of the playout policy between a move :class:`LearnedPolicy` weighs and its leaf.
Without that reply the learned policy loses to the playout policy (44% of 1,000 paired
matches at 8 guesses); with it, it wins 60% (``benchmarks/learned.py``)."""

_BITS: Final = tuple(1 << i for i in range(40))


@dataclass
class Positions:
    """A batch of positions: ``records`` (n, record length) int64, ``standing``
    (n, 2) int16 (the mover's side's match score, the best other side's), ``targets``
    (n, len(TARGETS)) float32."""

    records: npt.NDArray[np.int64]
    standing: npt.NDArray[np.int16]
    targets: npt.NDArray[np.float32]

    def __len__(self) -> int:
        return int(self.records.shape[0])

    def save(self, path: Path | str, meta: dict[str, object]) -> None:
        with open(path, "wb") as out:
            np.savez(out, records=self.records, standing=self.standing, targets=self.targets,
                     meta=np.array(json.dumps(meta, sort_keys=True)))

    @classmethod
    def load(cls, path: Path | str) -> Positions:
        with np.load(path, allow_pickle=False) as data:
            return cls(data["records"], data["standing"], data["targets"])

    def digest(self) -> str:
        """SHA-256 of the arrays' bytes: names the data a model was trained on."""
        sha = hashlib.sha256()
        for array in (self.records, self.standing, self.targets):
            sha.update(np.ascontiguousarray(array).tobytes())
        return sha.hexdigest()


def _category_points(score: RoundScore) -> list[int]:
    return [score.cards, score.coins, score.settebello, score.primiera, score.sweeps,
            score.re_bello, score.napola, score.sevens]


class LearnedPolicy:
    """A later generation's self-play moves: the learned level's search at its cheapest.

    Like :class:`~scopa.learning.learned.LearnedPlayer` it deals the cards the mover has
    not seen out at random (``guesses`` times), plays each legal move on each guess, then
    ``plies`` replies of the playout policy, and scores the position left with the
    learned evaluation, from what the seat to move there would know; the move with the
    best mean wins. What it leaves out to make millions of positions affordable: no
    foresight prior, no solver, no inference from trails, and the value is the expected
    round point difference rather than the match-win chance. It reads the
    round state but only what the mover may know: its hand, the table, the piles, the
    sweeps and the sizes of the other hands and the stock.

    A determinized evaluation reads the guess's hands at the leaf (the guess's, never the
    real ones). With ``reply="minimax"`` the move is followed by every legal reply of the
    next seat instead of the playout policy's, and the guess keeps the worst for the
    mover (``plies`` must then be 1).

    A ``"search"`` evaluation (the master's search values distilled, two sides only)
    predicts the mover's utility (about the match-win chance) from the record and the
    match standing, so :meth:`choose` then needs the match ``scores`` and the best mean
    utility wins; a round that ends inside a guess is valued by the outlook as the master
    values it.
    """

    def __init__(self, rules: Rules, evaluation: Evaluation, guesses: int = DEFAULT_GUESSES,
                 plies: int = DEFAULT_PLIES, reply: str = "policy") -> None:
        if guesses < 1:
            raise ValueError(f"guesses must be 1 or more; got {guesses}")
        check_reply(reply, plies)
        evaluation.check_players(rules.players)
        self.rules = rules
        self.evaluation = evaluation
        self.guesses = guesses
        self.plies = plies
        self.reply = reply
        self.model = round_model(rules)
        self.record = recorder(evaluation.features)

    def choose(self, state: Round, moves: Sequence[Move], rng: random.Random,
               scores: Sequence[int] | None = None) -> Move:
        """The best of ``moves`` (the legal moves of ``state``'s seat to move); ``scores``
        (the match points by side) are needed by a search-target evaluation."""
        rules = self.rules
        seat = state.to_move
        sides = rules.sides
        side = seat % sides
        search = self.evaluation.target == "search"
        if search and scores is None:
            raise ValueError("a search-target evaluation needs the match standing (scores)")
        hand = state.hands[seat]
        seen = hand | state.table
        for pile in state.piles:
            seen |= pile
        unseen = [_BITS[i] for i in ids_of(ALL_CARDS_MASK & ~seen)]
        sizes = [held.bit_count() for held in state.hands]
        # With the stock empty and one other hand, the unseen cards are that hand: one guess.
        holders = sum(1 for other, size in enumerate(sizes) if size and other != seat)
        guesses = 1 if not state.stock_left and holders <= 1 else self.guesses
        totals = [0.0] * len(moves)
        leaves: list[Record] = []
        ours: list[bool] = []  # by leaf: whether the mover's side is ours
        indices: list[int] = []  # by leaf, without minimax: its move
        record = self.record
        minimax = self.reply == "minimax"

        def points_difference(points: Sequence[int]) -> float:
            return _difference(points, side, sides)

        # The value of a round ended inside a guess, in the evaluation's units.
        difference: Callable[[Sequence[int]], float] = (
            outlook(rules).utility(side, scores) if scores is not None and search
            else points_difference
        )

        # With minimax: by (guess, move), the values of its replies ending the round, and
        # the slice of ``leaves`` holding those the evaluation scores.
        groups: list[tuple[int, list[float], int, int]] = []
        for _ in range(guesses):
            rng.shuffle(unseen)
            hands = [0] * len(sizes)
            hands[seat] = hand
            first = 0
            for other, size in enumerate(sizes):
                if other != seat:
                    hands[other] = sum(unseen[first : first + size])
                    first += size
            guess = Round.position(rules, hands, state.table, state.piles, state.sweeps,
                                   unseen[first:], seat, state.last)
            for index, move in enumerate(moves):
                line = guess.copy()
                line.apply(move)
                if minimax and not line.over:
                    first = len(leaves)
                    ended = every_reply(line, record, difference, side, leaves, ours)
                    groups.append((index, ended, first, len(leaves)))
                    continue
                play_policy(self.model, line, self.plies)
                if line.over:
                    totals[index] += difference(line.points())
                else:
                    leaves.append(record(line))
                    ours.append(line.to_move % sides == side)
                    indices.append(index)
        values: list[float] = []
        if leaves and search:
            assert scores is not None
            values = search_values(self.evaluation, leaves, ours, scores, rules, side)
        elif leaves:
            predicted = self.evaluation.points(leaves)
            values = [mover - others if mine else others - mover
                      for mine, (mover, others) in zip(ours, predicted.tolist(), strict=True)]
        if minimax:
            for index, ended, first, last in groups:
                totals[index] += min(ended + values[first:last])
        else:
            for index, value in zip(indices, values, strict=True):
                totals[index] += value
        best = max(range(len(moves)), key=totals.__getitem__)
        return moves[best]


def _difference(points: Sequence[int], side: int, sides: int) -> float:
    """Round points of ``side`` less the other sides' mean."""
    return points[side] - (sum(points) - points[side]) / (sides - 1)


def play_matches(rules: Rules, matches: int, seed: int, epsilon: float = DEFAULT_EPSILON,
                 policy: LearnedPolicy | None = None, features: str = "seat",
                 open_play: bool = False) -> Positions:
    """``matches`` whole matches of self-play from ``seed``, every decision recorded in
    the feature set ``features``: by the playout policy (seeing the next hand with
    ``open_play``), or by ``policy`` (a later generation's)."""
    if not 0 <= epsilon <= 1:
        raise ValueError(f"epsilon must be between 0 and 1; got {epsilon}")
    record = recorder(features)
    rng = random.Random(seed)
    model = round_model(rules)
    choose = model.choose
    sides = rules.sides
    players = rules.players
    size = rules.hand_size
    records: list[tuple[int, ...]] = []
    standing: list[tuple[int, int]] = []
    targets: list[list[float]] = []
    movers: list[int] = []

    def next_deck() -> list[int]:
        return shuffled_deck(rng)

    for _ in range(matches):
        scores = [0] * sides
        match_start = len(records)
        number = 0
        while True:
            state = Round.deal(rules, number % players, next_deck)
            round_start = len(records)
            while not state.over:
                seat = state.to_move
                side = seat % sides
                records.append(record(state))
                movers.append(side)
                standing.append((scores[side], max(s for k, s in enumerate(scores) if k != side)))
                moves = state.legal()
                if len(moves) == 1:
                    move = moves[0]
                elif rng.random() < epsilon:
                    move = moves[int(rng.random() * len(moves))]
                elif policy is not None:
                    move = policy.choose(state, moves, rng, scores)
                else:
                    hand = state.hands[seat]
                    table = state.table
                    seen = hand | table
                    for pile in state.piles:
                        seen |= pile
                    following = state.hands[(seat + 1) % players]
                    reply = following.bit_count() if following else min(state.stock_left, size)
                    threats = following if open_play and following else ALL_CARDS_MASK & ~seen
                    move = choose(moves, table, value_of(table), threats, reply)
                state.apply(move)
            round_scores = state.scores()
            by_side = [[float(score.total), *map(float, _category_points(score))]
                       for score in round_scores]
            for side in range(sides):
                scores[side] += round_scores[side].total
            for k in range(round_start, len(records)):
                side = movers[k]
                own = by_side[side]
                others = [by_side[s] for s in range(sides) if s != side]
                mean = [sum(column) / len(others) for column in zip(*others, strict=True)]
                targets.append([own[0], mean[0], *own[1:], *mean[1:], 0.0])
            number += 1
            winner = match_winner(rules, scores)
            if winner is not None:
                for k in range(match_start, len(records)):
                    targets[k][-1] = 1.0 if movers[k] == winner else 0.0
                break
    return Positions(
        np.array(records, dtype=np.int64).reshape(-1, record_length(features, players)),
        np.array(standing, dtype=np.int16).reshape(-1, 2),
        np.array(targets, dtype=np.float32).reshape(-1, len(TARGETS)),
    )


def _chunk(args: tuple[Rules, int, int, float, LearnedPolicy | None, str, bool]
           ) -> tuple[Positions, float]:
    rules, matches, seed, epsilon, policy, features, open_play = args
    start = time.process_time()
    positions = play_matches(rules, matches, seed, epsilon, policy, features, open_play)
    return positions, time.process_time() - start


@dataclass
class Generated:
    """The positions of a run and what they cost."""

    positions: Positions
    seconds: float
    """Wall-clock seconds."""
    cpu_seconds: float
    """CPU seconds summed over the processes that played."""


def generate(rules: Rules, matches: int, seed: int, jobs: int = 1,
             epsilon: float = DEFAULT_EPSILON, policy: LearnedPolicy | None = None,
             features: str = "seat", open_play: bool = False) -> Generated:
    """``matches`` matches of self-play (by ``policy``, default the playout policy),
    positions recorded in the feature set ``features`` (``open_play``: see the module
    notes), in
    chunks of :data:`CHUNK_MATCHES` (the last may be short), chunk ``k`` seeded
    ``seed * 1_000_003 + k``, on ``jobs`` processes."""
    work = [
        (rules, count, chunk_seed, epsilon, policy, features, open_play)
        for count, chunk_seed in chunks(matches, seed, jobs, CHUNK_MATCHES)
    ]
    return run_chunks(_chunk, work, jobs)


def chunks(matches: int, seed: int, jobs: int, size: int) -> list[tuple[int, int]]:
    """The units of work of ``matches`` matches on ``jobs`` processes, as (matches, seed):
    ``size`` matches each (the last may be short), chunk ``k`` seeded
    ``seed * 1_000_003 + k``, so the data never depends on the number of processes."""
    if matches < 1:
        raise ValueError(f"matches must be 1 or more; got {matches}")
    if jobs < 1:
        raise ValueError(f"jobs must be 1 or more; got {jobs}")
    return [
        (min(size, matches - first), seed * 1_000_003 + k)
        for k, first in enumerate(range(0, matches, size))
    ]


_Work = TypeVar("_Work")


def run_chunks(
    chunk: Callable[[_Work], tuple[Positions, float]], work: Sequence[_Work], jobs: int
) -> Generated:
    """Each unit of ``work`` done by ``chunk`` (its positions and CPU seconds) on ``jobs``
    processes, gathered in the order of ``work``."""
    start = time.perf_counter()
    if jobs == 1:
        results = [chunk(item) for item in work]
    else:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(chunk, work))
    return Generated(
        concatenate([positions for positions, _ in results]),
        time.perf_counter() - start,
        sum(cpu for _, cpu in results),
    )


def concatenate(parts: Sequence[Positions]) -> Positions:
    return Positions(
        np.concatenate([part.records for part in parts]),
        np.concatenate([part.standing for part in parts]),
        np.concatenate([part.targets for part in parts]),
    )
