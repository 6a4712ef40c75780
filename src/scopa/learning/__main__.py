"""``python -m scopa.learning``: generations of self-play, training and tournaments, from one seed.

    python -m scopa.learning --preset scopa --players 2 --seed 15 --matches 20000 --jobs 2
    python -m scopa.learning --generations 3 --seeds 100 --run runs/scopa-2p
    python -m scopa.learning --features determinized --seeds 0 --out runs/d.npz

Generation 0 learns from the playout policy's self-play; generation ``k + 1`` from the
self-play of generation ``k``'s evaluation (:class:`~.selfplay.LearnedPolicy`). Each
generation's data is played from the seed ``seed + k`` and its weights are kept in the
run folder (``--run``, ``<rules>-gen<k>.npz``); the generation ``--ship`` names (default:
the last) is also written to ``--out`` (default: the package's weights for the rules).
After training, each generation plays paired-seed tournaments (``--seeds`` match seeds
against each of ``--against``, :func:`scopa.tournament.run`) and one line per match-up
says how it did, so the figures of all generations show whether more compute pays.

It prints what each step took: positions, wall-clock and CPU seconds, the fit's errors,
the SHA-256 of the data and of the weights, which each weights file also records.
``--features determinized`` records the positions with the other hands and trains a
leaf that reads them (:mod:`scopa.learning.features`); its files go by
``<rules>-determinized``; ``--open-play`` has generation 0's playout policy see the next
hand, so the targets are those of perfect-information play. Unknown presets and player
counts are refused with the core's sentence before anything runs.

``--targets search`` is expert iteration's one step (:mod:`.distil`): the master plays
``--matches`` matches against itself and labels every decision with its search value
(``--samples`` guesses a decision), and one generation learns those values from the
seat's record and the match standing (``meta["target"] = "search"``). Its weights stay in
the run folder (``<rules>-search-gen0.npz``) unless ``--out`` names a file; ``--positions``
trains on labels saved before by ``--data`` instead of making them again.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..players.master import DEFAULT_SAMPLES
from ..rules import Rules
from ..tournament import Tournament, run
from .distil import SEARCH_TARGETS, label
from .evaluation import Evaluation, check_target, rules_name, weights_path
from .features import FEATURE_SETS, check_features
from .learned import REPLIES, check_reply
from .levels import level
from .selfplay import (
    DEFAULT_EPSILON,
    DEFAULT_GUESSES,
    DEFAULT_PLIES,
    TARGETS,
    Generated,
    LearnedPolicy,
    Positions,
    generate,
)
from .train import DEFAULT_EPOCHS, DEFAULT_HIDDEN, train


@dataclass
class Generation:
    """One generation's weights and how they fared."""

    number: int
    path: Path
    positions: int
    tournaments: list[Tournament]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scopa.learning", description=__doc__.split(
        "\n")[0])
    parser.add_argument("--preset", default="scopa")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--matches", type=int, default=20_000,
                        help="self-play matches of generation 0")
    parser.add_argument("--next-matches", type=int,
                        help="self-play matches of each later generation (default: --matches)")
    parser.add_argument("--generations", type=int, default=1)
    parser.add_argument("--guesses", type=int, default=DEFAULT_GUESSES,
                        help="guesses at the hidden cards per move in later generations' play")
    parser.add_argument("--plies", type=int, default=DEFAULT_PLIES,
                        help="replies of the playout policy before the leaf, in that play")
    parser.add_argument("--reply", default="policy", choices=REPLIES,
                        help="how that play picks the reply before the leaf")
    parser.add_argument("--features", default="seat", choices=FEATURE_SETS,
                        help="what the positions and the leaf hold: the seat's knowledge, "
                        "or that and the other hands (inside a search's guess)")
    parser.add_argument("--open-play", action="store_true",
                        help="generation 0's playout policy sees the next hand "
                        "(perfect-information play for the targets)")
    parser.add_argument("--targets", default="points",
                        help="what the net learns: 'points' (the round points self-play "
                        "scored) or 'search' (the master's search values, one generation)")
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES,
                        help="the master's guesses a decision when it labels positions")
    parser.add_argument("--positions", help="train generation 0 on positions saved by --data "
                        "rather than making them")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--epsilon", type=float, default=DEFAULT_EPSILON)
    parser.add_argument("--hidden", type=int, default=DEFAULT_HIDDEN)
    parser.add_argument("--epochs", type=int, default=DEFAULT_EPOCHS)
    parser.add_argument("--run", help="the folder of every generation's weights "
                        "(default: runs/<rules>-seed<seed>)")
    parser.add_argument("--out", help="the shipped weights file (default: the package's)")
    parser.add_argument("--ship", type=int,
                        help="the generation written to --out (default: the last)")
    parser.add_argument("--seeds", type=int, default=10,
                        help="match seeds of each generation's tournaments (0: none)")
    parser.add_argument("--against", default="expert,master",
                        help="the levels each generation plays, comma-separated")
    parser.add_argument("--tournament-seed", type=int, default=1)
    parser.add_argument("--data", help="also save generation 0's positions to this .npz file")
    args = parser.parse_args(argv)
    try:
        rules = Rules.preset(args.preset, players=args.players)
        check_features(args.features)
        check_reply(args.reply, args.plies)
        check_target(args.targets)
        search = args.targets == "search"
        if search:
            if args.generations != 1:
                raise ValueError("the search target is one step of expert iteration: "
                                 f"generations must be 1; got {args.generations}")
            if args.features != "seat":
                raise ValueError("the search target reads the seat's records; features must "
                                 f"be 'seat'; got {args.features!r}")
            if rules.sides != 2:
                raise ValueError(f"the search target needs two sides; these rules have "
                                 f"{rules.sides}")
            if args.samples < 1:
                raise ValueError(f"samples must be 1 or more; got {args.samples}")
        name = (rules_name(rules) + ("" if args.features == "seat" else f"-{args.features}")
                + ("-search" if search else ""))
        for count, what in ((args.generations, "generations"), (args.matches, "matches"),
                            (args.next_matches or 1, "next matches")):
            if count < 1:
                raise ValueError(f"{what} must be 1 or more; got {count}")
        if args.seeds < 0:
            raise ValueError(f"seeds must be 0 or more; got {args.seeds}")
        ship = args.generations - 1 if args.ship is None else args.ship
        if not 0 <= ship < args.generations:
            raise ValueError(f"--ship must name a generation from 0 to {args.generations - 1}; "
                             f"got {ship}")
        opponents = [item for item in args.against.split(",") if item] if args.seeds else []
    except ValueError as error:
        print(f"python -m scopa.learning: {error}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    folder = Path(args.run or f"runs/{name}-seed{args.seed}")
    folder.mkdir(parents=True, exist_ok=True)
    generations: list[Generation] = []
    parent: Evaluation | None = None
    parent_hash = ""
    for number in range(args.generations):
        matches = args.matches if number == 0 else args.next_matches or args.matches
        policy = (None if parent is None
                  else LearnedPolicy(rules, parent, args.guesses, args.plies, args.reply))
        played_by = (("open playout policy" if args.open_play else "playout policy")
                     if parent is None else
                     f"learned generation {number - 1}, {args.guesses} guesses, "
                     + ("the minimax reply" if args.reply == "minimax"
                        else f"{args.plies} plies"))
        if search:
            played_by = (f"master, labelled by its search ({args.samples} guesses a "
                         "decision)")
        print(f"generation {number}: {matches} matches of self-play by the {played_by}")
        data_seed = args.seed + number
        if args.positions and number == 0:
            positions = Positions.load(args.positions)
            columns = SEARCH_TARGETS if search else TARGETS
            if positions.targets.shape[1] != len(columns):
                print(f"python -m scopa.learning: the positions in {args.positions} are not "
                      f"labelled for the {args.targets!r} target", file=sys.stderr)
                return 2
            print(f"positions {name}: {len(positions):,} read from {args.positions}")
        else:
            generated: Generated = (
                label(rules, matches, data_seed, args.jobs, args.epsilon, args.samples)
                if search else
                generate(rules, matches, data_seed, args.jobs, args.epsilon, policy,
                         args.features, args.open_play and parent is None)
            )
            positions = generated.positions
            print(f"self-play {name}: {matches} matches, {len(positions):,} positions in "
                  f"{generated.seconds:.1f} s ({generated.cpu_seconds:.1f} CPU s, "
                  f"{len(positions) / max(generated.cpu_seconds, 1e-9):,.0f} positions per "
                  f"CPU s, {args.jobs} jobs)")
            del generated
        digest = positions.digest()
        print(f"data sha256 {digest}"
              + ("" if args.positions and number == 0 else f", seed {data_seed}"))
        meta: dict[str, object] = {
            "rules": rules_name(rules), "matches": matches, "epsilon": args.epsilon,
            "data_sha256": digest,
            "policy": played_by, "generation": number, "data_seed": data_seed,
        }
        if search:
            meta["samples"] = args.samples
        if parent is not None:
            meta |= {"guesses": args.guesses, "plies": args.plies,
                     "parent_sha256": parent_hash}
            if args.reply != "policy":
                meta["reply"] = args.reply
        if args.data and number == 0:
            positions.save(args.data, meta | {"seed": args.seed})
        fit_started = time.perf_counter()
        cpu_started = time.process_time()
        fit = train(positions, args.seed, args.hidden, args.epochs, meta, args.targets, rules)
        print(f"training: {time.perf_counter() - fit_started:.1f} s "
              f"({time.process_time() - cpu_started:.1f} CPU s); mean squared error per output: "
              f"train {fit.train_loss:.3f}, held out {fit.held_out_loss:.3f} "
              f"(always the mean: {fit.baseline_loss:.3f})")
        del positions
        path = folder / f"{name}-gen{number}.npz"
        fit.evaluation.save(path)
        parent, parent_hash = fit.evaluation, _file_hash(path)
        print(f"weights: {path} ({fit.evaluation.meta['hidden']} hidden units), "
              f"sha256 {parent_hash}")
        tournaments = []
        for opponent in opponents:
            result = run(level(path), opponent, rules, args.seeds, args.tournament_seed,
                         args.jobs)
            print(_figure_line(number, opponent, result))
            tournaments.append(result)
        generations.append(Generation(number, path, fit.evaluation.meta["positions"],
                                      tournaments))
    if opponents:
        print(f"\nby generation ({args.seeds} paired seeds each, seed {args.tournament_seed}):")
        for generation in generations:
            for opponent, result in zip(opponents, generation.tournaments, strict=True):
                print(_figure_line(generation.number, opponent, result))
    whole = f"the whole run {time.perf_counter() - started:.1f} s"
    if search and not args.out:
        # Distilled weights ship only once they beat the master: not by default.
        print(f"weights kept in {folder}; {whole}")
        return 0
    out = Path(args.out) if args.out else weights_path(rules, args.features)
    shutil.copyfile(generations[ship].path, out)
    print(f"shipped: generation {ship} as {out}; {whole}")
    return 0


def _figure_line(number: int, opponent: str, result: Tournament) -> str:
    """One generation against one level: games won, win rate, paired 95% interval, times."""
    low, high = result.paired_interval
    mine, theirs = result.level_stats()
    won = sum(r.first_won for r in result.results)
    return (f"generation {number} vs {opponent}: {won} / {result.games} won, "
            f"{100 * result.win_rate:.1f}% (paired 95% CI {100 * low:.1f} - {100 * high:.1f}%); "
            f"ms a move {1000 * mine.mean_time:.1f} (worst {1000 * mine.worst_time:.0f}), "
            f"{opponent} {1000 * theirs.mean_time:.1f}")


def _file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


if __name__ == "__main__":
    sys.exit(main())
