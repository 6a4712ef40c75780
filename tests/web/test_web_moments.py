"""Moments of a match set up by hand (the page is real, its socket scripted): a capture choice
with a hint on it, a dimmed card that says why, a sweep, the leftovers taken at the round's
end, the end of the match and its dialog, and a card played while the connection is down."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser

from .web_support import (
    DESKTOP,
    PHONE,
    open_scripted,
    screenshot,
    scripted,
    seat_info,
    state_message,
    view_of,
)

SEATS = [seat_info(0, 0, "Ada"), seat_info(1, 1, "Bot 2", "bot", "expert")]
SIZES = {"desktop": DESKTOP, "phone": PHONE}


def choice_view() -> dict[str, Any]:
    return view_of(
        hand=["7C", "5H", "KH"], table=["AD", "6D", "3S", "4C", "2H"], hand_sizes=[3, 2],
        piles=[["JD", "JC"], []], scores=[3, 2], to_move=0, round_number=1,
        last_move={"seat": 1, "move": "5S", "sweep": False},
        legal_moves=["7CxAD+6D", "7Cx3S+4C", "7CxAD+4C+2H", "5H", "KH"])  # fmt: skip


@pytest.mark.parametrize("size", SIZES)
def test_the_hint_and_the_choice_marks_do_not_overlap(browser: Browser, web_server: str,
                                                      size: str) -> None:  # fmt: skip
    table = scripted("HINTCH", SEATS, choice_view())
    watched = open_scripted(browser, web_server, "HINTCH", table, viewport=SIZES[size])
    page = watched.page
    page.click("#hint")
    assert page.inner_text("#hint-text") == "The master is thinking…"
    assert table.sent == [{"type": "hint", "ref": "hint"}]
    table.push({"type": "hint", "table": "HINTCH", "match": 1, "version": 5,
                "move": "7Cx3S+4C", "reason": {"key": "cards", "params": {"count": 2},
                                               "text": "It takes 2 cards."}})  # fmt: skip
    page.wait_for_selector(".table-cards .card.hinted")
    page.click('.hand [data-card="7C"]')
    page.wait_for_selector(".options .option")
    for code in ("3S", "4C"):
        card = page.locator(f'.table-cards [data-card="{code}"]')
        assert "candidate" in (card.get_attribute("class") or "")
        assert "hinted" in (card.get_attribute("class") or "")
        box = card.bounding_box()
        assert box is not None
        # The choice's frame is drawn inside the card, the hint's ring outside it; the tick
        # sits on the top corner and the hint's tag below the middle: they never meet.
        marks = card.evaluate("""c => {
            const before = getComputedStyle(c, '::before'), after = getComputedStyle(c, '::after');
            const style = getComputedStyle(c);
            return {frame: before.borderTopStyle, inset: parseFloat(before.top),
                    ring: style.outlineStyle, offset: parseFloat(style.outlineOffset),
                    tick: after.content,
                    tag: c.querySelector('.hint-mark').getBoundingClientRect().top};
        }""")  # fmt: skip
        assert marks["frame"] == "dashed" and marks["inset"] > 0
        assert marks["ring"] == "double" and marks["offset"] > 0
        assert marks["tick"] == '"✓"' and marks["tag"] > box["y"] + box["height"] / 2
    screenshot(page, f"{size}-capture-choice-with-hint")
    watched.check()


@pytest.mark.parametrize(
    ("locale", "turn", "expected"),
    [
        ("en-GB", 0, "A capture is compulsory: your seven of clubs can take ace of diamonds + "
                     "six of diamonds."),
        ("it-IT", 0, "Prendere è obbligatorio: il tuo sette di fiori può prendere"),
        ("es-ES", 0, "Es obligatorio llevarse cartas: tu siete de tréboles"),
        ("sl-SI", 0, "Jemanje je obvezno"),
        ("tr-TR", 0, "Almak zorunlu"),
        ("en-GB", 1, "Not yet: Bot 2 is to play."),
    ],
)
def test_a_dimmed_card_says_why(browser: Browser, web_server: str, locale: str, turn: int,
                                expected: str) -> None:  # fmt: skip
    view = view_of(hand=["7C", "2S", "KH"], table=["AD", "6D"], to_move=turn,
                   legal_moves=["7CxAD+6D"] if turn == 0 else [])  # fmt: skip
    watched = open_scripted(browser, web_server, "WHYNOT", scripted("WHYNOT", SEATS, view),
                            locale=locale)  # fmt: skip
    page = watched.page
    card = page.locator('.hand [data-card="2S"]')
    # A dimmed card is aria-disabled (Playwright will not click it unforced) but still
    # answers a touch, and Enter from the keyboard.
    if locale == "en-GB":
        card.click(force=True)
    else:
        card.focus()
        page.keyboard.press("Enter")
    assert page.inner_text("#why").startswith(expected)
    assert page.get_attribute('.hand [data-card="2S"]', "aria-describedby") == "why"
    if turn == 0 and locale == "en-GB":
        screenshot(page, "desktop-dimmed-card-says-why")
    watched.check()


def test_a_sweep_is_called_and_laid_across_the_pile(browser: Browser, web_server: str) -> None:
    before = view_of(hand=["5C", "2S"], table=["2H", "3D"], to_move=0, hand_sizes=[2, 2],
                     legal_moves=["5Cx2H+3D", "2Sx2H"])  # fmt: skip
    table = scripted("SWEEPS", SEATS, before, look="italian")
    for size, viewport in SIZES.items():
        watched = open_scripted(browser, web_server, "SWEEPS", table, viewport=viewport)
        page = watched.page
        page.click('.hand [data-card="5C"]')
        assert table.sent[-1]["move"] == "5Cx2H+3D"
        play = {"seat": 0, "move": "5Cx2H+3D", "sweep": True}
        after = view_of(hand=["2S"], table=[], to_move=1, hand_sizes=[1, 2],
                        piles=[["5C", "2H", "3D"], []], sweeps=[1, 0], plays=[play],
                        last_move=play)  # fmt: skip
        table.push(state_message("SWEEPS", 6, after, play))
        page.wait_for_selector(".sweep-call")
        # The call says the word alone: ★ marked a sweep, the winner and a hint alike
        # (finding 5); it is large, and on top of everything on the felt.
        assert page.inner_text(".sweep-call") == "Sweep!"
        on_top = page.evaluate("""() => { const call = document.querySelector('.sweep-call');
            const box = call.getBoundingClientRect();
            return call.contains(document.elementFromPoint(box.x + box.width / 2,
                                                           box.y + box.height / 2)); }""")
        assert on_top
        assert page.locator(".sweep-call").bounding_box()["height"] >= 48  # type: ignore[index]
        assert page.locator('.pile[data-side="0"] .sweep-card').count() == 1
        screenshot(page, f"{size}-sweep")
        watched.check()
        page.context.close()
        table.sent.clear()


def last_move_of_round() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """Bot 2 trails the round's last card; Ada took last, so the table's leftovers are hers."""
    before = view_of(hand=[], table=["AD", "6D", "KS"], to_move=1, hand_sizes=[0, 1],
                     stock_size=0, piles=[["7C", "3S", "4C"], ["5S"]],
                     plays=[{"seat": 0, "move": "7Cx3S+4C", "sweep": False}])  # fmt: skip
    play = {"seat": 1, "move": "2H", "sweep": False}
    score = {"card_count": 7, "cards": 1, "coin_count": 2, "coins": 1, "settebello": 0,
             "primiera_total": 61, "primiera": 1, "sweeps": 0, "re_bello": 0, "napola": 0,
             "seven_count": 1, "sevens": 0, "total": 3}  # fmt: skip
    other = {**score, "card_count": 1, "cards": 0, "coin_count": 0, "coins": 0,
             "primiera_total": 12, "primiera": 0, "total": 0}  # fmt: skip
    after = view_of(hand=["2S", "JD", "QH"], table=["AC", "5D", "7H", "KD"], to_move=0,
                    round_number=1, scores=[3, 0], round_scores=[[score, other]],
                    last_move=play)  # fmt: skip
    return before, play, after


@pytest.mark.parametrize("size", SIZES)
def test_the_leftovers_go_to_the_last_taker(browser: Browser, web_server: str, size: str) -> None:
    before, play, after = last_move_of_round()
    table = scripted("LEFTOV", SEATS, before)
    watched = open_scripted(browser, web_server, "LEFTOV", table, viewport=SIZES[size])
    page = watched.page
    table.push(state_message("LEFTOV", 6, after, play))
    page.wait_for_selector("#breakdown")
    said = ("End of the round: you take the cards left on the table (ace of diamonds, six of "
            "diamonds, king of spades, two of hearts), as the last to capture.")  # fmt: skip
    assert page.inner_text("#breakdown-note") == said
    screenshot(page, f"{size}-round-breakdown")
    # No number in the breakdown wraps onto a second line, even on a phone.
    wrapped = page.evaluate("""() => [...document.querySelectorAll('#breakdown td')].filter(
        td => { const range = document.createRange(); range.selectNodeContents(td);
                return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size > 1;
        }).map(td => td.textContent)""")  # fmt: skip
    assert wrapped == []
    page.click("#continue")
    # The table is told, so that it lets the bot lead the next round (finding 4).
    assert {"type": "continue", "round": 1, "ref": "continue"} in table.sent
    assert page.inner_text("#sweep-up") == said
    screenshot(page, f"{size}-leftovers-sweep-up")
    watched.check()


@pytest.mark.parametrize("size", SIZES)
def test_the_end_of_a_match_never_strands_you(browser: Browser, web_server: str,
                                              size: str) -> None:  # fmt: skip
    before, play, after = last_move_of_round()
    after.update(to_move=None, hand=[], table=[], winner=0, round_number=0, scores=[11, 4])
    table = scripted("ENDING", SEATS, before)
    watched = open_scripted(browser, web_server, "ENDING", table, viewport=SIZES[size])
    page = watched.page
    table.push(state_message("ENDING", 6, after, play))
    page.wait_for_selector("#breakdown #winner")
    assert page.inner_text("#winner") == "You win the match!"
    # The final score large, each round's points and sweeps, how it turned (finding 5).
    assert page.locator("#final-score .final-points").all_inner_texts() == ["3", "0"]
    assert page.locator("#rounds tbody tr").all_inner_texts() == ["Round 1\t3 → 3\t0 → 0"]
    assert page.inner_text("#turned") == "You: never behind."
    assert page.get_attribute("#breakdown-replay", "href") == "#/m/1"
    for action in ("#rematch", "#breakdown-lobby", "#breakdown-close"):
        assert page.locator(f"#breakdown {action}").is_visible()
    assert page.evaluate("() => document.querySelector('#breakdown').scrollWidth <= "
                         "document.querySelector('#breakdown').clientWidth")  # fmt: skip
    screenshot(page, f"{size}-end-of-match")
    page.click("#breakdown-close")
    # Closed, the table still says who won and offers the rematch, the lobby, the round again.
    over = page.locator("#over")
    assert "You win the match!" in over.inner_text()
    assert over.locator(".rematch").is_visible() and over.locator(".lobby-link").is_visible()
    page.click("#show-breakdown")
    page.wait_for_selector("#breakdown #winner")
    page.keyboard.press("Escape")
    # The rematch asks the lobby (answered here, as the table is scripted) with the seat token.
    page.route("**/api/tables/ENDING/rematch", lambda route: route.fulfill(json={}))
    with page.expect_request("**/api/tables/ENDING/rematch") as asked:
        over.locator(".rematch").click()
    assert asked.value.post_data_json == {"token": "token"}
    watched.check()


def test_offline_cards_and_hints_are_not_lost(browser: Browser, web_server: str) -> None:
    table = scripted("OFFLIN", SEATS, choice_view())
    # The page's clock is the test's: the reconnection waits until the test lets time pass.
    watched = open_scripted(browser, web_server, "OFFLIN", table,
                            prepare=lambda page: page.clock.install())  # fmt: skip
    page = watched.page
    page.clock.pause_at(page.evaluate("Date.now()") + 10_000)
    page.click("#hint")
    assert page.inner_text("#hint-text") == "The master is thinking…"
    table.sockets[-1].close(code=1011)
    page.wait_for_selector(".problem[role=alert]")
    # The hint asked on the dropped connection is not left thinking, and waits for the link.
    assert page.inner_text("#hint-text") == ""
    assert page.is_disabled("#hint")
    page.click('.hand [data-card="5H"]')
    assert "Not connected: the five of hearts was not played." in page.inner_text("main")
    assert page.locator('.hand [data-card="5H"]').count() == 1
    assert table.sent == [{"type": "hint", "ref": "hint"}], "nothing else went out"
    # Back online: the table is drawn again from the server's state, the hint usable.
    page.clock.run_for(2_000)
    page.wait_for_function("() => !document.querySelector('.problem')")
    assert len(table.sockets) == 2 and page.is_enabled("#hint")
    watched.check()
