"""The daily deal as one part of the card room (:mod:`..feature`): the day's deals, their
routes, the end of an attempt (a match end) and the seal on a day's records until it is over."""

from __future__ import annotations

from ..feature import Built, Floors, Part


class Daily(Part):
    name = "daily"

    def build(self, floors: Floors) -> Built:
        from .account_data import DAILY_DATA
        from .deals import DAILY, DailyDeals
        from .routes import router

        daily = DailyDeals(floors.room)
        return Built(routers=(router,), services={DAILY: daily}, match_ends=(daily.match_over,),
                     account_data=(DAILY_DATA,),
                     record_seals=(daily.seal,), closes=(daily.close,))
