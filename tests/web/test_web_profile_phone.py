"""A profile with several matches on a phone, in Debian's Chromium against a real card room:
the recent matches become one card per match, so the page does not scroll sideways and no
column is cut off; on a desktop they stay a table, and on both Chromium's own accessibility
tree still reads a table with its column heads. Screenshots of both, to look at."""

from __future__ import annotations

import asyncio
import random
import re
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from scopa.server.client import Lobby, TableConnection

from ..room.server_support import Seated, play_randomly
from .web_support import (
    DESKTOP,
    PHONE,
    Watched,
    open_page,
    screenshot,
)

NAME = "Bartolomea Tagliaferri"
MATCHES: list[dict[str, Any]] = [
    {"preset": "scopa", "rated": True},
    {"preset": "escoba", "rated": True},
    {"preset": "scopa", "players": 4, "rated": False},
    {"preset": "scopone-scientifico", "rated": False},
    {"preset": "escoba", "players": 6, "teams": 3, "rated": False},
    {"preset": "scopa", "rated": True},
]
"""Rated and casual, two to six players: long game names and lists of opponents."""


async def play_the_matches(url: str) -> None:
    """Register NAME and play each of MATCHES to the end against the beginner, at random."""
    rng = random.Random(7)
    async with Lobby(url) as lobby:
        registered = await lobby.http.post(
            "/api/account/register", json={"name": NAME, "password": "a good password"}
        )
        assert registered.status_code == 201, registered.text
        for choices in MATCHES:
            grant = await lobby.play_computer(name=NAME, level="random", target=1, **choices)
            code = grant["table"]["code"]
            async with await TableConnection.open(url, code, grant["token"]) as connection:
                await play_randomly(Seated(0, grant["token"], connection), rng)


@pytest.fixture(scope="module")
def profile(web_server: str) -> Iterator[str]:
    """NAME's profile page, with MATCHES played (on a thread of its own: Playwright's sync
    API owns this one's event loop)."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, play_the_matches(web_server)).result()
    yield f"{web_server}/#/p/{NAME.replace(' ', '%20')}"


def read_as(page: Page) -> Counter[str]:
    """How many nodes of each role Chromium's own accessibility tree has on the page (the
    recent matches are its one table): what a screen reader is given, not what the markup
    says."""
    session = page.context.new_cdp_session(page)
    nodes = session.send("Accessibility.getFullAXTree")["nodes"]
    session.detach()
    return Counter(str(node.get("role", {}).get("value", "")) for node in nodes)


def open_profile(
    browser: Browser, profile: str, viewport: ViewportSize, locale: str = "en-GB"
) -> tuple[Watched, Page]:
    watched = open_page(browser, profile, locale=locale, viewport=viewport)
    page = watched.page
    expect(page.locator("#recent tbody tr")).to_have_count(len(MATCHES))
    return watched, page


@pytest.mark.parametrize("locale", ["en-GB", "it-IT", "es-ES", "sl-SI", "tr-TR"])
def test_the_recent_matches_fit_a_phone(browser: Browser, profile: str, locale: str) -> None:
    watched, page = open_profile(browser, profile, PHONE, locale)
    wide = int(page.evaluate("document.scrollingElement.scrollWidth"))
    assert wide <= int(page.evaluate("innerWidth")), f"the page is {wide} px wide"
    # Nor does the table scroll inside its own box, as it did with its last columns cut off.
    inside, box = page.evaluate("[recent.scrollWidth, recent.parentElement.clientWidth]")
    assert inside <= box, f"the matches are {inside} px wide in {box} px"
    for cell in page.locator("#recent td").all():
        seen = cell.bounding_box()
        assert seen is not None and seen["x"] >= 0 and seen["x"] + seen["width"] <= PHONE["width"]
    replays = page.locator("#recent .replay-link")
    expect(replays).to_have_count(len(MATCHES))
    for link in replays.all():
        expect(link).to_be_visible()
    expect(page.locator("#recent thead")).to_have_css("position", "absolute")
    roles = read_as(page)
    assert (roles["table"], roles["columnheader"], roles["row"]) == (1, 6, len(MATCHES) + 1)
    assert roles["cell"] == 6 * len(MATCHES), roles
    screenshot(page, f"profile-matches-phone-{locale[:2]}")
    watched.check()


def test_the_recent_matches_stay_a_table_on_a_desktop(browser: Browser, profile: str) -> None:
    watched, page = open_profile(browser, profile, DESKTOP)
    expect(page.locator("#record")).to_have_text(re.compile(r"^\d+ won, \d+ lost \(0 of them"))
    expect(page.locator("#recent")).to_have_css("display", "table")
    expect(page.locator("#recent thead")).to_be_visible()
    heads = page.locator("#recent thead th")
    assert [heads.nth(k).inner_text() for k in range(heads.count())] == [
        "Date", "Game", "Opponents", "Result", "Rating change", "Replay"]  # fmt: skip
    roles = read_as(page)
    assert (roles["table"], roles["columnheader"], roles["row"]) == (1, 6, len(MATCHES) + 1)
    assert roles["cell"] == 6 * len(MATCHES), roles
    screenshot(page, "profile-matches-desktop")
    watched.check()
