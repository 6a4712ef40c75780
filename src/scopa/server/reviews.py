"""The master's review of a finished match over HTTP: asked for once, run in worker processes,
its progress shown, stored when done and never worked out again.

``POST /api/replays/{id}/reviews`` with a seat starts the review of that seat's moves (or answers
with the stored one); ``GET /api/replays/{id}/reviews/{seat}`` tells how far it is, then gives
it. Each move is one job for the card room's bot workers (:class:`~.bots.BotPool`), run one
after the other so that the tables' bots, which share the workers, wait at most one move's
search; the event loop only hands jobs out. A match still in play is refused exactly as its
record is (403) and nothing is started.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from typing import Annotated, Any, Final, cast

import sqlalchemy as sa
from fastapi import APIRouter, Depends, Path, Request, Response
from pydantic import BaseModel, Field
from sqlalchemy.ext.asyncio import AsyncConnection

from .. import review
from ..rules import Rules
from .account_tables import reviews
from .accounts import rate_limit
from .bots import BotPool
from .room import CardRoom
from .storage import Storage, now
from .tables import LobbyError

log = logging.getLogger(__name__)

MAX_MATCH_ID: Final = 2**31 - 1
MatchId = Annotated[int, Path(ge=1, le=MAX_MATCH_ID)]

router = APIRouter(prefix="/api", tags=["players"], dependencies=[Depends(rate_limit)])


@dataclass
class Progress:
    total: int
    done: int = 0
    error: str | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)


class Reviews:
    """The reviews this process is working out, by (match, seat)."""

    def __init__(self, room: CardRoom) -> None:
        self.room = room
        self.running: dict[tuple[int, int], Progress] = {}
        self._own_pool: BotPool | None = None

    def _pool(self) -> BotPool:
        """The room's worker pool; with workers in Redis (no local pool), one of our own."""
        if isinstance(self.room.pool, BotPool):
            return self.room.pool
        if self._own_pool is None:
            self._own_pool = BotPool(1)
        return self._own_pool

    async def stored(self, match_id: int, seat: int) -> dict[str, Any] | None:
        async with self.room.storage.engine.connect() as connection:
            found: dict[str, Any] | None = await connection.scalar(
                sa.select(reviews.c.result).where(
                    reviews.c.match_id == match_id, reviews.c.seat == seat
                )
            )
        return found

    async def start(self, match_id: int, seat: int, record: dict[str, Any]) -> Progress:
        key = (match_id, seat)
        running = self.running.get(key)
        if running is not None and running.error is None:
            return running
        todo = review.jobs(record, seat)
        progress = self.running[key] = Progress(total=len(todo))
        progress.task = asyncio.create_task(self._run(key, todo, progress),
                                            name=f"scopa-review-{match_id}-{seat}")
        return progress

    async def _run(self, key: tuple[int, int], todo: list[dict[str, Any]],
                   progress: Progress) -> None:
        try:
            judged = []
            for job in todo:
                judged.append(await self._pool().run(review.review_move, job))
                progress.done += 1
            result = review.summary(key[1], judged)
            await _store(self.room.storage, key, result)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the review of match %s, seat %s failed", *key)
            progress.error = "the review failed; ask for it again"
            return
        del self.running[key]

    async def close(self) -> None:
        for progress in self.running.values():
            if progress.task is not None:
                progress.task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await progress.task
        if self._own_pool is not None:
            await self._own_pool.close()


async def _store(storage: Storage, key: tuple[int, int], result: dict[str, Any]) -> None:
    moment = now()

    async def run(connection: AsyncConnection) -> None:
        exists = await connection.scalar(
            sa.select(reviews.c.match_id).where(
                reviews.c.match_id == key[0], reviews.c.seat == key[1]
            )
        )
        if exists is None:  # another process may have stored the same review first
            await connection.execute(reviews.insert().values(
                match_id=key[0], seat=key[1], result=result, created_at=moment))

    await storage.write(run)


async def shutdown(app: Any) -> None:
    """Stop the reviews still running (they are asked for again after a restart)."""
    found = getattr(app.state, "reviews", None)
    if isinstance(found, Reviews):
        await found.close()


def _reviews(request: Request) -> Reviews:
    state = request.app.state
    found = getattr(state, "reviews", None)
    if found is None:
        found = state.reviews = Reviews(cast(CardRoom, state.room))
    return cast(Reviews, found)


class ReviewAsked(BaseModel):
    seat: int = Field(ge=0, lt=16, description="the seat whose moves the master reviews")


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
    record = await cast(CardRoom, request.app.state.room).match_record(match_id)
    players = Rules.from_dict(record["rules"]).players
    if not 0 <= seat < players:
        raise LobbyError(422, f"seat must be 0..{players - 1} in match {match_id}; got {seat}")
    return record


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
    match_id: MatchId, body: ReviewAsked, request: Request, response: Response
) -> ReviewState:
    """Start the master's review of a seat of a finished match (202), or get the stored one
    (200): a review is worked out once."""
    record = await _finished_record(request, match_id, body.seat)
    registry = _reviews(request)
    stored = await registry.stored(match_id, body.seat)
    if stored is not None:
        response.status_code = 200
        return _done(stored)
    return _state(await registry.start(match_id, body.seat, record))


@router.get("/replays/{match_id}/reviews/{seat}")
async def show_review(
    match_id: MatchId, seat: Annotated[int, Path(ge=0, lt=16)], request: Request
) -> ReviewState:
    """How far the review of a seat is, or the review itself once done; 404 if nobody asked."""
    await _finished_record(request, match_id, seat)
    registry = _reviews(request)
    stored = await registry.stored(match_id, seat)
    if stored is not None:
        return _done(stored)
    progress = registry.running.get((match_id, seat))
    if progress is None:
        raise LobbyError(404, f"nobody has asked for a review of seat {seat} in match {match_id}")
    return _state(progress)
