"""The keyboard alone (issue 35, item 8): a whole match against the computer played with
keyboard.press only, never a click, from the lobby's Play now at its shortest target to the
match's end, in Debian's Chromium against a real card room. Each time it is the person's turn
the focus is already on their hand: a card played, a capture chosen and a round's breakdown
closed each used to leave it on the page's body, 4 Tabs from the hand.

And the plays said aloud (item 9): each is put in one live region that outlives the table's
redraws, in the page's language, the words the felt shows."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from .web_support import (
    DESKTOP,
    open_page,
    open_scripted,
    scripted,
    seat_info,
    state_message,
    view_of,
)

FOCUSED_IN_HAND = "document.activeElement?.closest('.hand') !== null"


def tab_to(page: Page, selector: str) -> None:
    """Tab forward until ``selector`` has the focus, as a person would look for it."""
    for _ in range(40):
        if page.evaluate("s => document.activeElement?.matches(s) ?? false", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"40 Tabs did not reach {selector}")


def moment(page: Page) -> str:
    """What the table waits for now: the person's card, their Continue, or nothing (over)."""
    handle = page.wait_for_function("""() => {
        if (document.querySelector('dialog[open] #winner')) return 'over';
        if (document.querySelector('dialog[open] #continue')) return 'continue';
        if (document.querySelector('.hand.my-turn button.playable')
            && !document.querySelector('dialog')) return 'turn';
        return false;
    }""")
    return str(handle.json_value())


def play_a_card(page: Page) -> None:
    """From the focused hand card, right along the hand to one that may be played, Enter, and
    the first capture offered (its number) when it asks which."""
    before = page.get_attribute("#board", "data-version")
    for _ in range(10):
        if page.evaluate("document.activeElement.classList.contains('playable')"):
            break
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    if page.locator(".options .option").count():
        assert page.evaluate("document.activeElement.classList.contains('option')"), (
            "the capture's choice has the focus"
        )
        page.keyboard.press("1")
    page.wait_for_function(
        "v => document.querySelector('#board')?.dataset.version !== v", arg=before
    )


def test_a_whole_match_with_the_keyboard_alone(browser: Browser, web_server: str) -> None:
    watched = open_page(browser, web_server + "#/", viewport=DESKTOP)
    page = watched.page
    page.wait_for_selector("#play-now")
    # The points: the group's checked choice, and left to the shortest match, 6.
    tab_to(page, "#play-points input:checked")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#play-points input:checked")).to_have_value("6")
    # The choice drawn again keeps the focus, so the next Tab goes on from it.
    assert page.evaluate("document.activeElement.value") == "6"
    tab_to(page, "#play-now")
    page.keyboard.press("Enter")
    page.wait_for_selector("#board")

    turns = rounds = 0
    said_bots = 0
    for _ in range(200):
        now = moment(page)
        if now == "over":
            break
        if now == "continue":
            assert page.evaluate("document.activeElement.id") == "continue"
            page.keyboard.press("Enter")
            page.wait_for_function("!document.querySelector('dialog #continue')")
            rounds += 1
            continue
        assert page.evaluate(FOCUSED_IN_HAND), (
            f"turn {turns}: the focus is on {page.evaluate('document.activeElement.outerHTML')}"
        )
        # The live region says the last play, in the words the felt shows.
        shown = page.inner_text("#last-move")
        said = str(page.text_content("#plays-said"))
        if not shown.startswith("A new deal"):
            assert said.startswith(shown), (said, shown)
            said_bots += said.startswith("Bot")
        play_a_card(page)
        turns += 1
    else:
        raise AssertionError("the match did not end")
    # A round is 18 cards of the person's own; a match to 6 may be won in one round or in several.
    assert turns >= 18 and said_bots > 0, (rounds, turns, said_bots)

    # The match's end: its dialog has the focus; closed, the focus goes to what comes next.
    assert page.evaluate("document.querySelector('dialog[open]').contains(document.activeElement)")
    page.keyboard.press("Escape")
    expect(page.locator("dialog")).to_have_count(0)
    assert page.evaluate("document.activeElement.classList.contains('rematch')")
    watched.check()
    page.context.close()


def test_a_play_is_said_in_the_live_region_in_italian(browser: Browser, web_server: str) -> None:
    seats = [seat_info(0, 0, "Ada"), seat_info(1, 1, "Bot 2", kind="bot", level="expert")]
    before = view_of(hand=["5H", "KH"], table=["AD", "6D", "3S"], hand_sizes=[2, 3], to_move=1)
    table = scripted("SAID42", seats, before)
    watched = open_scripted(browser, web_server, "SAID42", table, locale="it-IT")
    page = watched.page
    page.evaluate("window.region = document.getElementById('plays-said')")
    play = {"seat": 1, "move": "6Cx6D", "sweep": False}
    after = view_of(hand=["5H", "KH"], table=["AD", "3S"], hand_sizes=[2, 2], to_move=0,
                    last_move=play, legal_moves=["5H", "KH"])  # fmt: skip
    table.push(state_message("SAID42", 6, after, play=play))
    expect(page.locator("#board")).to_have_attribute("data-version", "6")
    assert page.evaluate("document.getElementById('plays-said') === window.region"), (
        "the region is the one that was there before the play"
    )
    said = str(page.text_content("#plays-said"))
    assert said == page.inner_text("#last-move"), said
    assert said == "Computer 2 ha giocato sei di fiori e ha preso: sei di quadri.", said
    watched.check()
    page.context.close()
