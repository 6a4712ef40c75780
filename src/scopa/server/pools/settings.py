"""The pools' knobs: their section of the room's settings (``Settings.section(PoolSettings)``)
and the ``scopa serve`` options that set it."""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from limits import parse_many

DEFAULT_BOT_OFFER = 30.0
"""Seconds a person waits in a pool before the computer is offered while they wait on."""
DEFAULT_JOINS = "10/minute;100/hour"
"""Joins of a pool allowed per client address and per person (a guest's browser key, an
account). A join is a match: one a minute each for a household of a few behind one router,
a cancel and a join again among them, fits; one address with no account dealt 342 tables a
minute through the pools, whose stand-ins then played them out (docs/room.md, "Pools")."""


@dataclass(frozen=True)
class PoolSettings:
    wave: float = 1.0
    """Seconds between two waves of the pools' pairing (each process runs its own)."""
    bot_offer: float = DEFAULT_BOT_OFFER
    """Seconds a person waits in a pool before they are offered the computer meanwhile."""
    joins: str = DEFAULT_JOINS
    """Pool joins allowed per client address and per person (the ``limits`` library's
    notation), and so pairings: the pools' tables are writes like the lobby's."""

    def __post_init__(self) -> None:
        if not self.wave > 0 or self.bot_offer < 0:
            raise ValueError("the pools' wave must be more than 0 seconds and their bot offer 0 "
                             f"or more; got {self.wave} and {self.bot_offer}")


def add_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--pool-bot-offer",
        type=float,
        metavar="SECONDS",
        help="seconds a person waits in a pool before the computer is offered meanwhile "
        "(default: 30)",
    )
    parser.add_argument(
        "--pool-joins",
        metavar="LIMITS",
        help="pool joins allowed per client address and per person "
        "(default: '10/minute;100/hour')",
    )


def from_flags(args: argparse.Namespace) -> PoolSettings:
    """The section the options ask for; a wrong one raises ``ValueError`` naming it."""
    bot_offer: float | None = args.pool_bot_offer
    joins: str | None = args.pool_joins
    if bot_offer is not None and not bot_offer >= 0:
        raise ValueError(f"--pool-bot-offer must be 0 or more seconds; got {bot_offer}")
    if joins is not None:
        try:
            parse_many(joins)
        except ValueError:
            raise ValueError(
                f"--pool-joins must be limits such as '20/second;300/minute'; got {joins!r}"
            ) from None
    return PoolSettings(bot_offer=DEFAULT_BOT_OFFER if bot_offer is None else bot_offer,
                        joins=joins or DEFAULT_JOINS)
