"""The ASGI app: the lobby's HTTP routes, the tables' WebSockets, health and the web client.

``create_app`` builds it from :class:`Settings`; the lifespan opens the card room (migrations,
then every unfinished table brought back) before the first request and closes it at shutdown.
The API's documentation at ``/docs`` is Swagger UI served from the package
(``swagger-ui-bundle``), so it works on a machine with no internet.

Every HTTP request passes :mod:`.http_guards` first: a body over 64 KiB is refused (413) before
it is read, and every response gets the browser's security headers (/docs with a policy of its
own, which admits its one inline script by hash).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from redis.exceptions import RedisError
from starlette.exceptions import HTTPException as StarletteHTTPException
from swagger_ui_bundle import swagger_ui_path  # type: ignore[import-untyped]

from .. import __version__
from . import lobby, profiles
from .accounts import accounts, ratings, replays, reviews, yourdata
from .accounts.agreement import EngineWatch
from .cluster.cluster import Cluster
from .cluster.hub import RedisHub
from .cluster.workers import RemoteBots
from .common.errors import LobbyError
from .common.hub import LocalHub, process_name
from .common.settings import Settings
from .daily import routes as daily_routes
from .daily.deals import DailyDeals, daily_tables
from .http_guards import SECURITY_HEADERS, BodyLimit, SecurityHeaders, page_policy
from .lobby_feed import LobbyFeed
from .pools.matchmaker import Matchmaker
from .pools.sockets import PoolSockets
from .puzzles import routes as puzzles
from .social import routes as social
from .social.blocks import blocked_among
from .social.challenges import Challenges
from .social.feed import PeopleFeed
from .store.storage import now
from .table.room import CardRoom
from .table_socket import table_socket
from .tournaments import routes as tournament_routes
from .tournaments.director import Tournaments
from .tournaments.feed import TournamentFeed
from .web_client import WebClient

log = logging.getLogger(__name__)

WEB_CLIENT = Path(__file__).resolve().parent.parent / "web"
"""The browser client's static files (package data): served at ``/``, after every other route."""
DOCS_ASSETS = "/docs/assets"


def validation_sentence(error: RequestValidationError) -> str:
    """The first problem of a request that does not fit the API, as one sentence (the
    protocol's ``{"detail": "..."}``, not FastAPI's list of objects).

    >>> validation_sentence(RequestValidationError([{"type": "less_than_equal",
    ...     "loc": ("body", "players"), "msg": "Input should be less than or equal to 16"}]))
    'players: input should be less than or equal to 16'
    """
    problems = error.errors()
    if not problems:
        return "the request does not fit the API: see /docs"
    first = problems[0]
    if first.get("type") == "json_invalid":
        return "the request body is not valid JSON"
    where = ".".join(str(part) for part in first.get("loc", ())[1:]) or "the request body"
    message = str(first.get("msg", "is not valid"))
    return f"{where}: {message[:1].lower()}{message[1:]}"


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
    # What follows a finished match subscribes to its announcement; the tables know none of it.
    room.match_ends.subscribe(ratings.rater(room.storage))
    # After the rater: the engine watch judges the rated matches it has recorded.
    engine_watch = EngineWatch(room)
    room.match_ends.subscribe(engine_watch.match_over)
    daily = DailyDeals(room)
    room.match_ends.subscribe(daily.match_over)
    room.record_seals.append(daily.seal)
    cluster = Cluster(room)
    pools = Matchmaker(room, blocked_among)
    tournaments = Tournaments(room)
    cluster.also_held.append(tournaments.held)
    people = PeopleFeed(room, daily_tables)
    challenges = Challenges(room, people)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await room.open()
        await cluster.open()
        await pools.open()
        await tournaments.open()
        engine_watch.open()
        if on_open is not None:
            on_open()
        try:
            yield
        finally:
            await engine_watch.close()
            await reviews.shutdown(app)
            await challenges.close()
            await people.close()
            await daily.close()
            await tournaments.close()
            await pools.close()
            await cluster.close()
            await room.close()

    app = FastAPI(
        title="Scopa card room",
        version=__version__,
        description="The lobby of the Scopa and Escoba card room. Tables are played over the "
        "WebSocket at `/ws/tables/{code}`: see docs/protocol.md.",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    # Swagger UI 4, the one the package serves offline, reads OpenAPI 3.0 and shows only a
    # complaint for 3.1 (FastAPI's default); the schema FastAPI writes is read the same.
    app.openapi_version = "3.0.3"
    app.state.room = room
    # What the accounts take as now (a test may move it: a deleted name is free after 30 days).
    app.state.clock = now
    app.state.cluster = cluster
    app.state.pools = pools
    app.state.tournaments = tournaments
    app.state.people = people
    app.state.challenges = challenges
    app.state.daily = daily
    app.include_router(lobby.router)
    app.include_router(accounts.router)
    app.include_router(yourdata.router)
    app.include_router(profiles.router)
    app.include_router(replays.router)
    app.include_router(reviews.router)
    app.include_router(puzzles.router)
    app.include_router(tournament_routes.router)
    app.include_router(social.router)
    app.include_router(daily_routes.router)
    app.add_api_route("/healthz", lobby.health, methods=["GET"], tags=["health"])
    app.add_api_websocket_route("/ws/tables/{code}", table_socket)
    app.add_api_websocket_route("/ws/lobby", LobbyFeed(room).serve)
    app.add_api_websocket_route("/ws/pools", PoolSockets(pools).serve)
    app.add_api_websocket_route(
        "/ws/tournaments/{tournament_id}", TournamentFeed(tournaments).serve
    )
    app.add_api_websocket_route("/ws/me", people.serve)

    # The page is the same for every request: made once, with the policy that fits it. The
    # online validator is off: its badge is an image from validator.swagger.io, which the
    # policy (rightly) refuses, and /docs needs no internet.
    docs_page = bytes(
        get_swagger_ui_html(
            openapi_url="/openapi.json",
            title=f"{app.title}: API",
            swagger_js_url=f"{DOCS_ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{DOCS_ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{DOCS_ASSETS}/favicon-32x32.png",
            swagger_ui_parameters={"validatorUrl": None},
        ).body
    )
    docs_headers = {"Content-Security-Policy": page_policy(docs_page.decode())}

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return HTMLResponse(docs_page, headers=docs_headers)

    app.mount(DOCS_ASSETS, StaticFiles(directory=Path(str(swagger_ui_path))), name="docs")

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, RequestValidationError)
        return JSONResponse({"detail": validation_sentence(error), "code": "invalid_request",
                             "params": {}}, status_code=422)

    @app.exception_handler(RedisError)
    async def redis_down(_: Request, error: Exception) -> JSONResponse:
        log.warning("Redis failed a request: %s", error)
        return JSONResponse(
            {"detail": "the card room cannot reach its Redis just now; try again shortly",
             "code": "redis_down", "params": {}},
            status_code=503,
            headers={"Retry-After": "5"},
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: Exception) -> JSONResponse:
        # Starlette's own answers (an unknown path, a method a route does not take) say a
        # bare "Not Found"; every answer of the room says a sentence.
        assert isinstance(error, StarletteHTTPException)
        detail = error.detail
        body: dict[str, object] = {"detail": detail}
        if error.status_code == 404 and detail == "Not Found":
            body = {"detail": f"there is nothing at {request.url.path}: the routes are listed "
                    "at /docs", "code": "not_found", "params": {"path": request.url.path}}
        elif error.status_code == 405 and detail == "Method Not Allowed":
            body = {"detail": f"{request.url.path} does not take {request.method}: see /docs",
                    "code": "method_not_allowed",
                    "params": {"path": request.url.path, "method": request.method}}
        return JSONResponse(body, status_code=error.status_code, headers=error.headers)

    @app.exception_handler(LobbyError)
    async def lobby_error(_: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, LobbyError)
        return JSONResponse(error.answer(), status_code=error.status, headers=error.headers)

    # Mounted last: a mount at "/" answers every path, so the routes above must come first.
    app.mount("/", WebClient(WEB_CLIENT), name="web")
    # The last added runs first: the headers go on every answer, the 413 included.
    app.add_middleware(BodyLimit)
    app.add_middleware(SecurityHeaders, headers=SECURITY_HEADERS)
    return app
