"""A friend who goes away: the others see the seat marked away at once, the turn says so
instead of waiting on "Friend to play." for ever, and once the server's turn timeout has the
computer play for them, the seat says that too and the match goes on. A real card room with a
five-second turn timeout (a turn's clock runs from its start, so Ada's first turn must fit the
setup below in it), two browsers. The one played for is told so at their own seat, with a
button to say they are back."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from ..room.server_support import sqlite_url, subprocess_server
from .web_support import (
    DESKTOP,
    PHONE,
    Watched,
    open_page,
    open_scripted,
    play_one_card,
    screenshot,
    scripted,
    seat_info,
    version,
    view_of,
)


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
    assert "You were away on your turn" in ada.page.inner_text('.seat[data-seat="0"] .come-back')
    screenshot(ada.page, "come-back-desktop")
    bruno.page.wait_for_selector('.seat[data-seat="0"] .status[data-status="stand-in"]')
    # Ada says she is back: the seat is hers again, and Bruno sees her here.
    ada.page.click("#come-back")
    bruno.page.wait_for_selector('.seat[data-seat="0"] .status[data-status="here"]')
    ada.page.wait_for_selector(".come-back", state="detached")
    # Bruno is still played for: his own seat tells him so (its notice, not the others' pill).
    assert "You were away on your turn" in bruno.page.inner_text('.seat[data-seat="1"] .come-back')
    ada.check()
    bruno.check()


# The boxes of the come-back notice, of your seat and of every card on screen.
BOXES = """() => {
  const box = (node) => { const r = node.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom }; };
  return { notice: box(document.querySelector(".come-back")),
    seat: box(document.querySelector('.seat[data-seat="0"]')),
    cards: [...document.querySelectorAll(".card")].map((card) => ({
      card: card.dataset.card ?? card.className, ...box(card) })) };
}"""


def apart(a: dict[str, float], b: dict[str, float]) -> float:
    """How far apart two boxes are, in pixels: 0 when they touch or overlap."""
    across = max(a["left"] - b["right"], b["left"] - a["right"], 0.0)
    down = max(a["top"] - b["bottom"], b["top"] - a["bottom"], 0.0)
    return max(across, down)


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return min(a["right"], b["right"]) > max(a["left"], b["left"]) and min(
        a["bottom"], b["bottom"]
    ) > max(a["top"], b["top"])


@pytest.mark.parametrize(("device", "viewport"), [("desktop", DESKTOP), ("phone", PHONE)])
def test_the_come_back_notice_sits_at_your_own_seat(
    browser: Browser, web_server: str, device: str, viewport: ViewportSize
) -> None:
    """Where the eye is: the notice and its button at your seat on the felt, beside your
    name, not under the hand; clear of every card. A table set up by hand, as the server
    says it after your turn timed out."""
    seats = [seat_info(0, 0, "Ada", stand_in=True), seat_info(1, 1, "Bruno")]
    view = view_of(hand=["AH", "4H", "KC"], table=["6H", "7S", "2D", "JC"], hand_sizes=[3, 3],
                   piles=[["QH", "QS"], []], to_move=1, dealer=1)  # fmt: skip
    table = scripted("BACKAT", seats, view)
    watched = open_scripted(browser, web_server, "BACKAT", table, viewport=viewport)
    page = watched.page
    expect(page.locator(".come-back")).to_contain_text("You were away on your turn")
    boxes = page.evaluate(BOXES)
    assert apart(boxes["notice"], boxes["seat"]) <= 8, boxes
    assert [c for c in boxes["cards"] if overlap(c, boxes["notice"])] == []
    assert boxes["notice"]["left"] >= 0 and boxes["notice"]["right"] <= viewport["width"]
    screenshot(page, f"come-back-at-seat-{device}")
    page.click("#come-back")  # a click that reaches the button: nothing lies over it
    expect(page.locator("#come-back")).to_be_enabled()
    assert {"type": "sync", "match": 1, "version": 5} in table.sent
    watched.check()
