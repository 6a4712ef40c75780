"""The master against OpenSpiel's IS-MCTS at equal time per move, on paired seeds.

Both sides get the same time a move: the master as its time budget (a cap: it
often answers sooner), IS-MCTS as the time it searches (``openspiel-ismcts:Ts``).
For each preset and time it prints the tournament's line, the master's win rate
with its paired 95% interval. Long: at 0.5 s a move a 2-player match takes IS-MCTS
about half a minute, so 200 seeds (400 matches) take hours on one core.

    .venv/bin/python benchmarks/versus_ismcts.py --seconds 0.05 --matches 200 --jobs 2
    .venv/bin/scopa tournament benchmarks/versus_ismcts.py:master:0.05 openspiel-ismcts:0.05s \\
        --matches 200 --jobs 2

This file is also the level ``benchmarks/versus_ismcts.py:master:SECONDS``: the master
with that time budget.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from scopa import Rules
from scopa.players import MasterPlayer


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


def main() -> None:
    from scopa import tournament

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, nargs="+", default=[0.05, 0.5])
    parser.add_argument("--presets", nargs="+", default=["scopa", "escoba"])
    parser.add_argument("--matches", type=int, default=200, help="paired seeds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    here = Path(__file__).resolve()
    for preset in args.presets:
        for seconds in args.seconds:
            first = f"{here}:master:{seconds:g}"
            rules = Rules.preset(preset)
            progress = Progress(args.matches * rules.sides)
            result = tournament.run(first, f"openspiel-ismcts:{seconds:g}s", rules,
                                    seeds=args.matches, seed=args.seed, jobs=args.jobs,
                                    progress=progress)
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
