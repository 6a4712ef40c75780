"""Results that cannot be farmed: the room's figures for what a rated result needs, and the
sentences that say why a match is not one (docs/ratings.md, "Fair play").

Lichess's rules, in scopa's terms: its round lets a game be aborted, never rated, until each
side has moved, and its ``BoostingApi`` watches results won in a handful of moves between the
same players; a second account that resigns at move 0 should buy its first nothing. On the
floor, since the tables (which count the moves), the ratings, the challenges and the pools
all say the same figures and sentences.

>>> short((0, 3)), short((2, 2))
(True, False)
>>> casual_notice("pair_cap")["code"]
'pair_cap'
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Final

MIN_MOVES: Final = 2
"""Moves each side makes of its own before a match's result counts: a match that ends sooner
(resigned, timed out, walked out of) is recorded, rated for nobody, and left out of the
leaderboards and the tournaments' standings. Two, as lichess's first two plies: one move could
be a misclick before resigning, and two is still nothing a real match loses."""

PAIR_CAP: Final = 3
"""Rated matches two accounts play together within :data:`PAIR_WINDOW`; past it their matches
are casual. Three is a best of three, the longest series friends commonly play in one sitting
(a match to 11 takes a quarter of an hour or more); the issue's booster needed 6 wins in a row
from one account. A rolling window, not a calendar day, so that three at 23:59 and three at
00:01 are not six."""

PAIR_WINDOW: Final = timedelta(hours=24)

NEWCOMER_MATCHES: Final = 3
"""Finished matches (not short, rated or casual, the computer's counting) an account plays
before its first rated challenge or rated pool: a fresh second account cannot be rated
against its owner's main one at once, and three matches are a quarter of an hour of a real
newcomer's first evening. Matches against the computer count: its levels are anchors that no
one can farm. ``Settings.newcomer_matches`` sets another figure."""

CASUAL: Final = {
    "pair_cap": (
        f"casual: you two have played {PAIR_CAP} rated matches together in the last 24 hours, "
        "so this one moves no rating"
    ),
    "marked": "casual: a player at this table may not play rated, so this match moves no rating",
}
"""Why a table chosen rated plays its match casual, by stable code."""


def short(own_moves: Sequence[int]) -> bool:
    """Whether a match whose sides made ``own_moves`` moves of their own (each side's, not a
    stand-in's nor the bot's that took over a seat walked out of) ended too soon to count."""
    return any(moves < MIN_MOVES for moves in own_moves)


def casual_notice(code: str) -> dict[str, str]:
    """What the room says of a table chosen rated that plays casual: the code and why."""
    return {"code": code, "message": CASUAL[code]}


def newcomer_refusal(name: str | None, played: int, needed: int) -> str:
    """The sentence refusing rated play to a newcomer (``name``, None for the asker) who has
    finished ``played`` of the ``needed`` matches."""
    left = needed - played
    matches = "match" if left == 1 else "matches"
    if name is None:
        return (f"your account is new: play {left} more casual {matches} (or against the "
                f"computer) before rated play; {needed} come before the first")
    return (f"{name}'s account is new: they play {left} more casual {matches} before rated "
            "play; challenge them casual meanwhile")
