"""The server is killed in the middle of a match and comes back on the same port: the page
says it is reconnecting, then the same seat plays on from where the match was."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse

from playwright.sync_api import Browser

from ..room.server_support import sqlite_url, subprocess_server
from .web_support import open_page, play_against_computer, play_one_card, version


def test_the_page_reconnects_after_a_server_restart(browser: Browser, tmp_path: Path) -> None:
    db = sqlite_url(tmp_path / "room.db")
    with subprocess_server(db, "--bot-delay", "0") as server:
        port = str(urlparse(server.url).port)
        watched = open_page(browser, server.url)
        page = watched.page
        play_against_computer(page, target="11")
        play_one_card(page)
        page.wait_for_selector(".hand button.playable")
        seen = version(page)
        hand = page.eval_on_selector_all(".hand .card", "cs => cs.map(c => c.dataset.card)")
        server.kill()
        page.wait_for_selector("text=The connection dropped")

    with subprocess_server(db, "--bot-delay", "0", "--port", port):
        page.wait_for_selector("text=The connection dropped", state="detached")
        # Chromium logs each failed attempt while the server was down: those are no fault.
        assert all("WebSocket" in error for error in watched.errors), watched.errors
        watched.errors.clear()
        page.wait_for_selector(".hand button.playable")
        assert version(page) == seen
        assert page.eval_on_selector_all(".hand .card", "cs => cs.map(c => c.dataset.card)") == hand
        play_one_card(page)
        watched.check()
