"""The pools as one part of the card room (:mod:`..feature`): the matchmaker, its socket
``/ws/pools`` and its section of the settings. The matchmaker is handed who blocked whom by the
list of parts: the pools read no other feature."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ..feature import Built, Floors, Part
from . import settings

if TYPE_CHECKING:
    from .matchmaker import BlockedAmong


class Pools(Part):
    name = "pools"

    def __init__(self, blocked_among: BlockedAmong) -> None:
        self.blocked_among = blocked_among

    def flags(self, parser: argparse.ArgumentParser) -> None:
        settings.add_flags(parser)

    def section(self, args: argparse.Namespace) -> settings.PoolSettings:
        return settings.from_flags(args)

    def build(self, floors: Floors) -> Built:
        from .matchmaker import MATCHMAKER, Matchmaker
        from .sockets import PoolSockets

        pools = Matchmaker(floors.room, self.blocked_among)
        return Built(sockets={"/ws/pools": PoolSockets(pools).serve},
                     services={MATCHMAKER: pools}, opens=(pools.open,), closes=(pools.close,))
