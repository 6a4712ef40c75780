"""What ``scopa moderate`` does: list the reports, and silence or ban an account by its name.

Each opens the room's database as ``scopa serve`` does (migrating it first), does one thing and
closes it, so it may run beside the room's processes: a sanction takes effect at the account's
next message (a silence) or login (a ban, which also ends its sessions at once).
"""

from __future__ import annotations

from typing import Any

from ..accounts.accounts import legacy_name_key, name_key
from ..accounts.moderation import MAX_REASON, ModerationError
from ..store import account_queries, chat_queries
from ..store.storage import Storage, now, run_on


def reports(db: str) -> list[dict[str, Any]]:
    """Every report in the database at ``db``, oldest first."""
    return run_on(db, chat_queries.reports)


def sanction(db: str, name: str, kind: str, reason: str) -> str:
    """Silence (``kind`` ``silence``) or ban (``ban``) the account called ``name``, found as a
    login finds it, for ``reason``; its name as registered."""
    reason = " ".join(reason.split())
    if not reason or len(reason) > MAX_REASON:
        raise ModerationError(
            f"--reason must say why in 1 to {MAX_REASON} characters: the account is shown it"
        )

    async def work(storage: Storage) -> str:
        row = await account_queries.login_row(storage, name_key(name), legacy_name_key(name))
        if row is None:
            raise ModerationError(f"no account is called {name!r}")
        await chat_queries.sanction(storage, row.account_id, kind, reason, now())
        return row.name

    return run_on(db, work)
