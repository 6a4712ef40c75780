"""Random-playout speed of the rules core: the round state, and the public ``Game`` API.

Each playout is one new round from a fresh shuffle, played with random legal moves
to its end and scored. Four ways, each a figure:

- ``round``: the round state's own rollout, ``Round.deal`` from ``random_deck(rng)``
  (a uniform shuffle, the one rollouts use), ``play_randomly(rng)`` (the loop runs
  inside the core, native code when compiled), ``points()``;
- ``round_seeded``: the same, dealt from ``shuffled_deck(rng)``, the slower shuffle
  ``Game`` keeps so that a seed deals the same decks as it always has;
- ``round_loop``: ``round`` with the loop here, in Python: ``legal()``, a random
  pick and ``apply()`` until the round is over;
- ``game``: the public API, ``Game.new``, ``legal_moves()`` and ``play()`` until the
  first round has been scored.

Prints rounds per second (the best of five slices of the time) for 2-player scopa,
2-player escoba and 4-player scopa, and which core (pure or compiled) ran;
``--json`` prints one JSON object instead (``round_rounds_per_s``,
``round_seeded_rounds_per_s``, ``round_loop_rounds_per_s``, ``game_rounds_per_s`` for
2-player scopa, the same prefixed ``escoba_2p_`` and ``scopa_4p_``).

    python benchmarks/engine.py [--seconds 5] [--json]

Instructions a round, the figure to compare on a shared machine: ``--count N`` plays one
way (``--way``, default ``round``) for one rule set (``--config``: ``scopa``, ``escoba``
or ``scopa_4p``), warmed up as the timed figures are, then ``N`` rounds inside
``operator.call``, so that callgrind counts those alone; divide its ``Collected`` by N:

    valgrind --tool=callgrind --collect-atstart=no --toggle-collect=_operator_call \
        .venv-compiled/bin/python benchmarks/engine.py --count 2000 --config escoba
"""

from __future__ import annotations

import argparse
import json
import operator
import platform
import random
import sys
import time
from collections.abc import Callable

from scopa import Game, Rules
from scopa.round import Round, core, random_deck, shuffled_deck

CONFIGS = {
    "": ("scopa, 2 players", Rules.preset("scopa")),
    "escoba_2p_": ("escoba, 2 players", Rules.preset("escoba")),
    "scopa_4p_": ("scopa, 4 players", Rules.preset("scopa", players=4)),
}
"""Key prefix in the JSON output, label, rules."""

COUNTED = {"scopa": "", "escoba": "escoba_2p_", "scopa_4p": "scopa_4p_"}
"""``--config`` names for ``--count``: the key of :data:`CONFIGS`."""


WARM_ROUNDS = 20_000
"""Rounds played, not timed, before a rule set's figures: the move generator's memo is
shared by the three ways and keeps growing for about that long (2-player scopa: 0.27M
instructions a round compiled after 1,000 rounds, 0.23M after 20,000), so without them the
first figure would run on a colder memo than the next, and none as a long search runs."""


def round_rollouts(rules: Rules, count: int, seed: int,
                   shuffle: Callable[[random.Random], list[int]] = random_deck) -> None:
    """Play ``count`` fresh rounds with the round state's own random rollout."""
    rng = random.Random(seed)

    def next_deck() -> list[int]:
        return shuffle(rng)

    players = rules.players
    for number in range(count):
        state = Round.deal(rules, number % players, next_deck)
        state.play_randomly(rng)
        state.points()


def seeded_rollouts(rules: Rules, count: int, seed: int) -> None:
    """:func:`round_rollouts` dealt from ``Game``'s seed-compatible shuffle."""
    round_rollouts(rules, count, seed, shuffled_deck)


def round_playouts(rules: Rules, count: int, seed: int) -> None:
    """Play ``count`` fresh rounds through the round state, the loop in Python."""
    rng = random.Random(seed)
    random_fraction = rng.random

    def next_deck() -> list[int]:
        return random_deck(rng)

    players = rules.players
    for number in range(count):
        state = Round.deal(rules, number % players, next_deck)
        legal = state.legal
        apply = state.apply
        while not state.over:
            moves = legal()
            apply(moves[int(random_fraction() * len(moves))])
        state.points()


def game_playouts(rules: Rules, count: int, seed: int) -> None:
    """Play ``count`` fresh one-round games through the public ``Game`` API."""
    random_fraction = random.Random(seed).random
    for number in range(count):
        game = Game.new(rules, seed=seed + number)
        legal_moves = game.legal_moves
        play = game.play
        while game.round_number == 0:
            moves = legal_moves()
            if not moves:  # the match ended with its first round
                break
            play(moves[int(random_fraction() * len(moves))])


def rounds_per_second(
    playouts: Callable[[Rules, int, int], None], rules: Rules, seconds: float
) -> float:
    """Rounds per second over about ``seconds``: the best of five equal slices, so that a
    machine shared with other work shows what the code can do rather than the others'
    load. A first batch, not timed, warms this way's own code (see :data:`WARM_ROUNDS` for
    the move generator's memo)."""
    playouts(rules, 1000, 0)
    best = 0.0
    seed = 1
    for _ in range(5):
        rounds = 0
        start = time.perf_counter()
        while True:
            playouts(rules, 50, seed)
            seed += 50
            rounds += 50
            elapsed = time.perf_counter() - start
            if elapsed >= seconds / 5:
                break
        best = max(best, rounds / elapsed)
    return best


WAYS: dict[str, Callable[[Rules, int, int], None]] = {
    "round": round_rollouts,
    "round_seeded": seeded_rollouts,
    "round_loop": round_playouts,
    "game": game_playouts,
}


def _width(way: str) -> int:
    """A column of the printed table: its way's name and a space, ten at least."""
    return max(10, len(way) + 1)


def count_rounds(rules: Rules, way: str, rounds: int) -> None:
    """``--count``: the warm-ups of a timed figure, then ``rounds`` rounds played inside
    ``operator.call`` (what callgrind's ``--toggle-collect=_operator_call`` counts)."""
    playouts = WAYS[way]
    round_rollouts(rules, WARM_ROUNDS, 0)
    playouts(rules, 1000, 0)
    operator.call(playouts, rules, rounds, 1)
    print(f"counted {rounds} rounds ({way}, {rules.name}, {rules.players} players, {core()})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per figure")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--count", type=int, help="play this many rounds for callgrind")
    parser.add_argument("--config", choices=sorted(COUNTED), default="scopa", help="--count's")
    parser.add_argument("--way", choices=sorted(WAYS), default="round", help="--count's way")
    args = parser.parse_args()
    if args.count is not None:
        count_rounds(CONFIGS[COUNTED[args.config]][1], args.way, args.count)
        return
    version = f"{platform.python_implementation()} {platform.python_version()}"
    interpreter = f"{version} ({sys.executable})"
    figures: dict[str, object] = {"core": core(), "python": interpreter}
    if not args.json:
        print(f"random playouts, one new round per deal, {args.seconds:g} s a figure, one process")
        print(f"core: {core()}; interpreter: {interpreter}")
        heads = " ".join(f"{way:>{_width(way)}}" for way in WAYS)
        print(f"{'rounds/s':<20} {heads}")
    for prefix, (label, rules) in CONFIGS.items():
        round_rollouts(rules, WARM_ROUNDS, 0)
        rates = {way: rounds_per_second(play, rules, args.seconds) for way, play in WAYS.items()}
        for way, rate in rates.items():
            figures[f"{prefix}{way}_rounds_per_s"] = round(rate)
        if not args.json:
            cells = " ".join(f"{rate:>{_width(way)},.0f}" for way, rate in rates.items())
            print(f"{label:<20} {cells}")
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
