"""A tabular self-play agent for Scopa, from the environment to the tournament.

It learns on the PettingZoo environment (``scopa.env``) by self-play, then plays in
``scopa tournament`` against ``random`` and ``greedy``, the whole loop in one file:

    .venv/bin/python examples/selfplay_agent.py --seconds 180 --matches 200
    .venv/bin/scopa tournament examples/selfplay_agent.py:player:agent.json greedy --matches 200

The agent is a table. A move is described by a few facts read off the table and the
move alone (a capture or a trail, how many cards it takes, whether it sweeps, takes the
settebello, how many coins and sevens it wins, what a trail leaves on the table); the
table holds, for each description, the mean round points difference (the env's
``reward="round"``) of the rounds in which a seat chose it. Training plays every seat
with the same table, epsilon-greedy; playing takes the best-valued legal move.
Crude, but it learns in minutes on a CPU what the capture and sweep points are worth.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

from scopa import Rules
from scopa.cards import CARDS, COINS_MASK, SETTEBELLO, SEVENS_MASK, mask_of, value_of
from scopa.moves import Move
from scopa.view import View

Key = str


def describe(table: int, move: Move) -> Key:
    """The facts of ``move`` onto ``table`` (a mask) that the agent values."""
    captured = move.captured_mask
    if captured:
        taken = captured | move.card_bit
        sweep = int(captured == table)
        settebello = int(bool(taken & SETTEBELLO.bit))
        coins, sevens = (taken & COINS_MASK).bit_count(), (taken & SEVENS_MASK).bit_count()
        return (
            f"capture n{captured.bit_count()} sweep{sweep} sb{settebello} coins{coins} "
            f"sevens{sevens}"
        )
    coin, seven = int(bool(move.card_bit & COINS_MASK)), int(bool(move.card_bit & SEVENS_MASK))
    left = min(value_of(table | move.card_bit), 11)
    return f"trail value{move.card.value} coin{coin} seven{seven} left{left}"


class Table:
    """Mean round result by move description."""

    def __init__(self, values: dict[Key, list[float]] | None = None) -> None:
        self.values: dict[Key, list[float]] = defaultdict(lambda: [0.0, 0.0], values or {})

    def value(self, key: Key) -> float:
        total, count = self.values.get(key, (0.0, 0.0))
        return total / count if count else 0.0

    def best(self, table: int, moves: list[Move]) -> Move:
        return max(moves, key=lambda move: self.value(describe(table, move)))

    def learn(self, keys: list[Key], result: float) -> None:
        for key in keys:
            entry = self.values[key]
            entry[0] += result
            entry[1] += 1

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(dict(self.values), indent=0, sort_keys=True))

    @classmethod
    def load(cls, path: Path) -> Table:
        return cls(json.loads(path.read_text()))


def train(rules: Rules, seconds: float, seed: int = 0, epsilon: float = 0.1) -> tuple[Table, int]:
    """Self-play on the PettingZoo environment for ``seconds``; the table and the steps."""
    import numpy as np

    from scopa.env import actions, env
    from scopa.env.observation import layout

    environment = env(rules=rules, reward="round")
    start, _ = layout(rules)["table"]
    table = Table()
    rng = random.Random(seed)
    chosen: dict[str, list[Key]] = defaultdict(list)
    steps = 0
    deadline = time.monotonic() + seconds
    environment.reset(seed=seed)
    while time.monotonic() < deadline:
        for agent in environment.agent_iter():
            obs, reward, terminated, truncated, _ = environment.last()
            if reward:  # a round ended: credit this seat's choices of that round
                table.learn(chosen.pop(agent, []), float(reward))
            if terminated or truncated:
                environment.step(None)
                continue
            seen = np.flatnonzero(obs["observation"][start : start + 40])
            on_table = mask_of(CARDS[int(i)] for i in seen)
            legal = [actions.move_for(rules, int(a), on_table)
                     for a in np.flatnonzero(obs["action_mask"].view(bool))]
            move = rng.choice(legal) if rng.random() < epsilon else table.best(on_table, legal)
            chosen[agent].append(describe(on_table, move))
            environment.step(actions.action_of(rules, move))
            steps += 1
        environment.reset()
    return table, steps


class TablePlayer:
    """The trained table as a bot: ``choose(view)``, like the project's own levels."""

    name = "selfplay"

    def __init__(self, table: Table) -> None:
        self.table = table

    def choose(self, view: View) -> Move:
        return self.table.best(mask_of(view.table), view.legal_moves())


def player(argument: str | None, seed: int | None) -> TablePlayer:
    """The level ``examples/selfplay_agent.py:player:AGENT.json`` of ``scopa tournament``."""
    return TablePlayer(Table.load(Path(argument or "agent.json")))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="scopa")
    parser.add_argument("--seconds", type=float, default=180.0, help="training time")
    parser.add_argument("--matches", type=int, default=200, help="tournament seeds")
    parser.add_argument("--out", type=Path, default=Path("agent.json"))
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    from scopa import tournament

    rules = Rules.preset(args.preset)
    table, steps = train(rules, args.seconds)
    table.save(args.out)
    print(f"trained {steps:,} steps in {args.seconds:g} s; {len(table.values)} move kinds; "
          f"saved to {args.out}")
    level = f"{Path(__file__).resolve()}:player:{args.out.resolve()}"
    for opponent in ("random", "greedy"):
        result = tournament.run(level, opponent, rules, seeds=args.matches, jobs=args.jobs)
        stats = result.level_stats()[0]
        low, high = result.paired_interval
        print(f"vs {opponent}: wins {stats.wins} of {result.games} matches "
              f"({stats.wins / result.games:.1%}, 95% CI {low:.1%} - {high:.1%})")
    print(f"again: scopa tournament {level} greedy --preset {args.preset} --matches 200")
    return 0


if __name__ == "__main__":
    sys.exit(main())
