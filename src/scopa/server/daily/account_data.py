"""What the daily deal keeps about an account (:mod:`..store.account_data`): its attempts, in
its download; at its deletion they stay in the day's ranking, their name blanked."""

from __future__ import annotations

from ..store.account_data import AccountData, Section, rows_of
from ..store.schema import daily_attempts

DAILY_DATA = AccountData(
    sections=(Section("daily_attempts", rows_of(daily_attempts, "account_id", order="day")),),
    unnamed=((daily_attempts, "account_id", "name"),),
)
