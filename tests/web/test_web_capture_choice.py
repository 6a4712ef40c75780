"""Choosing between captures, by mouse and by keyboard, against a scripted table: the page is
real, the WebSocket is Playwright's stand-in that sends one known state and records the moves
the page sends back, so the choice is there every time."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, WebSocketRoute, expect

from .test_web_sizes import COVERED
from .web_support import open_page, open_scripted, screenshot, scripted, state_message

SEATS = [
    {"seat": 0, "side": 0, "kind": "human", "name": "Ada", "level": None, "open": False,
     "connected": True},
    {"seat": 1, "side": 1, "kind": "bot", "name": "Bot 2", "level": "expert", "open": False,
     "connected": True},
]
TABLE = {"code": "CHSE42", "status": "playing", "rules": {"name": "scopa", "target": 11},
         "look": "italian", "players": 2, "sides": 2, "seats": SEATS, "match": 1, "version": 5}
VIEW = {
    "rules": {"name": "scopa", "target": 11}, "seat": 0, "hand": ["7C", "5H", "KH"],
    "table": ["AD", "6D", "3S", "4C", "2H"], "hand_sizes": [3, 2], "stock_size": 24,
    "piles": [["JD", "JC"], []], "sweeps": [1, 0], "scores": [3, 2], "to_move": 0, "dealer": 1,
    "round_number": 1, "plays": [], "dealer_bonus": [], "round_scores": [], "winner": None,
    "last_move": {"seat": 1, "move": "5S", "sweep": False},
    "legal_moves": ["7CxAD+6D", "7Cx3S+4C", "7CxAD+4C+2H", "5H", "KH"],
}


def scripted_table(page: Page) -> list[dict[str, Any]]:
    """Answer the page's hello with the state above; return the list the moves land in."""
    sent: list[dict[str, Any]] = []

    def table(ws: WebSocketRoute) -> None:
        def receive(message: str | bytes) -> None:
            data = json.loads(message)
            if data["type"] == "hello":
                for reply in (
                    {"type": "welcome", "table": "CHSE42", "seat": 0, "side": 0, "name": "Ada"},
                    {"type": "table", "table": TABLE},
                    {"type": "state", "table": "CHSE42", "match": 1, "version": 5, "play": None,
                     "view": VIEW},
                ):
                    ws.send(json.dumps(reply))
            else:
                sent.append(data)

        ws.on_message(receive)

    page.route_web_socket("**/ws/tables/CHSE42", table)
    return sent


def test_candidates_light_up_and_one_is_picked(browser: Browser, web_server: str) -> None:
    watched = open_page(browser, web_server + "#/")
    page = watched.page
    sent = scripted_table(page)
    page.evaluate("localStorage.setItem('scopa.seat.CHSE42', 'token')")
    page.goto(web_server + "#/t/CHSE42")
    page.wait_for_selector("#board")
    assert page.inner_text("#last-move") == "Bot 2 put the five of swords on the table."
    assert page.get_attribute('.hand [data-card="7C"]', "aria-label") == "seven of batons"

    page.click('.hand [data-card="7C"]')
    options = page.locator(".options .option")
    assert options.count() == 3
    candidates = page.eval_on_selector_all(".table-cards .candidate",
                                           "cs => cs.map(c => c.dataset.card)")
    assert sorted(candidates) == ["2H", "3S", "4C", "6D", "AD"]
    assert "can be taken" in str(page.get_attribute('.table-cards [data-card="AD"]', "aria-label"))
    page.hover('.option[data-move="7Cx3S+4C"]')
    chosen = page.eval_on_selector_all(".table-cards .chosen", "cs => cs.map(c => c.dataset.card)")
    assert sorted(chosen) == ["3S", "4C"]
    screenshot(page, "capture-choice")

    page.keyboard.press("Escape")
    assert page.locator(".options").count() == 0
    page.click('.hand [data-card="7C"]')
    page.keyboard.press("2")
    page.click('.hand [data-card="5H"]')
    for _ in range(100):  # the page's frames reach the stand-in asynchronously
        if len(sent) >= 2:
            break
        page.wait_for_timeout(50)
    assert [m["move"] for m in sent if m["type"] == "move"][:2] == ["7Cx3S+4C", "5H"]
    assert all(m["version"] == 5 for m in sent if m["type"] == "move")
    watched.check()


SIZES: list[ViewportSize] = [
    {"width": 320, "height": 568}, {"width": 768, "height": 1024},
    {"width": 1024, "height": 768}, {"width": 2560, "height": 1440},
]  # fmt: skip
RAISED = """() => [...document.querySelectorAll('.table-cards .card')].map((c) => [c.dataset.card,
  c.classList.contains('candidate'), c.classList.contains('tapped')])"""


def marks(page: Page) -> tuple[list[str], list[str]]:
    """The table's cards raised (still offered) and those marked as taken."""
    cards = page.evaluate(RAISED)
    return [c for c, up, _ in cards if up], [c for c, _, taken in cards if taken]


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size['width']}x{size['height']}")
def test_a_capture_is_chosen_by_tapping_the_table_s_cards(
    browser: Browser, web_server: str, size: ViewportSize
) -> None:
    """Issue 35, item 3: after the hand's card, the candidates are raised, nothing lies over
    any of them (the list lies over your own seat), and tapping them picks the capture. The
    same `play` message as the list's goes out. A card of one capture only takes it at once;
    the ace, in two, narrows them to those two, the two of cups to one, which a confirming
    tap takes. Before, the list covered the whole table at 320x568 and a candidate at 768."""
    table = scripted("CHSE42", SEATS, VIEW, look="italian")
    # The server's answer to a move: the same position at the next version, to choose again.
    table.answer = lambda move: [state_message("CHSE42", move["version"] + 1, VIEW)]
    watched = open_scripted(browser, web_server, "CHSE42", table, viewport=size)
    page = watched.page

    page.click('.hand [data-card="7C"]')
    assert marks(page) == (["AD", "6D", "3S", "4C", "2H"], [])
    assert page.evaluate(COVERED) == []
    page.click('.table-cards [data-card="6D"]')  # in one capture only: taken at once
    expect(page.locator('#board[data-version="6"]')).to_be_attached()
    assert table.sent[-1] == {"type": "move", "move": "7CxAD+6D", "version": 5}

    page.click('.hand [data-card="7C"]')
    page.click('.table-cards [data-card="AD"]')  # in two captures: they stay offered
    assert marks(page) == (["AD", "6D", "4C", "2H"], ["AD"])
    assert page.evaluate(COVERED) == []
    page.click('.table-cards [data-card="2H"]')  # one capture left: shown, and confirmed
    assert marks(page) == (["AD", "4C", "2H"], ["AD", "4C", "2H"])
    expect(page.locator("#take-tapped")).to_have_text(
        "Take ace of coins, four of batons, two of cups")
    assert page.evaluate(COVERED) == []
    screenshot(page, f"capture-by-tapping-{size['width']}x{size['height']}")
    assert len(table.sent) == 1, "nothing is played before the confirming tap"
    page.click("#take-tapped")
    expect(page.locator('#board[data-version="7"]')).to_be_attached()
    assert table.sent[-1] == {"type": "move", "move": "7CxAD+4C+2H", "version": 6}
    watched.check()
