"""Cards travel, unless the person asks for reduced motion: a card laid down glides from the
hand to the table, cards taken fly to the taker's pile, a card from a hidden hand comes from
its seat, the deal comes from the deck and the leftovers go to the last taker. The page counts
the cards each redraw set moving (``main[data-moving]``), and Chromium is asked both ways."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from .test_web_moments import SEATS, choice_view, last_move_of_round
from .web_support import DESKTOP, open_scripted, screenshot, scripted, state_message, view_of


def moving(page_moving: str | None) -> int:
    return int(page_moving or 0)


@pytest.mark.parametrize("motion", [True, False])
def test_cards_travel_unless_motion_is_unwanted(browser: Browser, web_server: str,
                                                motion: bool) -> None:  # fmt: skip
    table = scripted("MOVING", SEATS, choice_view())
    watched = open_scripted(browser, web_server, "MOVING", table, motion=motion,
                            viewport=DESKTOP)
    page = watched.page
    # Ada takes 3+4 with her seven: three cards to her pile, the rest of the table stays.
    page.click('.hand [data-card="7C"]')
    page.click('.options [data-move="7Cx3S+4C"]')
    play = {"seat": 0, "move": "7Cx3S+4C", "sweep": False}
    view = choice_view()
    view.update(hand=["5H", "KH"], table=["AD", "6D", "2H"], to_move=1, legal_moves=[],
                piles=[["JD", "JC", "7C", "3S", "4C"], []], last_move=play)  # fmt: skip
    table.push(state_message("MOVING", 6, view, play))
    page.wait_for_function("() => document.querySelector('#board').dataset.version === '6'")
    # The seven and what it took fly to the pile, the cards left glide to their new places.
    count = moving(page.get_attribute("main", "data-moving"))
    assert count >= 3 if motion else count == 0
    if motion:
        # Stopped a third of the way, the flight is photographed: three cards in the air.
        in_flight = page.evaluate("""() => { for (const a of document.getAnimations()) {
            a.pause(); a.currentTime = 300; } return document.querySelectorAll('.ghost').length;
        }""")  # fmt: skip
        assert in_flight == 3
        screenshot(page, "desktop-cards-travelling", still=False)
        page.evaluate("() => document.getAnimations().forEach(a => a.finish())")
    # Bot 2 takes the two of hearts with a two from its hidden hand: it comes from its seat.
    play = {"seat": 1, "move": "2Sx2H", "sweep": False}
    view.update(table=["AD", "6D"], to_move=0, hand_sizes=[2, 1], last_move=play,
                piles=[view["piles"][0], ["2S", "2H"]])  # fmt: skip
    table.push(state_message("MOVING", 7, view, play))
    page.wait_for_function("() => document.querySelector('#board').dataset.version === '7'")
    count = moving(page.get_attribute("main", "data-moving"))
    assert count >= 2 if motion else count == 0
    watched.check()


def test_the_deal_and_the_leftovers_move(browser: Browser, web_server: str) -> None:
    before, play, after = last_move_of_round()
    table = scripted("DEALER", SEATS, before)
    watched = open_scripted(browser, web_server, "DEALER", table, motion=True)
    page = watched.page
    table.push(state_message("DEALER", 6, after, play))
    page.wait_for_selector("#breakdown")
    # Bot 2's last card from its seat and the three left on the table to Ada's pile, three new
    # cards from the deck to her hand and three backs to Bot 2's (issue 22, item 2: the
    # opponents' deal moves too), and the four of the new table.
    assert moving(page.get_attribute("main", "data-moving")) == 1 + 3 + 3 + 3 + 4
    watched.check()


def test_a_new_view_without_a_move_moves_nothing(browser: Browser, web_server: str) -> None:
    """A reload or a reconnect draws the table as it is: nothing flies in from nowhere."""
    table = scripted("STILLS", SEATS, view_of(hand=["2D"], table=["3C"]))
    watched = open_scripted(browser, web_server, "STILLS", table, motion=True)
    assert moving(watched.page.get_attribute("main", "data-moving")) == 0
    watched.check()
