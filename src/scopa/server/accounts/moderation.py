"""What ``scopa moderate links``, ``mark``, ``unmark`` and ``acts`` do (issue 34, items C and E).

- ``links NAME``: the accounts seen from an address or a browser that NAME was seen from in
  the last 30 days (:mod:`.links`), with when, and the rated matches NAME played with each.
  Nothing of a match in play is shown, and no address or key: the room keeps only their hashes.
- ``mark NAME --engine`` or ``--booster``: NAME leaves the leaderboards and the tournaments'
  podiums, every match it plays from then on is casual (``marked``, its table says so), and its
  opponents get back the rating (openskill's mu) they lost to it in the last 30 days.
- ``unmark NAME``: undoes it, the refunds too.
- ``suspects``: the accounts whose agreement with the master is far above their peers'
  (:mod:`.agreement`), with the figure, the matches and the positions.

Every mark and unmark is logged with who did it (``--by``, the user running the command unless
named), when and why; ``acts`` lists them. Like :mod:`scopa.server.chat.moderate`, each opens
the room's database, does one thing and closes it, so it may run beside the room's processes.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Final

from ..store import account_queries, fairplay_queries
from ..store.fairplay_queries import Act, Link, Refund
from ..store.storage import Storage, now, run_on
from .accounts import legacy_name_key, name_key
from .agreement import KEPT, Suspect
from .agreement import suspects as far_above
from .ratings import MODEL

MAX_REASON: Final = 200
"""Characters a sanction's or a mark's reason may have: the account may be shown it."""
KINDS: Final = ("engine", "booster")
"""What an account may be marked as: playing with an engine's help, or boosting (buying a
rating from a second account, or selling one)."""
REFUND_WINDOW: Final = timedelta(days=30)
"""How far back a mark gives opponents their rating back: lichess's figure for a booster's
or an engine's victims, and the sightings' own keeping."""


class ModerationError(ValueError):
    """A moderator's request that cannot be carried out; the message says why."""


async def _account(storage: Storage, name: str) -> tuple[int, str]:
    row = await account_queries.login_row(storage, name_key(name), legacy_name_key(name))
    if row is None:
        raise ModerationError(f"no account is called {name!r}")
    return row.account_id, row.name


def _reason(reason: str) -> str:
    said = " ".join(reason.split())
    if not said or len(said) > MAX_REASON:
        raise ModerationError(f"--reason must say why in 1 to {MAX_REASON} characters")
    return said


def _moderator(moderator: str) -> str:
    who = " ".join(moderator.split())
    if not who or len(who) > 64:
        raise ModerationError("--by must name the moderator in 1 to 64 characters")
    return who


def links(db: str, name: str) -> tuple[str, list[Link]]:
    """The account called ``name`` (as registered) and the accounts linked to it."""

    async def work(storage: Storage) -> tuple[str, list[Link]]:
        account_id, named = await _account(storage, name)
        return named, await fairplay_queries.links(storage, account_id)

    return run_on(db, work)


def mark(db: str, name: str, kind: str, reason: str, moderator: str) -> tuple[str, list[Refund]]:
    """Mark the account called ``name`` as ``kind`` (one of :data:`KINDS`): its name as
    registered and the refunds its opponents were given."""
    if kind not in KINDS:
        raise ModerationError(f"an account is marked as one of: {', '.join(KINDS)}")
    said, who = _reason(reason), _moderator(moderator)

    async def work(storage: Storage) -> tuple[str, list[Refund]]:
        account_id, named = await _account(storage, name)
        given = await fairplay_queries.mark(storage, account_id, kind, said, who, now(),
                                            REFUND_WINDOW, MODEL.mu)
        if given is None:
            held = await fairplay_queries.mark_of(storage, account_id)
            raise ModerationError(f"{named} is marked already ({held}): unmark it first")
        return named, given

    return run_on(db, work)


def unmark(db: str, name: str, reason: str, moderator: str) -> tuple[str, list[Refund]]:
    """Take the mark off the account called ``name``: its name and the refunds taken back."""
    said, who = _reason(reason), _moderator(moderator)

    async def work(storage: Storage) -> tuple[str, list[Refund]]:
        account_id, named = await _account(storage, name)
        taken = await fairplay_queries.unmark(storage, account_id, said, who, now())
        if taken is None:
            raise ModerationError(f"{named} carries no mark")
        return named, taken

    return run_on(db, work)


def acts(db: str, name: str | None) -> list[Act]:
    """The moderators' marks and unmarks, oldest first: of the account called ``name``, or
    of every account."""

    async def work(storage: Storage) -> list[Act]:
        if name is None:
            return await fairplay_queries.acts(storage)
        account_id, _ = await _account(storage, name)
        return await fairplay_queries.acts(storage, [account_id])

    return run_on(db, work)


def suspects(db: str) -> list[Suspect]:
    """The accounts far above their peers' agreement with the master, furthest first: no
    account marked already, nor deleted."""

    async def work(storage: Storage) -> list[Suspect]:
        return far_above(await fairplay_queries.judged_since(storage, now() - KEPT))

    return run_on(db, work)
