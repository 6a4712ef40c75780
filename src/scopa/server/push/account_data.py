"""What Web Push keeps about an account (:mod:`..store.account_data`): the browsers that take
its notifications, without their keys (the browser's secrets for decrypting them), and the
kinds it chose, in its download. At its deletion they go, with the events it was pushed:
nothing is pushed to it again."""

from __future__ import annotations

from ..store.account_data import AccountData, Section, rows_of
from ..store.schema import push_choices, push_sent, push_subscriptions

PUSH_DATA = AccountData(
    sections=(
        Section("push_subscriptions", rows_of(push_subscriptions, "account_id",
                                              leave_out=("p256dh", "auth"), order="id")),
        Section("push_choices", rows_of(push_choices, "account_id")),
    ),
    gone=((push_subscriptions, "account_id"), (push_choices, "account_id"),
          (push_sent, "account_id")),
)
