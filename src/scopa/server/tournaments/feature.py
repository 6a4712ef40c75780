"""The tournaments as one part of the card room (:mod:`..feature`): their director, routes,
page socket, the leases of the tournaments this process directs, and the daily arena's
section of the settings. It is handed Web Push's call by the list of parts."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ..feature import Built, Floors, Part
from . import settings

if TYPE_CHECKING:
    from ..feature import Notify


class TournamentsPart(Part):
    name = "tournaments"

    def __init__(self, notify: Notify) -> None:
        self.notify = notify
        """Web Push's call: the players are pushed a tournament's start."""

    def flags(self, parser: argparse.ArgumentParser) -> None:
        settings.add_flags(parser)

    def section(self, args: argparse.Namespace) -> settings.TournamentSettings:
        return settings.from_flags(args)

    def build(self, floors: Floors) -> Built:
        from .account_data import TOURNAMENTS_DATA
        from .director import TOURNAMENTS, Tournaments
        from .feed import TournamentFeed
        from .routes import router

        director = Tournaments(floors.room, self.notify)
        return Built(
            routers=(router,),
            account_data=(TOURNAMENTS_DATA,),
            sockets={"/ws/tournaments/{tournament_id}": TournamentFeed(director).serve},
            services={TOURNAMENTS: director},
            match_ends=(director.match_ended,),
            held=(director.held,),
            opens=(director.open,),
            closes=(director.close,),
        )
