"""Shared by the web client's tests: the card room in its own process, Debian's Chromium
driven by Playwright, and helpers that play by clicking as a person would.

Every page records its console errors and uncaught exceptions; ``Watched.check`` fails the
test on any. Screenshots go to ``tests/artifacts/web`` (ignored by git) to be looked at.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, sync_playwright

from .server_support import sqlite_url, subprocess_server

ARTIFACTS = Path(__file__).parent / "artifacts" / "web"
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
WAIT_MS = 20_000
"""The longest any single wait may take, in milliseconds (an upper bound, never a pause)."""


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``scopa serve`` on a free loopback port with a fresh SQLite file and instant bots."""
    db = sqlite_url(tmp_path_factory.mktemp("web") / "room.db")
    with subprocess_server(db, "--bot-delay", "0") as server:
        yield server.url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, or a skip that says why there is none."""
    missing = os.environ.get("SCOPA_TEST_CHROMIUM_MISSING")
    if missing or shutil.which(CHROMIUM) is None:
        pytest.skip(missing or f"no {CHROMIUM}: run bash scripts/chromium.sh as root")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@dataclass
class Watched:
    """A page and the errors its console reported."""

    page: Page
    errors: list[str] = field(default_factory=list)

    def check(self) -> None:
        assert self.errors == [], f"errors in the browser console: {self.errors}"


def open_page(
    browser: Browser, url: str, locale: str = "en-GB", viewport: ViewportSize | None = None
) -> Watched:
    """A fresh browser context (its own storage, as another person's browser) at ``url``.
    It asks for reduced motion: a card still moving is not "stable" for Playwright's clicks."""
    context = browser.new_context(
        locale=locale,
        viewport=viewport or {"width": 1000, "height": 800},
        reduced_motion="reduce",
    )
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    watched = Watched(page)
    page.on("console", lambda m: m.type == "error" and watched.errors.append(m.text))
    page.on("pageerror", lambda error: watched.errors.append(str(error)))
    page.goto(url)
    return watched


def screenshot(page: Page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True, animations="disabled")
    return path


def play_against_computer(page: Page, preset: str = "scopa", look: str = "french",
                          target: str = "1", level: str = "random") -> None:
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
        page.wait_for_selector(
            "#winner, #continue, .hand button.playable"
        )
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
