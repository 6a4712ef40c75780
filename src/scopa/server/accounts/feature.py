"""The accounts as one part of the card room (:mod:`..feature`): logins and sessions, your
data (export and deletion), replays and the master's reviews, with their limits; the ratings
and the engine watch, told of every finished match in that order (the watch judges the rated
matches the rater has recorded)."""

from __future__ import annotations

from ..feature import Built, Floors, Part


class Accounts(Part):
    name = "accounts"

    def build(self, floors: Floors) -> Built:
        from ..common.ratelimit import ACCOUNT_LIMITS, REVIEW_LIMITS, AccountLimits, ReviewLimits
        from ..common.services import CLOCK
        from ..store.storage import now
        from . import accounts, ratings, replays, reviews, yourdata
        from .agreement import EngineWatch

        room, settings = floors.room, floors.settings
        engine_watch = EngineWatch(room)
        registry = reviews.Reviews(room)
        return Built(
            routers=(accounts.router, yourdata.router, replays.router, reviews.router),
            services={CLOCK: now, ACCOUNT_LIMITS: AccountLimits(settings),
                      REVIEW_LIMITS: ReviewLimits(settings), reviews.REVIEWS: registry,
                      yourdata.EXPORTS: yourdata.export_limiter(settings)},
            match_ends=(ratings.rater(room.storage), engine_watch.match_over),
            opens=(engine_watch.open,),
            closes=(engine_watch.close, registry.close),
        )
