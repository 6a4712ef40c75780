"""Alembic's entry point for the card room's schema.

``scopa serve`` runs the migrations itself at startup (see
``scopa.server.store.storage.migrate``) on a connection it hands over in
``config.attributes["connection"]``, so this works from an installed package with no
``alembic.ini``. For a new revision, run alembic with ``-x url=sqlite:///dev.db``
(a synchronous URL) from this folder's parent: ``alembic -c /dev/null -x url=... revision``.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context

from scopa.server.store.schema import metadata


def _run(connection: sa.Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        # SQLite can change a table only by copying it: batch mode does that where needed.
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


given: sa.Connection | None = context.config.attributes.get("connection")
if given is not None:
    _run(given)
else:
    url = context.get_x_argument(as_dictionary=True).get("url")
    if not url:
        raise SystemExit("give a database: alembic -x url=sqlite:///dev.db ...")
    with sa.create_engine(url).connect() as connection:
        _run(connection)
        connection.commit()
