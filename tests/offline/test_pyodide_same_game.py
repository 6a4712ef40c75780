"""Offline play runs the same game: the core and the bots under Pyodide in Node play every
seeded deal move for move as they do natively (issue 37, item 3).

Every seat's view after every move, every move, the master's value of each move it weighed
(to the last bit) and the match's record must be equal. The rules: whole matches of every
preset, cheap bots at the seats, at least 1,000 deals (rounds) in all. The master (fixed work:
``time_budget=None``, since a wall-clock cap cuts a search where the clock says, and two
machines' clocks never agree) against greedy: two deals of each preset and one at three
sides, what fits the minute beside the rules. benchmarks/offline_same_game.py plays the goal's
100 master deals (all agreed on 2026-12-07) and reports the times.

It skips only where Node is absent; with Node here and the runtime missing it fails, since
scripts/test.sh runs scripts/pyodide.py before the tests.
"""

from __future__ import annotations

import shutil
from typing import Any

import pytest

from scopa import preset_names

from .runner import first_difference, mismatches, run_both

RULES_MATCHES = 250
"""Seeded matches for the rules: about 1,030 rounds (at least 1,000 is checked)."""

MASTER_DEALS_PER_PRESET = 2


def rules_jobs() -> list[dict[str, Any]]:
    presets = preset_names()
    return [
        {"kind": "rules", "preset": presets[seed % len(presets)], "seed": seed}
        for seed in range(RULES_MATCHES)
    ]


def master_jobs() -> list[dict[str, Any]]:
    presets = preset_names()
    jobs = [
        {"kind": "master", "preset": preset, "seed": 1000 + seed, "rounds": 1}
        for seed in range(MASTER_DEALS_PER_PRESET)
        for preset in presets
    ]
    # Three sides: the master's outlook is a logistic there (math.exp, the one libm call).
    jobs.append({"kind": "master", "preset": "scopa", "players": 3, "seed": 7, "rounds": 1})
    return jobs


def test_pyodide_plays_every_deal_as_native_python() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed: Pyodide runs under node (Debian's nodejs)")
    jobs = rules_jobs() + master_jobs()
    runs = run_both(node, jobs)
    assert runs.pyodide["python"].startswith("3.14"), runs.pyodide["python"]
    wrong = mismatches(runs, jobs)
    if wrong:
        pytest.fail(
            f"{len(wrong)} of {len(jobs)} games differ under Pyodide; the first:\n"
            + first_difference(node, wrong[0])
        )
    results = runs.native["results"]
    rounds = sum(result["rounds"] for result in results[:RULES_MATCHES])
    assert rounds >= 1000, f"only {rounds} rules deals"
    master_moves = sum(len(result["master_times"]) for result in results[RULES_MATCHES:])
    assert master_moves > 5 * len(master_jobs()), "the master weighed too few moves"
