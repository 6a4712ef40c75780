"""The browser's key: a random first-party id in an HttpOnly cookie, what tells one browser from
another behind the same address. A guest's try of a puzzle leaves its hash for the day
(issue 34, item 15), and each login and each seat taken leaves its keyed hash among the
account's sightings (item C). On the floor, since the puzzles and the accounts both give it.

>>> import re; bool(SHAPE.fullmatch(new_key()))
True
"""

from __future__ import annotations

import re
import secrets
from typing import Final

from starlette.requests import HTTPConnection
from starlette.responses import Response

COOKIE: Final = "scopa_browser"
DAYS: Final = 30
"""How long a browser keeps its key without being given it again (each use renews it)."""
SHAPE: Final = re.compile(r"[A-Za-z0-9_-]{22,64}")
"""The shape of a key :func:`new_key` makes; a cookie of any other shape is no key."""


def new_key() -> str:
    return secrets.token_urlsafe(24)


def known_key(request: HTTPConnection) -> str | None:
    """The browser's key, if its cookie holds one (a WebSocket's request too)."""
    key = request.cookies.get(COOKIE, "")
    return key if SHAPE.fullmatch(key) else None


def browser_key(request: HTTPConnection, response: Response) -> str:
    """The browser's key, from its cookie, or a new one; either way (re)set on ``response``."""
    key = known_key(request) or new_key()
    response.set_cookie(COOKIE, key, max_age=DAYS * 24 * 3600, path="/", httponly=True,
                        samesite="lax", secure=request.url.scheme == "https")
    return key
