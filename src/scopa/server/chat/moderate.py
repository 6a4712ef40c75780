"""What ``scopa moderate`` does: list the reports, and silence or ban an account by its name.

Each opens the room's database as ``scopa serve`` does (migrating it first), does one thing and
closes it, so it may run beside the room's processes: a sanction takes effect at the account's
next message (a silence) or login (a ban, which also ends its sessions at once).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Final, TypeVar

from ..accounts.accounts import legacy_name_key, name_key
from ..store import account_queries, chat_queries
from ..store.storage import Storage, now

T = TypeVar("T")
MAX_REASON: Final = 200
"""Characters a sanction's reason may have: the account is shown it in a sentence."""


class ModerationError(ValueError):
    """A moderator's request that cannot be carried out; the message says why."""


def _run(db: str, work: Callable[[Storage], Awaitable[T]]) -> T:
    async def run() -> T:
        storage = Storage(db)
        await storage.open()
        try:
            return await work(storage)
        finally:
            await storage.close()

    return asyncio.run(run())


def reports(db: str) -> list[dict[str, Any]]:
    """Every report in the database at ``db``, oldest first."""
    return _run(db, chat_queries.reports)


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

    return _run(db, work)
