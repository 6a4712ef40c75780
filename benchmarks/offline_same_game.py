"""The same game under Pyodide and natively, at the issue's full size, with the times (issue 37).

tests/offline/test_pyodide_same_game.py plays 1,030 rules deals and 22 master deals within a
minute; this plays the goal's 100 master deals (and more rules deals, and three-sided tables),
checks that every one agrees, and reports the master's time per move weighed, p50 and p95,
under Pyodide in Node beside native CPython on the same deals. Each runs with a core of its own
(native first, then Pyodide), so the times compare; run it on a quiet machine.

    python scripts/pyodide.py                      # the runtime and the wheel, once
    python benchmarks/offline_same_game.py [--master 100] [--rules 250] [--three 6]

Exits 1 if any deal differs, naming the first and where its transcripts part.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scopa import preset_names
from scopa.players.master import DEFAULT_TIME_BUDGET as CAP
from tests.offline.runner import first_difference, mismatches, run_both


def jobs(rules: int, master: int, three: int) -> list[dict[str, Any]]:
    presets = preset_names()
    found: list[dict[str, Any]] = [
        {"kind": "rules", "preset": presets[seed % len(presets)], "seed": seed}
        for seed in range(rules)
    ]
    found += [
        {"kind": "master", "preset": presets[seed % len(presets)], "seed": 5000 + seed, "rounds": 1}
        for seed in range(master)
    ]
    found += [
        {"kind": "master", "preset": "scopa", "players": 3, "seed": 9000 + seed, "rounds": 1}
        for seed in range(three)
    ]
    return found


def figures(results: list[dict[str, Any]]) -> str:
    times = sorted(t for result in results for t in result["master_times"])
    if not times:
        return "no master move"
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    return (
        f"{len(times)} master moves: p50 {1000 * statistics.median(times):.1f} ms, "
        f"p95 {1000 * p95:.1f} ms, mean {1000 * statistics.fmean(times):.1f} ms, "
        f"max {1000 * times[-1]:.0f} ms; {sum(t > CAP for t in times)} over the master's default "
        f"{CAP} s cap (time_budget), where the capped move may differ"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", type=int, default=250, help="rules matches (about 4 deals)")
    parser.add_argument("--master", type=int, default=100, help="master deals, every preset")
    parser.add_argument("--three", type=int, default=6, help="master deals at three sides")
    args = parser.parse_args()
    node = shutil.which("node")
    if node is None:
        sys.exit("benchmarks/offline_same_game.py: node is not installed")
    planned = jobs(args.rules, args.master, args.three)
    start = time.perf_counter()
    runs = run_both(node, planned, timeout=3600, together=False)
    wall = time.perf_counter() - start
    native, pyodide = runs.native["results"], runs.pyodide["results"]
    rules = args.rules
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.2f}, Pyodide's Python {runs.pyodide['python'].split()[0]}, "
          f"native {sys.version.split()[0]}; {wall:.0f} s in all")
    print(f"Pyodide's start (runtime, wheel, harness): {runs.pyodide['startup']:.2f} s")
    print(f"rules: {rules} matches, {sum(r['rounds'] for r in native[:rules])} deals, "
          f"{sum(r['moves'] for r in native[:rules])} moves")
    native_rules = sum(r["seconds"] for r in native[:rules])
    pyodide_rules = sum(r["seconds"] for r in pyodide[:rules])
    print(f"  native {native_rules:.1f} s, Pyodide {pyodide_rules:.1f} s "
          f"({pyodide_rules / max(native_rules, 1e-9):.2f}x)")
    for name, part in (("master", slice(rules, rules + args.master)),
                       ("master, three sides", slice(rules + args.master, None))):
        print(f"{name}: {len(native[part])} deals")
        print(f"  native:  {figures(native[part])}")
        print(f"  Pyodide: {figures(pyodide[part])}")
    wrong = mismatches(runs, planned)
    if wrong:
        print(f"{len(wrong)} of {len(planned)} deals differ; the first:")
        print(first_difference(node, wrong[0]))
        return 1
    print(f"all {len(planned)} jobs agree: every move, view, master value and record")
    return 0


if __name__ == "__main__":
    sys.exit(main())
