"""The list of the card room's parts, in the order the app takes them (:mod:`.feature`), and
the room's own two that stand above the features: the lobby (its routes, health, the tables'
and the lobby's sockets) and the profiles (a profile shows every feature's figures, as lila's
``app/mashup`` does).

Adding a feature is its folder, its migration and one line here. The order is the order of the
routes, of the match-end subscribers (the ratings first, the engine watch after them) and of
the openings; the parts close in the reverse order. Where a feature needs another's public
function, its line hands it over, so that features never import each other.
"""

from __future__ import annotations

from .accounts.feature import Accounts
from .correspondence.feature import Correspondence
from .daily.feature import Daily
from .daily.tables import daily_tables
from .feature import Built, Floors, Part
from .offline.feature import Offline
from .pools.feature import Pools
from .push.feature import Push
from .puzzles.feature import Puzzles
from .social.blocks import blocked_among
from .social.feature import Social
from .tournaments.feature import TournamentsPart


class Lobby(Part):
    name = "lobby"

    def build(self, floors: Floors) -> Built:
        from fastapi import APIRouter

        from . import lobby
        from .lobby_feed import LobbyFeed
        from .table_socket import DOORWAY, TableSockets

        health = APIRouter(tags=["health"])
        health.add_api_route("/healthz", lobby.health, methods=["GET"])
        tables = TableSockets(floors.room, floors.cluster)
        return Built(routers=(lobby.router, health),
                     sockets={"/ws/tables/{code}": tables.serve,
                              "/ws/lobby": LobbyFeed(floors.room).serve},
                     services={DOORWAY: tables.door})


class Profiles(Part):
    name = "profiles"

    def build(self, floors: Floors) -> Built:
        from . import profiles

        return Built(routers=(profiles.router,))


PUSH = Push()
"""Web Push, whose :meth:`~.push.feature.Push.notify` the features that call a person back
are handed."""

PARTS: tuple[Part, ...] = (
    Lobby(),
    Accounts(),
    Profiles(),
    PUSH,
    Puzzles(),
    Daily(),
    TournamentsPart(notify=PUSH.notify),
    Social(unlisted=daily_tables, reachable=PUSH.reachable, notify=PUSH.notify),
    Pools(blocked_among=blocked_among),
    Offline(),
    Correspondence(notify=PUSH.notify, blocked_among=blocked_among),
)
