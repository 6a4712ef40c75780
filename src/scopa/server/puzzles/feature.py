"""The puzzles as one part of the card room (:mod:`..feature`): their routes, which read the
shipped sets and the room's storage."""

from __future__ import annotations

from ..feature import Built, Floors, Part


class Puzzles(Part):
    name = "puzzles"

    def build(self, floors: Floors) -> Built:
        from .account_data import PUZZLES_DATA
        from .routes import router

        return Built(routers=(router,), account_data=(PUZZLES_DATA,))
