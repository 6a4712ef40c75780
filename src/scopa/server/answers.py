"""The app's answers outside the routes: every error as a sentence with a code, and the API's
documentation at ``/docs``.

Every answer of the room says a sentence (``{"detail": ..., "code": ..., "params": ...}``):
a request that does not fit the API, an unknown path or method, a Redis that does not answer,
and each :class:`.common.errors.LobbyError` a route raises. The documentation is Swagger UI
served from the package (``swagger-ui-bundle``), so it works on a machine with no internet.
"""

from __future__ import annotations

import logging
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from redis.exceptions import RedisError
from starlette.exceptions import HTTPException as StarletteHTTPException
from swagger_ui_bundle import swagger_ui_path  # type: ignore[import-untyped]

from .common.errors import LobbyError
from .http_guards import page_policy

log = logging.getLogger(__name__)

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


def add_docs(app: FastAPI) -> None:
    """``/docs``: Swagger UI, its assets from the package.

    The page is the same for every request: made once, with the policy that fits it. The online
    validator is off: its badge is an image from validator.swagger.io, which the policy
    (rightly) refuses, and /docs needs no internet."""
    # Swagger UI 4, the one the package serves offline, reads OpenAPI 3.0 and shows only a
    # complaint for 3.1 (FastAPI's default); the schema FastAPI writes is read the same.
    app.openapi_version = "3.0.3"
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


def add_error_answers(app: FastAPI) -> None:
    """Each error the app may meet, answered as a sentence with its code."""

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
