"""The social features as one part of the card room (:mod:`..feature`): the people feed
(``/ws/me``: who is online, follows, the followers' news of a match), the challenges, their
routes and their section of the settings. The feed is handed which tables are the daily deal's
by the list of parts, and the challenges Web Push's calls (a person not in the room who takes
challenge pushes is challenged through one): social reads no other feature."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..feature import Built, Floors, Part

if TYPE_CHECKING:
    from ..feature import Notify, Reachable
    from .queries import Unlisted


class Social(Part):
    name = "social"

    def __init__(self, unlisted: Unlisted, reachable: Reachable, notify: Notify) -> None:
        self.unlisted = unlisted
        self.reachable = reachable
        self.notify = notify

    def build(self, floors: Floors) -> Built:
        from .account_data import SOCIAL_DATA
        from .challenges import CHALLENGES, Challenges
        from .feed import PEOPLE, PeopleFeed
        from .routes import router

        people = PeopleFeed(floors.room, self.unlisted)
        challenges = Challenges(floors.room, people, self.reachable, self.notify)
        return Built(routers=(router,), sockets={"/ws/me": people.serve},
                     account_data=(SOCIAL_DATA,),
                     services={PEOPLE: people, CHALLENGES: challenges},
                     match_ends=(people.match_ended,),
                     closes=(challenges.close, people.close))
