"""Shared by the web client's tests: the card room in its own process, Debian's Chromium
driven by Playwright, and helpers that play by clicking as a person would.

Every page records its console errors and uncaught exceptions; ``Watched.check`` fails the
test on any. Screenshots go to ``tests/artifacts/web`` (ignored by git) to be looked at.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    ConsoleMessage,
    Page,
    Playwright,
    Request,
    ViewportSize,
    WebSocketRoute,
    expect,
    sync_playwright,
)

from ..room.server_support import sqlite_url, subprocess_server

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "web"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}
WAIT_MS = 20_000
"""The longest any single wait may take, in milliseconds (an upper bound, never a pause)."""
# ``expect`` waits as long as any other wait. Its own default is 5 s, and an assertion on what
# follows CPU work (a registration's argon2 hash, which runs at a lowered priority by design)
# failed at 5 s on a busy machine while the page went on to show the right thing.
expect.set_options(timeout=WAIT_MS)


@pytest.fixture(scope="session")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``scopa serve`` on a free loopback port with a fresh SQLite file and instant bots, one
    for all the modules this pytest process runs that need nothing else of it (a server start
    was a sixth of the browser tests' time). Each test makes accounts of its own names; every
    person comes from one loopback address, so the per-address limits (on registrations,
    logins and the lobby's requests in a minute, which two modules in a row may share) are
    those of a house of many, not one; the room's tests check the limits themselves."""
    db = sqlite_url(tmp_path_factory.mktemp("web") / "room.db")
    many = ("--register-per-address", "1000/minute", "--login-per-address", "1000/minute",
            "--lobby-writes", "100/second;3000/minute", "--lobby-reads", "250/second;12000/minute")
    with subprocess_server(db, "--bot-delay", "0", *many) as server:
        yield server.url


class ProcessChromium:
    """The one Chromium of this pytest process, launched by its first browser test and kept
    for the next ones, since a launch costs about half a second and there are 45 modules.

    It cannot simply stay open for the whole run: Playwright's sync API keeps an event loop
    running in this thread while it is open, and an anyio test (the room's, dealt to the same
    pytest-xdist worker) would find it there and fail. So the root conftest closes it before
    any test outside tests/web. The files are dealt to the workers in their order
    (--dist loadfile), tests/web last, so each worker opens it once, not once a module."""

    def __init__(self) -> None:
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None

    def browser(self) -> Browser:
        """The running Chromium, launched if there is none (or if the last one crashed)."""
        if self._browser is None or not self._browser.is_connected():
            self.close()
            self._playwright = sync_playwright().start()
            self._browser = self._playwright.chromium.launch(
                executable_path=CHROMIUM, args=CHROMIUM_ARGS
            )
        return self._browser

    def close(self) -> None:
        if self._browser is not None and self._browser.is_connected():
            self._browser.close()
        if self._playwright is not None:
            self._playwright.stop()
        self._browser = self._playwright = None


PROCESS_CHROMIUM = ProcessChromium()


@pytest.fixture(scope="module")
def browser() -> Browser:
    """Debian's Chromium (this process's one, see :class:`ProcessChromium`), or a skip that
    says why there is none."""
    missing = os.environ.get("SCOPA_TEST_CHROMIUM_MISSING")
    if missing or shutil.which(CHROMIUM) is None:
        pytest.skip(missing or f"no {CHROMIUM}: run bash scripts/chromium.sh as root")
    return PROCESS_CHROMIUM.browser()


@dataclass
class Watched:
    """A page and the errors its console reported."""

    page: Page
    errors: list[str] = field(default_factory=list)

    def check(self) -> None:
        assert self.errors == [], f"errors in the browser console: {self.errors}"

    def console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.errors.append(message.text)

    def failed(self, request: Request) -> None:
        """A failed request, except one the browser cancelled itself: a reload or a
        navigation aborts the page's fetches in flight (``net::ERR_ABORTED``), as for any
        user, and that is no fault of the page (CI once failed on a seat list cut short by a
        reload)."""
        if request.failure != "net::ERR_ABORTED":
            self.errors.append(f"failed: {request.method} {request.url} ({request.failure})")

    def request(self, request: Request) -> None:
        """Nothing may leave loopback: no font, script or beacon from elsewhere."""
        if not _on_loopback(request.url):
            self.errors.append(f"left: {request.url}")


def open_page(
    browser: Browser,
    url: str,
    locale: str = "en-GB",
    viewport: ViewportSize | None = None,
    before: Callable[[Page], object] | None = None,
    motion: bool = False,
    worker: bool = False,
) -> Watched:
    """A fresh browser context (its own storage, as another person's browser) at ``url``.
    It asks for reduced motion unless ``motion``: a card still moving is not "stable" for
    Playwright's clicks. ``before`` gets the page before it loads (to script its socket).
    The client's service worker is blocked unless ``worker``: ``page.route`` does not see
    the requests a service worker answers, so a test that answers a replay itself would get
    the server's instead (tests/web/test_web_app.py tests the worker).
    A failed request, or one that leaves loopback, is an error like a console error."""
    context = browser.new_context(
        locale=locale,
        viewport=viewport or {"width": 1000, "height": 800},
        reduced_motion="no-preference" if motion else "reduce",
        service_workers="allow" if worker else "block",
    )
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    watched = Watched(page)
    page.on("console", watched.console)
    page.on("pageerror", lambda error: watched.errors.append(str(error)))
    page.on("requestfailed", watched.failed)
    page.on("request", watched.request)
    if before is not None:
        before(page)
    page.goto(url)
    return watched


def _on_loopback(url: str) -> bool:
    return url.startswith(("http://127.0.0.1:", "ws://127.0.0.1:", "data:", "blob:"))


@dataclass
class ScriptedTable:
    """A table's WebSocket answered by the test instead of a server: the page is real, the
    messages are the protocol's (docs/protocol.md), so any moment of a match can be set up.
    ``sent`` collects what the page sends after its hello; ``answer``, when set, gives the
    messages to send back to each of them (as a server would answer a move)."""

    hello: list[dict[str, Any]]
    sent: list[dict[str, Any]] = field(default_factory=list)
    sockets: list[WebSocketRoute] = field(default_factory=list)
    answer: Callable[[dict[str, Any]], list[dict[str, Any]]] | None = None

    def attach(self, page: Page, code: str) -> None:
        page.route_web_socket(f"**/ws/tables/{code}", self._answer)

    def _answer(self, ws: WebSocketRoute) -> None:
        self.sockets.append(ws)

        def receive(message: str | bytes) -> None:
            data = json.loads(message)
            if data["type"] == "hello":
                self.push(*self.hello)
            else:
                self.sent.append(data)
                if self.answer is not None:
                    self.push(*self.answer(data))

        ws.on_message(receive)

    def push(self, *messages: dict[str, Any]) -> None:
        """Send messages on the page's latest socket."""
        for message in messages:
            self.sockets[-1].send(json.dumps(message))


def screenshot(page: Page, name: str, still: bool = True) -> Path:
    """The whole page as ``name``.png; ``still`` finishes any animation first."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True, animations="disabled" if still else "allow")
    return path


def play_against_computer(
    page: Page,
    preset: str = "scopa",
    look: str = "french",
    target: str = "1",
    level: str = "random",
) -> None:
    """From the lobby, one click (after the choices) to a dealt table against a bot."""
    page.select_option("#quick-preset", preset)
    page.select_option("#quick-look", look)
    page.select_option("#quick-level", level)
    page.fill("#quick-target", target)
    page.click("#play-computer")
    page.wait_for_selector("#board")


def version(page: Page) -> str:
    return str(page.get_attribute("#board", "data-version"))


def play_one_card(page: Page) -> None:
    """Click the first playable card (and the first capture offered, when there is a choice),
    then wait until the server's answer has been drawn."""
    before = version(page)
    page.click(".hand button.playable >> nth=0")
    if page.locator(".options .option").count():
        page.click(".options .option >> nth=0")
    page.wait_for_function(
        "v => document.querySelector('#board')?.dataset.version !== v", arg=before
    )


def play_to_the_end(page: Page, on_breakdown: Callable[[Page], None] | None = None) -> int:
    """Play by clicking until the winner is shown; returns the number of cards played.
    ``on_breakdown`` is called with the page whenever a round's breakdown is up."""
    played = 0
    for _ in range(1000):
        page.wait_for_selector("#winner, #continue, .hand button.playable")
        if page.locator("#winner").count():
            return played
        if page.locator("#continue").count():
            if on_breakdown is not None:
                on_breakdown(page)
            page.click("#continue")
            continue
        play_one_card(page)
        played += 1
    raise AssertionError("the match did not end")


# -- tables set up by hand: any moment of a match, as the protocol's messages ---------------


def seat_info(
    seat: int,
    side: int,
    name: str,
    kind: str = "human",
    level: str | None = None,
    connected: bool = True,
    stand_in: bool = False,
) -> dict[str, Any]:
    return {"seat": seat, "side": side, "kind": kind, "name": name, "level": level,
            "open": False, "connected": connected, "stand_in": stand_in}  # fmt: skip


def table_message(
    code: str, seats: list[dict[str, Any]], look: str = "french", preset: str = "scopa",
    target: int = 11,
) -> dict[str, Any]:  # fmt: skip
    return {"type": "table", "table": {
        "code": code, "status": "playing", "rules": {"name": preset, "target": target},
        "look": look, "players": len(seats), "sides": len({s["side"] for s in seats}),
        "seats": seats, "match": 1, "version": 5}}  # fmt: skip


def state_message(
    code: str, version: int, view: dict[str, Any], play: dict[str, Any] | None = None
) -> dict[str, Any]:
    return {"type": "state", "table": code, "match": 1, "version": version, "play": play,
            "view": view}  # fmt: skip


def view_of(seat: int | None = 0, **fields: Any) -> dict[str, Any]:
    """A seat's view with sensible defaults for what a test does not name."""
    view: dict[str, Any] = {
        "rules": {"name": "scopa", "target": 11}, "seat": seat, "hand": [], "table": [],
        "hand_sizes": [3, 3], "stock_size": 24, "piles": [[], []], "sweeps": [0, 0],
        "scores": [0, 0], "to_move": 0, "dealer": 1, "round_number": 0, "plays": [],
        "dealer_bonus": [], "round_scores": [], "winner": None, "last_move": None,
        "legal_moves": [],
    }  # fmt: skip
    view.update(fields)
    return view


def scripted(
    code: str, seats: list[dict[str, Any]], view: dict[str, Any], seat: int | None = 0,
    look: str = "french", version: int = 5, play: dict[str, Any] | None = None,
) -> ScriptedTable:  # fmt: skip
    """The hello's answers for a seat at a table in the state ``view``."""
    welcome = {"type": "welcome", "table": code, "seat": seat, "side": None, "name": None}
    return ScriptedTable([welcome, table_message(code, seats, look),
                          state_message(code, version, view, play)])  # fmt: skip


def open_scripted(
    browser: Browser,
    server: str,
    code: str,
    table: ScriptedTable,
    prepare: Callable[[Page], object] | None = None,
    **options: Any,
) -> Watched:
    """A page at the scripted table ``code`` (its seat token kept, as after taking the seat);
    ``prepare`` gets the page before it loads."""

    def before(page: Page) -> None:
        table.attach(page, code)
        page.add_init_script(f"localStorage.setItem('scopa.seat.{code}', 'token')")
        if prepare is not None:
            prepare(page)

    watched = open_page(browser, f"{server.rstrip('/')}/#/t/{code}", before=before, **options)
    watched.page.wait_for_selector("#board")
    return watched
