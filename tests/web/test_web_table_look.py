"""The table's look, set up by hand at chosen moments (the page is real, its socket scripted):
seats around the felt for 2, 4 and 6 players with partners opposite, names or the computer's
level, here or away, hands as backs, each side's pile with its sweeps laid across it; a sweep,
the leftovers taken at the round's end, the round's breakdown and the match's end. Each is
photographed on a desktop and a phone, and nothing may stick out of a phone's screen."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from .web_support import (
    DESKTOP,
    PHONE,
    open_scripted,
    screenshot,
    scripted,
    seat_info,
    view_of,
)

SIZES = {"desktop": DESKTOP, "phone": PHONE}


def fits_the_screen(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width} px wide"  # type: ignore[index]


def two_players() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    seats = [seat_info(0, 0, "Ada"), seat_info(1, 1, "Bot 2", "bot", "expert")]
    view = view_of(
        hand=["7C", "5H", "KH"], table=["AD", "6D", "3S", "4C"], hand_sizes=[3, 2],
        piles=[["JD", "JC", "2S", "3D", "4H", "4D"], ["5S", "5C"]], sweeps=[1, 0],
        scores=[3, 2], to_move=0, round_number=1,
        plays=[{"seat": 0, "move": "4DxJD+JC", "sweep": False},
               {"seat": 1, "move": "5Cx5S", "sweep": False},
               {"seat": 0, "move": "4Hx2S+...", "sweep": True}],
        last_move={"seat": 1, "move": "6S", "sweep": False},
        legal_moves=["7CxAD+6D", "7Cx3S+4C", "5HxAD+4C", "KH"])  # fmt: skip
    view["plays"][2]["move"] = "4Hx2S+3D"
    return seats, view


@pytest.mark.parametrize("size", SIZES)
def test_two_players_face_each_other(browser: Browser, web_server: str, size: str) -> None:
    seats, view = two_players()
    watched = open_scripted(browser, web_server, "TWOPLY", scripted("TWOPLY", seats, view),
                            viewport=SIZES[size])  # fmt: skip
    page = watched.page
    top = page.locator(".seat.at-top")
    assert top.get_attribute("data-seat") == "1"
    assert "Bot 2" in top.inner_text() and "Expert" in top.inner_text()
    assert top.locator(".held .card").count() == 2
    me = page.locator(".seat.at-bottom")
    assert "You" in me.inner_text()
    # The sweep's card lies face up across Ada's pile, and the pile says so.
    pile = page.locator('.pile[data-side="0"]')
    assert pile.locator(".sweep-card").count() == 1
    assert pile.get_attribute("aria-label") == (
        "Captured by You: 6 cards, sweep with the four of hearts")
    assert page.locator('.pile[data-side="1"] .sweep-card').count() == 0
    fits_the_screen(page)
    screenshot(page, f"{size}-table-2p")
    watched.check()


def four_players(away: bool) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    seats = [seat_info(0, 0, "Ada"), seat_info(1, 1, "Bruno", connected=not away),
             seat_info(2, 0, "Bot 3", "bot", "master"),
             seat_info(3, 1, "Carla", connected=False, stand_in=away)]  # fmt: skip
    view = view_of(
        hand=["2D", "6C", "QS", "KD", "3H"], table=["4S", "JH"], hand_sizes=[5, 4, 5, 5],
        piles=[["AC", "AS", "7H", "7S"], ["5D", "5H", "QC", "QD"]], sweeps=[0, 1],
        scores=[4, 6], to_move=1, dealer=3, round_number=2,
        plays=[{"seat": 0, "move": "7Hx7S", "sweep": False},
               {"seat": 1, "move": "QDxQC", "sweep": False},
               {"seat": 2, "move": "ACxAS", "sweep": False},
               {"seat": 3, "move": "5Hx5D", "sweep": True}],
        last_move={"seat": 0, "move": "JH", "sweep": False})  # fmt: skip
    return seats, view


@pytest.mark.parametrize("size", SIZES)
def test_four_players_partners_opposite(browser: Browser, web_server: str, size: str) -> None:
    seats, view = four_players(away=True)
    table = scripted("FOURPL", seats, view, look="italian")
    table.hello[-1]["clock"] = 42
    watched = open_scripted(browser, web_server, "FOURPL", table, viewport=SIZES[size])
    page = watched.page
    places = {page.locator(f'.seat[data-seat="{n}"]').get_attribute("class") for n in range(4)}
    assert {"at-right", "at-top", "at-left", "at-bottom"} <= {
        word for c in places for word in (c or "").split()}
    partner = page.locator('.seat[data-seat="2"]')
    assert "at-top" in (partner.get_attribute("class") or "")
    assert "partner" in partner.inner_text() and "Master" in partner.inner_text()
    # Away, and played for by the computer: said in words, with a sign, not by colour alone.
    bruno, carla = page.locator('.seat[data-seat="1"]'), page.locator('.seat[data-seat="3"]')
    assert bruno.locator(".status").get_attribute("data-status") == "away"
    assert "away" in bruno.inner_text()
    assert carla.locator(".status").get_attribute("data-status") == "stand-in"
    assert "the computer plays for them" in carla.inner_text()
    assert "dealer" in carla.inner_text()
    # The away seat to play counts down to its stand-in from the server's clock (finding 8:
    # "the computer will play for them soon" meant a minute, with no countdown).
    assert page.inner_text("#turn") == "Bruno to play, but is away."
    clock = bruno.locator(".stand-in-clock")
    seconds = int(re.fullmatch(r"the computer plays for them in (\d+) seconds",
                               clock.inner_text()).group(1))  # type: ignore[union-attr]
    assert 30 < seconds <= 42
    # One pile per side, kept by the seat nearest you; the other side's sweep across it.
    assert page.locator(".pile").count() == 2
    assert page.locator('.seat[data-seat="1"] .pile .sweep-card').count() == 1
    fits_the_screen(page)
    screenshot(page, f"{size}-table-4p")
    watched.check()


@pytest.mark.parametrize("players", [3, 6])
def test_three_and_six_players_sit_round_the_felt(browser: Browser, web_server: str,
                                                  players: int) -> None:  # fmt: skip
    names = ["Ada", "Bruno", "Carla", "Dario", "Elena", "Fabio"][:players]
    sides = 2 if players == 6 else players
    seats = [seat_info(n, n % sides, name) for n, name in enumerate(names)]
    view = view_of(hand=["2D", "6C", "QS"], table=["4S", "JH", "AD", "7C"],
                   hand_sizes=[3] * players, piles=[[]] * sides, sweeps=[0] * sides,
                   scores=[0] * sides, to_move=players - 1)  # fmt: skip
    order = {3: ["bottom", "right", "left"],
             6: ["bottom", "right", "top-right", "top", "top-left", "left"]}[players]  # fmt: skip
    for size, viewport in SIZES.items():
        table = scripted("ROUNDS", seats, view, look="spanish")
        watched = open_scripted(browser, web_server, "ROUNDS", table, viewport=viewport)
        page = watched.page
        for seat, place in enumerate(order):
            assert f"at-{place}" in (page.get_attribute(f'.seat[data-seat="{seat}"]', "class")
                                     or "")  # fmt: skip
        if players == 6:
            assert "partner" in page.inner_text('.seat[data-seat="2"]')
            assert "partner" not in page.inner_text('.seat[data-seat="3"]')
        else:
            assert "partner" not in page.inner_text("#felt")
        assert page.locator(".pile").count() == sides
        fits_the_screen(page)
        screenshot(page, f"{size}-table-{players}p")
        watched.check()
        page.context.close()


def test_scopone_hands_fit_a_phone(browser: Browser, web_server: str) -> None:
    """Nine cards in every hand (scopone): the hand wraps and the backs fan, inside 390 px."""
    seats, view = four_players(away=False)
    view.update(hand=["AD", "2D", "3D", "4H", "5H", "6S", "7S", "JC", "KC"],
                hand_sizes=[9, 9, 8, 9])  # fmt: skip
    table = scripted("SCOPON", seats, view, look="italian")
    watched = open_scripted(browser, web_server, "SCOPON", table, viewport=PHONE)
    page = watched.page
    assert page.locator(".hand .card").count() == 9
    assert page.locator('.seat[data-seat="3"] .held .card').count() == 9
    for seat in range(1, 4):  # each hand of backs stays inside its seat's box
        inside = page.eval_on_selector(f'.seat[data-seat="{seat}"]', """s => {
            const box = s.getBoundingClientRect(), backs = s.querySelector('.held')
              .getBoundingClientRect();
            return backs.left >= box.left && backs.right <= box.right; }""")  # fmt: skip
        assert inside, f"seat {seat}"
    fits_the_screen(page)
    screenshot(page, "phone-table-scopone")
    watched.check()
