"""Random-playout speed of the rules core through its public API.

Each round is a new game: ``Game.new``, then at each turn ``legal_moves()``, a
random pick and ``play()``, until the first round has been scored. Prints rounds
per second for 2-player scopa, 2-player escoba and 4-player scopa.

    python benchmarks/engine.py [--seconds 5]
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time

import scopa.game
from scopa import Game, Rules


def rounds_per_second(rules: Rules, seconds: float, seed: int = 1) -> tuple[float, int]:
    """Play fresh one-round games for about ``seconds``; return (rounds/s, rounds)."""
    random_fraction = random.Random(seed).random
    rounds = 0
    game_seed = seed
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(50):
            game = Game.new(rules, seed=game_seed)
            game_seed += 1
            legal_moves = game.legal_moves
            play = game.play
            while game.round_number == 0:
                moves = legal_moves()
                if not moves:  # the match ended with its first round
                    break
                play(moves[int(random_fraction() * len(moves))])
            rounds += 1
        now = time.perf_counter()
        if now >= deadline:
            return rounds / (now - start), rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per configuration")
    args = parser.parse_args()
    configs = [
        ("scopa, 2 players", Rules.preset("scopa")),
        ("escoba, 2 players", Rules.preset("escoba")),
        ("scopa, 4 players", Rules.preset("scopa", players=4)),
    ]
    core = "pure Python" if (scopa.game.__file__ or "").endswith(".py") else "compiled (mypyc)"
    version = f"{platform.python_implementation()} {platform.python_version()}"
    interpreter = f"{version} ({sys.executable})"
    print(f"random playouts through the public API, {args.seconds:g} s each, one process")
    print(f"core: {core}; interpreter: {interpreter}")
    for label, rules in configs:
        rate, rounds = rounds_per_second(rules, args.seconds)
        print(f"{label:<20} {rate:>10,.0f} rounds/s   ({rounds:,} rounds)")


if __name__ == "__main__":
    main()
