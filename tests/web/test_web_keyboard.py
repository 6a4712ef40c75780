"""The plays said aloud (issue 35, item 9): each is put in one live region that outlives the
table's redraws, in the page's language, the words the felt shows."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from .test_web_capture_choice import SEATS, VIEW
from .web_support import open_scripted, scripted, state_message


def test_a_play_is_said_in_the_live_region_in_italian(browser: Browser, web_server: str) -> None:
    table = scripted("CHSE42", SEATS, VIEW)
    watched = open_scripted(browser, web_server, "CHSE42", table, locale="it-IT")
    page = watched.page
    page.evaluate("window.region = document.getElementById('plays-said')")
    after = {**VIEW, "hand": ["5H", "KH"], "table": ["AD", "3S", "4C", "2H"],
             "hand_sizes": [2, 2], "to_move": 1, "legal_moves": [],
             "last_move": {"seat": 0, "move": "7Cx6D", "sweep": False}}  # fmt: skip
    table.push(state_message("CHSE42", 6, after, play={"seat": 0, "move": "7Cx6D", "sweep": False}))
    expect(page.locator("#board")).to_have_attribute("data-version", "6")
    assert page.evaluate("document.getElementById('plays-said') === window.region"), (
        "the region is the one that was there before the play"
    )
    said = str(page.text_content("#plays-said"))
    assert said == page.inner_text("#last-move") and "ha preso" in said, said
    watched.check()
    page.context.close()
