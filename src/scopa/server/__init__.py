"""The card room: lobby over HTTP, tables over WebSocket, SQLite or PostgreSQL storage.

An adapter over the rules core: every rule is the core's, every view is ``Game.view``; this
package adds people, bots, storage and the wire.

>>> from scopa.server import Settings, create_app
>>> app = create_app(Settings(db_url="sqlite+aiosqlite:///:memory:"))
>>> paths = app.openapi()["paths"]  # the lobby, documented by OpenAPI at /docs
>>> for path in sorted(p for p in paths if p.startswith(("/api/tables", "/api/play", "/health"))):
...     print(path)
/api/play
/api/tables
/api/tables/{code}
/api/tables/{code}/join
/api/tables/{code}/leave
/api/tables/{code}/rematch
/api/tables/{code}/start
/healthz
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app
    from .common.settings import Settings

__all__ = ["Settings", "create_app"]


def __getattr__(name: str) -> Any:
    """``Settings`` and ``create_app``, loaded when first asked for: ``scopa`` reads the room's
    parts (their flags) without loading the whole room (PEP 562)."""
    if name == "create_app":
        from .app import create_app

        return create_app
    if name == "Settings":
        from .common.settings import Settings

        return Settings
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
