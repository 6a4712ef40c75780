"""Refusals and a lost connection in the reader's language, and what the page does offline
(issue 35, items 6 and 7), in Debian's Chromium against a real card room.

- In Italian, a refused login reads in Italian (the server's code worded by the client), a
  login with no network reads as a lost connection, never as fetch's "Failed to fetch", and
  its "Riprova" sends the same login again once the network is back.
- Opened offline from the service worker's shell, the lobby says what still works and what
  waits for the network, and refuses nothing before a click; the puzzles, never fetched
  before, say that they wait for the network and open by themselves when it is back."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, expect

from .web_support import DESKTOP, open_page

OFFLINE_ERRORS = ("ERR_INTERNET_DISCONNECTED", "Failed to load resource")
"""What Chromium's console says of a request made with no network, and of an answer that is
a refusal (the 401 of a wrong login): the browser's words, not the page's faults."""


def test_a_refusal_and_a_lost_connection_read_in_italian(
    browser: Browser, web_server: str
) -> None:
    base = web_server.rstrip("/")
    watched = open_page(browser, f"{base}/#/account", locale="it-IT", viewport=DESKTOP)
    page = watched.page
    page.fill("#login-name", "Nessuno")
    page.fill("#login-password", "una password qualsiasi")
    page.click("#login-button")
    problem = page.locator("#account-problem")
    expect(problem).to_have_text("Nome utente o password errati.")

    page.context.set_offline(True)
    page.fill("#login-password", "una password qualsiasi")
    page.click("#login-button")
    expect(problem).to_contain_text("Il circolo non risponde: controlla la connessione")
    assert "Failed to fetch" not in problem.inner_text()
    page.context.set_offline(False)
    problem.get_by_role("button", name="Riprova").click()
    # The same login went again, and the room answered it: the refusal, in Italian.
    expect(problem).to_have_text("Nome utente o password errati.")
    watched.errors = [e for e in watched.errors if not e.startswith("failed:")
                      and not any(words in e for words in OFFLINE_ERRORS)]
    watched.check()


def test_offline_the_lobby_says_what_waits_and_the_puzzles_open_when_the_network_is_back(
    browser: Browser, web_server: str
) -> None:
    watched = open_page(browser, web_server, viewport=DESKTOP, worker=True)
    page = watched.page
    expect(page.locator("#play-now")).to_be_visible()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")

    page.context.set_offline(True)
    page.reload()
    notice = page.locator("#offline")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("Still here: the rules and the replays you watched")
    expect(notice).to_contain_text("Waiting for the network: playing, the puzzles")
    # Nothing was asked of the person, so nothing is refused: the levels are offered as known.
    expect(page.locator("#play-level input")).to_have_count(4)
    expect(page.locator(".problem")).to_have_count(0)

    page.goto(f"{web_server.rstrip('/')}/#/puzzles")
    waits = page.locator("#needs-network")
    expect(waits).to_have_text("This page needs the network: it opens by itself once the "
                               "connection is back. Try again")
    page.context.set_offline(False)
    expect(page.locator("#puzzle")).to_have_attribute("data-puzzle", re.compile(r"^scopa-\d+$"))
    expect(notice).to_be_hidden()
    watched.errors = [e for e in watched.errors if not e.startswith("failed:")
                      and not any(words in e for words in OFFLINE_ERRORS)]
    watched.check()
