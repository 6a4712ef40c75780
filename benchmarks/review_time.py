"""How long the master's review of one seat takes for 2-player matches (issue 11 asks under a
minute on this machine). Plays seeded matches of the expert against the beginner, then times
``scopa.review.review_match`` for each seat with the default samples. Prints figures; the
machine's other work makes them noisy.

    .venv/bin/python benchmarks/review_time.py [matches]
"""

from __future__ import annotations

import sys
import time

from scopa import Game, Rules
from scopa.players import make_player
from scopa.review import SAMPLES, review_match


def main(matches: int) -> None:
    print(f"review of one seat, {SAMPLES} samples per move, scopa to 11, 2 players")
    for seed in range(matches):
        game = Game.new(Rules.preset("scopa"), seed=seed)
        players = [make_player("random", seed=seed), make_player("expert", seed=seed)]
        while not game.is_over:
            game.play(players[game.to_move].choose(game.view(game.to_move)))
        for seat, level in enumerate(("random", "expert")):
            start = time.perf_counter()
            review = review_match(game.record(), seat)
            took = time.perf_counter() - start
            print(f"match {seed}: {len(game.moves)} moves, seat {seat} ({level}): {took:5.2f} s,"
                  f" accuracy {review['accuracy']:5.1f}%, marks {review['marks']}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
