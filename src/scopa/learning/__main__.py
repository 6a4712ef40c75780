"""``python -m scopa.learning``: self-play data, training and the weights file, from one seed.

    python -m scopa.learning --preset scopa --players 2 --seed 15 --matches 20000 --jobs 2

writes ``src/scopa/players/weights/scopa-2p.npz`` (or ``--out``) and prints what it
took: positions, wall-clock and CPU seconds, the fit's errors and the data's SHA-256,
which the weights file also records. Unknown presets and player counts are refused
with the core's sentence before anything runs.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from ..players.evaluation import rules_name, weights_path
from ..rules import Rules
from .selfplay import DEFAULT_EPSILON, generate
from .train import DEFAULT_EPOCHS, DEFAULT_HIDDEN, train


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scopa.learning", description=__doc__.split(
        "\n")[0])
    parser.add_argument("--preset", default="scopa")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--matches", type=int, default=20_000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--epsilon", type=float, default=DEFAULT_EPSILON)
    parser.add_argument("--hidden", type=int, default=DEFAULT_HIDDEN)
    parser.add_argument("--epochs", type=int, default=DEFAULT_EPOCHS)
    parser.add_argument("--out", help="the weights file (default: the package's for the rules)")
    parser.add_argument("--data", help="also save the self-play positions to this .npz file")
    args = parser.parse_args(argv)
    try:
        rules = Rules.preset(args.preset, players=args.players)
        name = rules_name(rules)
    except ValueError as error:
        print(f"python -m scopa.learning: {error}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    generated = generate(rules, args.matches, args.seed, args.jobs, args.epsilon)
    positions = generated.positions
    digest = positions.digest()
    print(f"self-play {name}: {args.matches} matches, {len(positions):,} positions in "
          f"{generated.seconds:.1f} s ({generated.cpu_seconds:.1f} CPU s, "
          f"{len(positions) / max(generated.cpu_seconds, 1e-9):,.0f} positions per CPU s, "
          f"{args.jobs} jobs)")
    print(f"data sha256 {digest}")
    meta: dict[str, object] = {
        "rules": name, "matches": args.matches, "epsilon": args.epsilon,
        "data_sha256": digest, "policy": "playout policy",
    }
    if args.data:
        positions.save(args.data, meta | {"seed": args.seed})
    fit_started = time.perf_counter()
    cpu_started = time.process_time()
    fit = train(positions, args.seed, args.hidden, args.epochs, meta)
    print(f"training: {time.perf_counter() - fit_started:.1f} s "
          f"({time.process_time() - cpu_started:.1f} CPU s); mean squared error per output: "
          f"train {fit.train_loss:.3f}, held out {fit.held_out_loss:.3f} "
          f"(always the mean: {fit.baseline_loss:.3f})")
    out = args.out or weights_path(rules)
    fit.evaluation.save(out)
    print(f"weights: {out} ({fit.evaluation.meta['hidden']} hidden units); "
          f"the whole run {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
