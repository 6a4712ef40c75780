"""The master against OpenSpiel's IS-MCTS at equal time per move, on paired seeds.

Both sides get the same time a move: the master as its time budget (a cap: it
often answers sooner), IS-MCTS as the time it searches (``openspiel-ismcts:Ts``).
For each preset and time it prints the tournament's line, the master's win rate
with its paired 95% interval. Long: at 0.5 s a move a 2-player match takes IS-MCTS
about half a minute, so 200 seeds (400 matches) take hours on one core. With
``--journal DIR`` every finished seed is appended to a file there, and a run started
again with the same arguments plays only the seeds it does not hold yet.

    .venv/bin/python benchmarks/versus_ismcts.py --seconds 0.05 --matches 200 --jobs 2
    .venv/bin/scopa tournament benchmarks/versus_ismcts.py:master:0.05 openspiel-ismcts:0.05s \\
        --matches 200 --jobs 2

This file is also the level ``benchmarks/versus_ismcts.py:master:SECONDS``: the master
with that time budget.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
from dataclasses import asdict
from pathlib import Path

from scopa import Rules
from scopa.players import MasterPlayer
from scopa.tournament import GameResult, Tournament, match_seeds, play_game


def master(argument: str | None, seed: int | None) -> MasterPlayer:
    """The master with a time budget of ``argument`` seconds (its default without)."""
    if argument is None:
        return MasterPlayer(seed=seed)
    return MasterPlayer(seed=seed, time_budget=float(argument))


class Progress:
    """Prints how many matches are done to standard error: the runs are long."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.done = 0

    def __call__(self, games: int) -> None:
        self.done += games
        print(f"  {self.done}/{self.total} matches", file=sys.stderr, flush=True)


Task = tuple[str, str, Rules, int, int]


def _play_seed(task: Task) -> list[GameResult]:
    first, second, rules, match_seed, index = task
    return [play_game(first, second, rules, match_seed, side, index) for side in range(rules.sides)]


def _result(row: dict[str, object]) -> GameResult:
    pairs = {key: tuple(value) if isinstance(value, list) else value for key, value in row.items()}
    return GameResult(**pairs)  # type: ignore[arg-type]


def journaled(first: str, second: str, rules: Rules, seeds: int, seed: int, jobs: int,
              journal: Path) -> Tournament:
    """The tournament ``tournament.run`` would play, resumable: each seed's games are appended
    to ``journal`` as they finish, and seeds already there are not played again."""
    done: dict[int, list[GameResult]] = {}
    if journal.exists():
        for line in journal.read_text().splitlines():
            games = [_result(row) for row in json.loads(line)]
            done[games[0].seed_index] = games
    tasks = [(first, second, rules, match_seed, index)
             for index, match_seed in enumerate(match_seeds(seed, seeds)) if index not in done]
    progress = Progress(seeds * rules.sides)
    progress(sum(len(games) for games in done.values()))
    with journal.open("a") as out, multiprocessing.Pool(jobs) as pool:
        for games in pool.imap_unordered(_play_seed, tasks):
            out.write(json.dumps([asdict(game) for game in games]) + "\n")
            out.flush()
            done[games[0].seed_index] = games
            progress(len(games))
    results = sorted((game for index, games in done.items() if index < seeds for game in games),
                     key=lambda r: (r.seed_index, r.first_side))
    return Tournament(first, second, rules, seed, seeds, tuple(results))


def main() -> None:
    from scopa import tournament

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, nargs="+", default=[0.05, 0.5])
    parser.add_argument("--presets", nargs="+", default=["scopa", "escoba"])
    parser.add_argument("--matches", type=int, default=200, help="paired seeds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--journal", type=Path, help="a folder for resumable runs")
    args = parser.parse_args()
    here = Path(__file__).resolve()
    for preset in args.presets:
        for seconds in args.seconds:
            first = f"{here}:master:{seconds:g}"
            rules = Rules.preset(preset)
            second = f"openspiel-ismcts:{seconds:g}s"
            if args.journal is not None:
                args.journal.mkdir(parents=True, exist_ok=True)
                name = f"{preset}-{seconds:g}s-seed{args.seed}.jsonl"
                result = journaled(first, second, rules, args.matches, args.seed, args.jobs,
                                   args.journal / name)
            else:
                result = tournament.run(first, second, rules, seeds=args.matches,
                                        seed=args.seed, jobs=args.jobs,
                                        progress=Progress(args.matches * rules.sides))
            stats = result.level_stats()
            low, high = result.paired_interval
            print(
                f"{preset}, {seconds:g} s a move, {args.matches} seeds: master wins "
                f"{stats[0].wins} of {result.games} ({stats[0].wins / result.games:.1%}, paired "
                f"95% CI {low:.1%} - {high:.1%}); ms a move: master "
                f"{stats[0].mean_time * 1000:.1f}, IS-MCTS {stats[1].mean_time * 1000:.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
