"""Correspondence play as one part of the card room (:mod:`..feature`): the matches and their
clocks, the offers and seeks, their routes and their section of the settings. It is handed
Web Push's call and who blocked whom by the list of parts: it reads no other feature."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..feature import Built, Floors, Part

if TYPE_CHECKING:
    from ..feature import Notify
    from .offers import BlockedAmong


class Correspondence(Part):
    name = "correspondence"

    def __init__(self, notify: Notify, blocked_among: BlockedAmong) -> None:
        self.notify = notify
        self.blocked_among = blocked_among

    def build(self, floors: Floors) -> Built:
        from .account_data import CORRESPONDENCE_DATA
        from .games import GAMES, Games
        from .offers import OFFERS, Offers
        from .routes import router

        games = Games(floors.room, self.notify)
        offers = Offers(games, self.blocked_among)
        return Built(routers=(router,), account_data=(CORRESPONDENCE_DATA,),
                     services={GAMES: games, OFFERS: offers},
                     match_ends=(games.match_ended,),
                     opens=(games.open,), closes=(games.close,))
