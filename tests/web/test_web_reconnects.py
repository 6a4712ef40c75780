"""How the page takes the card room's ways of closing a table's socket (docs/protocol.md):
``replaced`` (1008) is said and never retried by itself, ``busy`` (1013) is retried later and
later, and 1012 (the table moved to another process) is retried at once with the match and
version the page has. The table's socket is scripted and the page's clock is Playwright's, so
"not yet" and "now" are exact: no waiting on real time."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from playwright.sync_api import Browser, Page, WebSocketRoute

from .web_support import (
    ScriptedTable,
    Watched,
    open_page,
    open_scripted,
    play_against_computer,
    scripted,
    seat_info,
    view_of,
)
from .web_support import web_server as web_server

CODE = "RECON1"
START = datetime(2026, 1, 1, 12, 0, 0)


@dataclass
class Recorded(ScriptedTable):
    """A scripted table that also keeps every hello the page says, socket by socket."""

    hellos: list[dict[str, Any]] = field(default_factory=list)
    busy: int = 0
    """How many hellos to come are refused as a busy server does."""

    def _answer(self, ws: WebSocketRoute) -> None:
        self.sockets.append(ws)

        def receive(message: str | bytes) -> None:
            data = json.loads(message)
            if data["type"] == "hello":
                self.hellos.append(data)
                if self.busy:
                    self.busy -= 1
                    self.refuse_busy()
                else:
                    self.push(*self.hello)
            else:
                self.sent.append(data)

        ws.on_message(receive)

    def refuse_busy(self) -> None:
        self.push({"type": "error", "code": "busy",
                   "message": "too many connections are starting: try again"})
        self.sockets[-1].close(code=1013, reason="busy")


COUNT_SOCKETS = """
window.socketsMade = 0;
window.WebSocket = class extends window.WebSocket {
  constructor(...args) {
    super(...args);
    window.socketsMade += 1;
    this.addEventListener("close", () => { window.socketsClosed += 1; });
  }
};
window.socketsClosed = 0;
"""
"""Counts the sockets the page makes, at once (a count read right after the clock ran is exact),
and the ones closed."""


def table(**seat_options: Any) -> Recorded:
    script = scripted(CODE, [seat_info(0, 0, "Ada"), seat_info(1, 1, "Bruno", **seat_options)],
                      view_of(0, hand=["7D"], legal_moves=["7D"]), version=5)  # fmt: skip
    return Recorded(script.hello)


def frozen_page(browser: Browser, server: str, recorded: Recorded) -> Watched:
    """The page at the table with its clock stopped once it has loaded and said hello."""

    def prepare(page: Page) -> None:
        page.clock.install(time=START)
        page.add_init_script(COUNT_SOCKETS)

    watched = open_scripted(browser, server, CODE, recorded, prepare=prepare)
    watched.page.clock.pause_at(START + timedelta(minutes=5))
    assert len(recorded.hellos) == 1 and made(watched.page) == 1
    return watched


def made(page: Page) -> int:
    return int(page.evaluate("window.socketsMade"))


def answer_at(recorded: Recorded, version: int) -> None:
    """The next socket's hello is answered with the state at ``version``."""
    state = dict(recorded.hello[-1])
    recorded.hello[-1] = {**state, "version": version}


def back_at(page: Page, version: int) -> None:
    """Wait until the page shows ``version`` again, with the connection up."""
    page.wait_for_selector(f'#board[data-version="{version}"]')
    page.wait_for_selector("#link-problem", state="detached")


def test_a_replaced_seat_says_so_and_does_not_come_back_by_itself(
    browser: Browser, web_server: str
) -> None:
    recorded = table()
    watched = frozen_page(browser, web_server, recorded)
    page = watched.page
    recorded.push({"type": "error", "code": "replaced",
                   "message": "this seat is open in 3 newer places: this one is closed"})
    recorded.sockets[-1].close(code=1008, reason="replaced by a newer connection")
    page.wait_for_selector('#link-problem[data-link="replaced"]')
    assert "open in newer places" in page.inner_text("#link-problem")
    page.clock.run_for("10:00")  # ten minutes: no timer brings the socket back
    assert made(page) == 1
    assert page.locator('#link-problem[data-link="replaced"]').count() == 1
    # The person asks for it: one new socket, resuming at the version the page has.
    answer_at(recorded, 6)
    page.click("#take-back")
    back_at(page, 6)
    assert made(page) == 2 and len(recorded.hellos) == 2
    assert recorded.hellos[-1] == {"type": "hello", "token": "token", "match": 1, "version": 5,
                                    "continues": True}
    watched.check()


def test_busy_is_retried_later_each_time(browser: Browser, web_server: str) -> None:
    recorded = table()
    watched = frozen_page(browser, web_server, recorded)
    page = watched.page
    recorded.busy = 2  # the server turns the next two hellos away, then lets one in
    answer_at(recorded, 6)
    recorded.refuse_busy()
    for attempt, wait_ms in enumerate((1000, 2000, 4000), start=1):
        page.wait_for_function("n => window.socketsClosed === n", arg=attempt)
        assert page.get_attribute("#link-problem", "data-link") == "busy"
        assert "busy" in page.inner_text("#link-problem")
        page.clock.run_for(wait_ms - 1)  # not before the back-off...
        assert made(page) == attempt
        page.clock.run_for(wait_ms // 2 + 1)  # ...and by its end, jitter included
        assert made(page) == attempt + 1
    back_at(page, 6)
    assert [hello["version"] for hello in recorded.hellos] == [None, 5, 5, 5]
    watched.check()


def test_a_table_that_moved_is_rejoined_at_once_at_the_last_version(
    browser: Browser, web_server: str
) -> None:
    recorded = table(connected=False, stand_in=True)
    watched = frozen_page(browser, web_server, recorded)
    page = watched.page
    # The stand-in the server reports is shown on the seat.
    assert "the computer plays for them" in page.inner_text('.seat[data-seat="1"]')
    assert page.locator('.seat[data-seat="1"] .status[data-status="stand-in"]').count() == 1
    answer_at(recorded, 6)
    recorded.sockets[-1].close(code=1012, reason="the table moved: connect again")
    # The clock stands still: the new socket was opened at once, with the version it had.
    back_at(page, 6)
    assert made(page) == 2
    assert recorded.hellos[-1] == {"type": "hello", "token": "token", "match": 1, "version": 5,
                                    "continues": True}
    watched.check()


def test_a_fourth_tab_on_a_seat_replaces_the_first_on_a_real_server(
    browser: Browser, web_server: str
) -> None:
    """The card room keeps at most three sockets a seat: the fourth tab's takes the place of
    the first, which says so and stays quiet until the person takes the seat back there."""
    first = open_page(browser, web_server)
    play_against_computer(first.page)
    code = first.page.evaluate("location.hash").rsplit("/", 1)[-1]
    token = first.page.evaluate(f"localStorage.getItem('scopa.seat.{code}')")
    assert token

    def same_seat(page: Page) -> None:
        page.add_init_script(f"localStorage.setItem('scopa.seat.{code}', {token!r})")

    others = []
    for _ in range(3):
        other = open_page(browser, f"{web_server.rstrip('/')}/#/t/{code}", before=same_seat)
        other.page.wait_for_selector("#board")
        others.append(other)
    first.page.wait_for_selector('#link-problem[data-link="replaced"]')
    for other in others:
        assert other.page.locator("#link-problem").count() == 0
    # Taken back on the first tab: now the oldest of the others makes room.
    first.page.click("#take-back")
    first.page.wait_for_selector("#link-problem", state="detached")
    others[0].page.wait_for_selector('#link-problem[data-link="replaced"]')
    first.page.wait_for_selector(".hand button.playable")
    for watched in (first, *others):
        watched.check()
        watched.page.context.close()
