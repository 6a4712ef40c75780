"""axe-core on every page of the client (issue 35, item 9): no serious or critical violation
on the lobby, a table in play, the puzzles, the daily deal, a tournament, a replay, the account
page and a profile, in Debian's Chromium against a real card room.

axe-core comes from the PyPI package axe-playwright-python, which bundles its axe.min.js (the
version is in docs/web.md); the pages are real ones, filled by a real account that played a
real match, so the replay, the profile and the tournament have something to show."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from scopa.server.client import Lobby, TableConnection

from ..room.server_support import Seated, play_randomly
from .web_support import DESKTOP, open_page, play_against_computer

NAME = "Ottavia Lanterna"
SERIOUS = {"serious", "critical"}
AXE_CORE = "4.12.1"
"""The axe-core that axe-playwright-python 0.1.8 bundles, as docs/web.md says."""


async def fill_the_room(url: str) -> dict[str, Any]:
    """NAME registered, one match of theirs played to its end against a bot and a tournament
    of theirs made: what the profile, the replay and the tournament's page show."""
    async with Lobby(url) as lobby:
        registered = await lobby.http.post(
            "/api/account/register", json={"name": NAME, "password": "a good password"}
        )
        assert registered.status_code == 201, registered.text
        grant = await lobby.play_computer(name=NAME, level="random", target=1)
        code = grant["table"]["code"]
        async with await TableConnection.open(url, code, grant["token"]) as connection:
            await play_randomly(Seated(0, grant["token"], connection), random.Random(5))
        starts = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
        made = await lobby.http.post(
            "/api/tournaments",
            json={"name": "Evening arena", "kind": "arena", "minutes": 30, "starts_at": starts},
        )
        assert made.status_code == 201, made.text
        profile = await lobby.http.get(f"/api/profiles/{NAME}")
        assert profile.status_code == 200, profile.text
        return {"match": profile.json()["recent"][0]["match"], "tournament": made.json()["id"]}


@pytest.fixture(scope="module")
def room(web_server: str) -> Iterator[dict[str, Any]]:
    """The room filled (on a thread of its own: Playwright's sync API owns this one's loop)."""
    with ThreadPoolExecutor(1) as pool:
        yield pool.submit(asyncio.run, fill_the_room(web_server)).result()


def at_table(page: Page) -> None:
    play_against_computer(page)
    expect(page.locator(".hand button.card").first).to_be_visible()


PAGES: dict[str, tuple[str, Callable[[Page], object]]] = {
    # Where, and what shows the page is drawn.
    "lobby": ("#/", lambda page: page.wait_for_selector("#play-computer")),
    "table": ("#/", at_table),
    "puzzles": ("#/puzzles", lambda page: page.wait_for_selector("#puzzle .hand .card")),
    "daily": ("#/daily", lambda page: page.wait_for_selector("#daily-standings")),
    "tournaments": (
        "#/tournaments/{tournament}",
        lambda page: page.wait_for_selector("#tournament"),
    ),
    "replay": ("#/m/{match}", lambda page: page.wait_for_selector(".replay-felt")),
    "account": ("#/account", lambda page: page.wait_for_selector("#register-name")),
    "profile": ("#/p/" + NAME.replace(" ", "%20"), lambda page: page.wait_for_selector("#recent")),
    "offline": ("#/offline", lambda page: page.wait_for_selector("#offline-download")),
}


@pytest.mark.parametrize("name", PAGES)
def test_no_serious_or_critical_violation_on_the_page(
    browser: Browser, web_server: str, room: dict[str, Any], name: str
) -> None:
    where, ready = PAGES[name]
    watched = open_page(browser, f"{web_server}/{where.format(**room)}", viewport=DESKTOP)
    page = watched.page
    ready(page)
    page.wait_for_function("document.getElementById('main').getAttribute('aria-busy') === 'false'")
    results = Axe().run(page).response
    assert results["testEngine"]["version"] == AXE_CORE
    found = [v for v in results["violations"] if v["impact"] in SERIOUS]
    report = "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']}\n  "
        + "\n  ".join(f"{node['target']}: {node['failureSummary']}" for node in v["nodes"][:6])
        for v in results["violations"]
    )
    assert found == [], report
    watched.check()
    page.context.close()
