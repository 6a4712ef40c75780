"""What the puzzles keep about an account (:mod:`..store.account_data`): its puzzle rating and
its tries, in its download, and both go at its deletion (puzzles are rated apart, so no one
else's rating depends on it)."""

from __future__ import annotations

from ..store.account_data import AccountData, Section, rows_of
from ..store.schema import puzzle_ratings, puzzle_tries

PUZZLES_DATA = AccountData(
    sections=(
        Section("puzzle_ratings", rows_of(puzzle_ratings, "account_id")),
        Section("puzzle_tries", rows_of(puzzle_tries, "account_id", order="at")),
    ),
    gone=((puzzle_tries, "account_id"), (puzzle_ratings, "account_id")),
)
