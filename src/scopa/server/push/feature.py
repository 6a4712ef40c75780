"""Web Push as one part of the card room (:mod:`..feature`): its routes, its settings
(``--vapid-key``, ``--push-subject``, ``--push-allow-hosts``, ``--push-ca``) and this
process's :class:`.sender.Pusher`.

Other features push through :meth:`Push.notify` and :meth:`Push.reachable`, handed to them on
their line of the list of parts (``parts.py``), since the features never import each other.
Both take the caller's :class:`.table.room.CardRoom`, which names the app the push belongs
to: a process may run more than one app (the tests do), each with its own pusher.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from ..common.errors import Param
from ..feature import Built, Floors, Part
from . import settings

if TYPE_CHECKING:
    from ..table.room import CardRoom
    from .sender import Pusher


class Push(Part):
    name = "push"

    def __init__(self) -> None:
        self._pushers: WeakKeyDictionary[CardRoom, Pusher] = WeakKeyDictionary()

    def flags(self, parser: argparse.ArgumentParser) -> None:
        settings.add_flags(parser)

    def section(self, args: argparse.Namespace) -> settings.PushSettings:
        return settings.from_flags(args)

    def build(self, floors: Floors) -> Built:
        from .account_data import PUSH_DATA
        from .routes import router
        from .sender import PUSHER, Pusher

        pusher = Pusher(floors.room.storage, floors.settings.section(settings.PushSettings),
                        floors.settings.redis_url)
        self._pushers[floors.room] = pusher
        return Built(routers=(router,), services={PUSHER: pusher}, opens=(pusher.open,),
                     account_data=(PUSH_DATA,),
                     closes=(pusher.close,))

    async def notify(self, room: CardRoom, account_id: int, kind: str, subject: str,
                     params: Mapping[str, Param], url: str, ttl: float | None = None,
                     once: str | None = None) -> int:
        """Push ``kind`` about ``subject`` to ``account_id`` from this process
        (:meth:`.sender.Pusher.notify`); the posts queued."""
        pusher = self._pushers.get(room)
        if pusher is None:
            return 0
        return await pusher.notify(account_id, kind, subject, params, url, ttl, once)

    async def reachable(self, room: CardRoom, account_id: int, kind: str) -> bool:
        """Whether a push of ``kind`` would reach ``account_id``."""
        pusher = self._pushers.get(room)
        return pusher is not None and await pusher.reachable(account_id, kind)
