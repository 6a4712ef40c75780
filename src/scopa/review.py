"""The master's review of a finished match: for each move of one seat, what the master would
have played and what the move played cost.

The master (:class:`~scopa.players.MasterPlayer`) is asked, at each of the seat's turns, for
every legal move's value from **that seat's view**: it guesses the hidden cards many times over
(only deals that agree with what the seat had seen) and plays each guess out, so a move is
judged on what the player could know, never on the cards they could not see. A move's value is
the master's utility: about the chance of winning the match after the round (see
:mod:`scopa.players.outlook`), plus its small tie-break on the round's points and its foresight.
The **cost** of the move played is the best move's value minus its own (never below 0).

Marks, by cost (documented in docs/ratings.md, "The master's review"):

* below :data:`INACCURACY` (0.03): a good move (the master's own choice, or as good as it);
* :data:`INACCURACY` to :data:`MISTAKE` (0.03 to 0.08): an inaccuracy;
* :data:`MISTAKE` to :data:`BLUNDER` (0.08 to 0.15): a mistake;
* :data:`BLUNDER` (0.15) or more: a blunder.

A forced move (the only legal one) is not judged. **Accuracy** is the share of the judged moves
that are good, in percent. The search uses a fixed seed and fixed work (no time budget), so a
review is the same on every machine and every time.

Each move is a separate job (:func:`review_move`) of plain JSON, so a server can run them one
by one in its worker processes and report progress between them; :func:`review_match` runs them
all here. Nothing in this module knows about the server.

>>> import random
>>> from scopa import Game, Rules
>>> game = Game.new(Rules.preset("scopa", target=1), seed=8)
>>> while not game.is_over:
...     game.play(random.Random(len(game.moves)).choice(game.legal_moves()))
>>> review = review_match(game.record(), seat=0, samples=8)
>>> review["seat"], len(review["moves"]) == len(game.moves) // 2
(0, True)
>>> 0 <= review["accuracy"] <= 100, review["moves"][0]["mark"] in MARKS
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from .game import Game
from .players import MasterPlayer
from .rules import Rules

INACCURACY: Final = 0.03
MISTAKE: Final = 0.08
BLUNDER: Final = 0.15
MARKS: Final = ("forced", "good", "inaccuracy", "mistake", "blunder")
SAMPLES: Final = 128
"""The master's guesses at the hidden cards per reviewed move: twice what it uses to play, for
steadier marks (a 2-player match's review still takes seconds)."""
SEED: Final = 1
"""The master's seed for reviews: the same review every time."""
WORST: Final = 3
"""How many of the biggest mistakes the summary names."""
SHOWN: Final = 4
"""Moves listed per position, best first, with their values."""


def mark(cost: float) -> str:
    """The mark of a judged move's cost.

    >>> [mark(c) for c in (0.0, 0.029, 0.03, 0.08, 0.2)]
    ['good', 'good', 'inaccuracy', 'mistake', 'blunder']
    """
    if cost >= BLUNDER:
        return "blunder"
    if cost >= MISTAKE:
        return "mistake"
    if cost >= INACCURACY:
        return "inaccuracy"
    return "good"


def jobs(record: dict[str, Any], seat: int, samples: int = SAMPLES) -> list[dict[str, Any]]:
    """One job per move of ``seat`` in a finished match's record: the position before it
    (rules, seed, first deck, the moves so far), the move played and its number (from 0)."""
    rules = Rules.from_dict(record["rules"])
    if not 0 <= seat < rules.players:
        raise ValueError(f"seat must be 0..{rules.players - 1}; got {seat}")
    game = Game.new(rules, seed=record["seed"], deck=record.get("deck"))
    found = []
    for number, code in enumerate(record["moves"]):
        if game.to_move == seat:
            found.append({
                "rules": record["rules"], "seed": record["seed"], "deck": record.get("deck"),
                "moves": record["moves"][:number], "seat": seat, "number": number,
                "played": code, "round": game.round_number + 1, "samples": samples,
            })
        game.play(code)
    return found


def review_move(job: dict[str, Any]) -> dict[str, Any]:
    """The master's judgement of one move (a job from :func:`jobs`): its choice, the cost of
    the move played, the mark, and the best few moves with their values."""
    rules = Rules.from_dict(job["rules"])
    game = Game.new(rules, seed=job["seed"], deck=job["deck"])
    for code in job["moves"]:
        game.play(code)
    view = game.view(job["seat"])
    played = str(game.legal_moves()[0]) if len(game.legal_moves()) == 1 else None
    judged: dict[str, Any] = {
        "number": job["number"], "round": job["round"], "played": job["played"],
    }
    if played is not None:
        return {**judged, "best": played, "cost": 0.0, "mark": "forced", "options": []}
    master = MasterPlayer(seed=SEED, time_budget=None, samples=job["samples"])
    values = [(str(move), value) for move, value in master.evaluate(view)]
    best, best_value = values[0]
    mine = next((value for move, value in values if move == job["played"]), best_value)
    cost = max(0.0, best_value - mine)
    return {
        **judged, "best": best, "cost": round(cost, 4), "mark": mark(cost),
        "options": [{"move": move, "value": round(value, 4)} for move, value in values[:SHOWN]],
    }


def summary(seat: int, judged: list[dict[str, Any]]) -> dict[str, Any]:
    """A review from its moves' judgements: accuracy and the biggest mistakes."""
    counted = [move for move in judged if move["mark"] != "forced"]
    good = sum(1 for move in counted if move["mark"] == "good")
    worst = sorted((m for m in counted if m["mark"] != "good"), key=lambda m: -m["cost"])[:WORST]
    return {
        "seat": seat,
        "moves": judged,
        "accuracy": round(100 * good / len(counted), 1) if counted else 100.0,
        "marks": {name: sum(1 for m in judged if m["mark"] == name) for name in MARKS},
        "worst": [move["number"] for move in worst],
        "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER},
    }


def review_match(
    record: dict[str, Any], seat: int, samples: int = SAMPLES,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """The whole review of ``seat`` in a finished match, here and now; ``progress`` hears
    (moves done, moves in all) after each move."""
    todo = jobs(record, seat, samples)
    judged = []
    for done, job in enumerate(todo, 1):
        judged.append(review_move(job))
        if progress is not None:
            progress(done, len(todo))
    return summary(seat, judged)
