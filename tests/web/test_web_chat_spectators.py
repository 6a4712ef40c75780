"""A logged-in spectator writes at a table in Chromium (issue 23, item 3): its page offers the
text box (its account has finished its first matches), its words reach another spectator's
page, a guest, which offers none, marked as the spectators' own while the match is played, and
that page, reloaded, reads them again from the ``chat`` the table sends after ``hello``."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import httpx
from playwright.sync_api import Browser, Page

from scopa.server.client import Lobby

from ..room.chat_support import register, season
from .web_support import PHONE, open_page, screenshot


def seasoned_cookies(url: str) -> dict[str, str]:
    """The cookies of an account that has finished 3 matches: it may write."""

    async def run() -> dict[str, str]:
        async with Lobby(url) as anna:
            await register(anna, "Anna")
            await season(anna, url)
            return dict(anna.http.cookies.items())

    # In a thread of its own: Playwright's sync API runs an event loop in this one.
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, run()).result()


def open_chat(page: Page) -> None:
    page.click("#chat-button")
    page.wait_for_selector("#chat-panel")


def test_a_logged_in_spectator_writes_and_another_spectator_reads_it(
    browser: Browser, web_server: str
) -> None:
    with httpx.Client(base_url=web_server) as http:
        made = http.post("/api/tables", json={"players": 2, "name": "Ada"}).json()
        code = made["table"]["code"]
        http.post(f"/api/tables/{code}/join", json={"name": "Bruno"}).raise_for_status()
        assert http.post(f"/api/tables/{code}/start", json={"token": made["token"]}).is_success
    cookies = seasoned_cookies(web_server)
    anna = open_page(browser, f"{web_server}/#/t/{code}", before=lambda page: page.context
                     .add_cookies([{"name": name, "value": value, "url": web_server}
                                   for name, value in cookies.items()]))
    watcher = open_page(browser, f"{web_server}/#/t/{code}", locale="it-IT", viewport=PHONE)
    for person in (anna, watcher):
        person.page.wait_for_selector("#board")

    open_chat(anna.page)
    anna.page.wait_for_selector("#chat-text")
    anna.page.fill("#chat-text", "Forza Ada, <b>brava</b>!")
    anna.page.click("#chat-send")
    anna.page.wait_for_selector("#chat-messages .said")
    assert anna.page.inner_text("#chat-messages .said .words") == "Forza Ada, <b>brava</b>!"
    assert anna.page.locator("#chat-panel .chat-problem").count() == 0
    # Her own words: no button to mute or report herself.
    assert anna.page.locator("#chat-messages .said .said-tools").count() == 0
    screenshot(anna.page, "chat-spectator-writes")

    watcher.page.wait_for_selector("#chat-button .unread")
    open_chat(watcher.page)
    assert watcher.page.locator("#chat-text").count() == 0, "a guest watching writes no text"
    line = watcher.page.locator("#chat-messages .said").first
    assert line.locator(".words").inner_text() == "Forza Ada, <b>brava</b>!"
    # A guest only watching reports nothing: the room knows it by no more than its socket
    # (log_in_to_report), so the button is not shown (a seat's and an account's is).
    assert line.locator("button.report").count() == 0
    assert line.locator("button.mute").count() == 1  # another's words may be muted
    assert line.locator(".tag").count() == 1  # the spectators' own, while the match is played
    screenshot(watcher.page, "chat-spectator-reads-phone-it")

    # Reloaded, the page gets the table's chat back from the room, once, and none unread.
    watcher.page.reload()
    watcher.page.wait_for_selector("#board")
    open_chat(watcher.page)
    watcher.page.wait_for_selector("#chat-messages .said")
    assert watcher.page.locator("#chat-messages .said .words").all_inner_texts() == [
        "Forza Ada, <b>brava</b>!"]
    screenshot(watcher.page, "chat-spectator-reloaded-phone-it")
    anna.check()
    watcher.check()
