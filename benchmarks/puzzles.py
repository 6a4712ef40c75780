"""How fast puzzles are made, how much of what is looked at is kept, and the difficulty curve.

Makes ``--count`` puzzles of each game (scopa and escoba) with ``scopa.puzzles.make`` from
``--seed`` (not the shipped sets' seed, so the figures are of fresh positions) and prints:

* puzzles made per CPU minute (this process's CPU time: the bots' matches, the solver, the
  levels' tries), and the matches played;
* the share of candidate positions kept: of the positions met once that could be one (the last
  deal, two or more legal moves), how many are a puzzle (one move strictly best);
* the difficulty curve: how often each level, beginner (random) to master, finds the best move,
  over the puzzles just made and over the shipped sets (4,000 puzzles); beginner should solve far
  fewer than master;
* where the shipped puzzles sit on the room's rating scale (scopa.server.puzzles.ratings, with
  the room's extra installed): the quartiles of the rating shown.

It prints the machine first (CPU model, cores, load average), so that a figure read later says
what it was measured on. Seeded: the same arguments make the same puzzles; only the times vary.
Prints figures to compare; it never passes or fails.

    .venv/bin/python benchmarks/puzzles.py                    # 100 of each game, seed 7
    .venv/bin/python benchmarks/puzzles.py --count 20 --seed 3
"""

from __future__ import annotations

import argparse
import statistics
import time

from harness import machine  # a sibling module, not a package

from scopa.players import LEVELS
from scopa.puzzles import Puzzle, make
from scopa.puzzles.finder import Tally
from scopa.puzzles.sets import PRESETS, shipped

NAMES = {"random": "beginner", "greedy": "casual", "expert": "expert", "master": "master"}
"""The levels as the room names them."""


def curve(puzzles: list[Puzzle]) -> str:
    """Each level's share of tries that found the best move, weakest first."""
    return ", ".join(
        f"{NAMES[level]} {100 * statistics.fmean(p.found[level] for p in puzzles):.0f}%"
        for level in LEVELS
    )


def room_ratings(puzzles: list[Puzzle]) -> str:
    try:
        from scopa.server.puzzles.ratings import rated
    except ImportError:
        return "the room's extra is not installed: no ratings"
    shown = sorted(rated(puzzle).shown for puzzle in puzzles)
    quartiles = statistics.quantiles(shown, n=4)
    return (f"rating shown: lowest {shown[0]}, quartiles "
            f"{', '.join(f'{q:.0f}' for q in quartiles)}, highest {shown[-1]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=100, help="puzzles of each game")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    print(machine())
    for preset in PRESETS:
        tally = Tally()
        cpu, wall = time.process_time(), time.perf_counter()
        made = make(preset, count=args.count, seed=args.seed, tally=tally)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        print(f"{preset}: {len(made)} puzzles in {cpu:.1f} s of CPU ({wall:.1f} s wall) from "
              f"{tally.matches} matches: {60 * len(made) / cpu:.0f} puzzles per CPU minute")
        print(f"  candidate positions {tally.candidates}, kept {len(made)} "
              f"({100 * len(made) / tally.candidates:.1f}%)")
        print(f"  found the best move, these {len(made)}: {curve(made)}")
        ships = shipped(preset)
        print(f"  found the best move, the {len(ships)} shipped: {curve(ships)}")
        print(f"  the shipped on the room's scale: {room_ratings(ships)}")


if __name__ == "__main__":
    main()
