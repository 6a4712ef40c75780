"""Offline play as one part of the card room (:mod:`..feature`): the runtime and the wheel
``scripts/pyodide.py`` makes, read once, served under ``/offline/``, and the matches played
offline that come home to an account's history (``/api/offline/matches``)."""

from __future__ import annotations

import argparse

from ..feature import Built, Floors, Part
from . import settings


class Offline(Part):
    name = "offline"

    def flags(self, parser: argparse.ArgumentParser) -> None:
        settings.add_flags(parser)

    def section(self, args: argparse.Namespace) -> settings.OfflineSettings:
        return settings.from_flags(args)

    def build(self, floors: Floors) -> Built:
        from limits.aio.strategies import MovingWindowRateLimiter

        from ..common.ratelimit import limit_storage
        from .account_data import OFFLINE_DATA
        from .files import OFFLINE_FILES, OfflineFiles
        from .routes import DOWNLOADS, UPLOADS, router

        files = OfflineFiles(floors.settings.section(settings.OfflineSettings).folder)
        downloads = MovingWindowRateLimiter(limit_storage(floors.settings.redis_url))
        uploads = MovingWindowRateLimiter(limit_storage(floors.settings.redis_url))
        return Built(routers=(router,), account_data=(OFFLINE_DATA,),
                     services={OFFLINE_FILES: files, DOWNLOADS: downloads,
                                                  UPLOADS: uploads})
