"""The web client's tests share a server process and a browser per pytest process
(web_support.web_server and web_support.ProcessChromium), apart from the modules that start a
server of their own settings; each test's pages are closed when it ends."""

from collections.abc import Iterator

import pytest

from .web_support import browser, web_server

__all__ = ["browser", "web_server"]


@pytest.fixture(autouse=True)
def _closed_after(request: pytest.FixtureRequest) -> Iterator[None]:
    """Close every context a test opened, once it is over: in a browser shared by many
    modules, a page left open would keep its socket, its timers and its service worker going
    through the later tests."""
    shared = request.getfixturevalue("browser") if "browser" in request.fixturenames else None
    yield
    if shared is not None:
        for context in list(shared.contexts):
            context.close()
