"""The shipped puzzles over HTTP: ask for one, try a move, get the answer.

A puzzle is asked for as a question: the position (on the last deal the seat knows every card,
the other hand included) and the legal moves, never the best move, the moves' values, the
solver's line or the themes. Those come back only in the answer to a try. The next puzzle can
be asked by theme, or near the asking player's puzzle rating; the daily puzzle is the same for
everyone on a day (UTC), drawn from the day's date.

A logged-in player's first try of a puzzle moves their puzzle rating (:mod:`.ratings`); a later
try of the same puzzle is answered (right or wrong, and the answer) and says that it changed
nothing. Guests play unrated. The rating a question shows is the puzzle's on the room's scale,
not the rough one its set's file keeps.

A guest's try is answered with the answer too, so it would buy an account's first try of the
same puzzle (issue 34, item 15). A guest's try leaves two marks for its day (UTC): the hash of
the browser's key (:mod:`..common.browser`, a random first-party id given a browser on its first
try) and the hash of its address. An account's first try from a browser or an
address so marked that day is answered, kept as tried and counts for nothing, and its answer
says why (``player.reason``, ``note``).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from functools import cache
from typing import Annotated, Any, Final

from fastapi import APIRouter, Depends, Path, Query, Request, Response
from pydantic import BaseModel, Field

from ...moves import Move
from ...puzzles import THEMES, Puzzle
from ...puzzles.sets import PRESETS, shipped
from ..accounts.accounts import client_address, current_account, require_account
from ..common.browser import browser_key
from ..common.errors import LobbyError
from ..feature import ROOM
from ..lobby import rate_limit
from ..store.storage import Storage, now
from . import queries as puzzle_queries
from .queries import PuzzleRating, PuzzleTry
from .ratings import NEWCOMER, Strength, nearest, rated, rater

router = APIRouter(prefix="/api/puzzles", tags=["puzzles"], dependencies=[Depends(rate_limit)])

PresetName = Annotated[str, Path(description="scopa or escoba", max_length=16)]
HISTORY: Final = 50
"""The latest tries a player's history lists."""


def _storage(request: Request) -> Storage:
    return ROOM(request).storage


@cache
def _set(preset: str) -> tuple[list[Puzzle], dict[str, int]]:
    """The shipped puzzles of ``preset``, read once, and each one's index by id."""
    puzzles = shipped(preset)
    return puzzles, {puzzle.id: index for index, puzzle in enumerate(puzzles)}


def _puzzles(preset: str) -> tuple[list[Puzzle], dict[str, int]]:
    if preset not in PRESETS:
        raise LobbyError(404, f"there are no puzzles for {preset!r}; there are for: "
                              f"{', '.join(PRESETS)}", code="no_puzzles", params={"preset": preset})
    return _set(preset)


def _puzzle(preset: str, puzzle_id: str) -> Puzzle:
    puzzles, index = _puzzles(preset)
    found = index.get(puzzle_id)
    if found is None:
        raise LobbyError(404, f"there is no {preset} puzzle {puzzle_id!r}",
                         code="no_puzzle", params={"preset": preset, "puzzle": puzzle_id})
    return puzzles[found]


def legal_moves(puzzle: Puzzle) -> list[str]:
    """The puzzle's legal moves sorted by their codes: its ``values`` keep the solver's order,
    best first, and a list in that order would give the answer away (issue 34, item 2)."""
    return sorted(puzzle.values)


def question(puzzle: Puzzle, preset: str) -> dict[str, Any]:
    """What a solver is shown: the position and its legal moves, nothing of the answer."""
    return {
        "id": puzzle.id,
        "preset": preset,
        "rating": rated(puzzle).shown,
        "rules": puzzle.position.rules.to_dict(),
        "position": puzzle.position.to_dict(),
        "legal_moves": legal_moves(puzzle),
    }


def today() -> dt.date:
    return dt.datetime.now(dt.UTC).date()


@router.get("/{preset}/next")
async def next_puzzle(
    preset: PresetName,
    request: Request,
    theme: Annotated[str | None, Query(max_length=32, description="one of the themes")] = None,
    after: Annotated[str | None, Query(max_length=32, description="the last puzzle's id")] = None,
    near: Annotated[bool, Query(description="near your puzzle rating, one you have not "
                                            "tried (logged in; a guest gets the next)")] = False,
) -> dict[str, Any]:
    """The puzzle after ``after`` (the first one without it), of ``theme`` if given; with
    ``near``, for a logged-in player, the one nearest their puzzle rating of those they have
    not tried (of equally near ones, the first after ``after``)."""
    puzzles, index = _puzzles(preset)
    if theme is not None and theme not in THEMES:
        raise LobbyError(422, f"there is no theme {theme!r}; the themes are: {', '.join(THEMES)}",
                         code="no_theme", params={"theme": theme})
    start = 0
    if after is not None:
        if after not in index:
            raise LobbyError(404, f"there is no {preset} puzzle {after!r}",
                             code="no_puzzle", params={"preset": preset, "puzzle": after})
        start = index[after] + 1
    account = await current_account(request) if near else None
    if account is not None:
        storage = _storage(request)
        mine = await puzzle_queries.rating_of(storage, account.id, preset)
        player = NEWCOMER if mine is None else Strength(mine.mu, mine.sigma)
        tried = await puzzle_queries.tried(storage, account.id, preset)
        found = nearest(puzzles, start, player, tried, theme)
        if found is not None:
            return question(found, preset)
    for offset in range(len(puzzles)):
        puzzle = puzzles[(start + offset) % len(puzzles)]
        if theme is None or theme in puzzle.themes:
            return question(puzzle, preset)
    raise LobbyError(404, f"no {preset} puzzle has the theme {theme!r}",
                     code="no_puzzle_theme", params={"preset": preset, "theme": str(theme)})


@router.get("/{preset}/daily")
async def daily_puzzle(preset: PresetName) -> dict[str, Any]:
    """Today's puzzle (UTC): the same for everyone all day, another tomorrow."""
    puzzles, _ = _puzzles(preset)
    day = today().isoformat()
    draw = int.from_bytes(hashlib.sha256(f"{preset}/{day}".encode()).digest()[:8], "big")
    return {**question(puzzles[draw % len(puzzles)], preset), "day": day}


def _rating_view(rating: PuzzleRating | None) -> dict[str, Any] | None:
    if rating is None:
        return None
    return {"rating": Strength(rating.mu, rating.sigma).shown, "mu": rating.mu,
            "sigma": rating.sigma, "tries": rating.tries, "solved": rating.solved}


def _try_view(counted: PuzzleTry) -> dict[str, Any]:
    return {"puzzle": counted.puzzle_id, "move": counted.move, "right": counted.solved,
            "before": counted.display_before, "after": counted.display_after,
            "at": counted.at.isoformat()}


@router.get("/{preset}/mine")
async def my_puzzles(preset: PresetName, request: Request) -> dict[str, Any]:
    """Your puzzle rating in the game (null before your first try) and your latest tries,
    newest first: the first try of each puzzle, the one that counted."""
    _puzzles(preset)
    account = await require_account(request)
    rating, tries = await puzzle_queries.history(_storage(request), account.id, preset, HISTORY)
    return {"preset": preset, "rating": _rating_view(rating),
            "tries": [_try_view(counted) for counted in tries], "limit": HISTORY}


@router.get("/{preset}/{puzzle_id}")
async def one_puzzle(
    preset: PresetName, puzzle_id: Annotated[str, Path(max_length=32)]
) -> dict[str, Any]:
    return question(_puzzle(preset, puzzle_id), preset)


class Try(BaseModel):
    move: str = Field(max_length=64, description="a legal move's code, as legal_moves has it")


def marks(browser: str, address: str) -> list[str]:
    """The marks a guest's try leaves, and an account's try is looked up by: hashes, so the
    database keeps neither the browser's id nor the address."""
    return [hashlib.sha256(f"{kind}:{value}".encode()).hexdigest()
            for kind, value in (("browser", browser), ("address", address))]


@router.post("/{preset}/{puzzle_id}/try")
async def try_move(
    preset: PresetName, puzzle_id: Annotated[str, Path(max_length=32)], attempt: Try,
    request: Request, response: Response,
) -> dict[str, Any]:
    """Right or wrong, and the answer: the best move, every move's value, the solver's line
    after the best move and what it does (its themes). For a logged-in player, ``player``:
    their puzzle rating before and after, and whether this try counted (only the first try of
    a puzzle does, unless its browser or address tried the puzzle as a guest that day; one that
    does not changes nothing, ``player.reason`` says why, ``tried_before`` or
    ``tried_as_guest``, and ``note`` says so in a sentence). A guest's try marks its browser
    and address for the day, and its ``note`` says what that means."""
    puzzle = _puzzle(preset, puzzle_id)
    try:
        move = str(Move.parse(attempt.move))
    except ValueError:
        move = attempt.move
    if move not in puzzle.values:
        raise LobbyError(422, f"{attempt.move!r} is not a legal move here; the legal moves are: "
                              f"{', '.join(legal_moves(puzzle))}",
                         code="puzzle_illegal_move", params={"move": attempt.move})
    right = move == str(puzzle.best)
    account = await current_account(request, write=True)
    seen = marks(browser_key(request, response), client_address(request))
    storage = _storage(request)
    player: dict[str, Any] | None = None
    if account is None:
        await puzzle_queries.note_guest_try(storage, today(), preset, puzzle.id, seen)
        note = ("tried as a guest: an account's try of this puzzle from this browser or "
                "address today will not count")
    else:
        counted = await puzzle_queries.count_try(
            storage, account.id, preset, puzzle.id, move, right, now(),
            rater(preset, rated(puzzle), right), today(), seen)
        rating = counted.rating
        shown = (NEWCOMER if rating is None else Strength(rating.mu, rating.sigma)).shown
        note = None
        if counted.first:
            before, after = counted.counted.display_before, counted.counted.display_after
        else:
            before = after = shown
            note = _not_counted(counted.reason, shown)
        player = {"counted": counted.first, "reason": counted.reason, "before": before,
                  "after": after, "rating": _rating_view(rating)}
    return {
        "id": puzzle.id,
        "move": move,
        "right": right,
        "best": str(puzzle.best),
        "values": dict(puzzle.values),
        "line": [str(step) for step in puzzle.line],
        "themes": list(puzzle.themes),
        "rating": rated(puzzle).shown,
        "player": player,
        "note": note,
    }


def _not_counted(reason: str | None, shown: int) -> str:
    """The sentence for a try that did not count, at the rating ``shown``."""
    if reason == puzzle_queries.TRIED_AS_GUEST:
        return (f"this browser or address tried this puzzle as a guest today, and was given its "
                f"answer: this try does not count, and leaves your puzzle rating at {shown}")
    return (f"you tried this puzzle before: only the first try counts, so this one "
            f"leaves your puzzle rating at {shown}")
