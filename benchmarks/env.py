"""Speed of the learning environments (scopa.env) against the bare round state.

Random legal actions, two-player scopa by default. Each figure is steps (moves
played, and for OpenSpiel also chance outcomes: the deal) per second:

- ``round``: the core's round state alone, ``Round.legal`` and ``Round.apply``,
  a new round dealt whenever one ends: the floor every environment sits on;
- ``game``: the same through the public ``Game`` (a whole match at a time);
- ``pettingzoo``: ``env.last()`` (the observation and the action mask over all
  100,652 actions) then ``env.step`` with a random legal action from the mask;
- ``openspiel``: ``state.legal_actions()`` and ``state.apply_action`` with a
  random legal action (chance outcomes sampled from ``chance_outcomes()``), also
  counting the player moves alone.

Seconds are this process's CPU time (``time.process_time``), so other work on a
shared machine slows the figures less than it would wall-clock ones. Figures to
compare, never a pass/fail:

    .venv/bin/python benchmarks/env.py --seconds 5 [--preset escoba --players 4]
    .venv-compiled/bin/python benchmarks/env.py      # the compiled core (scripts/build_compiled.sh)
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable

import numpy as np

from scopa import Game, Rules
from scopa.round import Round, shuffled_deck


def rate(run: Callable[[float], int], seconds: float) -> float:
    """Steps per CPU second of ``run(deadline) -> steps``, the deadline on the wall clock
    (reading the CPU clock is a system call, too slow to ask after every match)."""
    start = time.process_time()
    steps = run(time.perf_counter() + seconds)
    return steps / (time.process_time() - start)


def bare_round(rules: Rules) -> Callable[[float], int]:
    rng = random.Random(1)

    def run(deadline: float) -> int:
        steps = 0
        deals = 0
        while time.perf_counter() < deadline:
            state = Round.deal(rules, deals % rules.players, lambda: shuffled_deck(rng))
            deals += 1
            while not state.over:
                moves = state.legal()
                state.apply(moves[rng.randrange(len(moves))])
                steps += 1
        return steps

    return run


def game(rules: Rules) -> Callable[[float], int]:
    rng = random.Random(1)

    def run(deadline: float) -> int:
        steps = 0
        seed = 0
        while time.perf_counter() < deadline:
            match = Game.new(rules, seed=seed)
            seed += 1
            while not match.is_over:
                moves = match.legal_moves()
                match.play(moves[rng.randrange(len(moves))])
                steps += 1
        return steps

    return run


def pettingzoo(rules: Rules) -> Callable[[float], int]:
    from scopa.env import env

    environment = env(rules=rules)
    rng = np.random.default_rng(1)

    def run(deadline: float) -> int:
        steps = 0
        seed = 0
        while time.perf_counter() < deadline:
            environment.reset(seed=seed)
            seed += 1
            for _ in environment.agent_iter():
                obs, _, terminated, truncated, _ = environment.last()
                if terminated or truncated:
                    environment.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"].view(bool))
                environment.step(int(legal[rng.integers(len(legal))]))
                steps += 1
        return steps

    return run


def openspiel(rules: Rules, count_chance: bool) -> Callable[[float], int]:
    from scopa.env.openspiel import ScopaGame

    game_ = ScopaGame(rules=rules)
    rng = random.Random(1)

    def run(deadline: float) -> int:
        steps = 0
        while time.perf_counter() < deadline:
            state = game_.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                    steps += count_chance
                    continue
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                steps += 1
        return steps

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="scopa")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    rules = Rules.preset(args.preset, players=args.players)
    import scopa.game

    core = "pure" if (scopa.game.__file__ or "").endswith(".py") else "compiled"
    figures: dict[str, object] = {"core": core, "preset": args.preset, "players": args.players}
    runs = {
        "round": bare_round(rules),
        "game": game(rules),
        "pettingzoo": pettingzoo(rules),
        "openspiel": openspiel(rules, count_chance=True),
        "openspiel_moves_only": openspiel(rules, count_chance=False),
    }
    for name, run in runs.items():
        figures[f"{name}_steps_per_s"] = round(rate(run, args.seconds))
    base = figures["round_steps_per_s"]
    assert isinstance(base, int)
    # Moves against moves: the round state's steps are all moves.
    for name in ("game", "pettingzoo", "openspiel_moves_only"):
        figure = figures[f"{name}_steps_per_s"]
        assert isinstance(figure, int)
        figures[f"{name.removesuffix('_moves_only')}_overhead_vs_round"] = round(base / figure, 1)
    if args.json:
        print(json.dumps(figures))
        return
    print(f"{args.preset}, {args.players} players, {core} core")
    for key, value in figures.items():
        if key.endswith("_per_s"):
            print(f"  {key.removesuffix('_steps_per_s'):22} {value:>10,} steps/s")
        elif key.endswith("_vs_round"):
            print(f"  {key:32} x{value}")


if __name__ == "__main__":
    main()
