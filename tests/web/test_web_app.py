"""The room installs and starts as an app: its service worker registers and serves a return
visit from the browser's own cache, and with the network gone the page says so plainly and
still opens, with the rules and the replay watched before. (The files' compression and cache
headers are asserted on the wire in tests/room/test_server_web_files.py.)"""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor

from playwright.sync_api import Browser, Response, expect

from scopa.server.client import Lobby, TableConnection

from ..room.server_support import Seated, play_randomly
from .web_support import DESKTOP, PHONE, open_page, screenshot


async def finished_match(url: str) -> int:
    """A match against the computer played to its end by the Python client: its id."""
    async with Lobby(url) as lobby:
        grant = await lobby.play_computer(name="Ada", level="random", target=1)
        connection = await TableConnection.open(url, grant["table"]["code"], grant["token"])
        async with connection:
            await play_randomly(Seated(0, grant["token"], connection), random.Random(1))
            assert connection.match is not None
            return connection.match


def test_a_return_visit_comes_from_the_service_worker_and_works_offline(
    browser: Browser, web_server: str
) -> None:
    base = web_server.rstrip("/")
    # In a thread of its own: Playwright's sync API holds this thread's event loop.
    with ThreadPoolExecutor(1) as thread:
        match = thread.submit(asyncio.run, finished_match(base)).result()
    watched = open_page(browser, f"{base}/#/m/{match}", viewport=DESKTOP, worker=True)
    page = watched.page
    expect(page.locator("#replay-step")).to_be_visible()
    # The worker is in charge once it has kept the shell and claimed the page.
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    assert page.evaluate("navigator.serviceWorker.controller.scriptURL").startswith(
        f"{base}/v/"
    )

    answers: list[Response] = []
    page.on("response", lambda answer: answers.append(answer))
    page.reload()
    expect(page.locator("#replay-step")).to_be_visible()
    files = {answer.url.replace(base, ""): answer for answer in answers}
    modules = [url for url in files if url.startswith("/v/") and url.endswith(".js")]
    assert modules, sorted(files)
    # Every versioned file of the second load came from the worker, none from the network.
    assert [url for url in files if url.startswith("/v/")
            and not files[url].from_service_worker] == []  # fmt: skip

    page.context.set_offline(True)
    notice = page.locator("#offline")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("offline")
    page.reload()
    # The page itself, its modules and the replay watched before: all kept.
    expect(page.locator("#replay-step")).to_be_visible()
    expect(notice).to_be_visible()
    page.goto(f"{base}/#/rules")
    expect(page.locator("article.rules #tips")).to_be_visible()
    screenshot(page, "offline-rules-desktop")
    page.set_viewport_size(PHONE)
    screenshot(page, "offline-rules-phone")
    page.context.set_offline(False)
    expect(notice).to_be_hidden()
    # Offline, the failed requests were the lobby's and nothing else.
    watched.errors = [e for e in watched.errors if "ERR_INTERNET_DISCONNECTED" not in e]
    watched.check()
