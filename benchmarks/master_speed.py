"""How fast the ``master`` level answers, and a small paired match loop to check its strength.

Speed (the default): master plays every seat of a few matches and the time of each
decision is taken (moves with a single legal choice included, as a person would
wait for them); prints mean and worst per move for 2-player scopa, 2-player
escoba and 4-player scopa.

    python benchmarks/master_speed.py [--matches 2] [--samples N]

Strength: paired matches against another level (each seed played twice with the
seats swapped), master's match wins with a 95% confidence interval.

    python benchmarks/master_speed.py --versus expert --preset scopa --players 2 --matches 100

Ceiling: with ``--sees-hands`` the master is shown the other seats' hands (the stock
stays hidden). No honest player can do that; the gap between the two figures is
what the hidden cards cost, and it bounds what better inference could win.

    python benchmarks/master_speed.py --versus expert --sees-hands --matches 200

Playouts: how many of the master's playouts (a guess at the hidden cards, a candidate
move, the policy to the round's end, the score) run in a second, on positions from
seeded random games; a move's search is ``samples`` times its moves of them.

    python benchmarks/master_speed.py --playouts [--seconds 5]
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable, Sequence

import scopa.round
from scopa import Game, Rules
from scopa.cards import ids_of, mask_of
from scopa.players import Player, make_player, master
from scopa.players.master import DEFAULT_SAMPLES, MasterPlayer
from scopa.players.sampling import Knowledge
from scopa.players.simulation import round_model
from scopa.round import Round

SPEED_CONFIGS = (
    ("scopa, 2 players", "scopa", 2),
    ("escoba, 2 players", "escoba", 2),
    ("scopa, 4 players", "scopa", 4),
)


_PLAYING: list[Game] = []
"""The match being played, for :class:`SeeingKnowledge` (the only reader of its hands)."""


class SeeingKnowledge(Knowledge):
    """Guesses that always hold the true hands of the other seats; only the stock is guessed."""

    def sample(self, rng: random.Random) -> Round:
        hands = [mask_of(hand) for hand in _PLAYING[-1].hands]
        stock = [1 << i for i in ids_of(self.unseen & ~sum(hands))]
        rng.shuffle(stock)
        return Round.position(
            self.rules, hands, self.table, self.piles, self.sweeps, stock, self.seat, self.last
        )


def play_match(rules: Rules, seed: int, seats: Sequence[Player], times: list[float] | None) -> Game:
    """Play one match to its end. Master decisions are timed into ``times``."""
    game = Game.new(rules, seed=seed)
    _PLAYING[:] = [game]
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        player = seats[seat]
        start = time.perf_counter()
        move = player.choose(game.view(seat))
        if times is not None and isinstance(player, MasterPlayer):
            times.append(time.perf_counter() - start)
        game.play(move)
    return game


def speed(matches: int, samples: int) -> None:
    print(f"master, {samples} samples a move, every seat master, {matches} matches each")
    for label, preset, players in SPEED_CONFIGS:
        rules = Rules.preset(preset, players=players)
        times: list[float] = []
        for seed in range(matches):
            seats = [MasterPlayer(seed=seed * 10 + k, samples=samples) for k in range(players)]
            play_match(rules, seed, seats, times)
        mean = sum(times) / len(times)
        print(
            f"{label:<20} mean {mean * 1000:6.1f} ms   worst {max(times) * 1000:6.1f} ms"
            f"   ({len(times)} moves)"
        )


def playout_rate(rules: Rules, seconds: float) -> float:
    """The master's playouts per second on the turns of a few seeded random games."""
    model = round_model(rules)
    rng = random.Random(1)
    views = []
    for seed in range(20):
        game = Game.new(rules, seed=seed)
        for _ in range(rng.randrange(0, 20)):
            game.play(rng.choice(game.legal_moves()))
        if game.round_number == 0 and game.to_move is not None:
            views.append(game.view(game.to_move))
    playouts = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for view in views:
            knowledge = Knowledge(view)
            deal = knowledge.sample(rng)
            for move in view.legal_moves():
                line = deal.copy()
                line.apply(move)
                model.play_out(line)
                line.points()
                playouts += 1
    return playouts / (time.perf_counter() - start)


def versus(
    opponent: str, rules: Rules, matches: int, first_seed: int, make_master: Callable[[int], Player]
) -> None:
    """Paired matches: each seed twice, master on side 0 then on side 1."""
    wins = games = rounds = 0
    lead = 0.0
    times: list[float] = []
    players = rules.players
    sides = rules.sides
    for seed in range(first_seed, first_seed + matches):
        for master_side in (0, 1):
            seats = [
                make_master(seed * 10 + k)
                if rules.side_of(k) == master_side
                else make_player(opponent, seed * 10 + k)
                for k in range(players)
            ]
            game = play_match(rules, seed, seats, times)
            wins += game.winner == master_side
            games += 1
            for scores in game.round_scores:
                best_other = max(s.total for side, s in enumerate(scores) if side != master_side)
                lead += scores[master_side].total - best_other
                rounds += 1
        if games % 20 == 0 or seed == first_seed + matches - 1:
            rate = wins / games
            half = 1.96 * math.sqrt(rate * (1 - rate) / games)
            print(
                f"{games} matches: master wins {rate:6.1%}  (95% CI {rate - half:6.1%} .. "
                f"{rate + half:6.1%})  lead {lead / rounds:+.2f} points/round  "
                f"mean {sum(times) / len(times) * 1000:5.1f} ms/move",
                flush=True,
            )
    print(f"{rules.name}, {players} players, {sides} sides, master vs {opponent}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=None)
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    parser.add_argument("--versus", metavar="LEVEL", help="play paired matches against LEVEL")
    parser.add_argument("--preset", default="scopa")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1, help="first match seed")
    parser.add_argument(
        "--sees-hands", action="store_true", help="show the master the other hands (a ceiling)"
    )
    parser.add_argument("--playouts", action="store_true", help="the master's playouts per second")
    parser.add_argument("--seconds", type=float, default=5.0, help="time per --playouts figure")
    args = parser.parse_args()
    if args.playouts:
        core = "pure" if (scopa.round.__file__ or "").endswith(".py") else "compiled"
        print(f"the master's playouts per second, {args.seconds:g} s each, {core} core")
        for label, preset, players in SPEED_CONFIGS:
            rate = playout_rate(Rules.preset(preset, players=players), args.seconds)
            print(f"{label:<20} {rate:8,.0f} playouts/s")
        return
    if args.sees_hands:
        master.Knowledge = SeeingKnowledge  # type: ignore[misc]
    if args.versus is None:
        speed(args.matches or 2, args.samples)
        return
    rules = Rules.preset(args.preset, players=args.players)
    versus(
        args.versus,
        rules,
        args.matches or 100,
        args.seed,
        lambda seed: MasterPlayer(seed=seed, samples=args.samples),
    )


if __name__ == "__main__":
    main()
