"""The card room: lobby over HTTP, tables over WebSocket, SQLite or PostgreSQL storage.

An adapter over the rules core: every rule is the core's, every view is ``Game.view``; this
package adds people, bots, storage and the wire.

>>> from scopa.server import Settings, create_app
>>> app = create_app(Settings(db_url="sqlite+aiosqlite:///:memory:"))
>>> sorted(route.path for route in app.routes if route.path.startswith("/api/tables"))[:2]
['/api/tables', '/api/tables']
"""

from .app import create_app
from .settings import Settings

__all__ = ["Settings", "create_app"]
