"""The card room's tests: a running server for a test that wants one, on SQLite or on each
database the room runs on."""

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from .server_support import KeptLoop, Server, fresh_postgres, running_server, settings_for


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    """A card room in this test's event loop, on a fresh SQLite file, with instant bots."""
    async with running_server(settings_for(tmp_path)) as running:
        yield running


@pytest.fixture(params=["sqlite", "postgresql"])
async def stored_server(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Server]:
    """The same on each database the room runs on, for what a test checks is stored."""
    if request.param == "sqlite":
        async with running_server(settings_for(tmp_path)) as running:
            yield running
    else:
        async with fresh_postgres() as url, running_server(
            settings_for(tmp_path, db_url=url)
        ) as running:
            yield running


@pytest.fixture(scope="module", params=["memory", "redis"])
def kept_loop(request: pytest.FixtureRequest) -> Iterator[KeptLoop]:
    """An event loop for a module's property tests, in memory and with a real Redis."""
    opened = KeptLoop(request.param)
    yield opened
    opened.close()
