"""What correspondence play keeps about an account (:mod:`..store.account_data`): the offers
it made and was made, and its vacation days, in its download. They go at its deletion; its
matches are the tables' (the deletion resigns those in play, as at any table)."""

from __future__ import annotations

from ..store.account_data import AccountData, Section, rows_of
from ..store.schema import correspondence_offers, correspondence_vacations

CORRESPONDENCE_DATA = AccountData(
    sections=(
        Section("correspondence_offers",
                rows_of(correspondence_offers, "from_account", order="created_at")),
        Section("correspondence_offers_received",
                rows_of(correspondence_offers, "to_account", order="created_at")),
        Section("correspondence_vacations",
                rows_of(correspondence_vacations, "account_id", order="year")),
    ),
    gone=((correspondence_offers, "from_account"), (correspondence_offers, "to_account"),
          (correspondence_vacations, "account_id")),
)
