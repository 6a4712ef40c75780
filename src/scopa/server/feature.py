"""The shape every part of the card room takes, so that one place builds them all.

A part is a feature (the pools, the tournaments, ...) or one of the room's own (the lobby, the
accounts, the profiles). It is one object, a :class:`Part`, that declares:

* its settings section and its command-line flags (:meth:`Part.flags`, :meth:`Part.section`):
  ``scopa serve`` adds every part's flags, and the section a part reads travels in
  :attr:`.common.settings.Settings.sections`;
* what it brings once built from the floors it stands on (:meth:`Part.build`, given
  :class:`Floors`): its routers and sockets, the services its routes ask for (FastAPI
  dependencies, :class:`.common.services.Service`), what it subscribes to (the match end and the
  like) and how it opens and closes, all in one :class:`Built`.

:mod:`.app` builds the list of parts (:mod:`.parts`) in order and lets each take part, as lila's
``app/Env.scala`` composes each module's ``Env``. A part is light to import: its ``build``
imports its routes and services, so that the command line reads every part's flags without
loading the room.
"""

from __future__ import annotations

import argparse
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from .common.errors import Param
from .common.services import Service

if TYPE_CHECKING:
    from fastapi import APIRouter

    from .cluster.cluster import Cluster
    from .common.settings import Settings
    from .store.account_data import AccountData
    from .table.finished import Subscriber
    from .table.room import CardRoom, RecordSeal

ROOM: Service[CardRoom] = Service("room")
"""This process's tables, as a dependency of the routes."""
CLUSTER: Service[Cluster] = Service("cluster")
"""This process's place among the room's processes, as a dependency of the routes."""
ACCOUNT_DATA: Service[tuple[AccountData, ...]] = Service("account_data")
"""Every part's account data, in the list's order: what an account's download reads and its
deletion erases beside the floors' own."""

Step = Callable[[], Awaitable[None]]
"""One step of a part's opening or closing."""


class Notify(Protocol):
    """Web Push's call (:meth:`.push.feature.Push.notify`), as a feature that calls a person
    back is handed it by the list of parts: push ``kind`` about ``subject`` (a match's,
    challenge's or tournament's id) to an account's browsers from this process, opening
    ``url`` when clicked, worth delivering for ``ttl`` seconds (None: 12 hours), pushed once
    per event ``once`` however many processes ask; the posts queued."""

    async def __call__(self, room: CardRoom, account_id: int, kind: str, subject: str,
                       params: Mapping[str, Param], url: str, ttl: float | None = None,
                       once: str | None = None) -> int: ...


Reachable = Callable[["CardRoom", int, str], Awaitable[bool]]
"""Whether a push of a kind would reach an account (:meth:`.push.feature.Push.reachable`)."""


@dataclass(frozen=True)
class Floors:
    """What every part stands on: this process's tables and its place among the processes."""

    room: CardRoom
    cluster: Cluster

    @property
    def settings(self) -> Settings:
        return self.room.settings


@dataclass(frozen=True)
class Built:
    """What one part brings to the app. The app takes part by part, in the list's order: the
    routers are included, the services held, the subscribers subscribed and the parts opened in
    that order, and closed in the reverse one."""

    routers: Sequence[APIRouter] = ()
    sockets: Mapping[str, Callable[..., Awaitable[None]]] = field(default_factory=dict)
    """WebSocket endpoints by path."""
    services: Mapping[Service[Any], object] = field(default_factory=dict)
    """The value of each service the part's routes ask for."""
    match_ends: Sequence[Subscriber] = ()
    """Told of every finished match, after the broadcast and outside the table's lock."""
    record_seals: Sequence[RecordSeal] = ()
    """Asked before a match's record or replay is given
    (:attr:`.table.room.CardRoom.record_seals`)."""
    held: Sequence[Callable[[], list[str]]] = ()
    """Leases this process keeps beside its tables' (:attr:`.cluster.cluster.Cluster.also_held`)."""
    account_data: Sequence[AccountData] = ()
    """What the part keeps about an account: its sections of the account's download and its
    share of the account's deletion (its ``account_data.py``)."""
    opens: Sequence[Step] = ()
    closes: Sequence[Step] = ()


class Part:
    """One part of the room; a part with no knobs keeps the defaults of :meth:`flags` and
    :meth:`section`."""

    name = "part"

    def flags(self, parser: argparse.ArgumentParser) -> None:
        """Add the part's options to ``scopa serve``."""

    def section(self, args: argparse.Namespace) -> object | None:
        """The part's settings section from the parsed options (None: it has none). A value
        the section refuses raises ``ValueError`` with a sentence that names the option."""
        return None

    def build(self, floors: Floors) -> Built:
        raise NotImplementedError
