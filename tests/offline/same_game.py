"""The games the differential test plays, the same code under Pyodide and natively.

Both sides run this module as it is (under Pyodide it is written into the runtime's file
system beside the unpacked wheel): it plays seeded games with the core and the bots and
writes a transcript of everything that must agree, each seat's view after every move
(``View.to_dict``: hand, table, piles, sweeps, scores, round breakdowns, legal moves), the
move chosen, the master's value of every move it weighed (``float.hex``, so to the last bit),
and the match's record. A game's result is the sha256 of its transcript; ``verbose`` gives the
transcript itself, to show where two runs part. Standard library and ``scopa`` only.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import time
from typing import Any

from scopa import Game, Rules
from scopa.players import LEVELS, MasterPlayer, Player, make_player

BOT_LEVELS = tuple(level for level in LEVELS if level != "master")
"""The rules games' players: the cheap levels, a seat's level drawn from the seed."""


def rules_of(job: dict[str, Any]) -> Rules:
    """The job's preset, with ``players`` changed when the job says (three sides: the only
    tables where the master's outlook calls ``math.exp``)."""
    rules = Rules.preset(job["preset"])
    if job.get("players"):
        rules = dataclasses.replace(rules, players=job["players"])
    return rules


def rules_game(rules: Rules, seed: int) -> tuple[Game, list[Player]]:
    """A match dealt by ``seed``, each seat a cheap bot seeded from it."""
    players = [
        make_player(BOT_LEVELS[(seed + seat) % len(BOT_LEVELS)], seed=seed * 8 + seat)
        for seat in range(rules.players)
    ]
    return Game.new(rules, seed=seed), players


def master_game(rules: Rules, seed: int) -> tuple[Game, list[Player]]:
    """A match where seat 0 is the master (fixed work: no clock) and the others greedy, as
    in the issue's timing."""
    players: list[Player] = [MasterPlayer(seed=seed, time_budget=None)]
    players += [make_player("greedy", seed=seed * 8 + seat) for seat in range(1, rules.players)]
    return Game.new(rules, seed=seed), players


def play(job: dict[str, Any]) -> dict[str, Any]:
    """Play one job (``kind``: rules or master, ``preset``, ``players`` if not the preset's,
    ``seed``, ``rounds``: stop after that many, 0 for the whole match, ``verbose``) and give
    its digest and figures: moves and rounds played, the master's time per move weighed, the
    job's time."""
    started = time.perf_counter()
    rounds = job.get("rounds", 0)
    deal = rules_game if job["kind"] == "rules" else master_game
    game, players = deal(rules_of(job), job["seed"])
    seats = range(game.rules.players)
    lines = [json.dumps(game.rules.to_dict(), sort_keys=True)]
    master_times: list[float] = []
    moves = 0

    def views() -> None:
        for seat in seats:
            data = game.view(seat).to_dict()
            del data["rules"]
            lines.append(json.dumps(data, sort_keys=True, separators=(",", ":")))

    views()
    while not game.is_over and not (rounds and len(game.round_scores) >= rounds):
        seat = game.to_move
        assert seat is not None
        player = players[seat]
        view = game.view(seat)
        if isinstance(player, MasterPlayer) and len(view.legal_moves()) > 1:
            start = time.perf_counter()
            values = player.evaluate(view)
            master_times.append(time.perf_counter() - start)
            move = values[0][0]
            lines.append(" ".join(f"{weighed}={value.hex()}" for weighed, value in values))
        else:
            move = player.choose(view)
        lines.append(f"{seat} plays {move}")
        game.play(move, seat)
        moves += 1
        views()
    lines.append(json.dumps(game.record(), sort_keys=True))
    transcript = "\n".join(lines)
    result: dict[str, Any] = {
        "digest": hashlib.sha256(transcript.encode()).hexdigest(),
        "moves": moves,
        "rounds": len(game.round_scores),
        "master_times": master_times,
        "seconds": time.perf_counter() - started,
    }
    if job.get("verbose"):
        result["lines"] = lines
    return result


def play_all(jobs: list[dict[str, Any]]) -> dict[str, Any]:
    """Every job, in order, with the time they took."""
    start = time.perf_counter()
    results = [play(job) for job in jobs]
    return {"results": results, "seconds": time.perf_counter() - start}
