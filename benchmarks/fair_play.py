"""How well ``scopa moderate suspects`` tells cheaters from honest players (issue 34, item F).

A population plays rated 2-player scopa matches, paired each round with a neighbour in the
shown rating, through the room's own code: the match is the rules core's, its rating move is
:func:`scopa.server.accounts.ratings.update`, its judgement the master's review of each seat
(:func:`scopa.review.review_move`, as the engine watch asks the review workers) tallied by
:func:`scopa.server.accounts.agreement.tally`, and the list is
:func:`~scopa.server.accounts.agreement.suspects`. Only the database and the sockets are left
out: they carry these figures, they do not make them.

* ``--honest`` players, a third each of the beginner, casual and expert levels (``random``,
  ``greedy``, ``expert``);
* ``--every`` cheaters who play the master's move on every turn;
* ``--third`` cheaters who play it on one turn in three, their own level's move otherwise
  (their levels drawn as the honest players').

After 5, 10 and 20 matches each (``--matches``) it prints how many of each are suspects.
What it cannot say: a strong human is not an expert bot, and a human cheater picks the turns
that matter; the honest population here plays as three programs do.

    .venv/bin/python benchmarks/fair_play.py [--honest 200] [--every 20] [--third 20]
        [--matches 20] [--target 1] [--workers 2] [--seed 1]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from harness import machine

from scopa import Game, Rules
from scopa.players import make_player
from scopa.review import jobs, review_move
from scopa.server.accounts.agreement import suspects, tally
from scopa.server.accounts.ratings import MODEL, Rated, display, side_ranks, update
from scopa.server.store.fairplay_queries import Judged

LEVELS = ("random", "greedy", "expert")
CHECKPOINTS = (5, 10, 20)


@dataclass
class Person:
    id: int
    group: str
    """``honest``, ``every`` or ``third``."""
    level: str
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    judged: list[Judged] = field(default_factory=list)

    @property
    def shown(self) -> int:
        return display(self.mu, self.sigma)


def play_and_judge(task: tuple[int, int, list[tuple[str, str]], int]) -> dict[str, Any]:
    """One match of two seats (each its group and level), played out and each seat judged."""
    match, seed, seats, target = task
    rng = random.Random(seed)
    own = [make_player(level, seed=rng.randrange(2**31)) for _, level in seats]
    master = make_player("master", seed=rng.randrange(2**31))
    game = Game.new(Rules.preset("scopa", target=target), seed=seed)
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        group = seats[seat][0]
        cheats = group == "every" or (group == "third" and rng.random() < 1 / 3)
        view = game.view(seat)
        game.play((master if cheats else own[seat]).choose(view))
    record = game.record()
    tallies = [tally([review_move(job) for job in jobs(record, seat)]) for seat in range(2)]
    scores = tuple(game.scores)
    return {"match": match, "scores": scores, "winner": game.winner,
            "tallies": [(t.positions, t.matched, t.cost) for t in tallies]}


def population(args: argparse.Namespace, rng: random.Random) -> list[Person]:
    people: list[Person] = []
    for group, count in (("honest", args.honest), ("every", args.every), ("third", args.third)):
        for index in range(count):
            level = LEVELS[index % len(LEVELS)] if group == "honest" else rng.choice(LEVELS)
            people.append(Person(len(people), group, level))
    return people


def pairs(people: list[Person], rng: random.Random) -> list[tuple[Person, Person]]:
    """Neighbours in the shown rating, a little shuffled, as a pool's waves pair them."""
    order = sorted(people, key=lambda p: p.shown + rng.uniform(-60, 60))
    return [(order[i], order[i + 1]) for i in range(0, len(order) - 1, 2)]


def report(people: list[Person], played: int) -> None:
    rows = sorted((row for p in people for row in p.judged), key=lambda r: r.judged_at,
                  reverse=True)
    flagged = {s.figure.account_id for s in suspects(rows)}
    groups: Counter[str] = Counter()
    caught: Counter[str] = Counter()
    for person in people:
        key = person.group if person.group != "honest" else f"honest {person.level}"
        groups[key] += 1
        caught[key] += person.id in flagged
    honest = sum(caught[k] for k in groups if k.startswith("honest"))
    honest_all = sum(groups[k] for k in groups if k.startswith("honest"))
    levels = ", ".join(f"{k[7:]} {caught[k]}/{groups[k]}" for k in sorted(groups)
                       if k.startswith("honest"))
    print(f"after {played} matches each: every-turn cheaters {caught['every']}/{groups['every']}"
          f", one-in-three {caught['third']}/{groups['third']}, honest {honest}/{honest_all} "
          f"({levels})", flush=True)
    for group in ("honest random", "honest greedy", "honest expert", "every", "third"):
        members = [p for p in people if (p.group if p.group != "honest"
                                         else f"honest {p.level}") == group]
        positions = sum(r.positions for p in members for r in p.judged[-20:])
        matched = sum(r.matched for p in members for r in p.judged[-20:])
        shown = sorted(p.shown for p in members)
        if members:
            print(f"  {group}: agreement {matched / max(positions, 1):.1%} over {positions} "
                  f"positions, shown rating median {shown[len(shown) // 2]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--honest", type=int, default=200)
    parser.add_argument("--every", type=int, default=20)
    parser.add_argument("--third", type=int, default=20)
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--target", type=int, default=1, help="points a match is played to")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dump", metavar="FILE", help="write each person's judged matches "
                        "as JSON, to study other figures")
    args = parser.parse_args()
    print(machine())
    rng = random.Random(args.seed)
    people = population(args, rng)
    rules = Rules.preset("scopa", target=args.target)
    start = time.perf_counter()
    moment = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
    match = 0
    with ProcessPoolExecutor(args.workers) as pool:
        for played in range(1, args.matches + 1):
            paired = pairs(people, rng)
            tasks = []
            for first, second in paired:
                match += 1
                tasks.append((match, rng.randrange(2**31),
                              [(first.group, first.level), (second.group, second.level)],
                              args.target))
            for (first, second), result in zip(paired, pool.map(play_and_judge, tasks),
                                               strict=True):
                seated = [first, second]
                ranks = side_ranks(result["scores"], result["winner"], set())
                moved = update(rules, [Rated(seat, p.mu, p.sigma, p.id)
                                       for seat, p in enumerate(seated)], ranks)
                moment += dt.timedelta(seconds=1)
                for seat, person in enumerate(seated):
                    positions, matched, cost = result["tallies"][seat]
                    person.judged.append(Judged(person.id, f"P{person.id}", result["match"],
                                                moment, positions, matched, cost,
                                                person.shown, []))
                    person.mu, person.sigma = moved[seat]
            if played in CHECKPOINTS or played == args.matches:
                print(f"[{time.perf_counter() - start:.0f} s]", end=" ")
                report(people, played)
    if args.dump:
        with open(args.dump, "w") as out:
            json.dump([{"id": p.id, "group": p.group, "level": p.level, "shown": p.shown,
                        "judged": [[r.positions, r.matched, r.cost, r.rating]
                                   for r in p.judged]} for p in people], out)


if __name__ == "__main__":
    main()
