"""The learned level's costs: self-play positions per CPU second (the playout policy's,
generation 0, and a learned generation's), leaves scored per second, and the time a
decision takes with and without guesses weighted by the opponent's plays, on 2 players
(scopa, or ``--preset``);
and how a learned generation's self-play policy fares against the playout policy it
replaces, on paired deals (``--duel`` matches; the policy that makes the data has to be
the stronger one for the next generation to learn better play).

    python benchmarks/learned.py [--matches 200] [--decisions 300] [--samples N] [--plies N]
                                 [--guesses N] [--weighting X] [--duel N] [--weights FILE]
                                 [--reply policy|minimax] [--preset escoba] [--mix X]

A ``--weights`` file of the ``search`` target (the master's search values distilled,
``python -m scopa.learning --targets search``) fields its leaf in the same places, read
with the match standing. A ``--weights`` file of the determinized feature set fields its
leaf everywhere (its data is recorded with the other hands; guesses are not weighted,
which needs the seat set); ``--reply minimax`` picks the reply before the leaf by the
evaluation, in the decisions and in the duel's policy. ``--mix X`` also times decisions
of the mixed leaf (the net's value and the master's playout's, in shares ``1 - X`` and
``X``; 64 guesses unless ``--samples``) and of the master itself, on the same positions.

Figures are CPU seconds where the work is single-process (a shared machine skews wall
time more), and wall time per decision as a person waits for it. Strength is measured
with ``scopa tournament learned master`` on paired seeds (``docs/learned.md``).
"""

from __future__ import annotations

import argparse
import math
import random
import time

from scopa import Game, Rules
from scopa.cards import ALL_CARDS_MASK, value_of
from scopa.learning.evaluation import Evaluation, evaluation_for
from scopa.learning.learned import DEFAULT_PLIES, REPLIES, LearnedPlayer
from scopa.learning.selfplay import DEFAULT_GUESSES, LearnedPolicy, play_matches
from scopa.learning.weighting import DEFAULT_SHARPNESS
from scopa.players.base import Player
from scopa.players.master import MasterPlayer
from scopa.players.simulation import round_model
from scopa.round import Round, shuffled_deck
from scopa.scoring import match_winner


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--decisions", type=int, default=300)
    parser.add_argument("--samples", type=int, help="guesses a decision (default: the level's)")
    parser.add_argument("--plies", type=int, default=DEFAULT_PLIES)
    parser.add_argument("--guesses", type=int, default=DEFAULT_GUESSES)
    parser.add_argument("--weighting", type=float, default=DEFAULT_SHARPNESS)
    parser.add_argument("--duel", type=int, default=200, help="match seeds of the duel")
    parser.add_argument("--weights", help="the evaluation to field (default: the package's)")
    parser.add_argument("--reply", default="policy", choices=REPLIES)
    parser.add_argument("--preset", default="scopa")
    parser.add_argument("--mix", type=float, default=0.0,
                        help="also time the mixed leaf with this playout share, and the master")
    args = parser.parse_args()
    rules = Rules.preset(args.preset)
    evaluation = (Evaluation.load(args.weights, features=None) if args.weights
                  else evaluation_for(rules))
    features = evaluation.features
    print(f"evaluation: {args.weights or 'the package'}'s, {features} features, "
          f"{args.reply} reply")

    cpu = time.process_time()
    positions = play_matches(rules, args.matches, seed=1, features=features)
    spent = time.process_time() - cpu
    print(f"self-play: {len(positions):,} positions of {args.matches} matches in {spent:.2f} "
          f"CPU s: {len(positions) / spent:,.0f} positions per CPU s")
    cpu = time.process_time()
    learned = play_matches(rules, args.matches, seed=1,
                           policy=LearnedPolicy(rules, evaluation, args.guesses, args.plies,
                                                args.reply), features=features)
    spent = time.process_time() - cpu
    print(f"self-play of a learned generation ({args.guesses} guesses, {args.plies} plies): "
          f"{len(learned):,} "
          f"positions of {args.matches} matches in {spent:.2f} CPU s: "
          f"{len(learned) / spent:,.0f} positions per CPU s")

    records = positions.records
    for batch in (1, 64, 1024):
        rows = records[:batch]
        rounds = max(1, 20_000 // batch)
        cpu = time.process_time()
        for _ in range(rounds):
            if evaluation.target == "search":
                evaluation.utilities(rows, positions.standing[:batch], rules)
            else:
                evaluation.points(rows)
        spent = time.process_time() - cpu
        print(f"evaluation in batches of {batch}: {batch * rounds / spent:,.0f} leaves per CPU s")

    weightings = (0.0, args.weighting) if features == "seat" else (0.0,)
    for weighting in weightings if args.decisions else ():  # --decisions 0: none timed
        player = LearnedPlayer(seed=1, samples=args.samples, plies=args.plies,
                               weighting=weighting, evaluation=evaluation, reply=args.reply)
        _time_decisions(f"learned ({player.samples} samples, {args.plies} plies, {args.reply} "
                        f"reply, weighting {weighting})", player, rules, args.decisions)
    if args.mix and args.decisions:
        mixed = LearnedPlayer(seed=1, samples=args.samples, plies=args.plies,
                              evaluation=evaluation, mix=args.mix)
        _time_decisions(f"learned, mix {args.mix} ({mixed.samples} samples, {args.plies} plies)",
                        mixed, rules, args.decisions)
        _time_decisions("master", MasterPlayer(seed=1), rules, args.decisions)


    policy = LearnedPolicy(rules, evaluation, args.guesses, args.plies, args.reply)
    cpu = time.process_time()
    units = [sum(_duel(rules, policy, seed, side) for side in (0, 1)) / 2
             for seed in range(args.duel)]
    spent = time.process_time() - cpu
    mean = sum(units) / len(units)
    half = 1.96 * math.sqrt(sum((u - mean) ** 2 for u in units) / (len(units) - 1) / len(units))
    print(f"learned policy ({features} leaf, {evaluation.target} target, {args.guesses} "
          f"guesses, {args.plies} plies, {args.reply} reply) vs the playout policy: "
          f"{100 * mean:.1f}% of "
          f"{2 * args.duel} matches (paired 95% CI {100 * (mean - half):.1f} - "
          f"{100 * (mean + half):.1f}%), no random moves; {spent:.1f} CPU s")


def _time_decisions(label: str, player: Player, rules: Rules, decisions: int) -> None:
    """Print the time ``player`` takes over ``decisions`` decisions of seat 0, against
    random moves, in the matches of seeds 0, 1, ... (the same positions for every player
    until their choices part)."""
    rng = random.Random(2)
    times: list[float] = []
    cpu = time.process_time()
    seed = 0
    while len(times) < decisions:
        game = Game.new(rules, seed=seed)
        seed += 1
        while not game.is_over and len(times) < decisions:
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
    print(f"{label}: {len(times)} decisions, mean {sum(times) / len(times) * 1000:.1f} ms, "
          f"worst {max(times) * 1000:.1f} ms (wall); {spent / len(times) * 1000:.1f} CPU ms "
          "a decision with the random opponent's")


def _duel(rules: Rules, policy: LearnedPolicy, seed: int, side: int) -> bool:
    """One match on the round state: ``policy`` at ``side``, the playout policy at the other,
    the decks from ``seed`` (so the two sides of a seed see the same cards); whether
    ``policy`` won."""
    rng = random.Random(seed)
    choose_rng = random.Random(seed + 1_000_000)
    model = round_model(rules)
    scores = [0, 0]
    number = 0
    while True:
        state = Round.deal(rules, number % 2, lambda: shuffled_deck(rng))
        while not state.over:
            moves = state.legal()
            seat = state.to_move
            if len(moves) == 1:
                move = moves[0]
            elif seat % 2 == side:
                move = policy.choose(state, moves, choose_rng, scores)
            else:
                seen = state.hands[seat] | state.table | state.piles[0] | state.piles[1]
                following = state.hands[1 - seat]
                reply = following.bit_count() or min(state.stock_left, rules.hand_size)
                move = model.choose(moves, state.table, value_of(state.table),
                                    ALL_CARDS_MASK & ~seen, reply)
            state.apply(move)
        for k, points in enumerate(state.points()):
            scores[k] += points
        number += 1
        winner = match_winner(rules, scores)
        if winner is not None:
            return winner == side


if __name__ == "__main__":
    main()
