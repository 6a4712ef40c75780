"""Engine agreement (issue 34, item D): after a rated match ends, the master judges each
person's moves, and an account that plays the master's choice far more often than people of
its rating goes to ``scopa moderate suspects`` with the evidence.

* **Judged** with the master's review of the seat (:mod:`scopa.review`: the same one a player
  asks for, stored, so their review is ready too), one move at a time in the review workers,
  which take a review's job only when no bot's move waits: live play goes first.
* **Where the choice matters**: not forced, and the master's best move worth at least
  :data:`CONTESTED` more than its second. On closer calls the master's own choice is a coin
  toss between its guesses, and matching it says nothing.
* **Kept** per account and match (``engine_agreement``): the positions, how many matched the
  master's choice, and what the others cost. The rolling figure is over the account's last
  :data:`WINDOW` judged matches.
* **Suspect**: at least :data:`MIN_POSITIONS` positions in the window, and an agreement
  :data:`SIGMAS` standard deviations above the accounts within :data:`BAND` shown points of its
  rating (their spread and the sampling error of its own count), by at least :data:`MARGIN`.
  With fewer than :data:`PEERS` such accounts the whole room is the reference; with fewer in
  the room nobody is flagged. The figures are measured by ``benchmarks/fair_play.py``.

Every process watches: a match's end wakes it, and a sweep every :data:`SWEEP` catches the
matches of a process that died (each match's claim lapses after :data:`CLAIM_LAPSE`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Final

from ... import review
from ..store import fairplay_queries, review_queries
from ..store.fairplay_queries import Judged, Unjudged
from ..store.storage import now
from ..table.finished import FinishedMatch
from ..table.room import CardRoom

log = logging.getLogger(__name__)

CONTESTED: Final = 0.02
"""How much better than its second the master's best move must be for the choice to matter."""
WINDOW: Final = 20
"""The judged rated matches an account's rolling figure counts, newest first."""
MIN_POSITIONS: Final = 40
"""Positions that matter an account must have met in its window to be judged at all."""
BAND: Final = 150
"""Shown rating points either side of an account's that make its peers."""
PEERS: Final = 10
"""Peers with a figure of their own that a band needs to be the reference."""
SIGMAS: Final = 3.0
MARGIN: Final = 0.08
KEPT: Final = timedelta(days=30)
"""How far back judgements are read, and matches judged: a mark refunds as far."""
SWEEP: Final = 60.0
CLAIM_LAPSE: Final = timedelta(minutes=10)


@dataclass(frozen=True)
class Tally:
    """One seat's judged play: the positions that mattered, how many it played as the master
    would, what the others cost, and each position (move number, matched or not, its cost)."""

    positions: int
    matched: int
    cost: float
    evidence: list[dict[str, Any]]


def tally(judged: Sequence[dict[str, Any]]) -> Tally:
    """The tally of a seat's moves as :func:`scopa.review.review_move` judged them.

    >>> tally([{"number": 0, "played": "a", "best": "a", "cost": 0.0, "mark": "good",
    ...         "options": [{"move": "a", "value": 0.5}, {"move": "b", "value": 0.4}]},
    ...        {"number": 2, "played": "b", "best": "a", "cost": 0.01, "mark": "good",
    ...         "options": [{"move": "a", "value": 0.5}, {"move": "b", "value": 0.49}]}])
    Tally(positions=1, matched=1, cost=0.0, evidence=[{'move': 0, 'matched': True, 'cost': 0.0}])
    """
    evidence = []
    for move in judged:
        options = move["options"]
        if move["mark"] == "forced" or len(options) < 2:
            continue
        if options[0]["value"] - options[1]["value"] < CONTESTED:
            continue
        evidence.append({"move": move["number"], "matched": move["played"] == move["best"],
                         "cost": move["cost"]})
    return Tally(len(evidence), sum(1 for e in evidence if e["matched"]),
                 round(sum(e["cost"] for e in evidence), 4), evidence)


@dataclass(frozen=True)
class Figure:
    """An account's rolling figure over its window."""

    account_id: int
    name: str
    rating: int | None
    matches: list[Judged]
    positions: int
    matched: int
    cost: float

    @property
    def agreement(self) -> float:
        return self.matched / self.positions if self.positions else 0.0

    @property
    def miss_cost(self) -> float:
        """What its moves that were not the master's choice cost, on average."""
        missed = self.positions - self.matched
        return self.cost / missed if missed else 0.0


@dataclass(frozen=True)
class Suspect:
    figure: Figure
    reference: float
    """The peers' mean agreement."""
    spread: float
    """Their standard deviation."""
    peers: int
    sigmas: float
    """How far above the reference, in standard deviations."""


def figures(judged: Sequence[Judged]) -> list[Figure]:
    """Each account's figure over its :data:`WINDOW` newest judged matches (``judged``
    newest first), with its newest rating."""
    by_account: dict[int, list[Judged]] = {}
    for row in judged:
        kept = by_account.setdefault(row.account_id, [])
        if len(kept) < WINDOW:
            kept.append(row)
    return [
        Figure(account, rows[0].name, next((r.rating for r in rows if r.rating is not None),
                                            None), rows,
               sum(r.positions for r in rows), sum(r.matched for r in rows),
               sum(r.cost for r in rows))
        for account, rows in by_account.items()
    ]


def suspects(judged: Sequence[Judged]) -> list[Suspect]:
    """The accounts far above their peers' agreement with the master, furthest first."""
    counted = [f for f in figures(judged) if f.positions >= MIN_POSITIONS]
    found = []
    for figure in counted:
        others = [f for f in counted if f.account_id != figure.account_id]
        band = [f for f in others if figure.rating is not None and f.rating is not None
                and abs(f.rating - figure.rating) <= BAND]
        peers = band if len(band) >= PEERS else others
        if len(peers) < PEERS:
            continue
        mean = sum(f.agreement for f in peers) / len(peers)
        spread = math.sqrt(sum((f.agreement - mean) ** 2 for f in peers) / (len(peers) - 1))
        error = math.sqrt(spread ** 2 + mean * (1 - mean) / figure.positions)
        above = figure.agreement - mean
        sigmas = above / error if error > 0 else math.inf
        if above >= MARGIN and sigmas >= SIGMAS:
            found.append(Suspect(figure, mean, spread, len(peers), sigmas))
    found.sort(key=lambda suspect: -suspect.sigmas)
    return found


class EngineWatch:
    """This process's judge of finished rated matches: one at a time, in the review workers.
    :meth:`match_over` (a match-end subscriber) only wakes it: it runs in the table's lock."""

    def __init__(self, room: CardRoom) -> None:
        self.room = room
        self.owner = room.name[:64]
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def match_over(self, match: FinishedMatch) -> None:
        self._wake.set()

    async def open(self) -> None:
        self._task = asyncio.create_task(self._watch(), name="scopa-engine-watch")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _watch(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), SWEEP)
            self._wake.clear()
            try:
                while await self.judge_next():
                    pass
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the engine watch failed; it tries again at its next sweep")

    async def judge_next(self) -> bool:
        """Claim and judge one unjudged rated match's seat; False when none is left."""
        moment = now()
        claim = await fairplay_queries.claim_unjudged(
            self.room.storage, self.owner, moment, moment - KEPT, CLAIM_LAPSE)
        if claim is None:
            return False
        result = await self._review(claim)
        found = tally(result["moves"])
        await fairplay_queries.store_agreement(
            self.room.storage, claim, self.owner, now(), found.positions, found.matched,
            found.cost, found.evidence)
        return True

    async def _review(self, claim: Unjudged) -> dict[str, Any]:
        """The seat's review: the stored one, or worked out and stored."""
        storage = self.room.storage
        stored = await review_queries.stored_review(storage, claim.match_id, claim.seat)
        if stored is not None:
            return stored
        record = await self.room.match_record(claim.match_id)
        judged = [await self.room.pool.review(job) for job in review.jobs(record, claim.seat)]
        result = review.summary(claim.seat, judged)
        await review_queries.store_review(storage, claim.match_id, claim.seat, result)
        return result
