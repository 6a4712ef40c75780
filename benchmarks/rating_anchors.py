"""Where the bot levels sit on the openskill scale: a round robin of the levels at 2-player
scopa, each pair playing ``matches`` matches (seats swapped every other match), every level
starting at openskill's defaults and rated match by match like people. Prints each level's
fitted mu and sigma beside its anchor in ``scopa.server.accounts.ratings.ANCHORS``, shifted so
that the expert sits on its anchor (only the gaps between levels mean something). Seeded, but the
master's half-second cap per move lets a busy machine change the figures a little.

    .venv/bin/python benchmarks/rating_anchors.py [matches per pair]
"""

from __future__ import annotations

import itertools
import sys
import time

from scopa import Game, Rules
from scopa.players import LEVELS, make_player
from scopa.server.accounts.ratings import ANCHORS, MODEL


def main(matches: int) -> None:
    start = time.perf_counter()
    rules = Rules.preset("scopa")
    rating = {level: MODEL.rating(name=level) for level in LEVELS}
    wins = {pair: 0 for pair in itertools.combinations(LEVELS, 2)}
    for number in range(matches):
        for first, second in itertools.combinations(LEVELS, 2):
            seated = (first, second) if number % 2 == 0 else (second, first)
            players = [make_player(level, seed=number * 10 + k) for k, level in enumerate(seated)]
            game = Game.new(rules, seed=number)
            while not game.is_over:
                game.play(players[game.to_move].choose(game.view(game.to_move)))
            winner = seated[game.winner or 0]
            wins[(first, second)] += winner == first
            loser = second if winner == first else first
            [[rating[winner]], [rating[loser]]] = MODEL.rate(
                [[rating[winner]], [rating[loser]]], ranks=[0, 1]
            )
    shift = ANCHORS["expert"] - rating["expert"].mu
    print(f"{matches} matches per pair of levels, 2-player scopa to 11 "
          f"({time.perf_counter() - start:.0f} s)")
    for level in LEVELS:
        fitted = rating[level]
        print(f"{level:>7}: mu {fitted.mu:6.2f} sigma {fitted.sigma:5.2f}  "
              f"shifted {fitted.mu + shift:6.2f}  anchor {ANCHORS[level]:5.1f}")
    for (first, second), won in wins.items():
        print(f"{first} beat {second} in {won} of {matches}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
