"""What the social side keeps about an account (:mod:`..store.account_data`): whom it follows,
whom it blocked and whom it takes challenges from, in its download; at its deletion its follows
and blocks go both ways (no one follows or blocks a tombstone), with its challenge setting."""

from __future__ import annotations

from ..store.account_data import AccountData, Section, rows_of
from ..store.schema import blocks, challenge_settings, follows

SOCIAL_DATA = AccountData(
    sections=(
        Section("follows", rows_of(follows, "follower_id")),
        Section("blocks", rows_of(blocks, "blocker_id")),
        Section("challenge_settings", rows_of(challenge_settings, "account_id")),
    ),
    gone=(
        (follows, "follower_id"),
        (follows, "followed_id"),
        (blocks, "blocker_id"),
        (blocks, "blocked_id"),
        (challenge_settings, "account_id"),
    ),
)
