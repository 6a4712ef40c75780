"""The shipped puzzles over HTTP: ask for one, try a move, get the answer.

A puzzle is asked for as a question: the position (on the last deal the seat knows every card,
the other hand included) and the legal moves, never the best move, the moves' values, the
solver's line or the themes. Those come back only in the answer to a try. The next puzzle can
be asked by theme; the daily puzzle is the same for everyone on a day (UTC), drawn from the
day's date.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from functools import cache
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query
from pydantic import BaseModel, Field

from ...moves import Move
from ...puzzles import THEMES, Puzzle
from ...puzzles.sets import PRESETS, shipped
from ..lobby import rate_limit
from ..table.tables import LobbyError

router = APIRouter(prefix="/api/puzzles", tags=["puzzles"], dependencies=[Depends(rate_limit)])

PresetName = Annotated[str, Path(description="scopa or escoba", max_length=16)]


@cache
def _set(preset: str) -> tuple[list[Puzzle], dict[str, int]]:
    """The shipped puzzles of ``preset``, read once, and each one's index by id."""
    puzzles = shipped(preset)
    return puzzles, {puzzle.id: index for index, puzzle in enumerate(puzzles)}


def _puzzles(preset: str) -> tuple[list[Puzzle], dict[str, int]]:
    if preset not in PRESETS:
        raise LobbyError(404, f"there are no puzzles for {preset!r}; there are for: "
                              f"{', '.join(PRESETS)}")
    return _set(preset)


def _puzzle(preset: str, puzzle_id: str) -> Puzzle:
    puzzles, index = _puzzles(preset)
    found = index.get(puzzle_id)
    if found is None:
        raise LobbyError(404, f"there is no {preset} puzzle {puzzle_id!r}")
    return puzzles[found]


def question(puzzle: Puzzle, preset: str) -> dict[str, Any]:
    """What a solver is shown: the position and its legal moves, nothing of the answer."""
    return {
        "id": puzzle.id,
        "preset": preset,
        "rating": puzzle.rating,
        "rules": puzzle.position.rules.to_dict(),
        "position": puzzle.position.to_dict(),
        "legal_moves": list(puzzle.values),
    }


def today() -> dt.date:
    return dt.datetime.now(dt.UTC).date()


@router.get("/{preset}/next")
async def next_puzzle(
    preset: PresetName,
    theme: Annotated[str | None, Query(max_length=32, description="one of the themes")] = None,
    after: Annotated[str | None, Query(max_length=32, description="the last puzzle's id")] = None,
) -> dict[str, Any]:
    """The puzzle after ``after`` (the first one without it), of ``theme`` if given."""
    puzzles, index = _puzzles(preset)
    if theme is not None and theme not in THEMES:
        raise LobbyError(422, f"there is no theme {theme!r}; the themes are: {', '.join(THEMES)}")
    start = 0
    if after is not None:
        if after not in index:
            raise LobbyError(404, f"there is no {preset} puzzle {after!r}")
        start = index[after] + 1
    for offset in range(len(puzzles)):
        puzzle = puzzles[(start + offset) % len(puzzles)]
        if theme is None or theme in puzzle.themes:
            return question(puzzle, preset)
    raise LobbyError(404, f"no {preset} puzzle has the theme {theme!r}")


@router.get("/{preset}/daily")
async def daily_puzzle(preset: PresetName) -> dict[str, Any]:
    """Today's puzzle (UTC): the same for everyone all day, another tomorrow."""
    puzzles, _ = _puzzles(preset)
    day = today().isoformat()
    draw = int.from_bytes(hashlib.sha256(f"{preset}/{day}".encode()).digest()[:8], "big")
    return {**question(puzzles[draw % len(puzzles)], preset), "day": day}


@router.get("/{preset}/{puzzle_id}")
async def one_puzzle(
    preset: PresetName, puzzle_id: Annotated[str, Path(max_length=32)]
) -> dict[str, Any]:
    return question(_puzzle(preset, puzzle_id), preset)


class Try(BaseModel):
    move: str = Field(max_length=64, description="a legal move's code, as legal_moves has it")


@router.post("/{preset}/{puzzle_id}/try")
async def try_move(
    preset: PresetName, puzzle_id: Annotated[str, Path(max_length=32)], attempt: Try
) -> dict[str, Any]:
    """Right or wrong, and the answer: the best move, every move's value, the solver's line
    after the best move and what it does (its themes)."""
    puzzle = _puzzle(preset, puzzle_id)
    try:
        move = str(Move.parse(attempt.move))
    except ValueError:
        move = attempt.move
    if move not in puzzle.values:
        raise LobbyError(422, f"{attempt.move!r} is not a legal move here; the legal moves are: "
                              f"{', '.join(puzzle.values)}")
    return {
        "id": puzzle.id,
        "move": move,
        "right": move == str(puzzle.best),
        "best": str(puzzle.best),
        "values": dict(puzzle.values),
        "line": [str(step) for step in puzzle.line],
        "themes": list(puzzle.themes),
        "rating": puzzle.rating,
    }
