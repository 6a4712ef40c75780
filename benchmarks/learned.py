"""The learned level's costs: self-play positions per CPU second (the playout policy's,
generation 0, and a learned generation's), leaves scored per second, and the time a
decision takes with and without guesses weighted by the opponent's plays, on 2-player scopa.

    python benchmarks/learned.py [--matches 200] [--decisions 300] [--samples N] [--plies N]
                                 [--guesses N] [--weighting X]

Figures are CPU seconds where the work is single-process (a shared machine skews wall
time more), and wall time per decision as a person waits for it. Strength is measured
with ``scopa tournament learned master`` on paired seeds (``docs/learned.md``).
"""

from __future__ import annotations

import argparse
import random
import time

from scopa import Game, Rules
from scopa.learning.selfplay import DEFAULT_GUESSES, LearnedPolicy, play_matches
from scopa.players.evaluation import evaluation_for
from scopa.players.learned import DEFAULT_PLIES, DEFAULT_SAMPLES, LearnedPlayer
from scopa.players.weighting import DEFAULT_SHARPNESS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--decisions", type=int, default=300)
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    parser.add_argument("--plies", type=int, default=DEFAULT_PLIES)
    parser.add_argument("--guesses", type=int, default=DEFAULT_GUESSES)
    parser.add_argument("--weighting", type=float, default=DEFAULT_SHARPNESS)
    args = parser.parse_args()
    rules = Rules.preset("scopa")
    evaluation = evaluation_for(rules)

    cpu = time.process_time()
    positions = play_matches(rules, args.matches, seed=1)
    spent = time.process_time() - cpu
    print(f"self-play: {len(positions):,} positions of {args.matches} matches in {spent:.2f} "
          f"CPU s: {len(positions) / spent:,.0f} positions per CPU s")
    cpu = time.process_time()
    learned = play_matches(rules, args.matches, seed=1,
                           policy=LearnedPolicy(rules, evaluation, args.guesses))
    spent = time.process_time() - cpu
    print(f"self-play of a learned generation ({args.guesses} guesses): {len(learned):,} "
          f"positions of {args.matches} matches in {spent:.2f} CPU s: "
          f"{len(learned) / spent:,.0f} positions per CPU s")

    records = positions.records
    for batch in (1, 64, 1024):
        rows = records[:batch]
        rounds = max(1, 20_000 // batch)
        cpu = time.process_time()
        for _ in range(rounds):
            evaluation.points(rows)
        spent = time.process_time() - cpu
        print(f"evaluation in batches of {batch}: {batch * rounds / spent:,.0f} leaves per CPU s")

    for weighting in (0.0, args.weighting):
        player = LearnedPlayer(seed=1, samples=args.samples, plies=args.plies,
                               weighting=weighting)
        rng = random.Random(2)
        times: list[float] = []
        cpu = time.process_time()
        seed = 0
        while len(times) < args.decisions:
            game = Game.new(rules, seed=seed)
            seed += 1
            while not game.is_over and len(times) < args.decisions:
                seat = game.to_move
                assert seat is not None
                if seat == 0:
                    start = time.perf_counter()
                    move = player.choose(game.view(seat))
                    times.append(time.perf_counter() - start)
                else:
                    move = rng.choice(game.legal_moves())
                game.play(move)
        spent = time.process_time() - cpu
        print(f"learned ({args.samples} samples, {args.plies} plies, weighting {weighting}): "
              f"{len(times)} decisions, mean {sum(times) / len(times) * 1000:.1f} ms, worst "
              f"{max(times) * 1000:.1f} ms (wall); {spent / len(times) * 1000:.1f} CPU ms "
              f"a decision with the random opponent's")


if __name__ == "__main__":
    main()
