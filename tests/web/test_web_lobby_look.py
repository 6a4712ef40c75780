"""The lobby with life: a fan of the project's cards, the games offered with a line each on how
they differ, and open tables saying who waits at them. Photographed on a desktop and a phone.
(The one-button play and the live list: tests/web/test_web_lobby_play.py.)"""

from __future__ import annotations

import httpx
from playwright.sync_api import Browser

from .web_support import DESKTOP, PHONE, open_page, screenshot


def test_the_lobby_offers_games_and_shows_who_waits(browser: Browser, web_server: str) -> None:
    created = httpx.post(f"{web_server.rstrip('/')}/api/tables",
                         json={"preset": "scopa", "players": 2, "name": "Ada"})  # fmt: skip
    assert created.status_code == 201, created.text
    code = created.json()["table"]["code"]
    for size, viewport in {"desktop": DESKTOP, "phone": PHONE}.items():
        watched = open_page(browser, web_server, viewport=viewport)
        page = watched.page
        page.wait_for_selector(f'#open-tables a[href="#/t/{code}"]')
        row = page.locator(".open-table", has=page.locator(f'a[href="#/t/{code}"]'))
        assert "Ada waiting, 1 free" in row.inner_text()
        assert page.locator(".fan .card svg").count() == 5
        # The footer is for players: the rules, not the lobby's API.
        links = page.eval_on_selector_all("footer a", "as => as.map(a => a.getAttribute('href'))")
        assert links == ["#/rules"]
        options = page.eval_on_selector_all("#quick-preset option", "os => os.map(o => o.value)")
        assert options == ["scopa", "escoba", "scopa-classic", "escoba-classic", "scopone"]
        page.select_option("#quick-preset", "scopone")
        assert page.input_value("#quick-players") == "4"
        assert "partners opposite" in page.inner_text("#quick-about")
        page.select_option("#quick-preset", "escoba-classic")
        assert "two fifteens" in page.inner_text("#quick-about")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        screenshot(page, f"{size}-lobby")
        watched.check()
        page.context.close()

