"""A service of the card room as a FastAPI dependency: one typed key per service.

Each part of the room (:mod:`..feature`) names the services its routes use with a
:class:`Service` key next to the service's class, and declares the value it built for each key;
the app (:mod:`..app`) holds the values, made when the app is built, never on a first request.
A route asks for one as ``Annotated[Tournaments, Depends(TOURNAMENTS)]``, so no route reads the
app's state by hand, and a test may still look a service up by its name on ``app.state``.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Generic, TypeVar, cast

from starlette.requests import HTTPConnection

T = TypeVar("T")


class Service(Generic[T]):
    """The key of one service of type ``T``; called by FastAPI with the request (or the
    WebSocket) being served, it gives that app's value."""

    def __init__(self, name: str) -> None:
        self.name = name
        """The value's name on ``app.state``: ``app.state.pools`` for ``Service("pools")``."""

    def __call__(self, connection: HTTPConnection) -> T:
        return cast(T, getattr(connection.app.state, self.name))

    def __repr__(self) -> str:
        return f"Service({self.name!r})"


CLOCK: Service[Callable[[], datetime]] = Service("clock")
"""What the accounts take as now (``store.storage.now``): the moment an account is made or
deleted, and when a deleted account's name is free again (a test may move it)."""
