"""A friend who goes away: the others see the seat marked away at once, the turn says so
instead of waiting on "Friend to play." for ever, and once the server's turn timeout has the
computer play for them, the seat says that too and the match goes on. A real card room with a
five-second turn timeout (a turn's clock runs from its start, so Ada's first turn must fit the
setup below in it), two browsers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from .server_support import sqlite_url, subprocess_server
from .web_support import Watched, open_page, play_one_card, screenshot, version


@pytest.fixture(scope="module")
def impatient_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = sqlite_url(tmp_path_factory.mktemp("away") / "room.db")
    with subprocess_server(db, "--bot-delay", "0", "--turn-timeout", "5") as server:
        yield server.url


def start_a_match_of_two(browser: Browser, url: str) -> tuple[Watched, Watched]:
    """Ada makes a table at ``url``, Bruno takes the other seat from her link, and she starts."""
    ada = open_page(browser, url)
    ada.page.fill("#name", "Ada")
    ada.page.click("#create-table")
    bruno = open_page(browser, ada.page.input_value("#share-link"))
    bruno.page.fill("#join-name", "Bruno")
    bruno.page.click("#take-seat")
    ada.page.wait_for_selector("#start:not([disabled])")
    ada.page.click("#start")
    return ada, bruno


def test_an_away_friend_is_shown_and_played_for(browser: Browser,
                                                impatient_server: str) -> None:  # fmt: skip
    ada, bruno = start_a_match_of_two(browser, impatient_server)
    bruno.page.wait_for_selector("#board")
    ada.page.wait_for_selector('.seat[data-seat="1"] .status[data-status="here"]')
    bruno.check()
    bruno.page.context.close()

    page = ada.page
    page.wait_for_selector('.seat[data-seat="1"] .status[data-status="away"]')
    assert "away" in page.inner_text('.seat[data-seat="1"]')
    play_one_card(page)  # Ada leads; now it is Bruno's turn, and he is away.
    after_ada = version(page)
    page.wait_for_function(
        "v => document.querySelector('#board')?.dataset.version !== v", arg=after_ada
    )
    # The computer played for Bruno: his seat says so, and it is Ada's turn again.
    page.wait_for_selector('.seat[data-seat="1"] .status[data-status="stand-in"]')
    assert "the computer plays for them" in page.inner_text('.seat[data-seat="1"]')
    page.wait_for_selector(".hand button.playable")
    ada.check()


@pytest.fixture(scope="module")
def still_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Three-second turns; a stand-in plays its first move when the clock runs out and every
    later one after ten minutes, so the table stands still once both seats have timed out."""
    db = sqlite_url(tmp_path_factory.mktemp("still") / "room.db")
    with subprocess_server(db, "--bot-delay", "600", "--turn-timeout", "3") as server:
        yield server.url


def test_a_person_here_but_silent_is_played_for_until_they_say_they_are_back(
    browser: Browser, still_server: str
) -> None:
    ada, bruno = start_a_match_of_two(browser, still_server)
    # Both stay, and nobody plays: Ada's turn runs out, then Bruno's; bots play for both.
    ada.page.wait_for_selector('.seat[data-seat="1"] .status[data-status="stand-in"]')
    ada.page.wait_for_selector('#board[data-version="2"]')
    assert "You were away on your turn" in ada.page.inner_text(".come-back")
    screenshot(ada.page, "come-back-desktop")
    bruno.page.wait_for_selector('.seat[data-seat="0"] .status[data-status="stand-in"]')
    # Ada says she is back: the seat is hers again, and Bruno sees her here.
    ada.page.click("#come-back")
    bruno.page.wait_for_selector('.seat[data-seat="0"] .status[data-status="here"]')
    ada.page.wait_for_selector(".come-back", state="detached")
    assert bruno.page.locator('.seat[data-seat="1"] .status[data-status="stand-in"]').count()
    ada.check()
    bruno.check()
