"""Self-play data: positions of whole matches on the round state, with what followed.

Matches are played on :class:`~scopa.round.Round` directly (no ``Game``, no views), by
the levels' playout policy (:class:`~scopa.players.simulation.RoundModel`'s quick
policy, the master's playouts) with a share of uniformly random moves, so the data
also holds the positions that weaker play reaches. Every decision is written down as
the :func:`~scopa.players.features.record` of what the seat to move knows (never the
other hands) and the match standing from its side, and once known, its targets from
its side: the round's points in total and by category for its side and for the other
sides (their mean), and the match result (1 won, 0 lost).

Work is split into chunks of matches, each with a seed of its own derived from the
run's seed, so a run gives the same data on any number of processes.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from ..cards import ALL_CARDS_MASK, value_of
from ..players.features import RECORD_FIELDS, record
from ..players.simulation import round_model
from ..round import Round, shuffled_deck
from ..rules import Rules
from ..scoring import RoundScore, match_winner

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


@dataclass
class Positions:
    """A batch of positions: ``records`` (n, len(RECORD_FIELDS)) int64, ``standing``
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


def play_matches(rules: Rules, matches: int, seed: int, epsilon: float = DEFAULT_EPSILON
                 ) -> Positions:
    """``matches`` whole matches of self-play from ``seed``, every decision recorded."""
    if not 0 <= epsilon <= 1:
        raise ValueError(f"epsilon must be between 0 and 1; got {epsilon}")
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
                else:
                    hand = state.hands[seat]
                    table = state.table
                    seen = hand | table
                    for pile in state.piles:
                        seen |= pile
                    following = state.hands[(seat + 1) % players]
                    reply = following.bit_count() if following else min(state.stock_left, size)
                    move = choose(moves, table, value_of(table), ALL_CARDS_MASK & ~seen, reply)
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
        np.array(records, dtype=np.int64).reshape(-1, len(RECORD_FIELDS)),
        np.array(standing, dtype=np.int16).reshape(-1, 2),
        np.array(targets, dtype=np.float32).reshape(-1, len(TARGETS)),
    )


def _chunk(args: tuple[Rules, int, int, float]) -> tuple[Positions, float]:
    rules, matches, seed, epsilon = args
    start = time.process_time()
    positions = play_matches(rules, matches, seed, epsilon)
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
             epsilon: float = DEFAULT_EPSILON) -> Generated:
    """``matches`` matches of self-play in chunks of :data:`CHUNK_MATCHES` (the last may be
    short), chunk ``k`` seeded ``seed * 1_000_003 + k``, on ``jobs`` processes."""
    if matches < 1:
        raise ValueError(f"matches must be 1 or more; got {matches}")
    if jobs < 1:
        raise ValueError(f"jobs must be 1 or more; got {jobs}")
    work = [
        (rules, min(CHUNK_MATCHES, matches - first), seed * 1_000_003 + k, epsilon)
        for k, first in enumerate(range(0, matches, CHUNK_MATCHES))
    ]
    start = time.perf_counter()
    if jobs == 1:
        results = [_chunk(item) for item in work]
    else:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(_chunk, work))
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
