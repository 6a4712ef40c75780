"""The master's review of a finished match over HTTP: asked for once, run in worker processes,
its progress shown, stored when done and never worked out again.

``POST /api/replays/{id}/reviews`` with a seat starts the review of that seat's moves (or answers
with the stored one); ``GET /api/replays/{id}/reviews/{seat}`` tells how far it is, then gives
it. Every process of the room gives the same progress, kept in the database, and only the
process that claimed the review works it out. Each move is one job for the card room's
workers (:class:`~.bots.Bots`: the reviews' own processes of its pool, or with ``--bot-queue``
the ``scopa bots`` workers through Redis, which take a review's job only when no bot's move
waits), run one after the other; the event loop only hands jobs out. A match still in play is
refused exactly as its record is (403) and nothing is started.

A review costs seconds of a worker per move, so asking is guarded: only a seat of the match
(its seat token) or a logged-in account may ask (403); asks are limited per address and per
account (429); and a process works out at most ``Settings.review_queue`` reviews at once, past
which an ask is refused with 503 and ``Retry-After`` and nothing is queued. A guest once asked
for 63 reviews at once and got a 202 for each.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from datetime import timedelta
from typing import Annotated, Any, Final

from fastapi import APIRouter, Depends, Path, Request, Response
from pydantic import BaseModel, Field

from ... import review
from ...rules import Rules
from ..common.errors import LobbyError
from ..common.ratelimit import REVIEW_LIMITS, ReviewLimits
from ..common.services import Service
from ..common.tokens import token_matches
from ..feature import ROOM
from ..store import review_queries
from ..store.storage import now
from ..table.room import CardRoom
from .accounts import client_address, current_account, rate_limit

log = logging.getLogger(__name__)

MAX_MATCH_ID: Final = 2**31 - 1
MatchId = Annotated[int, Path(ge=1, le=MAX_MATCH_ID)]

router = APIRouter(prefix="/api", tags=["players"], dependencies=[Depends(rate_limit)])


CLAIM_LAPSE: Final = timedelta(minutes=2)
"""A review whose process has written no progress for this long (it died or stopped) is taken
over by the next process asked for it. One move's review takes seconds."""
RETRY_SECONDS: Final = 30
"""The ``Retry-After`` of a review refused because this process's reviews are full: about
the time one review of a seat takes."""


class ReviewsFull(LobbyError):
    """A review refused because this process works out as many as it may already."""

    def __init__(self, most: int) -> None:
        super().__init__(
            503, f"the master is busy with as many reviews as he takes at once ({most}): ask "
            f"again in {RETRY_SECONDS} seconds", headers={"Retry-After": str(RETRY_SECONDS)},
            code="reviews_busy", params={"most": most, "seconds": RETRY_SECONDS})


@dataclass
class Progress:
    total: int
    done: int = 0
    error: str | None = None


class Reviews:
    """The reviews of the room, shared by its processes through the ``review_jobs`` rows: the
    process that claims a review's row works it out, and writes its progress there, where every
    process reads it. ``running`` holds this process's own tasks, by (match, seat)."""

    def __init__(self, room: CardRoom) -> None:
        self.room = room
        self.owner = room.name[:64]
        self.running: dict[tuple[int, int], asyncio.Task[None]] = {}
        self.most = room.settings.review_queue
        """Reviews this process works out at once: one more is refused, not queued."""
        self.claiming = 0
        """Reviews being claimed now (the claim is a database write): they count against
        :attr:`most` too, so that asks at the same instant cannot pass it together."""

    async def stored(self, match_id: int, seat: int) -> dict[str, Any] | None:
        return await review_queries.stored_review(self.room.storage, match_id, seat)

    async def progress(self, match_id: int, seat: int) -> Progress | None:
        """How far the review is, as every process sees it; None if nobody asked for it."""
        row = await review_queries.review_job(self.room.storage, match_id, seat)
        return None if row is None else Progress(row.total, row.done, row.error)

    async def start(self, match_id: int, seat: int, record: dict[str, Any]) -> Progress | None:
        """Claim the review and work it out here, unless a live process has it already: then
        its progress; None if another process stored it just now. :class:`ReviewsFull` when
        this process already works out as many as it may (nothing is claimed then)."""
        key = (match_id, seat)
        if key not in self.running:
            if len(self.running) + self.claiming >= self.most:
                raise ReviewsFull(self.most)
            todo = review.jobs(record, seat)
            self.claiming += 1
            try:
                claimed = await self._claim(key, len(todo))
            finally:
                self.claiming -= 1
            if claimed and key not in self.running:
                self.running[key] = asyncio.create_task(
                    self._run(key, todo), name=f"scopa-review-{match_id}-{seat}")
        return await self.progress(match_id, seat)

    async def _claim(self, key: tuple[int, int], total: int) -> bool:
        """Whether this process now holds the review: a new row, or one that failed or whose
        process went quiet (the unique key and the owner fence let only one process win)."""
        moment = now()
        return await review_queries.claim_review(
            self.room.storage, *key, self.owner, total, moment, moment - CLAIM_LAPSE
        )

    async def _progressed(self, key: tuple[int, int], done: int) -> bool:
        """Write this process's progress on its claim; False if another process took it."""
        return await review_queries.review_progressed(self.room.storage, *key, self.owner, done)

    async def _failed(self, key: tuple[int, int], error: str) -> None:
        """Mark this process's claim failed, so the next asking starts the review again."""
        await review_queries.review_failed(self.room.storage, *key, self.owner, error)

    async def _run(self, key: tuple[int, int], todo: list[dict[str, Any]]) -> None:
        try:
            judged = []
            for job in todo:
                judged.append(await self.room.pool.review(job))
                if not await self._progressed(key, len(judged)):
                    return  # another process took the review over: it finishes it
            await review_queries.store_review(
                self.room.storage, *key, review.summary(key[1], judged))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the review of match %s, seat %s failed", *key)
            with contextlib.suppress(Exception):
                await self._failed(key, "the review failed; ask for it again")
        finally:
            self.running.pop(key, None)

    async def close(self) -> None:
        """Stop this process's reviews, marked failed so that the next asking starts them again
        at once, here or elsewhere."""
        for key, task in list(self.running.items()):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            with contextlib.suppress(Exception):
                await self._failed(key, "the server stopped; ask for the review again")


REVIEWS: Service[Reviews] = Service("reviews")
"""This process's reviews, as a dependency of the routes."""
Registry = Annotated[Reviews, Depends(REVIEWS)]


class ReviewAsked(BaseModel):
    seat: int = Field(ge=0, lt=16, description="the seat whose moves the master reviews")
    token: str | None = Field(
        default=None, min_length=1, max_length=128,
        description="a seat token of the match's table: a guest who played the match asks "
        "with it (a logged-in account needs none)",
    )


class ReviewState(BaseModel):
    status: str = Field(description="running, done or failed")
    done: int = Field(description="moves reviewed so far")
    total: int = Field(description="moves to review")
    review: dict[str, Any] | None = Field(
        description="once done: per move the master's choice, the cost and the mark; the "
        "accuracy and the biggest mistakes (see docs/ratings.md)"
    )
    error: str | None = None


async def _finished_record(request: Request, match_id: int, seat: int) -> dict[str, Any]:
    record = await ROOM(request).match_record(match_id)
    players = Rules.from_dict(record["rules"]).players
    if not 0 <= seat < players:
        raise LobbyError(422, f"seat must be 0..{players - 1} in match {match_id}; got {seat}",
                         code="bad_review_seat", params={"match": match_id, "seat": seat})
    return record


async def _asker(request: Request, match_id: int, token: str | None) -> int | None:
    """The account asking (its id), or None for a seat of the match that asks with its token;
    anyone else is refused (403): a review costs the workers seconds per move."""
    account = await current_account(request, write=True)
    if account is not None:
        return account.id
    if token is not None:
        room = ROOM(request)
        held = await review_queries.seat_token_hashes(room.storage, match_id)
        if any(token_matches(token, found) for found in held):
            return None
    raise LobbyError(403, f"only a seat of match {match_id} (with its token) or a logged-in "
                     "account may ask for its review",
                     code="review_not_yours", params={"match": match_id})


def _state(progress: Progress) -> ReviewState:
    return ReviewState(
        status="failed" if progress.error else "running", done=progress.done,
        total=progress.total, review=None, error=progress.error,
    )


def _done(result: dict[str, Any]) -> ReviewState:
    total = len(result["moves"])
    return ReviewState(status="done", done=total, total=total, review=result)


@router.post("/replays/{match_id}/reviews", status_code=202)
async def ask_review(
    match_id: MatchId, body: ReviewAsked, request: Request, response: Response,
    registry: Registry, limits: Annotated[ReviewLimits, Depends(REVIEW_LIMITS)],
) -> ReviewState:
    """Start the master's review of a seat of a finished match (202), or get the stored one
    (200): a review is worked out once. Only a seat of the match or a logged-in account may
    ask (403), so many times (429), and while this process has room for one more (503)."""
    record = await _finished_record(request, match_id, body.seat)
    account_id = await _asker(request, match_id, body.token)
    refusal = await limits.refusal(client_address(request), account_id)
    if refusal is not None:
        raise LobbyError(429, refusal, code="too_many_reviews")
    stored = await registry.stored(match_id, body.seat)
    if stored is not None:
        response.status_code = 200
        return _done(stored)
    progress = await registry.start(match_id, body.seat, record)
    if progress is None:  # another process stored it since our first read
        stored = await registry.stored(match_id, body.seat)
        assert stored is not None  # the claim's row goes in the transaction that stores it
        response.status_code = 200
        return _done(stored)
    return _state(progress)


@router.get("/replays/{match_id}/reviews/{seat}")
async def show_review(
    match_id: MatchId, seat: Annotated[int, Path(ge=0, lt=16)], request: Request,
    registry: Registry,
) -> ReviewState:
    """How far the review of a seat is, or the review itself once done; 404 if nobody asked."""
    await _finished_record(request, match_id, seat)
    stored = await registry.stored(match_id, seat)
    if stored is not None:
        return _done(stored)
    progress = await registry.progress(match_id, seat)
    if progress is None:
        raise LobbyError(404, f"nobody has asked for a review of seat {seat} in match {match_id}",
                         code="no_review", params={"match": match_id, "seat": seat})
    return _state(progress)
