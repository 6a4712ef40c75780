"""The ASGI app: the lobby's HTTP routes, the tables' WebSockets, health and the web client.

``create_app`` builds it from :class:`Settings`; the lifespan opens the card room (migrations,
then every unfinished table brought back) before the first request and closes it at shutdown.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from .. import __version__
from . import lobby
from .room import CardRoom
from .settings import Settings
from .sockets import table_socket
from .tables import LobbyError

WEB_CLIENT = Path(__file__).resolve().parent.parent / "web"
"""The browser client's static files (package data): served at ``/``, after every other route."""


def create_app(
    settings: Settings | None = None, on_open: Callable[[], None] | None = None
) -> FastAPI:
    """The card room as an ASGI app; ``on_open`` runs once it is ready for clients."""
    room = CardRoom(settings or Settings())

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await room.open()
        if on_open is not None:
            on_open()
        try:
            yield
        finally:
            await room.close()

    app = FastAPI(
        title="Scopa card room",
        version=__version__,
        description="The lobby of the Scopa and Escoba card room. Tables are played over the "
        "WebSocket at `/ws/tables/{code}`: see docs/protocol.md.",
        lifespan=lifespan,
    )
    app.state.room = room
    app.include_router(lobby.router)
    app.add_api_route("/healthz", lobby.health, methods=["GET"], tags=["health"])
    app.add_api_websocket_route("/ws/tables/{code}", table_socket)

    @app.exception_handler(LobbyError)
    async def lobby_error(_: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, LobbyError)
        return JSONResponse({"detail": error.message}, status_code=error.status)

    # Mounted last: a mount at "/" answers every path, so the routes above must come first.
    app.mount("/", StaticFiles(directory=WEB_CLIENT, html=True), name="web")
    return app
