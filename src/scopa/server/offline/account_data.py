"""What offline play keeps about an account (:mod:`..store.account_data`): the matches it
played offline and uploaded, with their whole records, in its download. They go at its
deletion: only bots played them with it, no one else's history shows them, and they rated
nobody."""

from __future__ import annotations

from ..store.account_data import AccountData, Section, rows_of
from ..store.schema import offline_matches

OFFLINE_DATA = AccountData(
    sections=(Section("offline_matches", rows_of(offline_matches, "account_id", order="id")),),
    gone=((offline_matches, "account_id"),),
)
