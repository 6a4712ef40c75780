"""A playable card lifts under the pointer, but the button that takes the click stays where it
is: with the pointer on a card's bottom pixel row the card holds still and a click there plays
it (issue 22). The whole button used to lift, out from under a pointer on its bottom 6 px: it
fell back under the pointer, lifted again, and flipped up and down every frame without end.
Playwright called the card "not stable" and timed out (issue 20); a player's click on that edge
missed the card. The last click leaves the pointer there whenever the hand moves up under it
between turns: on a phone it moves up 44 px when the deck empties and 41 px when the "Sweep!"
call goes, which puts a pointer left at a card's middle on the bottom rows of a card."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from .web_support import (
    DESKTOP,
    PHONE,
    open_scripted,
    scripted,
    seat_info,
    state_message,
    view_of,
)

SEATS = [seat_info(0, 0, "Ada"), seat_info(1, 1, "Bot 2", kind="bot", level="expert")]
SIZES = {"phone": PHONE, "desktop": DESKTOP}

# The button's box and its picture's box at each of `frames` animation frames.
BOXES_OVER_FRAMES = """async ([code, frames]) => {
    const box = (e) => {
        const r = e.getBoundingClientRect();
        return [r.x, r.y, r.width, r.height];
    };
    const seen = [];
    for (let k = 0; k < frames; k++) {
        await new Promise(requestAnimationFrame);
        const button = document.querySelector(`.hand [data-card="${code}"]`);
        seen.push({ button: box(button), picture: box(button.querySelector(".card-svg")) });
    }
    return seen;
}"""


def boxes_over_frames(page: Page, code: str, frames: int = 12) -> list[dict[str, list[float]]]:
    return list(page.evaluate(BOXES_OVER_FRAMES, [code, frames]))


@pytest.mark.parametrize("motion", [False, True], ids=["reduced-motion", "motion"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_click_on_the_bottom_row_of_a_playable_card_plays_it(
    browser: Browser, web_server: str, size: str, motion: bool
) -> None:
    view = view_of(hand=["7C", "5H", "KH"], table=["AD", "3S"],
                   legal_moves=["7C", "5H", "KH"])  # fmt: skip
    after = view_of(hand=["7C", "KH"], table=["AD", "3S", "5H"], hand_sizes=[2, 3],
                    to_move=1, last_move={"seat": 0, "move": "5H", "sweep": False})  # fmt: skip
    table = scripted("HITBOX", SEATS, view)

    def take_the_move(message: dict[str, Any]) -> list[dict[str, Any]]:
        """The scripted server takes a move: the page then shows whether a click played."""
        if message["type"] != "move":
            return []
        return [state_message("HITBOX", 6, after, {"seat": 0, "move": message["move"],
                                                    "sweep": False})]  # fmt: skip

    table.answer = take_the_move
    watched = open_scripted(browser, web_server, "HITBOX", table, viewport=SIZES[size],
                            motion=motion)  # fmt: skip
    page = watched.page
    card = page.locator('.hand [data-card="5H"]')
    expect(card).to_have_class("card playable")
    card.scroll_into_view_if_needed()  # on a laptop the hand may start below the fold
    [before] = boxes_over_frames(page, "5H", 1)
    still = before["button"]
    left, top, width, height = still
    x, y = left + width / 2, top + height - 0.5  # the middle of the card's bottom pixel row
    page.mouse.move(x, y)
    # The lift has played out (a short transition, when motion is wanted)...
    page.wait_for_function("() => document.getAnimations().length === 0")
    frames = boxes_over_frames(page, "5H")
    # ...and nothing moves any more: the button has not left its place, the card is still.
    buttons = {tuple(frame["button"]) for frame in frames}
    pictures = {tuple(frame["picture"]) for frame in frames}
    assert buttons == {tuple(still)}, frames
    assert len(pictures) == 1, frames
    # The card still shows it is under the pointer: its picture stands above its place.
    [(_, lifted, _, _)] = pictures
    assert lifted < before["picture"][1], "the pointed-at card is not lifted"
    assert card.evaluate("e => e.matches(':hover')")

    page.mouse.click(x, y)
    expect(page.locator(".hand [data-card]")).to_have_count(2)
    expect(page.locator('.table-cards [data-card="5H"]')).to_have_count(1)
    assert {"type": "move", "move": "5H", "version": 5} in table.sent
    watched.check()
