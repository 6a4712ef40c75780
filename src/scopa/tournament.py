"""Tournaments between two bot levels on paired deals, and the statistics that judge them.

Luck of the deal swamps skill in a fishing game, so every match seed is played
once for each side the first level can sit at: with two sides, the same shuffles
twice with the levels swapped. Each level then gets the same cards as the other,
and the seed's games together are one unit of evidence (the paired interval).
The first level plays side ``k`` in game ``k`` of a seed; the second level plays
every other side (one seat in two-player games, the opposite partners in team
games, two rival seats in three-player games).

Results depend only on the levels, the rules and the seed, never on ``jobs``:
match seeds are drawn up front, each bot's seed is derived from its match seed
and seat, and games are gathered back in seed order. Only the move times vary.

>>> from scopa import Rules
>>> result = run("greedy", "random", Rules.preset("scopa"), seeds=2, seed=1)
>>> result.games, len(result.results)
(4, 4)
>>> sorted({(r.seed_index, r.first_side) for r in result.results})
[(0, 0), (0, 1), (1, 0), (1, 1)]
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import math
import multiprocessing
import os
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from types import ModuleType
from typing import Any, Final

from .extras import missing_extra
from .game import Game
from .players import Player, make_player
from .rules import Rules

Z_95: Final = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


@dataclass(frozen=True)
class GameResult:
    """One match of a tournament, from the two levels' point of view (index 0: the first level)."""

    seed_index: int
    seed: int
    first_side: int
    """The side the first level played; the second level played all the others."""
    first_won: bool
    rounds: int
    points: tuple[int, int]
    """Match points of each level's sides, summed."""
    sweeps: tuple[int, int]
    moves: tuple[int, int]
    time: tuple[float, float]
    """Seconds spent choosing moves, by level."""
    worst_time: tuple[float, float]
    """The longest single move, by level."""


_OPTIONAL_BOTS: Final = {
    "learned": ("scopa.learning.levels", "learn"),
    "openspiel-ismcts": ("scopa.env.ismcts", "rl"),
}
"""Bots for tournaments from scopa's optional parts, by name: the module whose ``make`` builds
them, and the extra it needs."""


def make_bot(level: str, seed: int | None = None, rules: Rules | None = None) -> Player:
    """A bot of ``level``: one of :data:`scopa.players.LEVELS`; a bot of an optional part,
    imported when asked for: ``learned`` (:mod:`scopa.learning.levels`, the ``learn``
    extra, not a level until it wins) or ``openspiel-ismcts[:N|:Ts]``, OpenSpiel's IS-MCTS
    with N simulations or T seconds a move (:mod:`scopa.env.ismcts`, the ``rl`` extra); or
    ``FILE.py:FACTORY[:ARGUMENT]``, your own bot: ``FACTORY(ARGUMENT or None, seed)`` from
    that Python file (such as an agent trained on :mod:`scopa.env`, see ``examples/``).
    These are for tournaments, not the card room. Given ``rules``, a bot that loads weights
    loads them now, so a missing or corrupt file fails before play."""
    name = level.partition(":")[0]
    if name in _OPTIONAL_BOTS:
        module, extra = _OPTIONAL_BOTS[name]
        try:
            make: Callable[[str, int | None, Rules | None], Player] = importlib.import_module(
                module
            ).make
        except ImportError as error:
            raise missing_extra(error, extra, f"the {name} bot") from None
        return make(level, seed, rules)
    path, _, rest = level.partition(":")
    if path.endswith(".py") and rest:
        return _bot_from_file(level, path, rest, seed)
    return make_player(level, seed)


def _bot_from_file(level: str, path: str, rest: str, seed: int | None) -> Player:
    factory_name, _, argument = rest.partition(":")
    module = _module_at(os.path.realpath(path)) if os.path.isfile(path) else None
    if module is None:
        raise ValueError(f"level {level!r}: no Python file {path!r}")
    factory = getattr(module, factory_name, None)
    if not callable(factory):
        raise ValueError(f"level {level!r}: {path} has no function {factory_name!r}")
    bot = factory(argument or None, seed)
    if not isinstance(bot, Player):
        raise ValueError(f"level {level!r}: {factory_name}() did not return a player")
    return bot


@functools.cache
def _module_at(path: str) -> ModuleType | None:
    """The Python file at ``path``, run once per process: a tournament makes a bot for every
    seat of every match, and a file that loads weights or builds tables at import should pay
    for that once, not once a bot."""
    spec = importlib.util.spec_from_file_location(f"_scopa_bot_{abs(hash(path))}", path)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def match_seeds(seed: int, count: int) -> list[int]:
    """The seeds of a tournament's matches: a pure function of its seed."""
    rng = random.Random(seed)
    return [rng.getrandbits(63) for _ in range(count)]


def bot_seed(match_seed: int, seat: int) -> int:
    """The seed of the bot at ``seat``, so every game replays the same whatever the process."""
    return match_seed * 8 + seat


def play_game(
    first: str, second: str, rules: Rules, match_seed: int, first_side: int, seed_index: int = 0
) -> GameResult:
    """Play one match: ``first`` at the seats of ``first_side``, ``second`` everywhere else."""
    levels = [0 if rules.side_of(seat) == first_side else 1 for seat in range(rules.players)]
    names = (first, second)
    bots = [make_bot(names[level], seed=bot_seed(match_seed, seat), rules=rules)
            for seat, level in enumerate(levels)]
    game = Game.new(rules, seed=match_seed)
    moves = [0, 0]
    spent = [0.0, 0.0]
    worst = [0.0, 0.0]
    clock = time.perf_counter
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        view = game.view(seat)
        start = clock()
        move = bots[seat].choose(view)
        took = clock() - start
        game.play(move)
        level = levels[seat]
        moves[level] += 1
        spent[level] += took
        worst[level] = max(worst[level], took)
    points = [0, 0]
    sweeps = [0, 0]
    for side, total in enumerate(game.scores):
        level = 0 if side == first_side else 1
        points[level] += total
        sweeps[level] += sum(scores[side].sweep_count for scores in game.round_scores)
    return GameResult(
        seed_index=seed_index,
        seed=match_seed,
        first_side=first_side,
        first_won=game.winner == first_side,
        rounds=len(game.round_scores),
        points=(points[0], points[1]),
        sweeps=(sweeps[0], sweeps[1]),
        moves=(moves[0], moves[1]),
        time=(spent[0], spent[1]),
        worst_time=(worst[0], worst[1]),
    )


def _play_seed(task: tuple[str, str, Rules, int, int]) -> list[GameResult]:
    """Every game of one match seed (one per side for the first level): a worker's unit."""
    first, second, rules, match_seed, seed_index = task
    return [
        play_game(first, second, rules, match_seed, side, seed_index)
        for side in range(rules.sides)
    ]


# -- statistics -----------------------------------------------------------------------


def wilson_interval(successes: float, trials: int, z: float = Z_95) -> tuple[float, float]:
    """Wilson score interval of a proportion: honest near 0 and 1 and for small samples.

    >>> low, high = wilson_interval(80, 100)
    >>> round(low, 4), round(high, 4)
    (0.7112, 0.8666)
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def paired_interval(unit_scores: Sequence[float], z: float = Z_95) -> tuple[float, float]:
    """Normal interval of the mean of per-seed scores (each seed's games as one unit).

    Pairing removes the luck of the deal that both levels shared, so this interval
    is usually narrower than Wilson's over the games, and it is the right one for
    paired deals because the two games of a seed are not independent.

    >>> low, high = paired_interval([1.0, 0.5, 0.5, 0.0, 1.0, 0.5, 0.0, 0.5])
    >>> round(low, 4), round(high, 4)
    (0.2381, 0.7619)
    """
    n = len(unit_scores)
    if n < 2:
        return 0.0, 1.0
    mean = sum(unit_scores) / n
    variance = sum((x - mean) ** 2 for x in unit_scores) / (n - 1)
    half = z * math.sqrt(variance / n)
    return max(0.0, mean - half), min(1.0, mean + half)


@dataclass(frozen=True)
class LevelStats:
    """One level's figures over a whole tournament."""

    level: str
    sides: int
    """How many sides this level plays in each game."""
    wins: int
    points_per_round: float
    """Match points per round per side played."""
    sweeps_per_round: float
    moves: int
    mean_time: float
    """Seconds per move."""
    worst_time: float


@dataclass(frozen=True)
class Tournament:
    """A finished tournament: every game and the figures drawn from them."""

    first: str
    second: str
    rules: Rules
    seed: int
    seeds: int
    """Match seeds; each was played ``rules.sides`` times."""
    results: tuple[GameResult, ...] = field(repr=False)

    @property
    def games(self) -> int:
        return len(self.results)

    @property
    def win_rate(self) -> float:
        """Share of the games the first level won."""
        return sum(r.first_won for r in self.results) / self.games if self.results else 0.0

    @property
    def expected_win_rate(self) -> float:
        """The first level's share if the levels were equal: one side among ``sides``."""
        return 1 / self.rules.sides

    def seed_scores(self) -> list[float]:
        """Per seed, the share of its games the first level won: the paired units."""
        won = [0] * self.seeds
        played = [0] * self.seeds
        for r in self.results:
            won[r.seed_index] += r.first_won
            played[r.seed_index] += 1
        return [w / p for w, p in zip(won, played, strict=True) if p]

    @property
    def paired_interval(self) -> tuple[float, float]:
        """95% interval of the win rate with each seed's games as one unit."""
        return paired_interval(self.seed_scores())

    @property
    def wilson_interval(self) -> tuple[float, float]:
        """95% Wilson interval treating every game as independent (wider under pairing)."""
        return wilson_interval(sum(r.first_won for r in self.results), self.games)

    def win_rate_by_side(self) -> list[float]:
        """The first level's win rate when it sat at side 0, 1, ..."""
        rates = []
        for side in range(self.rules.sides):
            games = [r for r in self.results if r.first_side == side]
            rates.append(sum(r.first_won for r in games) / len(games) if games else 0.0)
        return rates

    def level_stats(self) -> tuple[LevelStats, LevelStats]:
        rounds = sum(r.rounds for r in self.results)
        stats = []
        for index, level in enumerate((self.first, self.second)):
            sides = 1 if index == 0 else self.rules.sides - 1
            side_rounds = max(1, rounds * sides)
            moves = sum(r.moves[index] for r in self.results)
            wins = sum(r.first_won == (index == 0) for r in self.results)
            stats.append(
                LevelStats(
                    level=level,
                    sides=sides,
                    wins=wins,
                    points_per_round=sum(r.points[index] for r in self.results) / side_rounds,
                    sweeps_per_round=sum(r.sweeps[index] for r in self.results) / side_rounds,
                    moves=moves,
                    mean_time=sum(r.time[index] for r in self.results) / max(1, moves),
                    worst_time=max((r.worst_time[index] for r in self.results), default=0.0),
                )
            )
        return stats[0], stats[1]

    def to_dict(self) -> dict[str, Any]:
        """Every figure as plain JSON-able data, the games included."""
        low, high = self.paired_interval
        wilson_low, wilson_high = self.wilson_interval
        return {
            "first": self.first,
            "second": self.second,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "seeds": self.seeds,
            "games": self.games,
            "rounds": sum(r.rounds for r in self.results),
            "win_rate": self.win_rate,
            "expected_win_rate": self.expected_win_rate,
            "ci95_paired": [low, high],
            "ci95_wilson": [wilson_low, wilson_high],
            "win_rate_by_side": self.win_rate_by_side(),
            "levels": [asdict(stats) for stats in self.level_stats()],
            "results": [asdict(r) for r in self.results],
        }


# -- running --------------------------------------------------------------------------


def run(
    first: str,
    second: str,
    rules: Rules,
    seeds: int,
    seed: int = 1,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> Tournament:
    """Play ``seeds`` match seeds, each once per side, on ``jobs`` processes.

    ``progress`` is called with the number of games just finished. Levels are
    checked before any process starts, so a typo fails at once.
    """
    for level in (first, second):
        make_bot(level, rules=rules)
    if seeds < 1:
        raise ValueError(f"the number of match seeds must be 1 or more; got {seeds}")
    if jobs < 1:
        raise ValueError(f"jobs must be 1 or more; got {jobs}")
    tasks = [
        (first, second, rules, match_seed, index)
        for index, match_seed in enumerate(match_seeds(seed, seeds))
    ]
    gathered: list[GameResult] = []
    for games in _map(tasks, jobs):
        gathered += games
        if progress is not None:
            progress(len(games))
    gathered.sort(key=lambda r: (r.seed_index, r.first_side))
    return Tournament(first, second, rules, seed, seeds, tuple(gathered))


def _map(
    tasks: list[tuple[str, str, Rules, int, int]], jobs: int
) -> Iterable[list[GameResult]]:
    """Each task's games as they finish: in this process, or on a spawn-safe pool."""
    if jobs == 1 or len(tasks) == 1:
        yield from map(_play_seed, tasks)
        return
    # Spawn, not fork: the same on every platform, and safe next to threads.
    context = multiprocessing.get_context("spawn")
    with context.Pool(min(jobs, len(tasks))) as pool:
        yield from pool.imap_unordered(_play_seed, tasks, chunksize=1)
