"""The ASGI app, built in one place from the list of the room's parts (:mod:`.parts`).

``create_app`` makes this process's tables and its place among the processes (the floors every
part stands on), lets each part build what it brings (:mod:`.feature`), and takes it part by
part: routers, sockets, services, match-end subscribers, openings and closings. The lifespan
opens the card room (migrations, then every unfinished table brought back) and the parts
before the first request, and closes them at shutdown in the reverse order.

Every HTTP request passes :mod:`.http_guards` first: a body over 64 KiB is refused (413) before
it is read, and every response gets the browser's security headers (/docs with a policy of its
own, which admits its one inline script by hash). :mod:`.answers` words every error.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path

from fastapi import FastAPI

from .. import __version__
from .answers import add_docs, add_error_answers
from .cluster.cluster import Cluster
from .cluster.hub import RedisHub
from .cluster.workers import RemoteBots
from .common.hub import LocalHub, process_name
from .common.settings import Settings
from .feature import ACCOUNT_DATA, CLUSTER, ROOM, Built, Floors
from .http_guards import SECURITY_HEADERS, BodyLimit, SecurityHeaders
from .parts import PARTS
from .table.room import CardRoom
from .web_client import WebClient

WEB_CLIENT = Path(__file__).resolve().parent.parent / "web"
"""The browser client's static files (package data): served at ``/``, after every other route."""


def room_for(settings: Settings) -> CardRoom:
    """This process's tables, handed the hub and the bots its settings ask for: the cluster's
    over Redis, or a process alone with bots of its own. The table code imports no cluster."""
    name = settings.process_name or process_name()
    if settings.redis_url is None:
        return CardRoom(settings, LocalHub(name))
    bots = RemoteBots(settings.redis_url, name) if settings.bot_queue else None
    return CardRoom(settings, RedisHub(settings.redis_url, name), bots)


def create_app(
    settings: Settings | None = None, on_open: Callable[[], None] | None = None
) -> FastAPI:
    """The card room as an ASGI app; ``on_open`` runs once it is ready for clients."""
    room = room_for(settings or Settings())
    floors = Floors(room, Cluster(room))
    built = [part.build(floors) for part in PARTS]
    app = FastAPI(
        title="Scopa card room",
        version=__version__,
        description="The lobby of the Scopa and Escoba card room. Tables are played over the "
        "WebSocket at `/ws/tables/{code}`: see docs/protocol.md.",
        lifespan=lifespan(floors, built, on_open),
        docs_url=None,
        redoc_url=None,
    )
    setattr(app.state, ROOM.name, room)
    setattr(app.state, CLUSTER.name, floors.cluster)
    setattr(app.state, ACCOUNT_DATA.name, tuple(d for part in built for d in part.account_data))
    for part in built:
        for service, value in part.services.items():
            setattr(app.state, service.name, value)
        for router in part.routers:
            app.include_router(router)
        for path, endpoint in part.sockets.items():
            app.add_api_websocket_route(path, endpoint)
        for subscriber in part.match_ends:
            room.match_ends.subscribe(subscriber)
        room.record_seals.extend(part.record_seals)
        floors.cluster.also_held.extend(part.held)
    add_docs(app)
    add_error_answers(app)
    # Mounted last: a mount at "/" answers every path, so the routes above must come first.
    app.mount("/", WebClient(WEB_CLIENT), name="web")
    # The last added runs first: the headers go on every answer, the 413 included.
    app.add_middleware(BodyLimit)
    app.add_middleware(SecurityHeaders, headers=SECURITY_HEADERS)
    return app


def lifespan(
    floors: Floors, built: Sequence[Built], on_open: Callable[[], None] | None
) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """Open the tables, the cluster and each part in the list's order; close in the reverse."""

    @asynccontextmanager
    async def opened(_: FastAPI) -> AsyncIterator[None]:
        await floors.room.open()
        await floors.cluster.open()
        for part in built:
            for step in part.opens:
                await step()
        if on_open is not None:
            on_open()
        try:
            yield
        finally:
            for part in reversed(built):
                for step in part.closes:
                    await step()
            await floors.cluster.close()
            await floors.room.close()

    return opened
