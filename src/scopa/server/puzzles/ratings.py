"""Puzzle ratings on the room's openskill scale: a puzzle is an opponent with a fixed rating.

The room rates people with openskill (:mod:`scopa.server.accounts.ratings`), the bot levels
being anchors of known rating (random 13, greedy 19, expert 27, master 33; docs/ratings.md).
Each shipped puzzle records how often each level found its best move (``found``: three tries
for each level below the master, one for the master). Those tries are matches against players
of known rating, so a puzzle is rated as a newcomer (mu 25, sigma 25/3) who played them, one
openskill update a try, weakest level first: a level's hit is the level's win, a miss the
puzzle's. Nothing is made again: the rating comes from the stored shares, the same for the same
``found`` every time. The ``rating`` field the set's file keeps (the finder's own 800 to 2,000
formula) lines up with no rating of the room's, so the room does not show it.

After that the puzzle's rating stays fixed, as the bots' anchors do (lichess moves the puzzle
too; here the shipped puzzles are the same on every server, a shared row written by every try
would be a point of contention between the room's processes, and a handful of players could push
a puzzle off the scale the levels set). It plays at the anchors' sigma.

A person's puzzle rating is a rating kind of its own, one per game (``scopa`` or ``escoba``),
separate from the match pools. Their first try of a puzzle is a match against it: solving it
is a win, a wrong move a loss. Later tries of the same puzzle change nothing. It is shown as
match ratings are, ``1000 + 40 * (mu - 3 * sigma)``, so a newcomer shows 1000; a puzzle, at the
anchors' sigma, shows ``1000 + 40 * (mu - 3)``, as the random bot shows 1,400.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final

from ...puzzles import Puzzle
from ...puzzles.finder import TRIES
from ..accounts.ratings import ANCHOR_SIGMA, ANCHORS, MODEL, display
from ..store.storage import Storage
from . import queries
from .queries import PuzzleRating, Rate

LEVEL_TRIES: Final = {level: 1 if level == "master" else TRIES for level in ANCHORS}
"""How many tries of each level a puzzle's ``found`` records (the finder asks the master once)."""


@dataclass(frozen=True)
class Strength:
    """A rating as openskill has it."""

    mu: float
    sigma: float

    @property
    def shown(self) -> int:
        return display(self.mu, self.sigma)


NEWCOMER: Final = Strength(MODEL.mu, MODEL.sigma)


@cache
def _from_shares(shares: tuple[float, ...]) -> float:
    """The puzzle's mu after the levels' tries, their shares of hits given weakest first."""
    rating = MODEL.rating()
    for (level, anchor), share in zip(ANCHORS.items(), shares, strict=True):
        tries = LEVEL_TRIES[level]
        hits = round(share * tries)
        for k in range(tries):
            bot = MODEL.rating(mu=anchor, sigma=ANCHOR_SIGMA)
            ranks = [1.0, 0.0] if k < hits else [0.0, 1.0]
            [[rating], _] = MODEL.rate([[rating], [bot]], ranks=ranks)
    return float(rating.mu)


def puzzle_strength(found: Mapping[str, float]) -> Strength:
    """A puzzle's fixed rating, from the share of each level's tries that found its best move
    (a level missing from ``found`` counts as having missed every try)."""
    return Strength(_from_shares(tuple(found.get(level, 0.0) for level in ANCHORS)),
                    ANCHOR_SIGMA)


def rated(puzzle: Puzzle) -> Strength:
    return puzzle_strength(puzzle.found)


def after_try(player: Strength, puzzle: Strength, right: bool) -> Strength:
    """The player's rating after a first try of the puzzle: one openskill update, the puzzle
    an anchor that does not move."""
    ranks = [0.0, 1.0] if right else [1.0, 0.0]
    [[moved], _] = MODEL.rate(
        [[MODEL.rating(mu=player.mu, sigma=player.sigma)],
         [MODEL.rating(mu=puzzle.mu, sigma=puzzle.sigma)]],
        ranks=ranks,
    )
    return Strength(float(moved.mu), float(moved.sigma))


def rater(preset: str, puzzle: Strength, right: bool) -> Rate:
    """How a first try of ``puzzle`` moves a player's rating in ``preset`` (a newcomer's when
    they have none), handed to the store to run in the transaction that reads the rating."""

    def rate(before: PuzzleRating | None) -> tuple[PuzzleRating, int, int]:
        start = NEWCOMER if before is None else Strength(before.mu, before.sigma)
        moved = after_try(start, puzzle, right)
        tries, solved = (0, 0) if before is None else (before.tries, before.solved)
        return (PuzzleRating(preset, moved.mu, moved.sigma, tries + 1, solved + int(right)),
                start.shown, moved.shown)

    return rate


def nearest(
    puzzles: Sequence[Puzzle], start: int, player: Strength, tried: set[str], theme: str | None
) -> Puzzle | None:
    """Of the puzzles the player has not tried (of ``theme``, if given), the one whose rating is
    nearest the player's mu; of equally near ones, the first from ``start`` on, going round.
    None when the player has tried them all."""
    best: tuple[float, int] | None = None
    chosen = None
    for offset in range(len(puzzles)):
        puzzle = puzzles[(start + offset) % len(puzzles)]
        if puzzle.id in tried or (theme is not None and theme not in puzzle.themes):
            continue
        key = (abs(rated(puzzle).mu - player.mu), offset)
        if best is None or key < best:
            best, chosen = key, puzzle
    return chosen


async def ratings_of(storage: Storage, account_id: int) -> list[PuzzleRating]:
    """The account's puzzle rating in each game it has tried puzzles of, by game: what its
    profile shows (:mod:`scopa.server.profiles` reads the puzzles' figures through this alone)."""
    return await queries.ratings_of(storage, account_id)
