"""Strength of the bot levels: the issue's two-player match-ups, measured by tournament.

Each match-up is a ``scopa tournament`` on paired deals (every seed played twice,
sides swapped). Prints, per match-up, the first level's match win rate with its
95% intervals (paired by seed, and Wilson over single matches), points and
sweeps per round for both levels, and their time per move. The goals are
figures to compare (greedy vs random 90%, expert vs greedy 65%), never a
pass/fail. The master match-ups are run separately (they take hours).

    python benchmarks/strength.py [--matches 200] [--jobs 2] [--seed 1] [--reference]
"""

from __future__ import annotations

import argparse
import time

from scopa import Rules
from scopa.tournament import run

MATCH_UPS = (
    ("greedy", "random", "scopa", 0.90),
    ("greedy", "random", "escoba", 0.90),
    ("expert", "greedy", "scopa", 0.65),
    ("expert", "greedy", "escoba", 0.65),
)
"""(first level, second level, preset, goal for the first level's match win rate)."""

REFERENCES = (
    ("expert", "random", "scopa", None),
    ("expert", "random", "escoba", None),
)
"""With ``--reference``: how far the expert gets against random play, a yardstick for the
greedy goal (in scopa even the expert stays near 82%, since random must capture too)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200, help="match seeds per match-up")
    parser.add_argument("--jobs", type=int, default=1, help="processes to play on")
    parser.add_argument("--seed", type=int, default=1, help="seed of the match seeds")
    parser.add_argument(
        "--reference", action="store_true", help="also play expert vs random, as a yardstick"
    )
    args = parser.parse_args()
    print(
        f"{args.matches} seeds x 2 sides = {2 * args.matches} matches per match-up, two players, "
        f"seed {args.seed}, {args.jobs} job(s); 95% CI paired by seed [Wilson over matches]"
    )
    header = (
        f"{'match-up':<26} {'win rate':>8}  {'95% CI paired':>15}  {'Wilson':>15}  {'goal':>4}  "
        f"{'points/round':>12}  {'sweeps/round':>12}  {'ms/move':>11}  {'worst ms':>11}  time"
    )
    print(header)
    for first, second, preset, goal in MATCH_UPS + (REFERENCES if args.reference else ()):
        start = time.perf_counter()
        result = run(first, second, Rules.preset(preset), args.matches, args.seed, args.jobs)
        took = time.perf_counter() - start
        a, b = result.level_stats()
        low, high = result.paired_interval
        wilson_low, wilson_high = result.wilson_interval
        print(
            f"{f'{first} vs {second}, {preset}':<26} {result.win_rate:>8.1%}  "
            f"{f'{low:.1%} - {high:.1%}':>15}  {f'{wilson_low:.1%} - {wilson_high:.1%}':>15}  "
            f"{'-' if goal is None else f'{goal:.0%}':>4}  "
            f"{f'{a.points_per_round:.2f} / {b.points_per_round:.2f}':>12}  "
            f"{f'{a.sweeps_per_round:.2f} / {b.sweeps_per_round:.2f}':>12}  "
            f"{f'{a.mean_time * 1e3:.2f} / {b.mean_time * 1e3:.2f}':>11}  "
            f"{f'{a.worst_time * 1e3:.1f} / {b.worst_time * 1e3:.1f}':>11}  {took:.0f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
